"""ezboolean (Checkbox): true or false; never null on the wire and never empty."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.fieldtypes.base import FieldType, WireContext
from pressroom.domain.fieldtypes.coerce import as_bool
from pressroom.domain.fieldtypes.jsonvalue import JsonValue


class BooleanType(FieldType):
    identifier = "ezboolean"
    aliases = ("ibexa_boolean",)
    full_text = False

    def from_wire(self, raw: JsonValue) -> JsonValue:
        return False if raw is None or raw == "" else as_bool(raw, "fieldValue")

    def empty_value(self) -> JsonValue:
        return False

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        return value is True

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return "1" if value is True else "0"

    def term_key(self, stored: str, settings: Mapping[str, JsonValue]) -> object:
        return float(stored) != 0

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return 1 if value is True else 0
