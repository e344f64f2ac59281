"""Named counters, atomic on both databases (``UPDATE ... RETURNING`` takes the row lock)."""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import ColumnElement, Connection, bindparam, column, func, insert, select, table, text, update

from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import sequences


def next_value(connection: Connection, name: str) -> int:
    """The next value of counter ``name`` (starting at 1), within the caller's write transaction."""
    return reserve(connection, name, 1)


# Built once: every create takes field ids, every first publish a URL alias node.
_RESERVE = Prepared(
    update(sequences)
    .where(sequences.c.name == bindparam("sequence_name"))
    .values(value=sequences.c.value + bindparam("sequence_count"))
    .returning(sequences.c.value)
)


def reserve(connection: Connection, name: str, count: int) -> int:
    """Take the next ``count`` values of counter ``name`` in one statement; returns the last of them."""
    row = _RESERVE.first(connection, {"sequence_name": name, "sequence_count": count})
    if row is not None:
        return int(row[0])
    connection.execute(insert(sequences).values(name=name, value=count))
    return count


def ensure_at_least(connection: Connection, name: str, value: int) -> None:
    """Make the counter's next value greater than ``value`` (after loading rows with explicit ids)."""
    current = connection.execute(select(sequences.c.value).where(sequences.c.name == name)).scalar()
    if current is None:
        connection.execute(insert(sequences).values(name=name, value=value))
    elif current < value:
        connection.execute(update(sequences).where(sequences.c.name == name).values(value=value))


# The epoch of what per-process caches keep (content types with their field definitions, languages,
# sections): every write to those tables bumps it in its transaction, and a cache entry is good only
# while the epoch it was loaded under is the current one. Readers get it inside a query they run anyway
# (``EPOCH_COLUMN``) or with one point lookup, so a change made through one process is seen by all.
EPOCH = "cache_epoch"
# Bumped by every change to roles, policies and assignments, and by location swaps (what a caller's
# grants depend on besides the paths of its locations: storage/sql/caller.py).
ROLES_REVISION = "roles_revision"
EPOCH_COLUMN = (
    select(func.coalesce(func.max(sequences.c.value), 0))
    .where(sequences.c.name == EPOCH)
    .scalar_subquery()
    .label("cache_epoch")
)
_READ_EPOCH = Prepared(select(EPOCH_COLUMN))


def read_epoch(connection: Connection) -> int:
    return int(_READ_EPOCH.first(connection, {})[0])


def bump_epoch(connection: Connection) -> int:
    """Mark the cached tables changed (inside the writer's transaction); returns the new epoch."""
    return next_value(connection, EPOCH)


# Ids that only need to be unique (field ids, URL alias nodes) are taken from the database in blocks:
# the first writer of a process that needs one reserves BLOCK values in its transaction, and what it does
# not use serves the next writers of the process once that transaction has committed. A rollback takes
# the block's reservation back with it, so the block is forgotten; values of a block taken by a
# transaction that then rolls back, or left when the process ends, are gaps, as serial columns have.
BLOCK = 64


class Blocks:
    """The committed, unused values of each blocked counter in this process (shared by its threads)."""

    def __init__(self) -> None:
        self._free: dict[str, range] = {}
        self._lock = threading.Lock()

    def take(self, name: str, count: int) -> range:
        """Up to ``count`` values, fewer when the process has fewer left."""
        with self._lock:
            free = self._free.get(name, range(0))
            self._free[name] = free[count:]
            return free[:count]

    def keep(self, name: str, values: range) -> None:
        with self._lock:
            if len(values) > len(self._free.get(name, range(0))):
                self._free[name] = values


class TxBlocks:
    """One write transaction's view of :class:`Blocks`: what it reserves stays its own until
    :meth:`committed` hands the rest to the process."""

    def __init__(self, blocks: Blocks, connection: Connection) -> None:
        self._blocks = blocks
        self._connection = connection
        self._reserved: dict[str, range] = {}

    def take(self, name: str, count: int) -> list[int]:
        own = self._reserved.get(name, range(0))
        values = list(own[:count])
        self._reserved[name] = own[count:]
        if len(values) < count:
            values += self._blocks.take(name, count - len(values))
        missing = count - len(values)
        if missing > 0:
            size = max(missing, BLOCK)
            last = reserve(self._connection, name, size)
            block = range(last - size + 1, last + 1)
            values += block[:missing]
            self._reserved[name] = block[missing:]
        return values

    def committed(self) -> None:
        for name, values in self._reserved.items():
            if values:
                self._blocks.keep(name, values)
        self._reserved.clear()


def take(connection: Connection, blocks: TxBlocks | None, name: str, count: int) -> list[int]:
    """``count`` new values of a blocked counter: from ``blocks`` in a write of the store, straight from
    the counter otherwise (one statement)."""
    if count <= 0:
        return []
    if blocks is not None:
        return blocks.take(name, count)
    last = reserve(connection, name, count)
    return list(range(last - count + 1, last + 1))


_sqlite_sequence = table("sqlite_sequence", column("name"), column("seq"))


def next_row_id(dialect: str, table_name: str) -> ColumnElement[Any]:
    """The id the database gives the next row of a table with a serial (PostgreSQL) or AUTOINCREMENT
    (SQLite) id, as an expression: PostgreSQL's sequence; on SQLite one more than the largest id ever used,
    which it would pick itself, and safe because its writers run one at a time (BEGIN IMMEDIATE)."""
    if dialect == "postgresql":
        return func.nextval(func.pg_get_serial_sequence(table_name, "id"))
    own = table(table_name, column("id"))
    used = select(_sqlite_sequence.c.seq).where(_sqlite_sequence.c.name == table_name).scalar_subquery()
    largest = select(func.max(own.c.id)).scalar_subquery()
    return func.max(func.coalesce(used, 0), func.coalesce(largest, 0)) + 1


def new_row_ids(connection: Connection, table_name: str, count: int) -> list[int]:
    """``count`` ids for new rows of such a table (:func:`next_row_id`), in one statement; on SQLite
    inserting them moves its counter on."""
    if count <= 0:
        return []
    if connection.dialect.name == "postgresql":
        query = text(
            "SELECT nextval(pg_get_serial_sequence(:table_name, 'id')) FROM generate_series(1, :id_count)"
        )
        return sorted(
            int(i) for i in connection.execute(query, {"table_name": table_name, "id_count": count}).scalars()
        )
    first = int(connection.execute(select(next_row_id("sqlite", table_name))).scalar_one())
    return list(range(first, first + count))
