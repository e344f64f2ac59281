"""Compile a ``domain.query`` criterion into one SQL condition over ``content`` (and ``locations``).

Pass ``location`` when the query selects locations: location criteria then apply to that row. Without it
they ask whether *any* location of the item matches (a correlated EXISTS). Subtrees are a range on
``path_string`` (``>= '/1/2/'`` and ``< '/1/20'``), which an ordinary index serves, unlike ``LIKE``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import ColumnElement, FromClause, and_, exists, false, literal, not_, or_, select, true

from pressroom.domain import query as q
from pressroom.storage.sql.field_index import search_visitors
from pressroom.storage.sql.schema import content, content_versions, locations

members = locations.alias("group_member")


def prefix_range(column: Any, prefix: str) -> ColumnElement[bool]:
    """``column`` starts with ``prefix``, as a range an index can serve (byte order, no escaping)."""
    upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
    return and_(column >= prefix, column < upper)


def compile_criterion(
    criterion: q.Criterion, location: FromClause | None = None, item: FromClause = content
) -> ColumnElement[bool]:
    """The condition for ``criterion``; ``location`` is the locations row of a location query, ``item``
    the content row (an alias when the query joins ``content`` more than once, e.g. in a sub-query)."""
    return _Compiler(location, item).visit(criterion)


class _Compiler:
    def __init__(self, location: FromClause | None, item: FromClause) -> None:
        self.location = location
        self.item = item
        self._visitors: dict[type[q.Criterion], Callable[[Any], ColumnElement[bool]]] = {
            q.MatchAll: lambda _c: true(),
            q.MatchNone: lambda _c: false(),
            q.LogicalAnd: lambda c: and_(*(self.visit(part) for part in c.criteria)),
            q.LogicalOr: lambda c: or_(*(self.visit(part) for part in c.criteria)),
            q.LogicalNot: lambda c: not_(self.visit(c.criterion)),
            q.ContentId: lambda c: item.c.id.in_(c.ids),
            q.ContentTypeId: lambda c: item.c.content_type_id.in_(c.ids),
            q.SectionId: lambda c: item.c.section_id.in_(c.ids),
            q.OwnerId: lambda c: item.c.owner_id.in_(c.ids),
            q.OwnerInGroups: lambda c: item.c.owner_id.in_(
                select(members.c.content_id).where(members.c.parent_id.in_(c.location_ids))
            ),
            q.LocationId: lambda c: self._on_location(lambda loc: loc.c.id.in_(c.ids)),
            q.ParentLocationId: lambda c: self._on_location(lambda loc: loc.c.parent_id.in_(c.ids)),
            q.Subtree: lambda c: self._on_location(
                lambda loc: or_(*(prefix_range(loc.c.path_string, path) for path in c.path_strings))
            ),
            q.LanguageCode: self._language_code,
        }
        self._visitors.update(search_visitors(item))  # Field, FullText, Image*: storage/sql/field_index.py

    def visit(self, criterion: q.Criterion) -> ColumnElement[bool]:
        visitor = self._visitors.get(type(criterion))
        if visitor is None:
            raise TypeError(f"No SQL for criterion {type(criterion).__name__}")
        return visitor(criterion)

    def _on_location(self, condition: Callable[[Any], ColumnElement[bool]]) -> ColumnElement[bool]:
        if self.location is not None:
            return condition(self.location)
        other = locations.alias("criterion_location")
        return exists(select(other.c.id).where(other.c.content_id == self.item.c.id, condition(other)))

    def _language_code(self, criterion: q.LanguageCode) -> ColumnElement[bool]:
        """The current version has a translation in one of the codes (or the item is always available)."""
        listed = literal(",") + content_versions.c.language_codes + literal(",")
        translated = exists(
            select(content_versions.c.id).where(
                content_versions.c.content_id == self.item.c.id,
                content_versions.c.version_no == self.item.c.current_version_no,
                or_(*(listed.contains(f",{code},", autoescape=True) for code in criterion.codes)),
            )
        )
        if criterion.match_always_available:
            return or_(translated, self.item.c.always_available == true())
        return translated
