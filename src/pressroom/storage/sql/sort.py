"""Sort clauses (``domain.search.SortClause``) in SQL, one code path for searches over content items,
searches over locations and the children of a location (``children_sort`` maps a parent's sort field).

A query over locations sorts location keys on its own row; a query over content items sorts them on the
item's main location. Keys that live in other tables (section, content type, relevance) join them once,
only when a clause needs them; the field keys are correlated sub-queries, computed for the rows the query
keeps. The name key is a column of the item (``content.name_key``, its name in the main language,
lower-cased, kept by ``storage/sql/content.py``): sorting thousands of children by name parsed each one's
JSON names before (80 ms on SQLite, 400 ms on PostgreSQL for 20,000). Every ordering ends with the id of
the row the query returns, so pages are stable.

Text keys compare byte-wise on both databases (``functions.bytewise``), names lower-cased, so that
SQLite and PostgreSQL agree and ``apple`` comes before ``Banana``. Keys that may be missing (a Field
sort over items of another type, a name absent in the main language) sort last in both directions, on
both databases (SQLite puts NULL first by default, PostgreSQL last).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, FromClause, Select, and_, func

from pressroom.domain import query as q
from pressroom.domain.errors import BadRequest
from pressroom.domain.search import SortClause, SortKey
from pressroom.storage.sql.field_index import field_sort_expressions, relevance_scores
from pressroom.storage.sql.functions import bytewise, json_text
from pressroom.storage.sql.schema import content, content_types, locations, sections

DEFINED = 0  # the published state of a content type

# Keys read from the locations row alone: a location query sorting only on these needs no content join.
LOCATION_KEYS = frozenset(
    {SortKey.LOCATION_ID, SortKey.LOCATION_DEPTH, SortKey.LOCATION_PATH, SortKey.LOCATION_PRIORITY}
)
_LOCATION_COLUMNS = {
    SortKey.LOCATION_ID: "id",
    SortKey.LOCATION_DEPTH: "depth",
    SortKey.LOCATION_PATH: "path_string",
    SortKey.LOCATION_PRIORITY: "priority",
}


# Keys a content query read through one location of each item (``driver``) finds on that row: copies of
# the item's columns (storage/sql/item_keys.py) and its id.
DRIVER_KEYS = frozenset({SortKey.CONTENT_ID, SortKey.DATE_PUBLISHED, SortKey.CONTENT_NAME})


def needs_content(clauses: Sequence[SortClause]) -> bool:
    """Whether sorting a location query by ``clauses`` reads the content row."""
    return any(clause.key not in LOCATION_KEYS for clause in clauses)


class _Sorter:
    """Collects the joins the clauses need on top of ``source`` and the keys of each clause."""

    def __init__(
        self,
        source: FromClause,
        location: FromClause | None,
        criterion: q.Criterion,
        dialect: str,
        driver: FromClause | None = None,
    ) -> None:
        self.source = source
        self.driver = driver
        self.item: FromClause = content if driver is None else driver  # the row the DRIVER_KEYS are read on
        self.location = location
        self.criterion = criterion
        self.dialect = dialect
        self._joined: dict[str, FromClause] = {}

    def _join(self, name: str, make: Callable[[], tuple[FromClause, ColumnElement[bool]]]) -> FromClause:
        if name not in self._joined:
            table, on = make()
            self.source = self.source.outerjoin(table, on)
            self._joined[name] = table
        return self._joined[name]

    def _location(self) -> FromClause:
        if self.location is not None:
            return self.location

        def main() -> tuple[FromClause, ColumnElement[bool]]:
            alias = locations.alias("sort_main_location")
            return alias, alias.c.id == content.c.main_location_id

        return self._join("main_location", main)

    def _section(self) -> FromClause:
        def make() -> tuple[FromClause, ColumnElement[bool]]:
            alias = sections.alias("sort_section")
            return alias, alias.c.id == content.c.section_id

        return self._join("section", make)

    def _content_type(self) -> FromClause:
        def make() -> tuple[FromClause, ColumnElement[bool]]:
            alias = content_types.alias("sort_content_type")
            on = and_(alias.c.id == content.c.content_type_id, alias.c.status == DEFINED)
            return alias, on

        return self._join("content_type", make)

    def keys(self, clause: SortClause) -> list[Any]:
        """The ordering terms of ``clause`` (direction applied); BadRequest for one it cannot sort on."""
        key = clause.key
        if key is SortKey.FIELD:
            return [_last(expression, clause.ascending) for expression in self._field(clause)]
        if key is SortKey.CONTENT_NAME:
            return [_last(bytewise(self.item.c.name_key), clause.ascending)]
        if key is SortKey.SCORE:
            score = self._score()
            return [] if score is None else [score.asc() if clause.ascending else score.desc()]
        expression = self._plain(key)
        return [expression.asc() if clause.ascending else expression.desc()]

    def _plain(self, key: SortKey) -> Any:
        if key is SortKey.CONTENT_ID:
            return content.c.id if self.driver is None else self.driver.c.content_id
        if key is SortKey.DATE_MODIFIED:
            return content.c.modified
        if key is SortKey.DATE_PUBLISHED:
            return self.item.c.published
        if key is SortKey.SECTION_IDENTIFIER:
            return bytewise(self._section().c.identifier)
        if key is SortKey.SECTION_NAME:
            return _folded(self._section().c.name)
        if key is SortKey.CONTENT_TYPE_IDENTIFIER:
            return bytewise(self._content_type().c.identifier)
        if key is SortKey.CONTENT_TYPE_NAME:
            kind = self._content_type()
            return _folded(json_text(kind.c.names, kind.c.main_language_code))
        if key in _LOCATION_COLUMNS:
            return self._location().c[_LOCATION_COLUMNS[key]]
        raise BadRequest(f"The sort clause '{key.value}' is not supported")

    def _score(self) -> Any:
        """Relevance of the FullText parts of the criterion (items without a match score 0); None when
        it has none: every hit scores the same, and the clause leaves the order alone."""
        scores = relevance_scores(self.criterion, self.dialect)
        if scores is None:
            return None
        joined = self._join("score", lambda: (scores, scores.c.content_id == content.c.id))
        return func.coalesce(joined.c.score, 0)

    def _field(self, clause: SortClause) -> tuple[ColumnElement[Any], ColumnElement[Any]]:
        if not clause.type_identifier or not clause.field_identifier:
            raise BadRequest("The sort clause 'Field' needs a content type and a field definition identifier")
        return field_sort_expressions(
            clause.type_identifier, clause.field_identifier, content, _languages(self.criterion)
        )


def _last(expression: Any, ascending: bool) -> Any:
    return (expression.asc() if ascending else expression.desc()).nulls_last()


def _folded(text: Any) -> Any:
    return bytewise(func.lower(text))


def _languages(criterion: q.Criterion) -> tuple[str, ...]:
    """The languages a search is restricted to (a LanguageCode at the top of its criterion, as the search
    service adds for the query's languages), in order: a Field sort prefers the values in them."""
    parts = criterion.criteria if isinstance(criterion, q.LogicalAnd) else (criterion,)
    return tuple(code for part in parts if isinstance(part, q.LanguageCode) for code in part.codes)


def apply_sort(
    page: Select[Any],
    source: FromClause,
    clauses: Sequence[SortClause],
    location: FromClause | None = None,
    *,
    criterion: q.Criterion | None = None,
    dialect: str = "sqlite",
    driver: FromClause | None = None,
) -> Select[Any]:
    """``page`` selecting from ``source`` (plus the joins the keys need), ordered by ``clauses`` and then
    by the id of the location row (``location`` given: a query over locations) or of the item.
    ``criterion`` (what the query matches) feeds the Score and Field keys; ``dialect`` is the
    connection's (relevance is engine-specific). ``driver``: a content query reads each item through
    that locations row, which holds copies of the ``DRIVER_KEYS`` (and the item's id, the tie)."""
    sorter = _Sorter(source, location, criterion or q.MatchAll(), dialect, driver)
    keys = [term for clause in clauses for term in sorter.keys(clause)]
    tie = (
        location.c.id
        if location is not None
        else sorter.item.c.content_id
        if driver is not None
        else content.c.id
    )
    return page.select_from(sorter.source).order_by(*keys, tie)
