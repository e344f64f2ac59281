"""The trash in SQL: trashed locations keep their row (id, parent, path) in ``trash``.

Trashing a subtree is a fixed number of statements for any size: copy the locations whose content has no
location outside the subtree, mark that content TRASHED, move main locations out, delete the range.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, exists, func, insert, literal, select, update

from pressroom.domain.content import CONTENT_STATUS_CODES, PUBLISHED, TRASHED
from pressroom.domain.content_type import SORT_FIELDS, SORT_ORDERS
from pressroom.domain.location import Location, TrashItem
from pressroom.domain.read_scope import ReadScope, criterion
from pressroom.storage.sql.content_type import dt, ts
from pressroom.storage.sql.criteria import compile_criterion, prefix_range
from pressroom.storage.sql.location import SqlLocationGateway, location_of, only_inside
from pressroom.storage.sql.schema import content, locations, trash

_COPIED = [
    "id", "parent_id", "content_id", "path_string", "depth", "priority", "hidden", "invisible",
    "remote_id", "sort_field", "sort_order",
]  # fmt: skip


def _item(row: Any) -> TrashItem:
    return TrashItem(location_of(row), dt(row.trashed))


def _child_count_in_trash(row: Any) -> Any:
    child = trash.alias("trashed_child")
    return select(func.count()).where(child.c.parent_id == row.c.id).scalar_subquery().label("child_count")


class SqlTrashGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def _select(self, readable: ReadScope) -> Any:
        return (
            select(trash, _child_count_in_trash(trash))
            .select_from(trash.join(content, content.c.id == trash.c.content_id))
            .where(compile_criterion(criterion(readable), trash))
        )

    def list(self, readable: ReadScope, offset: int = 0, limit: int | None = None) -> list[TrashItem]:
        query = self._select(readable).order_by(trash.c.id).offset(offset).limit(limit)
        return [_item(r) for r in self.c.execute(query)]

    def get(self, item_id: int, readable: ReadScope) -> TrashItem | None:
        row = self.c.execute(self._select(readable).where(trash.c.id == item_id)).first()
        return _item(row) if row else None

    def trash_subtree(self, root: Location, now: datetime) -> None:
        """Move the subtree at ``root`` out of the tree: locations whose content has none left become
        trash items and their content TRASHED; the other locations are simply removed."""
        paths = [root.path_string]
        inside = prefix_range(locations.c.path_string, root.path_string)
        sole = select(*(locations.c[name] for name in _COPIED), literal(ts(now))).where(
            inside, locations.c.content_id.is_not(None), only_inside(paths)
        )
        self.c.execute(insert(trash).from_select([*_COPIED, "trashed"], sole))
        trashed = select(locations.c.content_id).where(inside, only_inside(paths))
        self.c.execute(
            update(content)
            .where(content.c.id.in_(trashed))
            .values(status=CONTENT_STATUS_CODES[TRASHED], revision=content.c.revision + 1)
        )
        SqlLocationGateway(self.c).delete_subtrees(paths)

    def restore(self, item: TrashItem, parent: Location, remote_id: str, invisible: bool) -> None:
        """Put the item back below ``parent`` under its old id; its content is published again and gets
        it as main location when it has none."""
        old = item.location
        self.c.execute(
            insert(locations).values(
                id=old.id,
                parent_id=parent.id,
                content_id=old.content_id,
                path_string=f"{parent.path_string}{old.id}/",
                depth=parent.depth + 1,
                priority=old.priority,
                hidden=old.hidden,
                invisible=invisible,
                remote_id=remote_id,
                sort_field=SORT_FIELDS[old.sort_field],
                sort_order=SORT_ORDERS[old.sort_order],
            )
        )
        self.c.execute(delete(trash).where(trash.c.id == old.id))
        self.c.execute(
            update(content)
            .where(content.c.id == old.content_id)
            .values(
                status=CONTENT_STATUS_CODES[PUBLISHED],
                main_location_id=func.coalesce(content.c.main_location_id, old.id),
                revision=content.c.revision + 1,
            )
        )

    def orphaned_content_ids(self, item_ids: Sequence[int] | None = None) -> set[int]:
        """Content of the given items (all items when None) that has neither a location nor another
        trash item: what deleting those items deletes."""
        other = trash.alias("other_item")
        query = select(trash.c.content_id).distinct()
        if item_ids is not None:
            query = query.where(trash.c.id.in_(item_ids))
            query = query.where(
                ~exists(
                    select(other.c.id).where(
                        other.c.content_id == trash.c.content_id, other.c.id.not_in(item_ids)
                    )
                )
            )
        query = query.where(
            ~exists(select(locations.c.id).where(locations.c.content_id == trash.c.content_id))
        )
        return set(self.c.execute(query).scalars())

    def delete(self, item_ids: Sequence[int] | None = None) -> None:
        """Delete the given items (all when None); the caller deletes their orphaned content."""
        statement = delete(trash)
        if item_ids is not None:
            statement = statement.where(trash.c.id.in_(item_ids))
        self.c.execute(statement)
