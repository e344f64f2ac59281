"""Test helpers: media types, the API prefix, and a thin client wrapper."""

from __future__ import annotations

import base64
from typing import Any

import httpx
import orjson
from lxml import etree

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
