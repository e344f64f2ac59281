"""Helpers shared by the relation field types (ezobjectrelation, ezobjectrelationlist, ezimageasset)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.coerce import as_int, int_or_none
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.fieldtypes.params import Param, custom
from pressroom.domain.integers import MAX_ID

SELECTION_BROWSE = "SELECTION_BROWSE"
SELECTION_DROPDOWN = "SELECTION_DROPDOWN"


def content_id(raw: JsonValue, what: str) -> int | None:
    """A destination content id (int or numeric string); ``None``, ``""`` and ``0`` mean none."""
    if raw is None or raw in ("", 0):
        return None
    identifier = as_int(raw, what, high=MAX_ID)  # a larger id names nothing, and overflows the id column
    if identifier < 0:
        raise InvalidArgument(f"{what} must be a positive content id")
    return identifier


def _location_id(raw: JsonValue, what: str) -> JsonValue:
    identifier = as_int(raw, what, high=MAX_ID)
    if identifier < 1:
        raise InvalidArgument(f"{what} must be a positive location id")
    return identifier


def location_id() -> Param:
    """An optional location id setting (``selectionRoot``, ``selectionDefaultLocation``)."""
    return custom(_location_id, None)


def with_location_href(
    settings: Mapping[str, JsonValue], key: str, location_href: Callable[[int], str]
) -> JsonDict:
    """``settings`` plus ``<key>Href`` when ``key`` holds a location id (as the REST processors add)."""
    result = dict(settings)
    location = int_or_none(settings.get(key))
    if location is not None:
        result[f"{key}Href"] = location_href(location)
    return result
