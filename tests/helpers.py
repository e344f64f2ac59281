"""Test helpers: media types, the API prefix, and a thin client wrapper."""

from __future__ import annotations

import base64
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import orjson
from lxml import etree
from sqlalchemy import Engine, create_engine, event, text

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

    def __init__(self, client: Any, prefix: str = PREFIX, auth: str | None = ADMIN) -> None:
        self.client = client
        self.prefix = prefix
        self.auth = auth

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


@contextmanager
def scratch_postgres(admin_url: str, prefix: str) -> Iterator[str]:
    """A fresh, empty PostgreSQL database next to ``admin_url``'s (for a test or a benchmark run),
    dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(
        admin_url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT"
    )
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{admin_url.rpartition('/')[0]}/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


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
