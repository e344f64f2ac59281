"""Shared base of the numeric field types (ezinteger, ezfloat): a number with an optional range."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import ClassVar

from pressroom.domain.errors import FieldError, InvalidArgument
from pressroom.domain.fieldtypes.base import FieldType, WireContext
from pressroom.domain.fieldtypes.coerce import dict_or_none
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue


class NumberFieldType(FieldType):
    """Subclasses name their validator and its min/max keys and implement :meth:`convert`."""

    full_text = False

    validator: ClassVar[str]
    min_key: ClassVar[str]
    max_key: ClassVar[str]

    def from_wire(self, raw: JsonValue) -> JsonValue:
        if raw is None or raw == "":
            return None
        return self.convert(raw)

    @abstractmethod
    def convert(self, raw: JsonValue) -> int | float:
        """Read a non-empty input value; raises InvalidArgument."""

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        return value

    def check_definition(self, settings: JsonDict, validators: JsonDict) -> None:
        low, high = self._limits(validators)
        if low is not None and high is not None and low > high:
            raise InvalidArgument(
                f"validatorConfiguration '{self.validator}' parameter '{self.min_key}' cannot be greater "
                f"than '{self.max_key}'"
            )

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        if not isinstance(value, int | float):
            return []
        low, high = self._limits(validators)
        if low is not None and value < low:
            return [FieldError(self.validator, f"The value cannot be lower than {low}.")]
        if high is not None and value > high:
            return [FieldError(self.validator, f"The value cannot be higher than {high}.")]
        return []

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None

    def _limits(self, validators: Mapping[str, JsonValue]) -> tuple[float | None, float | None]:
        config = dict_or_none(validators.get(self.validator)) or {}
        return _num(config.get(self.min_key)), _num(config.get(self.max_key))


def _num(value: JsonValue) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None
