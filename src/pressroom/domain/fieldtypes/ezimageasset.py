"""ezimageasset: a relation to an image content item, with an alternative text.

The REST output adds the destination's image variations when the destination has an image: the service
that loads the field sets the destination image's REST id under ``imageId`` first.
"""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.content import ASSET
from pressroom.domain.fieldtypes._relation import content_id
from pressroom.domain.fieldtypes.base import FieldType, IndexScalar, WireContext
from pressroom.domain.fieldtypes.coerce import as_dict, dict_or_none, int_or_none, optional_str, str_or_empty
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue


class ImageAssetType(FieldType):
    identifier = "ezimageasset"
    aliases = ("ibexa_image_asset",)

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """``{"destinationContentId": 57, "alternativeText": "..."}``; a falsy value is the empty value."""
        if not raw:
            return None
        hash_ = as_dict(raw, "fieldValue")
        destination = content_id(hash_.get("destinationContentId"), "fieldValue 'destinationContentId'")
        if destination is None:
            return None
        alternative = optional_str(hash_.get("alternativeText"), "fieldValue 'alternativeText'")
        return {"destinationContentId": destination, "alternativeText": alternative}

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        hash_ = dict_or_none(value)
        if hash_ is None:
            return {"destinationContentId": None, "alternativeText": None}
        result: JsonDict = {
            "destinationContentId": hash_.get("destinationContentId"),
            "alternativeText": hash_.get("alternativeText", ""),
        }
        image = hash_.get("imageId")  # set by the service when the destination has an image
        if isinstance(image, str) and image:
            result["variations"] = {
                name: {"href": ctx.image_variation_href(image, name)} for name in ctx.image_variation_names
            }
        return result

    relation_type = ASSET

    def relation_ids(self, value: JsonValue) -> list[int]:
        destination = int_or_none((dict_or_none(value) or {}).get("destinationContentId"))
        return [] if destination is None else [destination]

    def image_sources(self, value: JsonValue) -> list[int]:
        return self.relation_ids(value)

    def shown_image_id(self, value: JsonValue, own: str, source_images: Mapping[int, str]) -> str | None:
        return next((source_images[s] for s in self.image_sources(value) if s in source_images), None)

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return str_or_empty((dict_or_none(value) or {}).get("alternativeText"))

    def match_values(self, value: JsonValue) -> list[IndexScalar]:
        return list[IndexScalar](self.relation_ids(value))
