"""Named counters, atomic on both databases (``UPDATE ... RETURNING`` takes the row lock)."""

from __future__ import annotations

from sqlalchemy import Connection, bindparam, func, insert, select, update

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
