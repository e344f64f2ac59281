"""Named counters, atomic on both databases (``UPDATE ... RETURNING`` takes the row lock)."""

from __future__ import annotations

from sqlalchemy import Connection, insert, select, update

from pressroom.storage.sql.schema import sequences


def next_value(connection: Connection, name: str) -> int:
    """The next value of counter ``name`` (starting at 1), within the caller's write transaction."""
    result = connection.execute(
        update(sequences)
        .where(sequences.c.name == name)
        .values(value=sequences.c.value + 1)
        .returning(sequences.c.value)
    ).scalar()
    if result is not None:
        return int(result)
    connection.execute(insert(sequences).values(name=name, value=1))
    return 1


def ensure_at_least(connection: Connection, name: str, value: int) -> None:
    """Make the counter's next value greater than ``value`` (after loading rows with explicit ids)."""
    current = connection.execute(select(sequences.c.value).where(sequences.c.name == name)).scalar()
    if current is None:
        connection.execute(insert(sequences).values(name=name, value=value))
    elif current < value:
        connection.execute(update(sequences).where(sequences.c.name == name).values(value=value))
