"""ezobjectrelationlist (RelationList): an ordered list of related content items."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pressroom.domain.errors import FieldError, InvalidArgument
from pressroom.domain.fieldtypes._relation import (
    SELECTION_BROWSE,
    SELECTION_DROPDOWN,
    content_id,
    location_id,
    with_location_href,
)
from pressroom.domain.fieldtypes.base import IndexScalar, ListFieldType, WireContext
from pressroom.domain.fieldtypes.coerce import as_dict, as_list, dict_or_none, int_or_none
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.params import enum, integer, string_list

VALIDATOR = "RelationListValueValidator"
_SELECTION_METHODS: dict[str, tuple[JsonValue, ...]] = {
    SELECTION_BROWSE: (0,),
    SELECTION_DROPDOWN: (1,),
    "SELECTION_LIST_WITH_RADIO_BUTTONS": (2,),
    "SELECTION_LIST_WITH_CHECKBOXES": (3,),
    "SELECTION_MULTIPLE_SELECTION_LIST": (4,),
    "SELECTION_TEMPLATE_BASED_MULTIPLE": (5,),
    "SELECTION_TEMPLATE_BASED_SINGLE": (6,),
}


class RelationListType(ListFieldType):
    """The stored value is the list of destination content ids, without repeats."""

    identifier = "ezobjectrelationlist"
    aliases = ("ibexa_object_relation_list",)
    full_text = False
    settings_schema = {
        "selectionMethod": enum(SELECTION_BROWSE, _SELECTION_METHODS),
        "selectionDefaultLocation": location_id(),
        "selectionContentTypes": string_list(),
    }
    validators_schema = {VALIDATOR: {"selectionLimit": integer(0, minimum=0)}}

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """``{"destinationContentIds": [59, 60]}``; the key is required."""
        if raw is None:
            return []
        hash_ = as_dict(raw, "fieldValue")
        if "destinationContentIds" not in hash_:
            raise InvalidArgument("fieldValue 'destinationContentIds' is required")
        ids: list[JsonValue] = []
        for item in as_list(hash_["destinationContentIds"], "fieldValue 'destinationContentIds'"):
            identifier = content_id(item, "fieldValue 'destinationContentIds' item")
            if identifier is None:
                raise InvalidArgument("fieldValue 'destinationContentIds' item must be a content id")
            if identifier not in ids:
                ids.append(identifier)
        return ids

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        limit = int_or_none((dict_or_none(validators.get(VALIDATOR)) or {}).get("selectionLimit"))
        count = len(value) if isinstance(value, list) else 0
        if limit and count > limit:
            message = f"The selected content items number cannot be higher than {limit}."
            return [FieldError(VALIDATOR, message)]
        return []

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        ids = self.relation_ids(value)
        return {
            "destinationContentIds": list[JsonValue](ids),
            "destinationContentHrefs": [ctx.content_href(identifier) for identifier in ids],
        }

    def settings_to_wire(
        self, settings: Mapping[str, JsonValue], location_href: Callable[[int], str]
    ) -> dict[str, JsonValue]:
        return with_location_href(settings, "selectionDefaultLocation", location_href)

    def relation_ids(self, value: JsonValue) -> list[int]:
        items = value if isinstance(value, list) else []
        return [identifier for identifier in map(int_or_none, items) if identifier is not None]

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return " ".join(str(identifier) for identifier in self.relation_ids(value))

    def match_values(self, value: JsonValue) -> list[IndexScalar]:
        return list[IndexScalar](self.relation_ids(value))
