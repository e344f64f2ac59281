"""Writes keep one connection per thread and begin and end on the driver (storage/sql/engine.py
WriteConnections), on both databases: no pool checkout per write, every write one transaction that an
exception rolls back, no statement counted for BEGIN or COMMIT, a connection of its own for a write
inside a write, and a fresh connection after a driver error or once the pool recycles its own."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import Engine, event, select, text, update
from sqlalchemy.exc import DBAPIError

from pressroom.domain.errors import Unavailable
from pressroom.storage.sql import engine as engine_module
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.schema import sections
from pressroom.storage.sql.store import SqlStore
from tests.helpers import kill_connections


def _name(engine: Engine) -> str:
    with engine.connect() as connection:
        return str(connection.execute(select(sections.c.name).where(sections.c.id == 1)).scalar_one())


def _rename(store: SqlStore, name: str) -> None:
    with store.write() as tx:
        tx.connection.execute(update(sections).where(sections.c.id == 1).values(name=name))


def test_writes_of_a_thread_share_one_checkout_commit_and_count_no_begin(engine: Engine) -> None:
    store = SqlStore(engine)
    checkouts: list[object] = []
    statements: list[str] = []

    def checked_out(*args: object) -> None:
        checkouts.append(args)

    def executed(_connection: object, _cursor: object, sql: str, *_args: object) -> None:
        statements.append(sql)

    event.listen(engine, "checkout", checked_out)
    event.listen(engine, "before_cursor_execute", executed)
    try:
        for n in range(3):
            _rename(store, f"Written {n}")
        with store.write(tree="exclusive"):
            pass
    finally:
        event.remove(engine, "checkout", checked_out)
        event.remove(engine, "before_cursor_execute", executed)
    assert len(checkouts) == 1
    assert len(statements) == 3  # the UPDATEs: BEGIN and COMMIT go to the driver uncounted
    assert _name(engine) == "Written 2"  # committed: another connection sees it


def test_an_exception_rolls_the_write_back_and_the_next_write_works(engine: Engine) -> None:
    store = SqlStore(engine)
    original = _name(engine)
    with pytest.raises(LookupError), store.write() as tx:
        tx.connection.execute(update(sections).where(sections.c.id == 1).values(name="Rolled back"))
        raise LookupError
    assert _name(engine) == original
    _rename(store, "After")
    assert _name(engine) == "After"


def test_a_write_inside_a_read_or_a_write_has_a_connection_of_its_own(engine: Engine) -> None:
    store = SqlStore(engine)
    with store.read() as read, store.write() as write:
        assert write.connection is not read.connection
        write.connection.execute(update(sections).where(sections.c.id == 1).values(name="Inside a read"))
    assert _name(engine) == "Inside a read"
    if engine.dialect.name == "sqlite":
        return  # the outer writer holds SQLite's write lock: a second writer would wait for it
    with store.write() as outer:
        outer.connection.execute(update(sections).where(sections.c.id == 1).values(name="Outer"))
        with store.write() as inner:
            assert inner.connection is not outer.connection
            inner.connection.execute(update(sections).where(sections.c.id == 2).values(name="Inner"))
        assert _name(engine) == "Inside a read"  # the outer write has not committed yet
    assert _name(engine) == "Outer"

    seen: list[object] = []

    def other_thread() -> None:
        with store.write() as tx:
            seen.append(tx.connection)

    with store.write() as tx:
        mine = tx.connection
    worker = threading.Thread(target=other_thread)
    worker.start()
    worker.join()
    assert seen[0] is not mine


def test_a_driver_error_replaces_the_connection_and_the_next_write_works(engine: Engine) -> None:
    store = SqlStore(engine)
    with store.write() as tx:
        first = tx.connection
    with pytest.raises((DBAPIError, Unavailable)), store.write() as tx:
        tx.connection.execute(text("SELECT no_such_column FROM sections"))
    _rename(store, "After an error")
    with store.write() as tx:
        assert tx.connection is not first
    assert _name(engine) == "After an error"


def test_a_held_connection_is_replaced_after_the_recycle_time(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SqlStore(engine)
    with store.write() as tx:
        first = tx.connection
    with store.write() as tx:
        assert tx.connection is first
    monkeypatch.setattr(engine_module, "POOL_RECYCLE_SECONDS", -1)
    with store.write() as tx:
        assert tx.connection is not first


def test_after_a_lost_connection_the_held_ones_of_other_threads_reconnect_too(
    installed_postgres_url: str,
) -> None:
    """One 503 for a database restart, not one per thread holding a connection (a PostgreSQL server's
    connections are the ones that get lost)."""
    engine = make_engine(installed_postgres_url)
    store = SqlStore(engine)
    outcomes: list[object] = []
    go = threading.Event()

    def other_thread() -> None:
        _rename(store, "Other thread")  # holds a connection of its own now
        go.wait()
        try:
            _rename(store, "Other thread again")
            outcomes.append("written")
        except Exception as error:
            outcomes.append(error)

    worker = threading.Thread(target=other_thread)
    worker.start()
    _rename(store, "Main thread")
    assert kill_connections(installed_postgres_url) >= 2
    with pytest.raises(Unavailable):
        _rename(store, "Lost")
    go.set()
    worker.join()
    assert outcomes == ["written"]
    assert _name(engine) == "Other thread again"
    engine.dispose()


def test_threads_that_write_now_and_then_do_not_run_the_pool_dry(engine: Engine) -> None:
    """Each thread keeps its write connection only while the pool has steady connections to spare:
    more writing threads than the pool's size leave it within that size, and every write goes through."""
    store = SqlStore(engine)
    threads = engine.pool.size() + 4  # type: ignore[attr-defined]
    written, failures = threading.Barrier(threads + 1), []

    def write(n: int) -> None:
        try:
            _rename(store, f"Thread {n}")
        except Exception as error:  # reported below
            failures.append(error)
        written.wait()  # alive, with whatever it keeps, until every thread has written
        written.wait()

    workers = [threading.Thread(target=write, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    written.wait()
    held = engine.pool.checkedout()  # type: ignore[attr-defined]
    written.wait()
    for worker in workers:
        worker.join()
    assert not failures
    assert held <= engine.pool.size()  # type: ignore[attr-defined]
