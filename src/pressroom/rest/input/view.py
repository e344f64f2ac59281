"""ViewInput (``POST /views``) into a search request (spec/search.md §1).

    {"ViewInput": {"identifier": "articles", "languageCode": "eng-GB", "useAlwaysAvailable": true,
      "ContentQuery": {"Filter": {...criteria...}, "Query": {...criteria...}, "limit": 10, "offset": 0,
                       "SortClauses": {"DatePublished": "descending",
                                       "Field": {"identifier": "article/title", "direction": "ascending"}},
                       "Aggregations": [...]}}}

Version 1.0 (no ``version`` parameter on the Content-Type) reads ``Query`` and searches content items;
version 1.1 reads ``ContentQuery`` (content items) or ``LocationQuery`` (locations), the latter winning
when both are given. Legacy ``FacetBuilders`` are accepted and ignored, as the reference serialises no
facets. Criteria: rest/input/criteria.py; aggregations: rest/input/aggregations.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pressroom.domain import query as q
from pressroom.domain.errors import BadRequest
from pressroom.domain.search import SearchQuery, SortClause, SortKey
from pressroom.rest.input.aggregations import parse_aggregations
from pressroom.rest.input.criteria import parse_criteria
from pressroom.rest.input.node import Node, as_list
from pressroom.rest.input.registry import Refs, parses

DEFAULT_LIMIT = 25
# Each sort clause is an ORDER BY term evaluated for every match (a Field clause: sub-queries per
# language). 1,990 clauses in one anonymous request held SQLite for 7 s, and PostgreSQL refuses more
# than 1,664 terms; a real listing sorts by a few keys.
MAX_SORT_CLAUSES = 16
DIRECTIONS = {"ascending": True, "descending": False}  # exactly these strings, as the reference reads them
SIMPLE_SORTS = {
    key.value: key
    for key in (
        SortKey.CONTENT_ID,
        SortKey.CONTENT_NAME,
        SortKey.DATE_MODIFIED,
        SortKey.DATE_PUBLISHED,
        SortKey.LOCATION_DEPTH,
        SortKey.LOCATION_PATH,
        SortKey.LOCATION_PRIORITY,
        SortKey.LOCATION_ID,
        SortKey.SECTION_IDENTIFIER,
        SortKey.SECTION_NAME,
        SortKey.SCORE,
    )
}


@dataclass(frozen=True, slots=True)
class ViewRequest:
    """What a ViewInput asks: the view's name, whether it searches locations, and the query."""

    identifier: str
    locations: bool
    query: SearchQuery


@parses("ViewInput")
def view_input(node: Node, refs: Refs) -> ViewRequest:
    """A ViewInput, read as the version its Content-Type names."""
    return parse_view_input(node, refs.version)


def parse_view_input(node: Node, version: str | None) -> ViewRequest:
    """``version`` is the Content-Type's ``version`` parameter ("1.1" selects the newer format)."""
    identifier = node.string("identifier").strip()
    if not identifier:
        raise BadRequest(f"'identifier' in {node.where} must not be empty")
    if version == "1.1":
        if node.data.get("LocationQuery") not in (None, ""):
            body, locations = node.child("LocationQuery"), True
        elif node.data.get("ContentQuery") not in (None, ""):
            body, locations = node.child("ContentQuery"), False
        else:
            raise BadRequest(f"{node.where} (version 1.1) needs a 'ContentQuery' or a 'LocationQuery'")
    else:
        if node.data.get("Query") in (None, ""):
            hint = ""
            if node.has("ContentQuery") or node.has("LocationQuery"):
                hint = " (ContentQuery and LocationQuery need the media type parameter version=1.1)"
            raise BadRequest(f"Missing 'Query' element for {node.where}{hint}")
        body, locations = node.child("Query"), False
    language = node.opt_string("languageCode")
    always_available = node.opt_boolean("useAlwaysAvailable")
    return ViewRequest(
        identifier,
        locations,
        SearchQuery(
            filter=_filter(body),
            query=parse_criteria(body.data.get("Query"), f"{body.where}.Query"),
            limit=_count(body, "limit", DEFAULT_LIMIT),
            offset=_count(body, "offset", 0),
            sort=parse_sort_clauses(body.data.get("SortClauses"), f"{body.where}.SortClauses"),
            aggregations=parse_aggregations(body.data.get("Aggregations"), f"{body.where}.Aggregations"),
            languages=(language.strip(),) if language and language.strip() else None,
            use_always_available=True if always_available is None else always_available,
        ),
    )


def _filter(body: Node) -> q.Criterion:
    """``Filter``, with the criteria of the deprecated ``Criteria`` element (older clients) merged in, as
    the reference merges them."""
    data, criteria = body.data.get("Filter"), body.data.get("Criteria")
    if isinstance(criteria, dict) and (data in (None, "") or isinstance(data, dict)):
        data = {**(data or {}), **criteria}
    return parse_criteria(data, f"{body.where}.Filter")


def _count(body: Node, key: str, default: int) -> int:
    value = body.opt_integer(key)
    if value is None:
        return default
    if value < 0:
        raise BadRequest(f"'{key}' in {body.where} must not be negative, got {value}")
    return value


def parse_sort_clauses(raw: Any, where: str) -> tuple[SortClause, ...]:
    """``{"ContentName": "ascending", "DatePublished": ["descending"]}`` (a list of such maps too):
    every direction is one clause, in order. A clause on a key sorted by already is left out: it cannot
    change the order (the rows it would order are equal on that key), yet it would cost its ORDER BY term."""
    if raw in (None, ""):
        return ()
    clauses: list[SortClause] = []
    given = 0
    for part in as_list(raw):
        if not isinstance(part, dict):
            raise BadRequest(f"{where} must map sort clause names to directions")
        for name, value in part.items():
            for item in as_list(value) if value is not None else [value]:
                given += 1
                if given > MAX_SORT_CLAUSES:
                    raise BadRequest(f"{where} holds more than {MAX_SORT_CLAUSES} sort clauses")
                clause = _sort_clause(name, item, f"{where}.{name}")
                if all(_sorted_on(earlier) != _sorted_on(clause) for earlier in clauses):
                    clauses.append(clause)
    return tuple(clauses)


def _sorted_on(clause: SortClause) -> tuple[SortKey, str | None, str | None]:
    return clause.key, clause.type_identifier, clause.field_identifier


def _direction(value: Any, where: str) -> bool:
    ascending = DIRECTIONS.get(value) if isinstance(value, str) else None
    if ascending is None:
        raise BadRequest(f"{where} must be 'ascending' or 'descending', got '{value}'")
    return ascending


def _sort_clause(name: str, value: Any, where: str) -> SortClause:
    if name in SIMPLE_SORTS:
        return SortClause(SIMPLE_SORTS[name], _direction(value, where))
    if name != "Field":
        known = ", ".join([*SIMPLE_SORTS, "Field"])
        raise BadRequest(
            f"Unknown sort clause '{name}' in {where.rsplit('.', 1)[0]}; expected one of {known}"
        )
    if not isinstance(value, dict):
        raise BadRequest(
            f"{where} must be an object: identifier ('type/field') and direction, or "
            "contentTypeIdentifier, fieldDefinitionIdentifier and direction"
        )
    # JSON: identifier/direction keys; XML: <Field identifier="article/title">ascending</Field>.
    node = Node({key.removeprefix("_"): item for key, item in value.items()}, where)
    direction = node.data.get("direction", node.data.get("#text"))
    if node.data.get("identifier") not in (None, ""):
        type_identifier, _, field_identifier = node.string("identifier").partition("/")
    else:
        type_identifier = node.string("contentTypeIdentifier")
        field_identifier = node.string("fieldDefinitionIdentifier")
    if not type_identifier.strip() or not field_identifier.strip():
        raise BadRequest(f"{where} must name a content type and a field, like 'article/title'")
    return SortClause(
        SortKey.FIELD,
        _direction(direction, f"{where}.direction"),
        type_identifier=type_identifier.strip(),
        field_identifier=field_identifier.strip(),
    )
