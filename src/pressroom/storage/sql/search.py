"""Searches over published content items or their locations, in SQL.

A search compiles its criterion (what the caller asked for, ANDed with what the caller may read) once
into a condition (``SqlSearchScope.condition``): what the caller may read narrows the candidates the
query's own criteria find, each checked in turn (``compile_criterion(probe=True)``); the page of ids,
the count and the aggregations are each one statement over that same condition. Loading the page's
items is the caller's, in batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Connection, FromClause, Select, and_, func, select

from pressroom.domain.content import CONTENT_STATUS_CODES, PUBLISHED
from pressroom.domain.query import Criterion, LogicalAnd, ParentLocationId, all_of
from pressroom.domain.read_scope import ReadScope
from pressroom.domain.read_scope import criterion as read_criterion
from pressroom.domain.search import Aggregation, AggregationResult, SortClause
from pressroom.storage.sql.aggregations import aggregate
from pressroom.storage.sql.criteria import compile_criterion
from pressroom.storage.sql.field_index import relevance_scores
from pressroom.storage.sql.schema import content, locations
from pressroom.storage.sql.sort import DRIVER_KEYS, apply_sort


class SqlSearchScope:
    """The rows a search matches: published items (``locations=False``) or their locations."""

    def __init__(
        self,
        connection: Connection,
        criterion: Criterion,
        *,
        locations_query: bool,
        readable: ReadScope,
    ) -> None:
        self.c = connection
        self.location: FromClause | None = locations if locations_query else None
        self.source: FromClause = (
            locations.join(content, content.c.id == locations.c.content_id) if locations_query else content
        )
        parts = _conjuncts(criterion)
        self._id: Any = locations.c.id if locations_query else content.c.id
        self.criterion = criterion
        self._readable = read_criterion(readable)
        self._parts = parts
        self.driver: FromClause | None = None
        parent = None if locations_query else _one_parent(parts)
        if parent is None:
            self.condition: ColumnElement[bool] = self._item_condition()
            return
        # The children of one parent: each item has at most one location there (services refuse a
        # second; ``pressroom check`` reports one), and only a published item has locations, so the
        # location rows below the parent are the candidates, one per item. What the item's row is needed
        # for joins it; the type, date and name keys are copies on the row (item_keys.py), so a page and
        # its count by them read ix_locations_parent_type or _name alone.
        rest = [part for part in parts if part is not parent[0]]
        self.driver = locations
        self._id = locations.c.content_id
        self.condition = and_(
            locations.c.parent_id == parent[1],
            compile_criterion(self._readable, probe=True, driver=locations, within=parts),
            compile_criterion(all_of(rest), driver=locations),
        )
        if _reads_content(select(self._id).select_from(locations).where(self.condition)):
            self.source = locations.join(content, content.c.id == locations.c.content_id)
        else:
            self.source = locations

    def _item_condition(self) -> ColumnElement[bool]:
        """The condition over the item's row (and, for a location search, the location row)."""
        return and_(
            content.c.status == CONTENT_STATUS_CODES[PUBLISHED],
            compile_criterion(self._readable, self.location, probe=True, within=self._parts),
            compile_criterion(self.criterion, self.location),
        )

    def page(self, sort: Sequence[SortClause], offset: int, limit: int) -> list[int]:
        """The ids (location ids for a location search) of one page, in ``sort`` order then by id."""
        page = select(self._id).where(self.condition)
        source = self.source
        if self.driver is not None and not all(clause.key in DRIVER_KEYS for clause in sort):
            source = locations.join(content, content.c.id == locations.c.content_id)
        dialect = self.c.dialect.name
        query = apply_sort(
            page, source, sort, self.location, criterion=self.criterion, dialect=dialect, driver=self.driver
        )
        return list(self.c.execute(query.offset(offset).limit(limit)).scalars())

    def count(self) -> int:
        query = select(func.count()).select_from(self.source).where(self.condition)
        return int(self.c.execute(query).scalar_one())

    def scores(self, content_ids: Sequence[int]) -> dict[int, float] | None:
        """The relevance of these items to the full text the search asks for (one statement; an item
        without a match scores 0); None when it asks for none."""
        scores = relevance_scores(self.criterion, self.c.dialect.name)
        if scores is None:
            return None
        wanted = sorted(set(content_ids))
        query = select(scores.c.content_id, scores.c.score).where(scores.c.content_id.in_(wanted))
        found = {int(item): float(score) for item, score in self.c.execute(query)} if wanted else {}
        return {item: found.get(item, 0.0) for item in wanted}

    def aggregate(self, aggregations: Sequence[Aggregation]) -> tuple[AggregationResult, ...]:
        condition = self.condition if self.driver is None else self._item_condition()
        return aggregate(self.c, condition, self.location, aggregations)


def _conjuncts(criterion: Criterion) -> tuple[Criterion, ...]:
    """The parts of ``criterion`` that every match satisfies: the criterion itself, or the parts of a
    LogicalAnd (nested ones flattened)."""
    if isinstance(criterion, LogicalAnd):
        return tuple(part for inner in criterion.criteria for part in _conjuncts(inner))
    return (criterion,)


def _one_parent(parts: Sequence[Criterion]) -> tuple[ParentLocationId, int] | None:
    """The ParentLocationId part naming a single parent, with that parent's id (None: no such part)."""
    for part in parts:
        if isinstance(part, ParentLocationId) and len(part.ids) == 1:
            return part, int(part.ids[0])
    return None


def _reads_content(query: Select[Any]) -> bool:
    """Whether ``query`` (from ``locations``) reads a column of ``content`` outside a sub-query."""
    return content in query.get_final_froms()


class SqlSearchGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def scope(
        self,
        criterion: Criterion,
        *,
        locations: bool,
        readable: ReadScope,
    ) -> SqlSearchScope:
        return SqlSearchScope(self.c, criterion, locations_query=locations, readable=readable)
