"""Test helpers: media types, the API prefix, and a thin client wrapper."""

from __future__ import annotations

import base64
import http.server
import queue
import threading
import uuid
from collections.abc import Iterator
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


class ScratchPostgres:
    """Makes PostgreSQL databases next to ``admin_url``'s (empty, or copies of a template database that
    nobody is connected to) and drops them again on threads of their own: a DROP DATABASE waits for a
    server checkpoint (seconds on a busy machine), which the next test need not wait for, and drops at
    the same time share one. At most ``backlog`` drops wait; :meth:`close` finishes them all.

    Names end in a uuid: runs on the same server (other checkouts, xdist workers) do not collide. The
    statements go to the driver directly, not through an Engine: :class:`StatementCounter` sees none."""

    def __init__(self, admin_url: str, *, droppers: int = 4, backlog: int = 8) -> None:
        self.admin_url = admin_url
        self._doomed: queue.Queue[str | None] = queue.Queue(maxsize=backlog)
        self._failures: list[BaseException] = []
        self._droppers = [
            threading.Thread(target=self._drop_all, name=f"drop-databases-{n}", daemon=True)
            for n in range(droppers)
        ]
        for dropper in self._droppers:
            dropper.start()

    def _execute(self, statement: LiteralString, *names: str) -> None:
        """``statement`` with the database ``names`` quoted into its ``{}``."""
        query = sql.SQL(statement).format(*map(sql.Identifier, names))
        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(query)

    def _drop_all(self) -> None:
        while (name := self._doomed.get()) is not None:
            try:
                self._execute("DROP DATABASE IF EXISTS {} WITH (FORCE)", name)
            except Exception as error:  # reported by close()
                self._failures.append(error)

    @contextmanager
    def database(self, prefix: str, *, template: str | None = None) -> Iterator[str]:
        """The URL of a new database, dropped (in the background) afterwards."""
        name = f"{prefix}_{uuid.uuid4().hex}"
        if template:
            self._execute("CREATE DATABASE {} TEMPLATE {}", name, template)
        else:
            self._execute("CREATE DATABASE {}", name)
        try:
            yield f"{self.admin_url.rpartition('/')[0]}/{name}"
        finally:
            self._doomed.put(name)

    def close(self) -> None:
        """Wait until every database made here is dropped; raise the first failure to drop one."""
        for _ in self._droppers:
            self._doomed.put(None)
        for dropper in self._droppers:
            dropper.join()
        if self._failures:
            raise self._failures[0]


@contextmanager
def scratch_postgres(admin_url: str, prefix: str) -> Iterator[str]:
    """A fresh, empty PostgreSQL database next to ``admin_url``'s (a benchmark's), dropped afterwards."""
    databases = ScratchPostgres(admin_url)
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
