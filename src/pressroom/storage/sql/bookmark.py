"""Per-user bookmarks of locations, in SQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Select, delete, func, insert, select

from pressroom.domain.read_scope import ReadScope, criterion
from pressroom.storage.sql.criteria import compile_criterion
from pressroom.storage.sql.schema import bookmarks, content, locations


def _readable(query: Select[Any], user_id: int, readable: ReadScope) -> Select[Any]:
    """Restrict ``query`` to the user's bookmarks whose location ``readable`` admits."""
    return (
        query.select_from(
            bookmarks.join(locations, locations.c.id == bookmarks.c.location_id).outerjoin(
                content, content.c.id == locations.c.content_id
            )
        )
        .where(bookmarks.c.user_id == user_id)
        .where(compile_criterion(criterion(readable), locations))
    )


class SqlBookmarkGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def exists(self, user_id: int, location_id: int) -> bool:
        query = select(bookmarks.c.id).where(
            bookmarks.c.user_id == user_id, bookmarks.c.location_id == location_id
        )
        return self.c.execute(query).first() is not None

    def add(self, user_id: int, location_id: int) -> None:
        self.c.execute(insert(bookmarks).values(user_id=user_id, location_id=location_id))

    def remove(self, user_id: int, location_id: int) -> bool:
        """False when there was no such bookmark."""
        result = self.c.execute(
            delete(bookmarks).where(bookmarks.c.user_id == user_id, bookmarks.c.location_id == location_id)
        )
        return bool(result.rowcount)

    def count(self, user_id: int, readable: ReadScope) -> int:
        return int(self.c.execute(_readable(select(func.count()), user_id, readable)).scalar_one())

    def page(self, user_id: int, readable: ReadScope, offset: int, limit: int) -> list[int]:
        """Location ids of the readable bookmarks, most recent first."""
        query = _readable(select(bookmarks.c.location_id), user_id, readable)
        query = query.order_by(bookmarks.c.id.desc()).offset(offset).limit(limit)
        return [row.location_id for row in self.c.execute(query)]
