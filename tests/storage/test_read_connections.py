"""Reads keep one connection per thread (storage/sql/engine.py ReadConnections), on both databases: no
pool checkout per read, nothing left open that would hide a later write or hold a lock, a connection of
its own for a read inside a read, and a fresh connection after a driver error."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import Engine, event, select, text, update
from sqlalchemy.exc import DBAPIError

from pressroom.domain.errors import Unavailable
from pressroom.storage.sql.schema import sections
from pressroom.storage.sql.store import SqlStore


def _name(store: SqlStore) -> str:
    with store.read() as tx:  # through SQLAlchemy's execute: it begins a transaction of its own
        return str(tx.connection.execute(select(sections.c.name).where(sections.c.id == 1)).scalar_one())


def test_reads_of_a_thread_share_one_checkout_and_see_each_committed_write(engine: Engine) -> None:
    store = SqlStore(engine)
    checkouts: list[object] = []

    def checked_out(*args: object) -> None:
        checkouts.append(args)

    event.listen(engine, "checkout", checked_out)
    try:
        original = _name(store)
        for n in range(3):
            with engine.begin() as writer:  # a writer on another connection is not blocked by the reader
                writer.execute(update(sections).where(sections.c.id == 1).values(name=f"Renamed {n}"))
            assert _name(store) == f"Renamed {n}"
        with engine.begin() as writer:
            writer.execute(update(sections).where(sections.c.id == 1).values(name=original))
    finally:
        event.remove(engine, "checkout", checked_out)
    reader_checkouts = len(checkouts) - 4  # the writers' own
    assert reader_checkouts == 1


def test_a_read_inside_a_read_and_a_read_on_another_thread_have_connections_of_their_own(
    engine: Engine,
) -> None:
    store = SqlStore(engine)
    seen: list[object] = []
    with store.read() as outer:
        seen.append(outer.connection.connection.dbapi_connection)
        with store.read() as inner:
            seen.append(inner.connection.connection.dbapi_connection)
            assert _name(store)  # a third level works too
        assert outer.connection.execute(select(sections.c.id).where(sections.c.id == 1)).scalar_one() == 1

    def other_thread() -> None:
        with store.read() as tx:
            seen.append(tx.connection.connection.dbapi_connection)

    worker = threading.Thread(target=other_thread)
    worker.start()
    worker.join()
    assert len({id(connection) for connection in seen}) == 3
    with store.read() as again:
        assert again.connection.connection.dbapi_connection is seen[0]


def test_a_driver_error_replaces_the_connection_and_the_next_read_works(engine: Engine) -> None:
    store = SqlStore(engine)
    with store.read() as tx:
        first = tx.connection
    with pytest.raises((DBAPIError, Unavailable)), store.read() as tx:
        tx.connection.execute(text("SELECT no_such_column FROM sections"))
    with store.read() as tx:
        assert tx.connection is not first
    assert _name(store)
