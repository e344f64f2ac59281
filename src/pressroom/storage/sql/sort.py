"""Sort clauses (``domain.search.SortClause``) in SQL, one code path for searches over content items,
searches over locations and the children of a location.

A query over locations sorts location keys on its own row; a query over content items sorts them on the
item's main location. Keys that live in other tables (section, content type) join them once, only when
a clause needs them. Every ordering ends with the id of the row the query returns, so pages are stable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, FromClause, Select, and_

from pressroom.domain.errors import BadRequest
from pressroom.domain.search import SortClause, SortKey
from pressroom.storage.sql.functions import json_text
from pressroom.storage.sql.schema import content, content_types, locations, sections

DEFINED = 0  # the published state of a content type


class _Sorter:
    """Collects the joins the clauses need on top of ``source`` and the key of each clause."""

    def __init__(self, source: FromClause, location: FromClause | None) -> None:
        self.source = source
        self.location = location
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
        return self._join("section", lambda: (sections, sections.c.id == content.c.section_id))

    def _content_type(self) -> FromClause:
        def make() -> tuple[FromClause, ColumnElement[bool]]:
            alias = content_types.alias("sort_content_type")
            on = and_(alias.c.id == content.c.content_type_id, alias.c.status == DEFINED)
            return alias, on

        return self._join("content_type", make)

    def key(self, clause: SortClause) -> Any:
        """The expression ``clause`` sorts on; BadRequest for a key this module cannot sort on."""
        key = clause.key
        if key is SortKey.CONTENT_ID:
            return content.c.id
        if key is SortKey.DATE_MODIFIED:
            return content.c.modified
        if key is SortKey.DATE_PUBLISHED:
            return content.c.published
        if key is SortKey.SECTION_IDENTIFIER:
            return self._section().c.identifier
        if key is SortKey.SECTION_NAME:
            return self._section().c.name
        if key is SortKey.CONTENT_TYPE_IDENTIFIER:
            return self._content_type().c.identifier
        if key is SortKey.CONTENT_TYPE_NAME:
            kind = self._content_type()
            return json_text(kind.c.names, kind.c.main_language_code)
        location_columns = {
            SortKey.LOCATION_ID: "id",
            SortKey.LOCATION_DEPTH: "depth",
            SortKey.LOCATION_PATH: "path_string",
            SortKey.LOCATION_PRIORITY: "priority",
        }
        if key in location_columns:
            return self._location().c[location_columns[key]]
        raise BadRequest(f"The sort clause '{key.value}' is not supported yet")


def apply_sort(
    page: Select[Any], source: FromClause, clauses: Sequence[SortClause], location: FromClause | None = None
) -> Select[Any]:
    """``page`` selecting from ``source`` (plus the joins the keys need), ordered by ``clauses`` and then
    by the id of the location row (``location`` given: a query over locations) or of the item."""
    sorter = _Sorter(source, location)
    keys = []
    for clause in clauses:
        expression = sorter.key(clause)
        keys.append(expression.asc() if clause.ascending else expression.desc())
    tie = location.c.id if location is not None else content.c.id
    return page.select_from(sorter.source).order_by(*keys, tie)
