"""ezstring (TextLine): a single line of text with an optional length range."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.errors import FieldError, InvalidArgument
from pressroom.domain.fieldtypes._text import TextFieldType
from pressroom.domain.fieldtypes.coerce import dict_or_none, int_or_none
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.fieldtypes.params import integer

VALIDATOR = "StringLengthValidator"


class StringType(TextFieldType):
    identifier = "ezstring"
    aliases = ("ibexa_string",)
    validators_schema = {
        VALIDATOR: {"minStringLength": integer(0, minimum=0), "maxStringLength": integer(None, minimum=0)}
    }

    def check_definition(self, settings: JsonDict, validators: JsonDict) -> None:
        low, high = _limits(validators)
        if low is not None and high is not None and low > high:
            raise InvalidArgument(
                f"validatorConfiguration '{VALIDATOR}' parameter 'minStringLength' cannot be greater "
                "than 'maxStringLength'"
            )

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        length = len(value) if isinstance(value, str) else 0
        low, high = _limits(validators)
        if high is not None and length > high:
            return [FieldError(VALIDATOR, f"The string cannot be longer than {high} characters.")]
        if low is not None and length < low:
            return [FieldError(VALIDATOR, f"The string cannot be shorter than {low} characters.")]
        return []


def _limits(validators: Mapping[str, JsonValue]) -> tuple[int | None, int | None]:
    config = dict_or_none(validators.get(VALIDATOR)) or {}
    return int_or_none(config.get("minStringLength")), int_or_none(config.get("maxStringLength"))
