"""ezobjectrelation (Relation): one related content item."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pressroom.domain.fieldtypes._relation import (
    SELECTION_BROWSE,
    SELECTION_DROPDOWN,
    content_id,
    location_id,
    with_location_href,
)
from pressroom.domain.fieldtypes.base import FieldType, WireContext
from pressroom.domain.fieldtypes.coerce import as_dict, int_or_none
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.params import enum, string_list


class RelationType(FieldType):
    """The stored value is the destination content id, or ``None``."""

    identifier = "ezobjectrelation"
    aliases = ("ibexa_object_relation",)
    full_text = False
    settings_schema = {
        "selectionMethod": enum(SELECTION_BROWSE, {SELECTION_BROWSE: (0,), SELECTION_DROPDOWN: (1,)}),
        "selectionRoot": location_id(),
        "selectionContentTypes": string_list(),
    }

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """``{"destinationContentId": 59}`` (a bare id is accepted too)."""
        if isinstance(raw, dict | list):
            raw = as_dict(raw, "fieldValue").get("destinationContentId")
            return content_id(raw, "fieldValue 'destinationContentId'")
        return content_id(raw, "fieldValue")

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        destination = int_or_none(value)
        if destination is None:
            return {"destinationContentId": None}
        return {"destinationContentId": destination, "destinationContentHref": ctx.content_href(destination)}

    def settings_to_wire(
        self, settings: Mapping[str, JsonValue], location_href: Callable[[int], str]
    ) -> dict[str, JsonValue]:
        return with_location_href(settings, "selectionRoot", location_href)

    def relation_ids(self, value: JsonValue) -> list[int]:
        destination = int_or_none(value)
        return [] if destination is None else [destination]

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return int_or_none(value)
