"""Test helpers: media types, the API prefix, and a thin client wrapper."""

from __future__ import annotations

import base64
import http.server
import threading
import uuid
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, LiteralString

import httpx
import orjson
import psycopg
from lxml import etree
from psycopg import sql
from sqlalchemy import Engine, event

from tests.body_check import check_bodies

PREFIX = "/api/ibexa/v2"
EZ_PREFIX = "/api/ezp/v2"
ADMIN = "Basic " + base64.b64encode(b"admin:publish").decode()


def media(name: str, fmt: str = "json", vendor: str = "ibexa") -> str:
    return f"application/vnd.{vendor}.api.{name}+{fmt}"


def xml(response: httpx.Response) -> Any:
    """Parse an XML response body (tests only read our own output)."""
    return etree.fromstring(response.content)


class Api:
    """Requests under the ibexa prefix, as admin (Basic), JSON unless told otherwise."""

    def __init__(
        self, client: Any, prefix: str = PREFIX, auth: str | None = ADMIN, *, check_schemas: bool = True
    ) -> None:
        self.client = client
        self.prefix = prefix
        self.auth = auth
        # Off only for fuzzing: a mutated body the parsers tolerate (a number where text is expected, say)
        # need not be what the document tells clients to send.
        self.check_schemas = check_schemas

    def request(
        self,
        method: str,
        path: str,
        *,
        accept: str | None = None,
        body: Any = None,
        content_type: str | None = None,
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> httpx.Response:
        all_headers: dict[str, str] = {}
        if self.auth:
            all_headers["Authorization"] = self.auth
        if accept:
            all_headers["Accept"] = accept
        if content_type:
            all_headers["Content-Type"] = content_type
        all_headers.update(headers or {})
        content = body
        if isinstance(body, dict):
            content = orjson.dumps(body)
        elif isinstance(body, str):
            content = body.encode()
        url = path if path.startswith("http") or path.startswith("/api/") else self.prefix + path
        response: httpx.Response = self.client.request(
            method, url, content=content, headers=all_headers, **kwargs
        )
        content_type = next((v for k, v in all_headers.items() if k.lower() == "content-type"), None)
        if self.check_schemas:
            check_bodies(content_type, content, response)  # the document's schemas hold for real bodies
        return response

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("PATCH", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("DELETE", path, **kwargs)

    def json(self, method: str, path: str, name: str | None = None, **kwargs: Any) -> Any:
        """Send and return the decoded JSON body; ``name`` sets Accept to that media type."""
        if name:
            kwargs.setdefault("accept", media(name))
        response = self.request(method, path, **kwargs)
        return orjson.loads(response.content) if response.content else None


def kill_connections(url: str) -> int:
    """pg_terminate_backend on every other connection to the database at ``url``, as an operator would
    (or a server restart does); how many there were."""
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(row[0]) if row else 0


class ScratchPostgres:
    """Makes PostgreSQL databases next to ``admin_url``'s (empty, or copies of a template database that
    nobody is connected to) and drops them again in the background.

    A DROP DATABASE waits for a checkpoint of the whole server (about 2 s here, however small the
    database); drops sent at the same time share one (20 at once: 5.5 s, against 38 s one after another).
    So the databases tests are done with are dropped in batches of ``batch``, eight at once, and the rest
    by :meth:`close`, which waits for them.

    Copies of a template are made ahead, ``spares`` at a time on one thread of their own: a copy takes
    0.15 to 1 s (the template is written to the WAL), which a test then does not wait for. With
    ``durable`` false (the tests') a database runs with ``synchronous_commit`` off: a commit does not
    wait for its WAL flush, and what it makes visible is the same (only a crash of the server itself could
    lose it, which no test does); a benchmark's keeps the server's own setting, as a deployment does.

    Names end in a uuid: runs on the same server (other checkouts, xdist workers) do not collide. The
    statements go to the driver directly, not through an Engine: :class:`StatementCounter` sees none."""

    def __init__(self, admin_url: str, *, durable: bool = False, batch: int = 16, spares: int = 2) -> None:
        self.admin_url = admin_url
        self._durable = durable
        self._batch = batch
        self._doomed: list[str] = []
        self._failures: list[BaseException] = []
        self._dropper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drop-databases")
        self._drops = ThreadPoolExecutor(max_workers=8, thread_name_prefix="drop-database")
        self._spares = spares
        self._maker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="copy-databases")
        self._made: dict[tuple[str, str], deque[Future[str]]] = {}  # (prefix, template) -> copies ahead
        self._lock = threading.Lock()

    def _execute(self, statement: LiteralString, *names: str) -> None:
        """``statement`` with the database ``names`` quoted into its ``{}``."""
        query = sql.SQL(statement).format(*map(sql.Identifier, names))
        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(query)

    def _drop(self, name: str) -> None:
        try:
            self._execute("DROP DATABASE IF EXISTS {} WITH (FORCE)", name)
        except Exception as error:  # reported by close()
            self._failures.append(error)

    def _drop_batch(self, names: list[str]) -> None:
        list(self._drops.map(self._drop, names))

    def _doom(self, name: str) -> None:
        """Drop ``name`` with the next batch, sent once it is full. Its connections end now: an app a test
        left open holds a few (one per thread that read or wrote), which a batch's worth of tests would
        otherwise add up past the server's ``max_connections``."""
        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
            )
        with self._lock:
            self._doomed.append(name)
            if len(self._doomed) < self._batch:
                return
            names, self._doomed = self._doomed, []
        self._dropper.submit(self._drop_batch, names)

    def _create(self, prefix: str, template: str | None) -> str:
        name = f"{prefix}_{uuid.uuid4().hex}"
        if template:
            self._execute("CREATE DATABASE {} TEMPLATE {}", name, template)
        else:
            self._execute("CREATE DATABASE {}", name)
        if not self._durable:
            self._execute("ALTER DATABASE {} SET synchronous_commit = off", name)
        return name

    def _take(self, prefix: str, template: str | None) -> str:
        """A new database: a copy made ahead when there is one, and copies started for the next tests."""
        if template is None:
            return self._create(prefix, None)
        with self._lock:
            ahead = self._made.setdefault((prefix, template), deque())
            ready = ahead.popleft() if ahead else None
            while len(ahead) < self._spares:
                ahead.append(self._maker.submit(self._create, prefix, template))
        return ready.result() if ready is not None else self._create(prefix, template)

    def _retire(self, template: str) -> None:
        """Drop the copies made ahead of ``template`` (before the template itself goes)."""
        with self._lock:
            keys = [key for key in self._made if key[1] == template]
            pending = [future for key in keys for future in self._made.pop(key)]
        for future in pending:
            try:
                self._doom(future.result())
            except Exception as error:  # reported by close()
                self._failures.append(error)

    @contextmanager
    def database(self, prefix: str, *, template: str | None = None) -> Iterator[str]:
        """The URL of a new database, dropped (in the background) afterwards."""
        name = self._take(prefix, template)
        try:
            yield f"{self.admin_url.rpartition('/')[0]}/{name}"
        finally:
            self._retire(name)
            self._doom(name)

    def close(self) -> None:
        """Wait until every database made here is dropped; raise the first failure to drop one."""
        for _, template in list(self._made):
            self._retire(template)
        self._maker.shutdown()
        with self._lock:
            names, self._doomed = self._doomed, []
        self._dropper.submit(self._drop_batch, names)
        self._dropper.shutdown()  # after every batch before it
        self._drops.shutdown()
        if self._failures:
            raise self._failures[0]


@contextmanager
def scratch_postgres(admin_url: str, prefix: str) -> Iterator[str]:
    """A fresh, empty PostgreSQL database next to ``admin_url``'s (a benchmark's, committing as the server
    is set to), dropped afterwards."""
    databases = ScratchPostgres(admin_url, durable=True)
    try:
        with databases.database(prefix) as url:
            yield url
    finally:
        databases.close()


class RememberingHasher:
    """Stands in for the argon2 hasher of ``pressroom.domain.passwords`` in the test process: a password
    that verified against a hash verifies again without the argon2 work (tens of milliseconds, more on a
    busy machine), which nearly every test spends logging admin in with the clean install's hash through a
    fresh app. Verification is a function of the hash and the password: the answers are the same; a wrong
    password is checked in full every time."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self._verified: set[tuple[str, str]] = set()

    def verify(self, password_hash: str, password: str) -> bool:
        if (password_hash, password) not in self._verified:
            self.real.verify(password_hash, password)  # raises unless the password matches
            self._verified.add((password_hash, password))
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


class StatementCounter:
    """Counts the SQL statements every engine of this process runs while active (a context manager).

    Statement counts do not depend on the machine: tests assert them to catch N+1 loops and lost caches.
    """

    def __init__(self) -> None:
        self.statements: list[str] = []

    def _record(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.statements.append(statement)

    @property
    def count(self) -> int:
        return len(self.statements)

    def __enter__(self) -> StatementCounter:
        event.listen(Engine, "before_cursor_execute", self._record)
        return self

    def __exit__(self, *_exc: object) -> None:
        event.remove(Engine, "before_cursor_execute", self._record)


@contextmanager
def local_http_server(handler: type[http.server.BaseHTTPRequestHandler], port: int) -> Iterator[None]:
    """``handler`` served on 127.0.0.1:``port`` from a thread (a webhook receiver, a fake proxy)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
