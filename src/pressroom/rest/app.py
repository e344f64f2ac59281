"""The ASGI application: dialect, method override, routing, auth, handler, rendering, errors.

Everything a request goes through is here, in order, so every resource inherits the same HTTP
conventions: OPTIONS and HEAD on every route, 405 with ``Allow``, ETag with ``If-None-Match``,
ErrorMessage in the negotiated format for every failure, and no internals in 5xx answers.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, MutableMapping
from itertools import chain
from typing import Any

from starlette.datastructures import Headers, QueryParams
from starlette.requests import cookie_parser

from pressroom.config import Dialect, Settings
from pressroom.domain.caller import RequestCaller, StaleCaller
from pressroom.domain.errors import (
    BadRequest,
    InsufficientScope,
    InvalidToken,
    MethodNotAllowed,
    NotFound,
    NotImplementedHere,
    PayloadTooLarge,
    RangeNotSatisfiable,
    RetryLater,
    Unavailable,
)
from pressroom.domain.tags import tag_matches
from pressroom.rest import operations
from pressroom.rest.auth import PASSWORD_ROUTES, Caller, check_expected_user, clearing_cookie, identify
from pressroom.rest.body import RequestBody, announces_body, body_limit, read_body
from pressroom.rest.cors import Cors, is_preflight
from pressroom.rest.declared import RAW, Responses, UndeclaredResponse, declared_responses
from pressroom.rest.docs import ApiDocs
from pressroom.rest.errors import represent_error
from pressroom.rest.forwarded import Client, client_of
from pressroom.rest.httpcache import (
    HASH_HEADER,
    PRIVATE,
    USER_CONTEXT_PATH,
    CallerRights,
    cache_headers,
    user_context_answer,
)
from pressroom.rest.media import Accept, Rendering, negotiate, parse_media_type
from pressroom.rest.oauth import OAuthEndpoints
from pressroom.rest.offload import off_loop
from pressroom.rest.operations import Answer, Trace, request_id
from pressroom.rest.output.basics import Root
from pressroom.rest.output.cache import Rendered, RepresentationCache
from pressroom.rest.output.visitor import Out, Representation, visit
from pressroom.rest.output.writers import writer_for
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, Empty, NoContent, RawBody, Redirect, Stream, WithHeaders
from pressroom.rest.routing import Router
from pressroom.services.container import Services
from pressroom.storage.purge import uses_surrogate_key

log = logging.getLogger("pressroom.rest")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_OVERRIDE = re.compile(r"^[A-Z]+$")
_READS = frozenset(("GET", "HEAD"))
_NO_QUERY = QueryParams()  # immutable: shared by the requests without a query string
MEMO_LIMIT = 512  # distinct Accept headers (or answers checked) remembered; then the memo starts again


class RequestHeaders(Headers):
    """The request's headers as Starlette's ``Headers``, but looked up in a dictionary made once: Starlette
    scans the list on every lookup, and a request asks for a dozen names. The first of repeated headers
    is the one found, as with Starlette."""

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope=scope)
        self._first = {key.decode("latin-1"): value.decode("latin-1") for key, value in reversed(self._list)}

    def __getitem__(self, key: str) -> str:
        return self._first[key.lower()]

    def __contains__(self, key: Any) -> bool:
        return key.lower() in self._first

    def get(self, key: str, default: Any = None) -> Any:
        return self._first.get(key.lower(), default)


class Reply:
    """A response under construction: status, headers (in order) and body."""

    __slots__ = ("body", "cors_done", "headers", "status", "stream")

    def __init__(self, status: int, body: bytes = b"") -> None:
        self.status = status
        self.headers: list[tuple[bytes, bytes]] = []
        self.body = body
        self.cors_done = False  # a preflight answer carries its own CORS headers
        self.stream: Callable[[], AsyncIterator[bytes]] | None = None  # a body sent in pieces

    def header(self, name: str, value: str) -> None:
        self.headers.append((name.encode("latin-1"), value.encode("latin-1")))


class RestApp:
    def __init__(self, settings: Settings, services: Services, router: Router) -> None:
        self.settings = settings
        self.services = services
        self.router = router
        self.responses = declared_responses(router.routes)  # raises when a route's answers are unknown
        self.representations = RepresentationCache(settings.representation_cache_mb * 1024 * 1024)
        # Longest prefix first, so that nested prefixes cannot shadow each other.
        self.dialects = sorted(settings.dialects, key=lambda d: len(d.prefix), reverse=True)
        self.cors = Cors(settings.cors_origins)
        self.docs = ApiDocs(settings, router)
        self.oauth = OAuthEndpoints(settings, services)
        self.surrogate_key = uses_surrogate_key(settings.http_cache_purge)  # Fastly's header for the keys
        self._accepts: dict[str | None, Accept] = {}  # negotiate() of each Accept header seen
        self._declared: set[tuple[str, int, bytes | None]] = set()  # answers _check_declared let through
        self._root: dict[Rendering, Rendered] = {}  # the root resource never changes: rendered once

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        trace = Trace(request_id(_raw_header(scope, b"x-request-id")), scope["method"], scope["path"])
        headers = RequestHeaders(scope)  # looked up by name a dozen times: made once
        request_body = RequestBody(receive, headers)
        client = client_of(scope, self.settings.trusted_proxies)
        trace.client = client.address
        if scope["path"] in operations.PATHS:
            trace.route = "operations" + scope["path"].replace("/", ".")
            ready, authorization = self.services.health.ready, _raw_header(scope, b"authorization")
            reply = _plain(operations.answer(scope["path"], ready, self.settings, authorization), "no-store")
        elif self.docs.handles(scope["path"]):
            trace.route = "docs"
            reply = _plain(self.docs.answer(scope["path"]), "no-cache")
        elif self.oauth.handles(scope["path"]):
            trace.route = "oauth" + scope["path"].replace("/", ".")
            reply = _plain(await self.oauth.answer(scope, request_body, client), "no-store")
        elif scope["path"] == USER_CONTEXT_PATH:
            trace.route = "user_context_hash"
            reply = await self.user_context(scope, client)
        else:
            reply = await self.handle(scope, headers, request_body, trace, client)
        if not await request_body.settle():  # the connection cannot carry another request
            reply.header("connection", "close")
        reply.header("x-request-id", trace.request_id)
        if self.cors.enabled and not reply.cors_done:
            for name, value in self.cors.response_headers(headers):
                reply.header(name, value)
        await send({"type": "http.response.start", "status": reply.status, "headers": reply.headers})
        if reply.stream is not None and scope["method"] != "HEAD":
            await _send_stream(reply.stream, send)
        else:
            body = b"" if scope["method"] == "HEAD" else reply.body
            await send({"type": "http.response.body", "body": body})
        trace.finish(reply.status, self.settings.access_log)

    def _dialect(self, path: str) -> tuple[Dialect, str] | None:
        for dialect in self.dialects:
            if path == dialect.prefix or path.startswith(dialect.prefix + "/"):
                return dialect, path[len(dialect.prefix) :] or "/"
        return None

    def _negotiate(self, header: str | None) -> Accept:
        accept = self._accepts.get(header)
        if accept is None:
            if len(self._accepts) >= MEMO_LIMIT:
                self._accepts.clear()
            accept = self._accepts[header] = negotiate(header)
        return accept

    async def handle(
        self, scope: Scope, headers: Headers, body: RequestBody, trace: Trace, client: Client
    ) -> Reply:
        accept = self._negotiate(headers.get("accept"))
        found = self._dialect(scope["path"])
        dialect = found[0] if found else self.settings.dialects[0]
        out = Out(Rendering(dialect, accept.format), self.router, self.services.images.variation_names)
        try:
            if found is None:
                raise NotFound(f"No resource at '{scope['path']}'")
            path = found[1]
            method = scope["method"].upper()
            override = headers.get("x-http-method-override")
            if method == "POST" and override:
                override = override.strip().upper()
                if _OVERRIDE.match(override):
                    method = override
            if method == "OPTIONS":
                allowed = self.router.allowed(path)
                if not allowed:
                    raise NotFound(f"No resource at '{path}'")
                reply = Reply(200)
                reply.header("allow", ",".join(allowed))
                reply.header("content-length", "0")
                if is_preflight(scope["method"], headers):
                    for name, value in self.cors.preflight_headers(headers, allowed):
                        reply.header(name, value)
                    reply.cors_done = True
                return reply
            route, params = self.router.match(method, path)
            trace.route = route.name
            query_string = scope.get("query_string", b"")
            query = QueryParams(query_string) if query_string else _NO_QUERY
            _refuse_nul(params, query)
            # Who is calling decides how much body to accept: know it before reading any.
            cookies = cookie_parser(headers.get("cookie", ""))
            auth = self.services.auth
            caller = await identify(
                auth, self.settings, headers, cookies, method, route.name, client, oauth=self.services.oauth
            )
            request = RestRequest(
                method=method,
                route=route,
                path=path,
                params=params,
                query=query,
                headers=headers,
                out=out,
                accept_name=accept.name,
                services=self.services,
                settings=self.settings,
                user=caller.user,
                session=caller.session,
                cookie_name=caller.cookie_name,
                client=client.address,
                secure_cookies=self.settings.cookie_secure or client.https,
            )
            try:
                return await self._serve(request, caller, body, trace)
            except StaleCaller:  # the cache was wrong about the caller: identify from the rows, again
                if caller.check is not None:
                    auth.forget(caller.check)
                caller = await identify(
                    auth, self.settings, headers, cookies, method, route.name, client,
                    oauth=self.services.oauth, cached=False,
                )  # fmt: skip
                request.serve_as(caller.user, caller.session, caller.cookie_name)
                return await self._serve(request, caller, body, trace)
        except Exception as error:  # every failure becomes an ErrorMessage
            reply = self._error(out, error)
            _set_cache(reply, [("cache-control", PRIVATE)])
            return reply

    async def user_context(self, scope: Scope, client: Client) -> Reply:
        """``GET /_fos_user_context_hash``: the caller's user-context hash (rest/httpcache.py)."""
        headers = Headers(scope=scope)
        try:
            answer = await user_context_answer(self.services, self.settings, scope["method"], headers, client)
            reply = Reply(200)
            for name, value in answer:
                reply.header(name, value)
        except Exception as error:
            rendering = Rendering(self.settings.dialects[0], negotiate(headers.get("accept")).format)
            reply = self._error(Out(rendering, self.router, self.services.images.variation_names), error)
            _set_cache(reply, [("cache-control", PRIVATE)])
        return reply

    async def _serve(self, request: RestRequest, caller: Caller, body: RequestBody, trace: Trace) -> Reply:
        """Serve the request as ``caller``; a cached caller is confirmed before the answer is given
        (StaleCaller when it cannot be: the writes made for it were rolled back). The request's caller
        goes to the services with the request's user (``User.request``), and from them to every
        transaction they open, whose statements confirm it (domain/caller.py)."""
        request_caller = RequestCaller(caller.user.id, caller.check)
        user = caller.user.serving(request_caller)
        try:
            request.user = user
            reply = await self._answer(request, caller, body, trace)
        except StaleCaller:
            raise
        except Exception:
            if request_caller.pending() is not None:
                self.services.auth.confirm_caller(request_caller)
            raise
        return reply

    async def _answer(self, request: RestRequest, caller: Caller, body: RequestBody, trace: Trace) -> Reply:
        headers, method, route, user = request.headers, request.method, request.route, request.user
        trace.user_id = caller.user.id
        check_expected_user(headers, caller.user)
        limit = body_limit(self.settings, caller.user, headers.get("content-type"))
        if request.body is None and method in _READS and not announces_body(headers):
            request.body = b""  # nothing to wait for: a read that announces no body has none we use
        elif request.body is None:
            request.body = await read_body(body, limit, self.settings)
        elif len(request.body) > limit[0]:  # read for a caller the cache got wrong
            raise PayloadTooLarge(f"The request body exceeds {limit[0]} bytes{limit[1]}")
        if route.name in PASSWORD_ROUTES:
            result = await off_loop(route.handler, request, **request.params)
        else:
            result = route.handler(request, **request.params)
        if user.request is not None and user.request.pending() is not None:
            self.services.auth.confirm_caller(user.request)
        reply = self._render(request.out, method, headers, result)
        self._check_declared(route.name, reply)
        if caller.stale_cookie and not route.name.startswith("session."):
            reply.header("set-cookie", clearing_cookie(caller.cookie_name, request.secure_cookies))
        shared = method in _READS and not any(name == b"set-cookie" for name, _ in reply.headers)
        _set_cache(
            reply,
            cache_headers(
                reply.status, route.name, request.params, result,
                lambda: CallerRights(self.services.permissions, user), headers.get(HASH_HEADER),
                self.settings.http_cache_ttl, self.surrogate_key, anonymous=user.is_anonymous,
            )
            if shared
            else [("cache-control", PRIVATE)],
        )  # fmt: skip
        return reply

    def _render(self, out: Out, method: str, headers: Headers, result: Any) -> Reply:
        if isinstance(result, Stream):
            reply = Reply(200)
            reply.stream = result.chunks
            reply.header("content-type", result.media_type)
            for name, value in result.headers.items():
                reply.header(name, value)
            return reply
        if isinstance(result, RawBody):
            reply = Reply(result.status, result.content)
            reply.header("content-type", result.media_type)
            for name, value in result.headers.items():
                reply.header(name, value)
            reply.header("content-length", str(len(result.content)))
            return reply
        if isinstance(result, NoContent):
            reply = Reply(204)
            for name, value in result.headers.items():
                reply.header(name, value)
            return reply
        if isinstance(result, Redirect):
            reply = Reply(result.status)
            reply.header("location", result.location)
            reply.header("content-length", "0")
            return reply
        if isinstance(result, Empty):
            reply = Reply(result.status)
            for name, value in result.headers.items():
                reply.header(name, value)
            reply.header("content-length", "0")
            return reply
        if isinstance(result, Created):
            if result.value is None:
                reply = Reply(201)
                reply.header("content-length", "0")
            else:
                reply = self._represent(out, 201, visit(out, result.value))
            reply.header("location", result.location)
            return reply
        if isinstance(result, WithHeaders):
            reply = self._represent(out, result.status, visit(out, result.value))
            for name, value in result.headers.items():
                reply.header(name, value)
            for cookie in result.cookies:
                reply.header("set-cookie", cookie)
            return reply
        if method not in ("GET", "HEAD"):
            return self._represent(out, 200, visit(out, result))
        key = getattr(result, "cache_key", None)
        if type(result) is Root:
            etag, reply = self._rendered_root(out, result)
        elif key is None:
            representation = visit(out, result)
            etag = representation.etag
            reply = self._represent(out, 200, representation)
        else:
            etag, reply = self._cached(out, (out.rendering, key), result)
        if etag is not None and tag_matches(headers.get("if-none-match"), etag):
            reply = Reply(304)
            reply.header("etag", etag)
            reply.header("vary", "Accept")
        return reply

    def _cached(self, out: Out, key: Hashable, value: Any) -> tuple[str | None, Reply]:
        """The 200 answer for a value with a ``cache_key``, rendered once per process."""
        rendered = self.representations.get(key)
        if rendered is None:
            representation = visit(out, value)
            fresh = self._represent(out, 200, representation)
            rendered = (representation.etag, fresh.body, tuple(fresh.headers))
            self.representations.put(key, rendered)
        etag, body, headers = rendered
        reply = Reply(200, body)
        reply.headers.extend(headers)
        return etag, reply

    def _rendered_root(self, out: Out, root: Root) -> tuple[str | None, Reply]:
        rendered = self._root.get(out.rendering)
        if rendered is None:
            representation = visit(out, root)
            fresh = self._represent(out, 200, representation)
            rendered = self._root[out.rendering] = (representation.etag, fresh.body, tuple(fresh.headers))
        etag, body, headers = rendered
        reply = Reply(200, body)
        reply.headers.extend(headers)
        return etag, reply

    def _check_declared(self, name: str, reply: Reply) -> None:
        """:func:`_check_declared`, once for each route, status and media type."""
        sent = next((value for key, value in reply.headers if key == b"content-type"), None)
        if (name, reply.status, sent) in self._declared:
            return
        _check_declared(name, self.responses[name], reply)
        if len(self._declared) >= MEMO_LIMIT:
            self._declared.clear()
        self._declared.add((name, reply.status, sent))

    @staticmethod
    def _represent(out: Out, status: int, representation: Representation) -> Reply:
        body = writer_for(out.rendering.format)(representation.root, representation.body)
        reply = Reply(status, body)
        if representation.media:
            reply.header("content-type", out.media(representation.media))
        if representation.accept_patch:
            reply.header("accept-patch", out.media(representation.accept_patch))
        if representation.etag:
            reply.header("etag", representation.etag)
        reply.header("vary", "Accept")
        reply.header("content-length", str(len(body)))
        return reply

    def _error(self, out: Out, error: Exception) -> Reply:
        status, representation = represent_error(out, error)
        if isinstance(error, Unavailable):
            log.warning("database unavailable: %s", error.__cause__ or error)
        elif isinstance(error, NotImplementedHere):  # an answer, not a fault: one line, no traceback
            log.info("not implemented: %s", error.message)
        elif status >= 500:
            log.exception("unhandled error", exc_info=error)
        reply = self._represent(out, status, representation)
        if isinstance(error, MethodNotAllowed):
            reply.header("allow", ",".join(error.allowed))
        if isinstance(error, RetryLater):
            reply.header("retry-after", str(error.retry_after))
        if isinstance(error, RangeNotSatisfiable):
            reply.header("content-range", f"bytes */{error.size}")
        if isinstance(error, InvalidToken | InsufficientScope):
            reply.header("www-authenticate", error.challenge)
        return reply


def _plain(answer: Answer, cache_control: str) -> Reply:
    """A reply outside the API prefixes (operations, the API description), Cache-Control unless the
    answer sets its own."""
    reply = Reply(answer.status, answer.body)
    reply.header("content-type", answer.content_type)
    if not any(name == "cache-control" for name, _ in answer.headers):
        reply.header("cache-control", cache_control)
    for name, value in answer.headers:
        reply.header(name, value)
    reply.header("content-length", str(len(answer.body)))
    return reply


def _set_cache(reply: Reply, headers: list[tuple[str, str]]) -> None:
    """Add the cache headers unless the answer chose its own Cache-Control; one Vary header in all."""
    if any(name == b"cache-control" for name, _ in reply.headers):
        return
    for name, value in headers:
        if name == "vary":
            kept = [v.decode("latin-1") for n, v in reply.headers if n == b"vary"]
            reply.headers = [(n, v) for n, v in reply.headers if n != b"vary"]
            reply.header(name, ", ".join([*kept, value]))
        else:
            reply.header(name, value)


def _check_declared(name: str, responses: Responses, reply: Reply) -> None:
    """Refuse (as a bug) a success answer the route table does not declare for the route: the OpenAPI
    document made from the table must describe what is sent."""
    if reply.status == 304:  # a conditional GET: every GET route answers it
        return
    media = responses.get(reply.status)
    if media is None:
        raise UndeclaredResponse(f"route {name} answered the undeclared status {reply.status}")
    if RAW in media:
        return
    sent = next((value for key, value in reply.headers if key == b"content-type"), None)
    if sent is not None and sent.decode("latin-1").split(";")[0].strip() in media:
        return  # declared as a plain media type (the event feed's CloudEvents batch, its event stream)
    parsed = parse_media_type(sent.decode("latin-1")) if sent is not None else None
    if (parsed.name if parsed is not None else "") not in (media or ("",)):
        raise UndeclaredResponse(f"route {name} answered {reply.status} with an undeclared media type")


def _raw_header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _refuse_nul(params: dict[str, Any], query: QueryParams) -> None:
    """A NUL character names nothing stored (PostgreSQL cannot even compare text holding one): the
    same 400 on every database, naming the path or query parameter."""
    for name, value in chain(params.items(), query.multi_items()):
        if isinstance(value, str) and "\x00" in value:
            raise BadRequest(f"Parameter '{name}' must not contain a NUL character")


async def _send_stream(chunks: Callable[[], AsyncIterator[bytes]], send: Send) -> None:
    """Send each piece as it comes; a client that went away ends the stream (its send fails)."""
    source = chunks()
    try:
        async for chunk in source:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    except Exception:  # the connection is gone: nothing to answer
        log.debug("stream ended by the client")
    finally:
        await source.aclose()  # type: ignore[attr-defined]


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
