"""The request as handlers see it: parameters, input parsing, the current user, href helpers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

from starlette.datastructures import Headers, QueryParams

from pressroom.config import Settings
from pressroom.domain.errors import BadRequest
from pressroom.domain.integers import check_range, parse_int
from pressroom.domain.user import Session, User
from pressroom.rest.input.node import Node
from pressroom.rest.input.registry import Parser, Refs, parser_of, read_input
from pressroom.rest.output.visitor import Out
from pressroom.rest.routing import Route
from pressroom.services.container import Services

T = TypeVar("T")


class Undeclared(Exception):
    """A handler read an input its route does not declare: a bug (500), caught by the tests that run the
    handler, so that the route table (and the OpenAPI document made from it) stays true."""


class DeclaredQuery:
    """The query string, readable only by the names the route declares."""

    __slots__ = ("_params", "_route")

    def __init__(self, params: QueryParams, route: Route) -> None:
        self._params = params
        self._route = route

    @overload
    def get(self, name: str) -> str | None: ...

    @overload
    def get(self, name: str, default: str) -> str: ...

    @overload
    def get(self, name: str, default: str | None) -> str | None: ...

    def get(self, name: str, default: str | None = None) -> str | None:
        if not self._route.reads(name):
            raise Undeclared(f"route {self._route.name} reads the undeclared query parameter '{name}'")
        return self._params.get(name, default)


class RestRequest:
    """The request being served: what the route matched, who calls, and the body once read (the same
    object serves it again when a cached caller turns out stale)."""

    __slots__ = (
        "_input",
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
        "route",
        "secure_cookies",
        "services",
        "session",
        "settings",
        "user",
    )

    def __init__(
        self,
        *,
        method: str,
        route: Route,
        path: str,
        params: dict[str, Any],
        query: QueryParams,
        headers: Headers,
        out: Out,
        accept_name: str,
        services: Services,
        settings: Settings,
        user: User,
        session: Session | None,
        cookie_name: str,
        client: str | None,
        secure_cookies: bool,
    ) -> None:
        self.method = method
        self.route = route
        self.path = path
        self.params = params
        self.query = DeclaredQuery(query, route)
        self.headers = headers
        self.body: bytes | None = None  # read once the caller is known (its limit depends on who calls)
        self._input: tuple[Parser, Any] | None = None  # the body decoded and parsed, once
        self.out = out
        self.accept_name = accept_name
        self.services = services
        self.settings = settings
        self.user = user
        self.session = session
        self.cookie_name = cookie_name
        self.client = client  # the client's address (behind a trusted proxy: X-Forwarded-For), for throttling
        # PRESSROOM_COOKIE_SECURE, or the client used HTTPS (the scheme, or a trusted X-Forwarded-Proto)
        self.secure_cookies = secure_cookies

    def serve_as(self, user: User, session: Session | None, cookie_name: str) -> None:
        """Serve the request again as another caller (a cached caller was stale); the body read stays."""
        self.user = user
        self.session = session
        self.cookie_name = cookie_name

    def input(self, parser: Callable[[Node, Refs], T]) -> T:
        """The body, decoded as the input type the route declares and parsed by its registered parser
        (rest/input/registry.py): ``parser`` names the one the handler expects."""
        if not any(parser_of(name) is parser for name in self.route.accepts):
            raise Undeclared(f"route {self.route.name} reads an undeclared input with {parser.__name__}")
        if self._input is None:
            content_type = self.headers.get("content-type")
            self._input = read_input(
                self.body or b"", content_type, self.route.accepts, self.out.media, self.out.router
            )
        used, value = self._input
        if used is not parser:
            raise Undeclared(f"route {self.route.name} reads its input with {parser.__name__}")
        return value  # type: ignore[no-any-return]

    def url(self, route: str, **params: Any) -> str:
        return self.out.url(route, **params)

    def parse_href(self, href: str, *routes: str, what: str = "href") -> dict[str, Any]:
        return Refs(self.out.router).parse_href(href, *routes, what=what)

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
