"""ezgmaplocation (MapLocation): latitude, longitude and an address."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.errors import FieldError, InvalidArgument
from pressroom.domain.fieldtypes.base import FieldType, WireContext
from pressroom.domain.fieldtypes.coerce import as_dict, as_float, dict_or_none, optional_str, str_or_empty
from pressroom.domain.fieldtypes.jsonvalue import JsonValue

ERROR_TYPE = "MapLocationValidator"


class MapLocationType(FieldType):
    identifier = "ezgmaplocation"
    aliases = ("ibexa_gmap_location",)

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """``{"latitude", "longitude", "address"?}``; both coordinates absent is the empty value."""
        if raw is None:
            return None
        hash_ = as_dict(raw, "fieldValue")
        latitude, longitude = hash_.get("latitude"), hash_.get("longitude")
        if latitude in (None, "") and longitude in (None, ""):
            return None
        for key, given in (("latitude", latitude), ("longitude", longitude)):
            if given in (None, ""):
                raise InvalidArgument(f"fieldValue '{key}' is required")
        return {
            "latitude": as_float(latitude, "fieldValue 'latitude'"),
            "longitude": as_float(longitude, "fieldValue 'longitude'"),
            "address": optional_str(hash_.get("address"), "fieldValue 'address'"),
        }

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        hash_ = dict_or_none(value) or {}
        errors = []
        for key, limit in (("latitude", 90), ("longitude", 180)):
            coordinate = hash_.get(key)
            if not isinstance(coordinate, int | float) or not -limit <= coordinate <= limit:
                errors.append(FieldError(ERROR_TYPE, f"The {key} must be between -{limit} and {limit}."))
        return errors

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        hash_ = dict_or_none(value)
        if hash_ is None:
            return None
        return {
            "latitude": hash_.get("latitude"),
            "longitude": hash_.get("longitude"),
            "address": hash_.get("address", ""),
        }

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return str_or_empty((dict_or_none(value) or {}).get("address"))
