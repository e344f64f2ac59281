"""Engines for the two supported databases, and the transaction boundary.

SQLite runs in WAL mode with ``synchronous=NORMAL``, a busy timeout and foreign keys on. Its write
transactions start with ``BEGIN IMMEDIATE`` so that two processes writing the same file queue on the
lock instead of failing on an upgrade deadlock. PostgreSQL runs at READ COMMITTED; code that needs a
counter to be unique under concurrency takes a row lock (``UPDATE ... RETURNING``) in its gateway, and
a write that reads before it changes (If-Match, publishing) first locks the row it depends on
(``SELECT ... FOR UPDATE``, a no-op on SQLite where the writer already holds the database). Read
transactions run in autocommit on both databases: at READ COMMITTED every statement takes its own
snapshot anyway, so BEGIN and COMMIT would only add two round trips; SQLite reads behave the same way.

Row locks cannot guard the location tree on PostgreSQL: a move depends on the paths of its source, its
target and their ancestors, and a subtree's range UPDATE or DELETE does not see rows a concurrent writer
adds to it. A write that depends on the tree (``spi.TreeLock``) therefore takes one transaction-scoped
advisory lock, shared or exclusive, in the round trip of its BEGIN: before any row lock, so it closes no
cycle of waits, and before it reads the tree, so every check it makes holds until its commit.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, Table, create_engine, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

from pressroom.storage.spi import TreeLock

_UNIQUE_SQLSTATE = "23505"  # PostgreSQL unique_violation
_UNIQUE_SQLITE = frozenset({"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"})


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` and use psycopg 3 for them."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


DEFAULT_BUSY_TIMEOUT_MS = 30000
CONNECT_TIMEOUT_SECONDS = 5
POOL_TIMEOUT_SECONDS = 10
POOL_RECYCLE_SECONDS = 1800


def make_engine(url: str, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Engine:
    """An engine for ``url``. ``busy_timeout_ms`` is how long a SQLite writer waits for the lock before
    the request gives up (a 503)."""
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        connect_args = {"check_same_thread": False, "timeout": busy_timeout_ms / 1000}
        engine = create_engine(url, connect_args=connect_args)
        _configure_sqlite(engine, busy_timeout_ms)
        return engine
    if parsed.get_backend_name() == "postgresql":
        # No pre-ping: it costs a round trip per request. A connection found dead raises once (a 503)
        # and SQLAlchemy invalidates the whole pool, so the next request reconnects. A server that does
        # not answer fails the connect within CONNECT_TIMEOUT_SECONDS instead of holding the worker.
        engine = create_engine(
            url,
            pool_size=10,
            max_overflow=10,
            pool_recycle=POOL_RECYCLE_SECONDS,
            pool_timeout=POOL_TIMEOUT_SECONDS,
            # jit off: a search's count over 20,000 children estimated above jit_above_cost spent 90 ms
            # compiling for a 3 ms execution; none of our statements runs long enough to repay JIT
            connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS, "options": "-c jit=off"},
        )
        _configure_postgres(engine)
        return engine
    raise ValueError(f"Unsupported database URL '{parsed.render_as_string(hide_password=True)}'")


def _configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")  # an int from the settings
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Connection) -> None:
        if connection.get_execution_options().get("pressroom_write", False):
            _on_driver(connection, "BEGIN IMMEDIATE")
        # Reads run in autocommit, as on PostgreSQL: BEGIN would only add a statement.


# The tree lock's key (one bigint for the whole tree: "tree" in ASCII); the lock is released at the end
# of the transaction. Sent with BEGIN as one simple query, so it costs no round trip of its own.
TREE_LOCK_KEY = 0x74726565
_BEGIN = {
    None: "BEGIN",
    "shared": f"BEGIN; SELECT pg_advisory_xact_lock_shared({TREE_LOCK_KEY})",
    "exclusive": f"BEGIN; SELECT pg_advisory_xact_lock({TREE_LOCK_KEY})",
}


def _configure_postgres(engine: Engine) -> None:
    """Connections run in autocommit at the driver, and every transaction but a read's begins with an
    explicit BEGIN (the same round trip psycopg would send for it), with the tree lock a write asks for.
    A read then costs no isolation level set on checkout and reset on checkin, which SQLAlchemy's
    AUTOCOMMIT option does for every read (7% of a warm content GET on PostgreSQL). psycopg's commit and
    rollback follow the server's transaction status, so they end what BEGIN started and do nothing after a
    read."""

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.autocommit = True

    @event.listens_for(engine, "begin")
    def on_begin(connection: Connection) -> None:
        options = connection.get_execution_options()
        if not options.get(_READ, False):
            _on_driver(connection, _BEGIN[options.get(_TREE)])


_READ = "pressroom_read"
_TREE = "pressroom_tree"


@contextmanager
def transaction(engine: Engine, *, write: bool, tree: TreeLock | None = None) -> Iterator[Connection]:
    """One transaction: committed when the block ends, rolled back on any exception. A write holds the
    tree lock ``tree`` asks for on PostgreSQL (SQLite's writers run one at a time anyway). The store's
    writes take :class:`WriteConnections` instead, and this only for a write inside a write.

    A read runs in autocommit on both databases and begins nothing itself: a statement sent through
    SQLAlchemy begins its (empty) transaction, which closing the connection ends; prepared statements
    (storage/sql/prepared.py) skip even that."""
    with engine.connect() as connection:
        if not write:
            connection.execution_options(**{_READ: True})
            yield connection
            return
        connection.execution_options(pressroom_write=True, **{_TREE: tree})
        with connection.begin():
            yield connection


class _HeldConnections(threading.local):
    """One connection per thread, kept across transactions: no pool checkout and checkin, nor a
    Connection built, for each. A connection that failed at the driver is closed and replaced, and so is
    one taken before a lost connection invalidated the pool (a database restart then costs one 503, not
    one per thread); on PostgreSQL one is replaced after POOL_RECYCLE_SECONDS, as the pool recycles its
    own."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.held: Connection | None = None
        self.since = 0.0
        self.busy = False

    def _connect(self) -> Connection:
        raise NotImplementedError

    def _current(self) -> Connection:
        held, since = self.held, self.since
        if (
            held is not None
            and not _lost(held)
            and since > self.engine.pool._invalidate_time  # a lost connection elsewhere: reconnect
            and time.time() - since < POOL_RECYCLE_SECONDS
        ):
            return held
        self._drop()
        held = self._connect()
        self.held, self.since = held, time.time()  # the pool's clock (its invalidation, its recycling)
        return held

    def _drop(self) -> None:
        held, self.held = self.held, None
        if held is not None:
            with suppress(DBAPIError):
                held.close()


class ReadConnections(_HeldConnections):
    """The connections kept for reads (autocommit on both databases): a read then costs no pool
    checkout and checkin, 7% of a content GET. A read inside a read on the same thread takes a
    connection of its own."""

    @contextmanager
    def read(self) -> Iterator[Connection]:
        if self.busy:
            with transaction(self.engine, write=False) as connection:
                yield connection
            return
        connection = self._current()
        self.busy = True
        try:
            yield connection
        except DBAPIError:
            self._drop()
            raise
        finally:
            self.busy = False
            if self.held is connection and connection.in_transaction():
                try:  # what SQLAlchemy began for a statement of its own: there is nothing to undo
                    connection.rollback()
                except DBAPIError:
                    self._drop()

    def _connect(self) -> Connection:
        connection = self.engine.connect()
        connection.execution_options(**{_READ: True})
        return connection


class WriteConnections(_HeldConnections):
    """The connections kept for write transactions, which begin and end on the driver: SQLAlchemy's
    Connection, its transaction object, the "begin" event and the pool's checkout and checkin cost ten
    times the driver's own work for a write's BEGIN and COMMIT. The held Connection never begins a
    transaction of its own (no autobegin), so its statements run in the transaction begun on the driver
    (with the tree lock in BEGIN's round trip on PostgreSQL, BEGIN IMMEDIATE on SQLite), and after a
    lost connection it raises instead of reconnecting into autocommit. A write inside a write on the
    same thread takes a connection of its own (:func:`transaction`); one that fails at the driver is
    rolled back (or closed, which ends it on the server) and its connection replaced."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        postgres = engine.dialect.name == "postgresql"
        self.begins = _BEGIN if postgres else dict.fromkeys(_BEGIN, "BEGIN IMMEDIATE")

    @contextmanager
    def write(self, tree: TreeLock | None) -> Iterator[Connection]:
        if self.busy:
            with transaction(self.engine, write=True, tree=tree) as connection:
                yield connection
            return
        connection = self._current()
        self.busy = True
        try:
            try:  # whatever interrupts it, even BEGIN, leaves no transaction open on the held connection
                _on_driver(connection, self.begins[tree])
                yield connection
                _on_driver(connection, "COMMIT")
            except BaseException:
                self._roll_back(connection)
                raise
        except DBAPIError:
            self._drop()
            raise
        finally:
            self.busy = False
            if self.held is connection and _pool_is_short(self.engine):
                self._drop()  # other threads' writes and reads need it more than this thread's next

    def _roll_back(self, connection: Connection) -> None:
        """End the transaction after an error; a connection that cannot is invalidated (closed at the
        driver, which ends the transaction on the server) and replaced."""
        if _lost(connection):
            return
        try:
            _on_driver(connection, "ROLLBACK")
        except DBAPIError:
            connection.invalidate()
            self._drop()

    def _connect(self) -> Connection:
        return Connection(self.engine, _allow_revalidate=False, _allow_autobegin=False)


def _pool_is_short(engine: Engine) -> bool:
    """The pool has lent out all its steady connections: a thread's held write connection goes back,
    so that threads that write now and then (the login pool, background dispatchers) do not each keep
    one and run the pool into its overflow and timeout. Pools without that count (SQLite in memory) never
    are."""
    checkedout = getattr(engine.pool, "checkedout", None)
    size = getattr(engine.pool, "size", None)
    return checkedout is not None and size is not None and checkedout() >= size()


def _lost(connection: Connection) -> bool:
    """The connection was invalidated (a write's, which may not reconnect, then counts as closed)."""
    return connection.invalidated or connection.closed


def _on_driver(connection: Connection, sql: str) -> None:
    """``sql`` sent on the driver (COMMIT and ROLLBACK through its own calls, which follow the server's
    transaction status), as psycopg begins its own outside autocommit: neither BEGIN nor COMMIT is among
    the statements counted (``pressroom_sql_statements_total``, the tests' counters) on either database.
    A driver error is wrapped and handled as SQLAlchemy handles those of its statements (a lost
    connection invalidates the Connection and the pool), which it does not do for the "begin" event."""
    driver = connection.connection.driver_connection
    try:
        if sql == "COMMIT":
            driver.commit()  # type: ignore[union-attr]
        elif sql == "ROLLBACK":
            driver.rollback()  # type: ignore[union-attr]
        else:
            driver.execute(sql)  # type: ignore[union-attr]
    except Exception as error:
        connection._handle_dbapi_exception(error, sql, {}, None, None)  # raises it wrapped


def upsert(connection: Connection, table: Table, values: dict[str, Any], changes: dict[str, Any]) -> Any:
    """``INSERT ... ON CONFLICT (primary key) DO UPDATE``: one statement, safe against a concurrent insert.

    ``changes`` may refer to the stored row through ``table.c``. Returns the statement, to add RETURNING.
    """
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(table).values(**values)
    keys = [column.name for column in table.primary_key.columns]
    return statement.on_conflict_do_update(index_elements=keys, set_=changes)


def is_unique_violation(error: IntegrityError) -> bool:
    """True when the driver refused a duplicate key (not a foreign key, NOT NULL or CHECK failure)."""
    driver_error = error.orig
    return (
        getattr(driver_error, "sqlstate", None) == _UNIQUE_SQLSTATE
        or getattr(driver_error, "sqlite_errorname", None) in _UNIQUE_SQLITE
    )
