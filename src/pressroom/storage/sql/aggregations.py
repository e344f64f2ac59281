"""Aggregations of a search, computed in SQL over the same hits as the search.

The hits are the rows of ``content`` (a content search) or of a ``locations`` alias joined to ``content``
(a location search) that satisfy ``condition``: the caller's compiled search condition (published only,
the read criterion, the query's filter and query). A content search counts items, a location search
locations. Each term aggregation is one GROUP BY statement; every range and stats aggregation over a
column of the hit row shares one further statement.

Term keys are returned as stored: ids (content type, content type group, section, object state, location,
user or group content) or scalars (language code, visibility, raw values, field values as the search
index holds them: text lower-cased, numbers as text). ``services/aggregations.py`` turns ids into loaded
objects and field values into what the field type shows.

Field aggregations read the search index (``field_index``) of the field definition ``field_identifier``
of the content type ``type_identifier``: terms count the field's match values (one per keyword, selected
option, country, author), ranges and stats its sort key (the number of an integer, float, date or time).

Raw aggregations name a column of the hit, from a fixed list (``RAW_CONTENT_FIELDS`` for any search,
``RAW_LOCATION_FIELDS`` for location searches); any other name is refused with BadRequest.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    FromClause,
    String,
    and_,
    case,
    cast,
    exists,
    false,
    func,
    literal,
    not_,
    or_,
    select,
    true,
)

from pressroom.domain import search as s
from pressroom.domain.errors import BadRequest
from pressroom.domain.fieldtypes.base import TermRule
from pressroom.domain.fieldtypes.registry import all_field_types
from pressroom.storage.sql.field_index import field_sort_expressions
from pressroom.storage.sql.schema import (
    content,
    content_object_states,
    content_type_group_links,
    content_types,
    content_versions,
    field_definitions,
    field_index,
    languages,
    locations,
    object_state_groups,
    object_states,
)

DEFINED = 0  # content_type_group_links.status of a defined (not draft) content type

# Raw field names and the hit columns they read.
RAW_CONTENT_FIELDS: dict[str, Any] = {
    "content_id": content.c.id,
    "content_type_id": content.c.content_type_id,
    "section_id": content.c.section_id,
    "owner_id": content.c.owner_id,
    "main_language_code": content.c.main_language_code,
    "always_available": content.c.always_available,
    "main_location_id": content.c.main_location_id,
    "current_version_no": content.c.current_version_no,
    "modified": content.c.modified,
    "published": content.c.published,
}
RAW_LOCATION_FIELDS = ("location_id", "parent_location_id", "depth", "priority")
_DATE_TARGETS: dict[str, Any] = {
    "created": content.c.published,
    "published": content.c.published,
    "modified": content.c.modified,
}
_PATH = re.compile(r"^/(?:\d+/)+$")

Join = Callable[[FromClause], FromClause]


def _no_join(base: FromClause) -> FromClause:
    return base


@dataclass(frozen=True, slots=True)
class _Terms:
    """What a term aggregation groups by: ``key`` over the hit row extended by ``join``. ``multi``: the
    join may give a hit several rows (several keys), so hits are counted distinct."""

    key: ColumnElement[Any]
    join: Join = _no_join
    multi: bool = False
    where: ColumnElement[bool] | None = None


class _Hits:
    """The hit rows of one search and the expressions aggregations group and count them by."""

    def __init__(self, condition: ColumnElement[bool], location: FromClause | None) -> None:
        self.condition = condition
        self.location = location
        self.base: FromClause = (
            content if location is None else location.join(content, content.c.id == location.c.content_id)
        )
        self.unit: ColumnElement[Any] = content.c.id if location is None else location.c.id

    def at_locations(self) -> tuple[FromClause, Join, bool]:
        """The location rows a hit stands at: the hit itself in a location search, every location of the
        item in a content search (then a hit may have several)."""
        if self.location is not None:
            return self.location, _no_join, False
        item_location = locations.alias("agg_location")

        def join(base: FromClause) -> FromClause:
            return base.join(item_location, item_location.c.content_id == content.c.id)

        return item_location, join, True

    def raw(self, aggregation: s.Aggregation) -> ColumnElement[Any]:
        name = aggregation.field_name or ""
        if name in RAW_CONTENT_FIELDS:
            column: ColumnElement[Any] = RAW_CONTENT_FIELDS[name]
            return column
        if name in RAW_LOCATION_FIELDS and self.location is not None:
            by_name = {
                "location_id": self.location.c.id,
                "parent_location_id": self.location.c.parent_id,
                "depth": self.location.c.depth,
                "priority": self.location.c.priority,
            }
            return by_name[name]
        known = sorted(RAW_CONTENT_FIELDS) + (list(RAW_LOCATION_FIELDS) if self.location is not None else [])
        where = "" if self.location is not None or name not in RAW_LOCATION_FIELDS else " of a content search"
        raise BadRequest(
            f"Aggregation '{aggregation.name}': fieldName '{name}' is not a raw field{where}; "
            f"known: {', '.join(known)}"
        )


def _current_version() -> tuple[FromClause, Join]:
    version = content_versions.alias("agg_version")

    def join(base: FromClause) -> FromClause:
        return base.join(
            version,
            and_(version.c.content_id == content.c.id, version.c.version_no == content.c.current_version_no),
        )

    return version, join


def _language_terms() -> _Terms:
    """The languages of the current version (``language_codes`` is comma-joined)."""
    version, join_version = _current_version()
    codes = literal(",") + version.c.language_codes + literal(",")

    def join(base: FromClause) -> FromClause:
        pattern = literal("%,") + languages.c.language_code + literal(",%")
        return join_version(base).join(languages, codes.like(pattern))

    return _Terms(languages.c.language_code, join, multi=True)


def _user_terms(aggregation: s.TermAggregation) -> _Terms:
    target = aggregation.target or "owner"
    if target == "owner":
        return _Terms(content.c.owner_id)
    if target == "modifier":
        version, join_version = _current_version()
        return _Terms(version.c.creator_id, join_version)
    if target == "group":  # the user groups the owner is directly in
        owner_at = locations.alias("agg_owner_location")
        group_at = locations.alias("agg_group_location")

        def join(base: FromClause) -> FromClause:
            return base.join(owner_at, owner_at.c.content_id == content.c.owner_id).join(
                group_at, group_at.c.id == owner_at.c.parent_id
            )

        return _Terms(group_at.c.content_id, join, multi=True)
    raise BadRequest(f"Aggregation '{aggregation.name}': type '{target}' is not owner, group or modifier")


def _object_state_terms(aggregation: s.TermAggregation) -> _Terms:
    """The item's state in the group; an item without a row is in the group's lowest-priority state."""
    group_id = (
        select(object_state_groups.c.id)
        .where(object_state_groups.c.identifier == aggregation.object_state_group)
        .scalar_subquery()
    )
    default = (
        select(object_states.c.id)
        .where(object_states.c.group_id == group_id)
        .order_by(object_states.c.priority, object_states.c.id)
        .limit(1)
        .scalar_subquery()
    )
    assigned = content_object_states.alias("agg_state")

    def join(base: FromClause) -> FromClause:
        return base.outerjoin(
            assigned, and_(assigned.c.content_id == content.c.id, assigned.c.group_id == group_id)
        )

    return _Terms(func.coalesce(assigned.c.state_id, default), join)


def _parent_id(aggregation: s.TermAggregation) -> int:
    path = aggregation.path_string or ""
    if not _PATH.match(path):
        raise BadRequest(f"Aggregation '{aggregation.name}': pathString '{path}' is not like '/1/2/'")
    return int(path.rstrip("/").rsplit("/", 1)[1])


def _subtree_terms(hits: _Hits, aggregation: s.TermAggregation) -> _Terms:
    """Per child of the location at ``path_string``: the hits in that child's subtree."""
    parent_id = _parent_id(aggregation)
    at, join_at, multi = hits.at_locations()
    child = locations.alias("agg_child")
    child_path = child.c.path_string
    # The subtree of a child is the range [its path, its path with the last "/" raised to "0").
    upper = func.substr(child_path, 1, func.length(child_path) - 1, type_=String) + literal("0")

    def join(base: FromClause) -> FromClause:
        return join_at(base).join(
            child,
            and_(
                child.c.parent_id == parent_id,
                child.c.id != parent_id,  # the virtual root is its own parent
                at.c.path_string >= child_path,
                at.c.path_string < upper,
            ),
        )

    return _Terms(child.c.id, join, multi=multi)


def _location_children_terms(hits: _Hits, aggregation: s.TermAggregation) -> _Terms:
    """Per parent location: the hits that are its children (``location_id`` keeps that parent only)."""
    at, join_at, multi = hits.at_locations()
    only = None if aggregation.location_id is None else at.c.parent_id == aggregation.location_id
    return _Terms(at.c.parent_id, join_at, multi, only)


def _visibility_terms(hits: _Hits) -> _Terms:
    """A location is visible when neither it nor anything above it is hidden; an item when it is
    visible at one of its locations at least."""
    if hits.location is not None:
        return _Terms(and_(hits.location.c.hidden == false(), hits.location.c.invisible == false()))
    shown = locations.alias("agg_shown")
    return _Terms(
        exists(
            select(shown.c.id).where(
                shown.c.content_id == content.c.id, shown.c.hidden == false(), shown.c.invisible == false()
            )
        )
    )


def _content_type_group_terms() -> _Terms:
    link = content_type_group_links.alias("agg_type_group")

    def join(base: FromClause) -> FromClause:
        return base.join(
            link, and_(link.c.content_type_id == content.c.content_type_id, link.c.status == DEFINED)
        )

    return _Terms(link.c.group_id, join, multi=True)


def _field_definition_ids(aggregation: s.Aggregation) -> Any:
    """The defined field definition ``field_identifier`` of the defined type ``type_identifier``."""
    if not aggregation.type_identifier or not aggregation.field_identifier:
        raise BadRequest(
            f"Aggregation '{aggregation.name}': "
            "contentTypeIdentifier and fieldDefinitionIdentifier are required"
        )
    return (
        select(field_definitions.c.id)
        .join(content_types, content_types.c.id == field_definitions.c.content_type_id)
        .where(
            content_types.c.status == DEFINED,
            content_types.c.identifier == aggregation.type_identifier,
            field_definitions.c.status == DEFINED,
            field_definitions.c.identifier == aggregation.field_identifier,
        )
    )


_TERM_RULES = {t.identifier: t.term_rule for t in all_field_types() if t.term_rule is not None}


def _term_test(text: ColumnElement[str], rule: TermRule) -> ColumnElement[bool]:
    """The SQL test an indexed text passes when ``rule`` keeps it as a term."""
    tests = []
    if rule.length is not None:
        tests.append(func.length(text) == rule.length)
    if rule.excludes is not None:
        tests.append(not_(text.contains(rule.excludes, autoescape=True)))
    return and_(true(), *tests)


def _field_terms(aggregation: s.TermAggregation) -> _Terms:
    """The match values of the field in any translation that its type's :attr:`term_rule` keeps (a
    country is indexed by its code and by its name, an author by name and email: only the code and the
    name count)."""
    value = field_index.alias("agg_field")
    definition = field_definitions.alias("agg_field_definition")
    text = value.c.string_value
    kind = definition.c.field_type
    ruled = (and_(kind == identifier, _term_test(text, rule)) for identifier, rule in _TERM_RULES.items())
    kept = or_(kind.not_in(list(_TERM_RULES)), *ruled)

    def join(base: FromClause) -> FromClause:
        return base.join(
            value,
            and_(
                value.c.content_id == content.c.id,
                value.c.field_definition_id.in_(_field_definition_ids(aggregation)),
                value.c.is_match,
            ),
        ).join(definition, definition.c.id == value.c.field_definition_id)

    key = func.coalesce(text, cast(value.c.number_value, String))
    return _Terms(key, join, multi=True, where=kept)


def _terms(hits: _Hits, aggregation: s.TermAggregation) -> _Terms:
    kind = aggregation.kind
    if kind == "content_type":
        return _Terms(content.c.content_type_id)
    if kind == "section":
        return _Terms(content.c.section_id)
    if kind == "content_type_group":
        return _content_type_group_terms()
    if kind == "language":
        return _language_terms()
    if kind == "visibility":
        return _visibility_terms(hits)
    if kind == "user_metadata":
        return _user_terms(aggregation)
    if kind == "object_state":
        return _object_state_terms(aggregation)
    if kind == "subtree":
        return _subtree_terms(hits, aggregation)
    if kind == "location_children":
        return _location_children_terms(hits, aggregation)
    if kind == "raw":
        return _Terms(hits.raw(aggregation))
    if kind == "field":
        return _field_terms(aggregation)
    raise BadRequest(f"Aggregation '{aggregation.name}': no term aggregation of kind '{kind}'")


def _term_result(connection: Connection, hits: _Hits, aggregation: s.TermAggregation) -> s.AggregationResult:
    """Counts per key, most frequent first (ties by key), at most ``limit`` of them, each at least
    ``min_count`` (keys without hits are never listed, so a ``min_count`` below 1 means 1)."""
    terms = _terms(hits, aggregation)
    if aggregation.limit <= 0:
        return s.TermAggregationResult(aggregation.name, ())
    counted = func.count(hits.unit.distinct()) if terms.multi else func.count()
    query = (
        select(terms.key.label("key"), counted.label("count"))
        .select_from(terms.join(hits.base))
        .where(hits.condition, terms.key.is_not(None), *([] if terms.where is None else [terms.where]))
        .group_by(terms.key)
        .having(counted >= max(aggregation.min_count, 1))
        .order_by(counted.desc(), terms.key)
        .limit(aggregation.limit)
    )
    rows = connection.execute(query).all()
    visibility = aggregation.kind == "visibility"  # SQLite answers 0 and 1
    return s.TermAggregationResult(
        aggregation.name,
        tuple(s.TermEntry(bool(key) if visibility else key, int(count)) for key, count in rows),
    )


# -- ranges and stats over a column of the hit row: one statement for all of them -------------------------


def _value(hits: _Hits, aggregation: s.RangeAggregation | s.StatsAggregation) -> ColumnElement[Any]:
    if aggregation.kind == "raw":
        return hits.raw(aggregation)
    if isinstance(aggregation, s.RangeAggregation) and aggregation.kind == "date_metadata":
        target = aggregation.target or ""
        if target not in _DATE_TARGETS:
            raise BadRequest(
                f"Aggregation '{aggregation.name}': type '{target}' is not created, modified or published"
            )
        column: ColumnElement[Any] = _DATE_TARGETS[target]
        return column
    if aggregation.kind == "field":
        _field_definition_ids(aggregation)  # the identifiers are required
        number, _text = field_sort_expressions(
            aggregation.type_identifier or "", aggregation.field_identifier or "", content
        )
        return number
    raise BadRequest(f"Aggregation '{aggregation.name}': no aggregation of kind '{aggregation.kind}' here")


def _bound(aggregation: s.RangeAggregation, bound: s.Bound) -> float | None:
    """A range bound as the number the index compares: numbers as they are, numeric text, and dates
    (ISO 8601, as REST clients send them for date ranges) as Unix timestamps, UTC unless they say."""
    if bound is None or isinstance(bound, int | float):
        return bound
    text = bound.strip()
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise BadRequest(
            f"Aggregation '{aggregation.name}': range bound '{bound}' is neither a number nor a date"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _in_range(
    aggregation: s.RangeAggregation, value: ColumnElement[Any], start: s.Bound, end: s.Bound
) -> ColumnElement[bool]:
    parts: list[ColumnElement[bool]] = [value.is_not(None)]
    low, high = _bound(aggregation, start), _bound(aggregation, end)
    if low is not None:
        parts.append(value >= low)
    if high is not None:
        parts.append(value < high)
    return and_(*parts)


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def _metric_columns(
    hits: _Hits, aggregation: s.RangeAggregation | s.StatsAggregation
) -> list[ColumnElement[Any]]:
    value = _value(hits, aggregation)
    if isinstance(aggregation, s.RangeAggregation):
        return [
            func.sum(case((_in_range(aggregation, value, lo, hi), 1), else_=0))
            for lo, hi in aggregation.ranges
        ]
    return [func.count(value), func.sum(value), func.min(value), func.max(value), func.avg(value)]


def _metric_result(
    aggregation: s.RangeAggregation | s.StatsAggregation, values: Sequence[Any]
) -> s.AggregationResult:
    if isinstance(aggregation, s.RangeAggregation):
        entries = zip(aggregation.ranges, values, strict=True)
        return s.RangeAggregationResult(
            aggregation.name, tuple(s.RangeEntry(lo, hi, int(n or 0)) for (lo, hi), n in entries)
        )
    count, total, least, most, mean = values
    return s.StatsAggregationResult(
        aggregation.name, int(count), _number(total), _number(least), _number(most), _number(mean)
    )


def _metrics(
    connection: Connection, hits: _Hits, aggregations: Sequence[s.RangeAggregation | s.StatsAggregation]
) -> list[s.AggregationResult]:
    """Every range and stats aggregation in one statement: its columns side by side."""
    per_aggregation = [_metric_columns(hits, aggregation) for aggregation in aggregations]
    if not per_aggregation:
        return []
    columns = [column for group in per_aggregation for column in group]
    row = connection.execute(select(*columns).select_from(hits.base).where(hits.condition)).one()
    results: list[s.AggregationResult] = []
    offset = 0
    for aggregation, group in zip(aggregations, per_aggregation, strict=True):
        results.append(_metric_result(aggregation, row[offset : offset + len(group)]))
        offset += len(group)
    return results


def aggregate(
    connection: Connection,
    condition: ColumnElement[bool],
    location: FromClause | None,
    aggregations: Sequence[s.Aggregation],
) -> tuple[s.AggregationResult, ...]:
    """The result of each aggregation, in order, over the hits of ``condition``: rows of ``content`` for
    a content search, of the ``location`` alias joined to ``content`` for a location search. Term keys
    are ids or scalars (see the module text); BadRequest names an aggregation this cannot compute."""
    hits = _Hits(condition, location)
    metrics = iter(
        _metrics(connection, hits, [a for a in aggregations if not isinstance(a, s.TermAggregation)])
    )
    return tuple(
        _term_result(connection, hits, a) if isinstance(a, s.TermAggregation) else next(metrics)
        for a in aggregations
    )
