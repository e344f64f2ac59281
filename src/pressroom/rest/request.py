"""The request as handlers see it: parameters, input parsing, the current user, href helpers."""

from __future__ import annotations

from typing import Any

from starlette.datastructures import Headers, QueryParams

from pressroom.config import Settings
from pressroom.domain.errors import BadRequest, UnsupportedMediaType
from pressroom.domain.integers import check_range, parse_int
from pressroom.domain.user import Session, User
from pressroom.rest.input.decoders import decode
from pressroom.rest.input.node import Node
from pressroom.rest.media import parse_media_type
from pressroom.rest.output.visitor import Out
from pressroom.services.container import Services


class RestRequest:
    __slots__ = (
        "accept_name",
        "body",
        "client",
        "cookie_name",
        "headers",
        "method",
        "out",
        "params",
        "path",
        "query",
        "services",
        "session",
        "settings",
        "user",
    )

    def __init__(
        self,
        *,
        method: str,
        path: str,
        params: dict[str, Any],
        query: QueryParams,
        headers: Headers,
        body: bytes,
        out: Out,
        accept_name: str,
        services: Services,
        settings: Settings,
        user: User,
        session: Session | None,
        cookie_name: str,
        client: str | None,
    ) -> None:
        self.method = method
        self.path = path
        self.params = params
        self.query = query
        self.headers = headers
        self.body = body
        self.out = out
        self.accept_name = accept_name
        self.services = services
        self.settings = settings
        self.user = user
        self.session = session
        self.cookie_name = cookie_name
        self.client = client  # the client's address, for login throttling

    def input(self, *names: str) -> Node:
        """Decode the body as one of the named input media types (415 for any other type)."""
        header = self.headers.get("content-type")
        if not header:
            raise BadRequest("Missing Content-Type header; expected " + self.out.media(names[0]))
        media = parse_media_type(header)
        if media is None or (media.name and media.name not in names):
            raise UnsupportedMediaType(
                f"Content-Type '{header}' is not accepted here; expected {self.out.media(names[0])}"
            )
        root, data = decode(self.body, media.format)
        return Node(data, media.name or root)

    def url(self, route: str, **params: Any) -> str:
        return self.out.url(route, **params)

    def parse_href(self, href: str, *routes: str, what: str = "href") -> dict[str, Any]:
        return self.out.router.parse_href(href, *routes, what=what)[1]

    @property
    def if_match(self) -> str | None:
        return self.headers.get("if-match")

    def wants(self, name: str) -> bool:
        """True when Accept asked for this representation by name (``Content`` vs ``ContentInfo``)."""
        return self.accept_name == name.lower()

    def query_int(self, name: str, default: int) -> int:
        raw = self.query.get(name)
        if raw is None or raw == "":
            return default
        value = parse_int(raw)
        if value is None:
            raise BadRequest(f"Query parameter '{name}' must be an integer, got '{raw}'")
        return check_range(value, f"Query parameter '{name}'")
