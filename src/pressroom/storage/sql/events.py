"""The event log (outbox) and its consumers' cursors.

Appending is one INSERT in the writer's transaction. Reading goes in (tx, id) order and, on PostgreSQL,
stops at the oldest transaction still running: sequence values are taken at insert time, so an event with
a smaller id may commit after a larger one; a transaction id below every running one can only belong to a
transaction that has ended, so nothing can appear behind a reader's cursor later.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import orjson
from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    delete,
    func,
    insert,
    literal_column,
    select,
    tuple_,
)

from pressroom.domain.event import TYPE_PREFIX, Cursor, Event, NewEvent
from pressroom.domain.read_scope import ReadScope, Unrestricted, restriction
from pressroom.storage.sql.criteria import compile_criterion
from pressroom.storage.sql.engine import upsert
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import content, event_cursors, events, webhook_deliveries

_PG_TX: ColumnElement[int] = literal_column("pg_current_xact_id()::text::bigint")
_PG_HORIZON: ColumnElement[int] = literal_column("pg_snapshot_xmin(pg_current_snapshot())::text::bigint")
# The append, compiled once per dialect (``tx`` is 0, the column's default, on SQLite); inline: nothing is
# read back.
_APPEND = {
    False: Prepared(insert(events).inline()),
    True: Prepared(insert(events).values(tx=_PG_TX).inline()),
}


def event_of(row: Mapping[Any, Any]) -> Event:
    """An event of its ``events`` columns by name (``row._mapping`` of a plain select)."""
    return Event(
        id=row["id"],
        tx=row["tx"],
        type=row["type"],
        time=row["created_at"],
        user_id=row["user_id"],
        content_id=row["content_id"],
        subject=row["subject"],
        data=orjson.loads(row["data"]),
    )


class SqlEventGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection
        self.postgres = connection.dialect.name == "postgresql"

    def append(self, event: NewEvent) -> None:
        """One statement, in the caller's (write) transaction."""
        _APPEND[self.postgres].execute(
            self.c,
            {
                "type": TYPE_PREFIX + event.type,
                "created_at": time.time(),
                "user_id": event.user_id,
                "content_id": event.content_id,
                "subject": event.subject,
                "data": orjson.dumps(event.data).decode(),
            },
        )

    def _after(self, cursor: Cursor) -> ColumnElement[bool]:
        if self.postgres:
            return and_(
                tuple_(events.c.tx, events.c.id) > tuple_(cursor.tx, cursor.id), events.c.tx < _PG_HORIZON
            )
        return events.c.id > cursor.id

    def read(self, after: Cursor, limit: int, readable: ReadScope) -> list[Event]:
        """Committed events past ``after`` in log order: all of them for ``UNRESTRICTED`` (events about
        no content too), else only those about content ``readable`` lets the reader read."""
        query = select(events).where(self._after(after))
        if not isinstance(readable, Unrestricted):
            query = query.where(events.c.content_id.is_not(None))
            filtered = restriction(readable)
            if filtered is not None:
                item = content.alias("readable_item")
                query = query.where(
                    events.c.content_id.in_(select(item.c.id).where(compile_criterion(filtered, item=item)))
                )
        query = query.order_by(events.c.tx, events.c.id).limit(limit)
        return [event_of(row._mapping) for row in self.c.execute(query)]

    def end(self) -> Cursor:
        """The position after the last committed event (where a new consumer starts)."""
        row = self.c.execute(
            select(events.c.tx, events.c.id)
            .where(self._after(Cursor()))
            .order_by(events.c.tx.desc(), events.c.id.desc())
            .limit(1)
        ).first()
        return Cursor(row.tx, row.id) if row is not None else Cursor()

    def count_after(self, after: Cursor) -> int:
        return int(self.c.execute(select(func.count()).where(self._after(after))).scalar_one())

    # -- consumers ------------------------------------------------------------------------------------------
    def cursor(self, consumer: str) -> Cursor | None:
        row = self.c.execute(
            select(event_cursors.c.tx, event_cursors.c.event_id).where(event_cursors.c.consumer == consumer)
        ).first()
        return Cursor(row.tx, row.event_id) if row is not None else None

    def claim_cursor(self, consumer: str) -> Cursor | None:
        """The consumer's cursor, locked for this transaction; None when another process holds it (the
        caller skips this round) or it does not exist yet (:meth:`set_cursor` creates it)."""
        query = select(event_cursors.c.tx, event_cursors.c.event_id).where(
            event_cursors.c.consumer == consumer
        )
        if self.postgres:
            query = query.with_for_update(skip_locked=True)
        row = self.c.execute(query).first()
        return Cursor(row.tx, row.event_id) if row is not None else None

    def set_cursor(self, consumer: str, cursor: Cursor) -> None:
        values = {"tx": cursor.tx, "event_id": cursor.id, "updated_at": time.time()}
        self.c.execute(upsert(self.c, event_cursors, {"consumer": consumer, **values}, values))

    def backlogs(self) -> dict[str, int]:
        """Events each consumer has not handled yet."""
        rows = self.c.execute(select(event_cursors.c.consumer, event_cursors.c.tx, event_cursors.c.event_id))
        return {row.consumer: self.count_after(Cursor(row.tx, row.event_id)) for row in rows}

    def prune(self, before: float) -> int:
        """Delete events older than ``before`` (Unix seconds) that no pending delivery still has to send;
        the number deleted."""
        waiting = select(webhook_deliveries.c.event_id).where(webhook_deliveries.c.status == "pending")
        statement = delete(events).where(events.c.created_at < before, events.c.id.not_in(waiting))
        return int(self.c.execute(statement).rowcount or 0)
