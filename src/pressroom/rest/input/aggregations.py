"""The ``Aggregations`` of a ViewInput query into term, range and stats aggregation requests.

    "Aggregations": [{"ContentTypeTermAggregation": {"name": "types", "limit": 5}},
                     {"IntegerRangeAggregation": {"name": "prices", "contentTypeIdentifier": "product",
                      "fieldDefinitionIdentifier": "price", "ranges": [{"from": null, "to": 10}]}}]

JSON gives a list of one-key objects; XML gives the aggregation elements as children of
``<Aggregations>`` (a map of names, repeated names as lists): both are read. The kinds and their
parameters are the ones of ``domain/search.py``.
"""

from __future__ import annotations

from typing import Any

from pressroom.domain.errors import BadRequest
from pressroom.domain.fieldtypes.timeparse import parse_time_string
from pressroom.domain.integers import parse_int
from pressroom.domain.search import (
    Aggregation,
    Bound,
    RangeAggregation,
    StatsAggregation,
    TermAggregation,
)
from pressroom.rest.input.node import Node, as_list

_TERM_KINDS = {
    "ContentTypeTermAggregation": "content_type",
    "ContentTypeGroupTermAggregation": "content_type_group",
    "SectionTermAggregation": "section",
    "LanguageTermAggregation": "language",
    "VisibilityTermAggregation": "visibility",
    "UserMetadataTermAggregation": "user_metadata",
    "ObjectStateTermAggregation": "object_state",
    "SubtreeTermAggregation": "subtree",
    "LocationChildrenTermAggregation": "location_children",
    "RawTermAggregation": "raw",
}
_FIELD_TERMS = (
    "AuthorTermAggregation",
    "CheckboxTermAggregation",
    "CountryTermAggregation",
    "KeywordTermAggregation",
    "SelectionTermAggregation",
)
# Field range aggregations and how their bounds are read: dates and datetimes as Unix timestamps
# (date strings accepted), times as seconds since midnight, numbers as numbers.
_FIELD_RANGES = {
    "DateRangeAggregation": "date",
    "DateTimeRangeAggregation": "date",
    "TimeRangeAggregation": "integer",
    "IntegerRangeAggregation": "integer",
    "FloatRangeAggregation": "number",
}
_FIELD_STATS = ("IntegerStatsAggregation", "FloatStatsAggregation")
_USER_TARGETS = ("owner", "group", "modifier")
_DATE_TARGETS = ("created", "modified", "published")


def parse_aggregations(raw: Any, where: str) -> tuple[Aggregation, ...]:
    if raw in (None, ""):
        return ()
    pairs: list[tuple[str, Any]] = []
    if isinstance(raw, dict):
        pairs.extend((name, item) for name, value in raw.items() for item in as_list(value))
    elif isinstance(raw, list):
        for index, item in enumerate(raw):
            if not isinstance(item, dict) or len(item) != 1:
                raise BadRequest(f"{where}[{index}] must be an object with one aggregation")
            pairs.extend(item.items())
    else:
        raise BadRequest(f"{where} must be a list of aggregations")
    return tuple(_aggregation(name, value, f"{where}.{name}") for name, value in pairs)


def _aggregation(name: str, value: Any, where: str) -> Aggregation:
    node = Node(value, where)
    result_name = node.string("name")
    if name in _TERM_KINDS or name in _FIELD_TERMS:
        return _term(name, node, result_name)
    if name in _FIELD_RANGES:
        return RangeAggregation(result_name, "field", _ranges(node, _FIELD_RANGES[name]), **_field_of(node))
    if name == "RawRangeAggregation":
        return RangeAggregation(
            result_name, "raw", _ranges(node, "number"), field_name=node.string("fieldName")
        )
    if name == "DateMetadataRangeAggregation":
        target = _choice(node, "type", _DATE_TARGETS)
        return RangeAggregation(result_name, "date_metadata", _ranges(node, "date"), target=target)
    if name in _FIELD_STATS:
        return StatsAggregation(result_name, "field", **_field_of(node))
    if name == "RawStatsAggregation":
        return StatsAggregation(result_name, "raw", field_name=node.string("fieldName"))
    raise BadRequest(f"Unknown aggregation '{name}' in {where.rsplit('.', 1)[0]}")


def _term(name: str, node: Node, result_name: str) -> TermAggregation:
    limit = node.opt_integer("limit")
    min_count = node.opt_integer("minCount")
    if (limit is not None and limit < 0) or (min_count is not None and min_count < 0):
        raise BadRequest(f"'limit' and 'minCount' in {node.where} must not be negative")
    common: dict[str, Any] = {}
    if limit is not None:
        common["limit"] = limit
    if min_count is not None:
        common["min_count"] = min_count
    if name in _FIELD_TERMS:
        return TermAggregation(result_name, "field", **common, **_field_of(node))
    kind = _TERM_KINDS[name]
    extra: dict[str, Any] = {}
    if kind == "user_metadata":
        extra["target"] = _choice(node, "type", _USER_TARGETS)
    elif kind == "object_state":
        extra["object_state_group"] = node.string("objectStateGroupIdentifier")
    elif kind == "subtree":
        extra["path_string"] = node.string("pathString")
    elif kind == "location_children":
        extra["location_id"] = node.integer("locationId", 1)
    elif kind == "raw":
        extra["field_name"] = node.string("fieldName")
    return TermAggregation(result_name, kind, **common, **extra)


def _field_of(node: Node) -> dict[str, Any]:
    return {
        "type_identifier": node.string("contentTypeIdentifier"),
        "field_identifier": node.string("fieldDefinitionIdentifier"),
    }


def _choice(node: Node, key: str, allowed: tuple[str, ...]) -> str:
    value = node.string(key).strip().lower()
    if value not in allowed:
        raise BadRequest(f"'{key}' in {node.where} must be one of {', '.join(allowed)}, got '{value}'")
    return value


def _ranges(node: Node, kind: str) -> tuple[tuple[Bound, Bound], ...]:
    """``ranges: [{"from": x, "to": y}]`` (both keys required, null for an open side); XML may wrap each
    range in one more element (``<ranges><Range><from/>...``), which is unwrapped."""
    raw = node.raw("ranges")
    if isinstance(raw, dict) and len(raw) == 1 and not {"from", "to"} & raw.keys():
        raw = next(iter(raw.values()))
    ranges: list[tuple[Bound, Bound]] = []
    for index, item in enumerate(as_list(raw)):
        where = f"{node.where}.ranges[{index}]"
        if not isinstance(item, dict) or "from" not in item or "to" not in item:
            raise BadRequest(f"{where} must have 'from' and 'to' (null for an open bound)")
        ranges.append((_bound(item["from"], kind, f"{where}.from"), _bound(item["to"], kind, f"{where}.to")))
    if not ranges:
        raise BadRequest(f"{node.where} needs at least one range")
    return tuple(ranges)


def _bound(value: Any, kind: str, where: str) -> Bound:
    if value in (None, ""):
        return None
    if isinstance(value, bool):
        raise BadRequest(f"{where} must be a number")
    if isinstance(value, str):
        number = parse_int(value)
        if number is not None:
            value = number
        elif kind == "date":
            return parse_time_string(value, where)  # InvalidArgument: a 400 naming it
        else:
            try:
                value = float(value)
            except ValueError:
                raise BadRequest(f"{where} must be a number, got '{value}'") from None
    if not isinstance(value, int | float):
        raise BadRequest(f"{where} must be a number")
    if kind in ("integer", "date") and not (isinstance(value, int) or value.is_integer()):
        raise BadRequest(f"{where} must be an integer, got '{value}'")
    return int(value) if kind in ("integer", "date") else value
