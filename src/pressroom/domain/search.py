"""Search: what a view asks for (criteria, sort clauses, aggregations, a page) and what it finds.

The criteria are the ``domain.query`` tree. A search over content items yields one hit per item; a search
over locations one hit per location. Sort clauses are shared with location children: a parent's
``sortField``/``sortOrder`` maps to the same clauses (``children_sort``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, TypeVar

from pressroom.domain.content import Version
from pressroom.domain.location import Location
from pressroom.domain.query import Criterion, MatchAll


class SortKey(Enum):
    CONTENT_ID = "ContentId"
    CONTENT_NAME = "ContentName"
    CONTENT_TYPE_NAME = "ContentTypeName"
    CONTENT_TYPE_IDENTIFIER = "ContentTypeIdentifier"
    DATE_MODIFIED = "DateModified"
    DATE_PUBLISHED = "DatePublished"
    SECTION_IDENTIFIER = "SectionIdentifier"
    SECTION_NAME = "SectionName"
    LOCATION_ID = "LocationId"
    LOCATION_DEPTH = "LocationDepth"
    LOCATION_PATH = "LocationPath"
    LOCATION_PRIORITY = "LocationPriority"
    SCORE = "Score"
    FIELD = "Field"


@dataclass(frozen=True, slots=True)
class SortClause:
    key: SortKey
    ascending: bool = True
    # For SortKey.FIELD: the field definition ``field_identifier`` of the content type ``type_identifier``.
    type_identifier: str | None = None
    field_identifier: str | None = None


# A parent's sortField (content_type.SORT_FIELDS) as a sort clause: the reference's map, plus the fields
# it leaves out (CLASS_IDENTIFIER, CLASS_NAME, MODIFIED_SUBNODE: the item's own modification date).
CHILDREN_SORT_KEYS = {
    "PATH": SortKey.LOCATION_PATH,
    "PUBLISHED": SortKey.DATE_PUBLISHED,
    "MODIFIED": SortKey.DATE_MODIFIED,
    "MODIFIED_SUBNODE": SortKey.DATE_MODIFIED,
    "SECTION": SortKey.SECTION_IDENTIFIER,
    "DEPTH": SortKey.LOCATION_DEPTH,
    "CLASS_IDENTIFIER": SortKey.CONTENT_TYPE_IDENTIFIER,
    "CLASS_NAME": SortKey.CONTENT_TYPE_NAME,
    "PRIORITY": SortKey.LOCATION_PRIORITY,
    "NAME": SortKey.CONTENT_NAME,
    "NODE_ID": SortKey.LOCATION_ID,
    "CONTENTOBJECT_ID": SortKey.CONTENT_ID,
}


def children_sort(sort_field: str, sort_order: str) -> tuple[SortClause, ...]:
    """How the children of a location with this ``sortField`` / ``sortOrder`` (ASC | DESC) are ordered;
    an unknown field sorts by path."""
    return (SortClause(CHILDREN_SORT_KEYS.get(sort_field, SortKey.LOCATION_PATH), sort_order != "DESC"),)


# Term aggregations: entries of (key, count), most frequent first, at most ``limit``, each at least
# ``min_count``. Kinds and their parameters:
#   content_type, content_type_group, section, language, visibility: none
#   user_metadata: target (owner | group | modifier)
#   object_state: object_state_group (identifier)
#   subtree: path_string;  location_children: location_id
#   raw: field_name (a search-index column name; unconfirmed in the reference)
#   field (author, checkbox, country, keyword, selection): type_identifier, field_identifier
TERM_KINDS = frozenset(
    {
        "content_type",
        "content_type_group",
        "section",
        "language",
        "visibility",
        "user_metadata",
        "object_state",
        "subtree",
        "location_children",
        "raw",
        "field",
    }
)
# Range aggregations: date_metadata (target created | modified | published, bounds are Unix timestamps),
# field (date, datetime, time, integer, float fields: type_identifier, field_identifier), raw.
RANGE_KINDS = frozenset({"date_metadata", "field", "raw"})
# Stats aggregations: field (integer, float: type_identifier, field_identifier), raw.
STATS_KINDS = frozenset({"field", "raw"})

Bound = int | float | str | None


@dataclass(frozen=True, slots=True)
class TermAggregation:
    name: str
    kind: str  # one of TERM_KINDS
    limit: int = 10
    min_count: int = 1
    target: str | None = None
    object_state_group: str | None = None
    path_string: str | None = None
    location_id: int | None = None
    field_name: str | None = None
    type_identifier: str | None = None
    field_identifier: str | None = None


@dataclass(frozen=True, slots=True)
class RangeAggregation:
    name: str
    kind: str  # one of RANGE_KINDS
    ranges: tuple[tuple[Bound, Bound], ...]  # [from, to): None is open
    target: str | None = None
    field_name: str | None = None
    type_identifier: str | None = None
    field_identifier: str | None = None


@dataclass(frozen=True, slots=True)
class StatsAggregation:
    name: str
    kind: str  # one of STATS_KINDS
    field_name: str | None = None
    type_identifier: str | None = None
    field_identifier: str | None = None


Aggregation = TermAggregation | RangeAggregation | StatsAggregation


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """``filter`` narrows without scoring; ``query`` narrows and scores (full text). ``languages`` None:
    all; otherwise items translated into one of them (or always available when ``use_always_available``)."""

    filter: Criterion = field(default_factory=MatchAll)
    query: Criterion = field(default_factory=MatchAll)
    limit: int = 25
    offset: int = 0
    sort: tuple[SortClause, ...] = ()
    aggregations: tuple[Aggregation, ...] = ()
    languages: tuple[str, ...] | None = None
    use_always_available: bool = True


@dataclass(frozen=True, slots=True)
class TermEntry:
    """``key`` is a loaded object (ContentType, ContentTypeGroup, Section, Language, ObjectState, Location,
    ContentInfo of a user or group) or a scalar (visibility, raw and field values)."""

    key: object
    count: int


@dataclass(frozen=True, slots=True)
class TermAggregationResult:
    name: str
    entries: tuple[TermEntry, ...]


@dataclass(frozen=True, slots=True)
class RangeEntry:
    start: Bound
    end: Bound
    count: int


@dataclass(frozen=True, slots=True)
class RangeAggregationResult:
    name: str
    entries: tuple[RangeEntry, ...]


@dataclass(frozen=True, slots=True)
class StatsAggregationResult:
    name: str
    count: int
    sum: float | None
    min: float | None
    max: float | None
    avg: float | None


AggregationResult = TermAggregationResult | RangeAggregationResult | StatsAggregationResult


@dataclass(frozen=True, slots=True)
class LocationHit:
    """A location search hit: the location (with its ContentInfo) and its item's current version."""

    location: Location
    version: Version


HitValue = TypeVar("HitValue")


@dataclass(frozen=True, slots=True)
class SearchHit(Generic[HitValue]):
    value: HitValue  # a Version (current, with fields) for a content search, a LocationHit for a location one
    score: float | None = None


@dataclass(frozen=True, slots=True)
class SearchResult(Generic[HitValue]):
    hits: tuple[SearchHit[HitValue], ...]
    total_count: int | None
    max_score: float | None = None
    time_ms: float = 0.0
    aggregations: tuple[AggregationResult, ...] = ()
