"""ezkeyword: a list of tags."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.fieldtypes.base import IndexScalar, ListFieldType, WireContext
from pressroom.domain.fieldtypes.coerce import as_str
from pressroom.domain.fieldtypes.jsonvalue import JsonValue


class KeywordType(ListFieldType):
    identifier = "ezkeyword"
    aliases = ("ibexa_keyword",)
    whole_values = True

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """A list of strings or one comma-separated string; items are trimmed, blanks and repeats dropped."""
        if raw is None:
            return []
        if isinstance(raw, list):
            items = [as_str(item, "fieldValue item") for item in raw]
        else:
            items = as_str(raw, "fieldValue").split(",")
        keywords: list[JsonValue] = []
        for item in items:
            keyword = item.strip()
            if keyword and keyword not in keywords:
                keywords.append(keyword)
        return keywords

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        return list(value) if isinstance(value, list) else []

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return ", ".join(str(item) for item in value) if isinstance(value, list) else ""

    def searchable_text(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return " ".join(str(item) for item in value) if isinstance(value, list) else ""

    def match_values(self, value: JsonValue) -> list[IndexScalar]:
        return [str(item) for item in value] if isinstance(value, list) else []
