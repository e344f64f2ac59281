"""The OAuth 2.0 authorization server's HTTP side, outside the API prefixes: the login page, the
authorization (consent) page, the token, revocation and introspection endpoints, the metadata and the JWKS
(services/oauth.py does the protocol).

The pages are server-rendered HTML (rest/templates), with no asset from elsewhere, and may not be framed.
The login form carries a CSRF token that must match a cookie it set (double submit); the consent form the
session's own CSRF token. Logging in goes through the login throttle and starts a normal session (the
session cookie of the default siteaccess), which the authorization page then recognises. After the login
the browser goes back only to a path of this server (no open redirect); the client's redirect URI must be
one it registered, exactly.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import MutableMapping
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

import orjson
from authlib.oauth2 import OAuth2Error
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.datastructures import Headers
from starlette.requests import cookie_parser

from pressroom.config import Settings
from pressroom.domain.errors import PressroomError, TooManyRequests, Unauthorized
from pressroom.domain.user import Session, User
from pressroom.rest.auth import cookie_name_for, issuer_of
from pressroom.rest.body import RequestBody, read_body
from pressroom.rest.errors import status_of
from pressroom.rest.forwarded import Client
from pressroom.rest.offload import off_loop
from pressroom.rest.operations import Answer
from pressroom.services.container import Services
from pressroom.services.oauth import OAuthRequest

log = logging.getLogger("pressroom.oauth")

LOGIN = "/login"
AUTHORIZE = "/authorize"
TOKEN = "/token"  # noqa: S105 (a path)
REVOKE = "/revoke"
INTROSPECT = "/introspect"
JWKS = "/jwks.json"
METADATA = ("/.well-known/oauth-authorization-server", "/.well-known/openid-configuration")
_PROTOCOL = frozenset({AUTHORIZE, TOKEN, REVOKE, INTROSPECT, JWKS, *METADATA})
CSRF_COOKIE = "pressroom_login_csrf"
PAGE_HEADERS = (
    ("x-frame-options", "DENY"),
    ("content-security-policy", "frame-ancestors 'none'; default-src 'self'"),
    ("cache-control", "no-store"),
    ("referrer-policy", "no-referrer"),
    ("x-content-type-options", "nosniff"),
)
_JSON_HEADERS = (("cache-control", "no-store"), ("pragma", "no-cache"))
_HTML = "text/html; charset=utf-8"
_JSON = "application/json"
SCOPE_MEANINGS = {
    "default": "act as you, with all your rights",
    "read": "read what you may read (no changes)",
}


class OAuthEndpoints:
    def __init__(self, settings: Settings, services: Services) -> None:
        self.settings = settings
        self.services = services
        self.oauth_on = "oauth" in settings.auth_methods
        # the login page serves the OAuth flow and starts a session: there with either method
        self.login_on = self.oauth_on or "session" in settings.auth_methods
        self.templates = Environment(
            loader=PackageLoader("pressroom.rest", "templates"), autoescape=select_autoescape(default=True)
        )

    def handles(self, path: str) -> bool:
        return (path == LOGIN and self.login_on) or (path in _PROTOCOL and self.oauth_on)

    async def answer(self, scope: MutableMapping[str, Any], body: RequestBody, client: Client) -> Answer:
        path, method = scope["path"], scope["method"].upper()
        headers = Headers(scope=scope)
        try:
            if path in METADATA or path == JWKS:
                _allow(method, "GET", "HEAD")
                if path == JWKS:
                    return _json(200, await off_loop(self.services.oauth.jwks))
                return _json(200, self.services.oauth.metadata(issuer_of(self.settings, headers, client)))
            if path in (TOKEN, REVOKE, INTROSPECT):
                _allow(method, "POST")
                form = await self._form(body, headers)
                request = self._request(scope, headers, client, (), form)
                serve = {
                    TOKEN: self.services.oauth.token,
                    REVOKE: self.services.oauth.revoke,
                    INTROSPECT: self.services.oauth.introspect,
                }[path]
                return _protocol(*(await off_loop(serve, request)))
            _allow(method, "GET", "HEAD", "POST")
            form = await self._form(body, headers) if method == "POST" else []
            if path == LOGIN:
                return await self._login(method, headers, client, scope, form)
            return await self._authorize(method, headers, client, scope, form)
        except _Refused as refused:
            return refused.answer
        except OAuth2Error as error:  # a request URI authlib refuses (plain http to a remote host)
            return _protocol(*error())
        except PressroomError as error:  # a body too large or too slow, the database unavailable
            text = error.message
            return self._page(
                status_of(error), "message.html", heading="Request refused", text=text, alert=True
            )

    # -- the login page -------------------------------------------------------------------------------
    async def _login(
        self,
        method: str,
        headers: Headers,
        client: Client,
        scope: MutableMapping[str, Any],
        form: list[tuple[str, str]],
    ) -> Answer:
        cookies = cookie_parser(headers.get("cookie", ""))
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        if method != "POST":
            return self._login_form(200, cookies, _local(query.get("next", "")), "", "", client)
        values = dict(form)
        next_path = _local(values.get("next", ""))
        token, expected = values.get("csrf_token", ""), cookies.get(CSRF_COOKIE, "")
        if not expected or not hmac.compare_digest(token.encode(), expected.encode()):
            return self._login_form(
                400,
                cookies,
                next_path,
                values.get("login", ""),
                "The form expired: please log in again",
                client,
            )
        login, password = values.get("login", ""), values.get("password", "")
        auth = self.services.auth
        try:
            user = await off_loop(
                auth.check_password,
                login,
                password,
                client.address,
                siteaccess=self.settings.default_siteaccess,
            )
        except TooManyRequests as error:
            return self._login_form(429, cookies, next_path, login, error.message, client)
        except Unauthorized:
            return self._login_form(401, cookies, next_path, login, "Invalid login or password", client)
        current = self._session(headers)
        session = await off_loop(auth.start_session, user, current[0] if current else None)
        cookie = self._session_cookie(session, client)
        if next_path:
            return Answer(303, _HTML, b"", (*PAGE_HEADERS, ("location", next_path), ("set-cookie", cookie)))
        page = self._page(
            200, "message.html", heading="Logged in", text=f"You are logged in as {user.login}."
        )
        return Answer(page.status, page.content_type, page.body, (*page.headers, ("set-cookie", cookie)))

    def _login_form(
        self, status: int, cookies: dict[str, str], next_path: str, login: str, error: str, client: Client
    ) -> Answer:
        token = cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        page = self._page(status, "login.html", csrf_token=token, next=next_path, login=login, error=error)
        secure = "; Secure" if self.settings.cookie_secure or client.https else ""
        cookie = f"{CSRF_COOKIE}={token}; Path=/login; HttpOnly; SameSite=Strict{secure}"
        return Answer(page.status, page.content_type, page.body, (*page.headers, ("set-cookie", cookie)))

    def _session_cookie(self, session: Session, client: Client) -> str:
        secure = "; Secure" if self.settings.cookie_secure or client.https else ""
        expires = session.expires_at.strftime("%a, %d %b %Y %H:%M:%S GMT")
        name = cookie_name_for(self.settings.default_siteaccess)
        return (
            f"{name}={session.id}; Expires={expires}; Max-Age={self.settings.session_ttl_seconds}"
            f"; Path=/; HttpOnly; SameSite=Lax{secure}"
        )

    def _session(self, headers: Headers) -> tuple[Session, User] | None:
        """The live session of the default siteaccess's cookie, and its user."""
        session_id = cookie_parser(headers.get("cookie", "")).get(
            cookie_name_for(self.settings.default_siteaccess)
        )
        return self.services.auth.session_user(session_id) if session_id else None

    # -- the authorization page -----------------------------------------------------------------------
    async def _authorize(
        self,
        method: str,
        headers: Headers,
        client: Client,
        scope: MutableMapping[str, Any],
        form: list[tuple[str, str]],
    ) -> Answer:
        raw_query = scope.get("query_string", b"").decode("latin-1")
        query = parse_qsl(raw_query, keep_blank_values=True)
        request = self._request(scope, headers, client, query, ())
        oauth = self.services.oauth
        try:
            found, scopes = await off_loop(oauth.consent_request, request)
        except OAuth2Error as error:
            if error.redirect_uri:  # the client and its redirect URI are known: tell the client
                return _protocol(*oauth.handle_error(request, error))
            text = error.description or error.error
            return self._page(400, "message.html", heading="Authorization refused", text=text, alert=True)
        current = await off_loop(self._session, headers)
        if current is None:
            location = LOGIN + "?" + urlencode({"next": AUTHORIZE + "?" + raw_query})
            return Answer(303, _HTML, b"", (*PAGE_HEADERS, ("location", location)))
        session, user = current
        if method != "POST":
            return self._page(
                200, "consent.html", client_name=found.name, login=user.login, csrf_token=session.csrf_token,
                scopes=[(item, SCOPE_MEANINGS[item]) for item in scopes.split()],
                action=AUTHORIZE + "?" + raw_query,
            )  # fmt: skip
        values = dict(form)
        token = values.get("csrf_token", "")
        if not hmac.compare_digest(token.encode(), session.csrf_token.encode()):
            return self._page(
                400,
                "message.html",
                heading="Request refused",
                text="Missing or invalid CSRF token",
                alert=True,
            )
        allowed = values.get("decision") == "allow"
        return _protocol(*(await off_loop(oauth.authorize, request, user if allowed else None)))

    # -- helpers --------------------------------------------------------------------------------------
    def _request(
        self,
        scope: MutableMapping[str, Any],
        headers: Headers,
        client: Client,
        query: Any,
        form: list[tuple[str, str]] | tuple[()],
    ) -> OAuthRequest:
        issuer = issuer_of(self.settings, headers, client)
        raw_query = scope.get("query_string", b"").decode("latin-1")
        uri = issuer + scope["path"] + ("?" + raw_query if raw_query else "")
        return OAuthRequest(scope["method"].upper(), uri, headers, query, form, issuer=issuer)

    async def _form(self, body: RequestBody, headers: Headers) -> list[tuple[str, str]]:
        media = headers.get("content-type", "").split(";")[0].strip().lower()
        data = await read_body(body, (self.settings.max_anonymous_body_bytes, ""), self.settings)
        if media != "application/x-www-form-urlencoded":
            if not data:
                return []
            raise _Refused(_json(400, {"error": "invalid_request", "error_description": "Send a form"}))
        try:
            return parse_qsl(data.decode("utf-8"), keep_blank_values=True)
        except UnicodeDecodeError:
            raise _Refused(
                _json(400, {"error": "invalid_request", "error_description": "Not UTF-8"})
            ) from None

    def _page(self, status: int, template: str, **values: Any) -> Answer:
        body = self.templates.get_template(template).render(**values).encode()
        return Answer(status, _HTML, body, PAGE_HEADERS)


class _Refused(Exception):
    def __init__(self, answer: Answer) -> None:
        super().__init__(answer.status)
        self.answer = answer


def _allow(method: str, *allowed: str) -> None:
    if method not in allowed:
        body = orjson.dumps({"error": "invalid_request", "error_description": f"{method} is not allowed"})
        raise _Refused(Answer(405, _JSON, body, (("allow", ", ".join(allowed)),)))


def _local(path: str) -> str:
    """``path`` if it is a path of this server (no scheme, no host, no ``//`` or backslash trick), else
    empty."""
    if not path.startswith("/") or path.startswith(("//", "/\\")) or any(ord(c) < 32 for c in path):
        return ""
    return quote(path, safe="/?&=%:+,;@!$'()*-._~")


def _json(status: int, value: Any) -> Answer:
    return Answer(status, _JSON, orjson.dumps(value), _JSON_HEADERS)


def _protocol(status: int, body: Any, headers: list[tuple[str, str]]) -> Answer:
    """authlib's answer: a redirect (no body) or a JSON body."""
    extra = tuple((name.lower(), value) for name, value in headers if name.lower() != "content-type")
    if status in (301, 302, 303):
        return Answer(status, _HTML, b"", (*PAGE_HEADERS, *extra))
    content = body if isinstance(body, bytes) else orjson.dumps(body if body != "" else {})
    merged = dict(_JSON_HEADERS)
    merged.update(extra)
    return Answer(status, _JSON, content, tuple(merged.items()))
