"""Shared base of the field types whose value is one string (ezstring, eztext, ezemail, ezisbn)."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.fieldtypes.base import FieldType, WireContext
from pressroom.domain.fieldtypes.coerce import as_str
from pressroom.domain.fieldtypes.jsonvalue import JsonValue


class TextFieldType(FieldType):
    """A string value; the empty value is ``""`` and goes out on the wire as ``null``."""

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """Any scalar is cast to a string as PHP would (``true`` -> ``"1"``, ``false``/``null`` -> ``""``)."""
        if raw is None or raw is False:
            return ""
        if raw is True:
            return "1"
        return self.clean(as_str(raw, "fieldValue"))

    def clean(self, text: str) -> str:
        """Hook to normalize the parsed text (e.g. trim); identity by default."""
        return text

    def empty_value(self) -> JsonValue:
        return ""

    def is_empty(self, value: JsonValue) -> bool:
        return not isinstance(value, str) or value == ""

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        return None if self.is_empty(value) else value

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return value if isinstance(value, str) else ""

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return self.name(value).lower()[:255]
