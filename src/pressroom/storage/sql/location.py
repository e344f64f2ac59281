"""Locations (the tree) and pending locations in SQL.

Subtrees are selected by path prefix (``path_string LIKE '/1/2/59/%'``) in one query; child counts come
from a correlated sub-query, never one query per location.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, Select, delete, func, insert, select, update

from pressroom.domain.content_type import SORT_FIELD_NAMES, SORT_FIELDS, SORT_ORDER_NAMES, SORT_ORDERS
from pressroom.domain.location import Location, LocationCreate, PendingLocation
from pressroom.storage.sql.schema import locations, pending_locations

_child = locations.alias("child")
_CHILD_COUNT = (
    select(func.count())
    .where(_child.c.parent_id == locations.c.id, _child.c.id != locations.c.id)
    .scalar_subquery()
    .label("child_count")
)


def _location(row: Any) -> Location:
    return Location(
        id=row.id,
        parent_id=row.parent_id,
        content_id=row.content_id,
        path_string=row.path_string,
        depth=row.depth,
        priority=row.priority,
        hidden=bool(row.hidden),
        invisible=bool(row.invisible),
        remote_id=row.remote_id,
        sort_field=SORT_FIELD_NAMES.get(row.sort_field, "PATH"),
        sort_order=SORT_ORDER_NAMES.get(row.sort_order, "ASC"),
        child_count=row.child_count,
    )


def _pending(row: Any) -> PendingLocation:
    return PendingLocation(
        id=row.id,
        content_id=row.content_id,
        parent_id=row.parent_id,
        priority=row.priority,
        hidden=bool(row.hidden),
        remote_id=row.remote_id,
        sort_field=SORT_FIELD_NAMES.get(row.sort_field, "PATH"),
        sort_order=SORT_ORDER_NAMES.get(row.sort_order, "ASC"),
    )


def _query() -> Select[Any]:
    return select(locations, _CHILD_COUNT)


class SqlLocationGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def get(self, location_id: int) -> Location | None:
        row = self.c.execute(_query().where(locations.c.id == location_id)).first()
        return _location(row) if row else None

    def get_many(self, location_ids: Sequence[int]) -> dict[int, Location]:
        if not location_ids:
            return {}
        query = _query().where(locations.c.id.in_(sorted(set(location_ids))))
        return {row.id: _location(row) for row in self.c.execute(query)}

    def by_remote_id(self, remote_id: str) -> Location | None:
        row = self.c.execute(_query().where(locations.c.remote_id == remote_id)).first()
        return _location(row) if row else None

    def remote_id_taken(self, remote_id: str) -> bool:
        for table in (locations, pending_locations):
            if self.c.execute(select(table.c.id).where(table.c.remote_id == remote_id)).first():
                return True
        return False

    def of_content(self, content_id: int) -> list[Location]:
        query = _query().where(locations.c.content_id == content_id).order_by(locations.c.id)
        return [_location(r) for r in self.c.execute(query)]

    def of_contents(self, content_ids: Iterable[int]) -> list[Location]:
        ids = sorted(set(content_ids))
        if not ids:
            return []
        query = _query().where(locations.c.content_id.in_(ids)).order_by(locations.c.id)
        return [_location(r) for r in self.c.execute(query)]

    def subtree(self, path_string: str) -> list[Location]:
        """The location with this path and every location below it, top down."""
        query = (
            _query()
            .where(locations.c.path_string.startswith(path_string, autoescape=True))
            .order_by(locations.c.depth, locations.c.id)
        )
        return [_location(r) for r in self.c.execute(query)]

    def create(self, content_id: int, parent: Location, struct: LocationCreate, invisible: bool) -> Location:
        """Insert a location below ``parent``; ``struct`` carries resolved values (remote id, sort)."""
        assert struct.remote_id is not None and struct.sort_field and struct.sort_order
        location_id = int(
            self.c.execute(
                insert(locations)
                .values(
                    parent_id=parent.id,
                    content_id=content_id,
                    path_string="",
                    depth=parent.depth + 1,
                    priority=struct.priority,
                    hidden=struct.hidden,
                    invisible=invisible,
                    remote_id=struct.remote_id,
                    sort_field=SORT_FIELDS[struct.sort_field],
                    sort_order=SORT_ORDERS[struct.sort_order],
                )
                .returning(locations.c.id)
            ).scalar_one()
        )
        path = f"{parent.path_string}{location_id}/"
        self.c.execute(update(locations).where(locations.c.id == location_id).values(path_string=path))
        created = self.get(location_id)
        assert created is not None
        return created

    def delete(self, location_ids: Sequence[int]) -> None:
        if location_ids:
            self.c.execute(delete(locations).where(locations.c.id.in_(list(location_ids))))

    def set_invisible(self, location_ids: Sequence[int], invisible: bool) -> None:
        if location_ids:
            self.c.execute(
                update(locations).where(locations.c.id.in_(list(location_ids))).values(invisible=invisible)
            )

    # -- pending locations ---------------------------------------------------------------------------
    def add_pending(self, content_id: int, struct: LocationCreate) -> None:
        assert struct.remote_id is not None and struct.sort_field and struct.sort_order
        self.c.execute(
            insert(pending_locations).values(
                content_id=content_id,
                parent_id=struct.parent_id,
                priority=struct.priority,
                hidden=struct.hidden,
                remote_id=struct.remote_id,
                sort_field=SORT_FIELDS[struct.sort_field],
                sort_order=SORT_ORDERS[struct.sort_order],
            )
        )

    def pending_of(self, content_id: int) -> list[PendingLocation]:
        query = (
            select(pending_locations)
            .where(pending_locations.c.content_id == content_id)
            .order_by(pending_locations.c.id)
        )
        return [_pending(r) for r in self.c.execute(query)]

    def clear_pending(self, content_id: int) -> None:
        self.c.execute(delete(pending_locations).where(pending_locations.c.content_id == content_id))
