"""ezemail (EmailAddress): one e-mail address, trimmed."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.errors import FieldError
from pressroom.domain.fieldtypes._text import TextFieldType
from pressroom.domain.fieldtypes.coerce import is_email
from pressroom.domain.fieldtypes.jsonvalue import JsonValue

VALIDATOR = "EmailAddressValidator"


class EmailType(TextFieldType):
    """The address shape is always checked; the validator carries no parameters."""

    identifier = "ezemail"
    aliases = ("ibexa_email",)
    validators_schema = {VALIDATOR: {}}

    def clean(self, text: str) -> str:
        return text.strip()

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        if isinstance(value, str) and is_email(value):
            return []
        return [FieldError(VALIDATOR, "The value must be a valid email address.")]
