"""Who is calling: a client certificate, Basic, a Bearer token (this server's JWT or an external OpenID
Connect provider's), or a session cookie with its CSRF rule; anonymous otherwise.

No permission logic here: this module only turns credentials into a user (spec/auth.md).
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
from dataclasses import dataclass

from starlette.datastructures import Headers

from pressroom.config import Settings
from pressroom.domain.caller import CallerCheck
from pressroom.domain.errors import BadRequest, InsufficientScope, InvalidToken, Unauthorized
from pressroom.domain.user import Session, User
from pressroom.rest.certificate import certificate_subject
from pressroom.rest.forwarded import Client
from pressroom.rest.offload import OFF_LOOP_ROUTES, off_loop
from pressroom.services.auth import AuthService
from pressroom.services.oauth import OAuthService
from pressroom.services.oidc import OidcService

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Session routes check the token themselves (or need none): login, refresh, logout, check.
CSRF_EXEMPT_ROUTES = frozenset({"session.create", "session.refresh", "session.delete", "session.current"})
# The routes whose handler runs off the event loop (the name rest/app.py reads): password checks and
# image variations (rest/offload.py).
PASSWORD_ROUTES = OFF_LOOP_ROUTES
# Authorization schemes and the methods (PRESSROOM_AUTH_METHODS) each belongs to.
_SCHEME_METHODS = {"basic": ("basic",), "bearer": ("jwt", "oauth", "oidc")}
COOKIE_PREFIX = "eZSESSID"


@dataclass(frozen=True, slots=True)
class Caller:
    user: User
    session: Session | None
    cookie_name: str
    stale_cookie: bool = False  # a session cookie was sent but its session is gone
    check: CallerCheck | None = None  # recognised from a cache: the request confirms it


def siteaccess_of(headers: Headers, settings: Settings) -> str:
    name = headers.get("x-siteaccess")
    if name is None or name == "":
        return settings.default_siteaccess
    if name not in settings.siteaccesses:
        raise BadRequest(f"Unknown siteaccess '{name}' in header X-Siteaccess")
    return name


def clearing_cookie(name: str, secure: bool) -> str:
    """The Set-Cookie value that removes the session cookie (logout, dead session); ``secure`` as the
    session cookie was set."""
    attributes = "Path=/; HttpOnly; Secure" if secure else "Path=/; HttpOnly"
    return f"{name}=deleted; Expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; {attributes}"


def csrf_token_matches(token: str | None, session: Session) -> bool:
    """Constant-time check of an ``X-CSRF-Token`` header; any bytes a client sends are just a mismatch.

    Compared as bytes: ``hmac.compare_digest`` refuses non-ASCII strings with a TypeError.
    """
    if token is None:
        return False
    return hmac.compare_digest(token.encode("utf-8", "surrogateescape"), session.csrf_token.encode("utf-8"))


@functools.cache  # one of the configured siteaccesses (siteaccess_of refuses others)
def cookie_name_for(siteaccess: str) -> str:
    return COOKIE_PREFIX + hashlib.md5(siteaccess.encode(), usedforsecurity=False).hexdigest()


def _basic_credentials(credentials: str) -> tuple[str, str]:
    try:
        decoded = base64.b64decode(credentials, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise BadRequest("The Authorization header carries malformed Basic credentials") from None
    login, sep, password = decoded.partition(":")
    if not sep:
        raise BadRequest("The Authorization header carries malformed Basic credentials")
    return login, password


async def identify(
    auth: AuthService,
    settings: Settings,
    headers: Headers,
    cookies: dict[str, str],
    method: str,
    route_name: str,
    client: Client,
    *,
    oauth: OAuthService | None = None,
    cached: bool = True,
) -> Caller:
    """Who is calling, by the methods of ``PRESSROOM_AUTH_METHODS`` only: the credentials of any other are
    ignored like an unknown Authorization scheme. A client certificate a trusted proxy verified decides
    alone: a session cookie beside it is not looked at, and an Authorization header of an active method
    beside it is refused (400), rather than picking one of two identities. Only the session cookie of the
    request's siteaccess counts (auth.md §4): a cookie of another siteaccess is not this siteaccess's
    session. Basic credentials not verified in the last minute are checked off the event loop. With
    ``cached``, a caller known to this process is taken without a statement, for the request to confirm
    (domain/caller.py)."""
    siteaccess = siteaccess_of(headers, settings)
    cookie_name = cookie_name_for(siteaccess)
    scheme, credentials = _authorization(headers, settings.auth_methods)
    subject = certificate_subject(headers, settings, client.proxied)
    if subject is not None:
        if scheme:
            raise BadRequest(
                "The request carries a client certificate and an Authorization header: send one of them"
            )
        found = auth.certificate_user(subject.kind, subject.value, siteaccess=siteaccess, cached=cached)
        return _stateless(found, cookie_name)
    if scheme == "basic":
        login, password = _basic_credentials(credentials)
        check = auth.cached_basic(login, password, siteaccess) if cached else None
        if check is not None:
            return _stateless(check, cookie_name)
        user = await off_loop(
            auth.basic, login, password, client.address, siteaccess=siteaccess, cached=cached
        )
        return _stateless(user, cookie_name)
    if scheme == "bearer":
        user = await bearer_user(
            auth, oauth, settings, headers, client, credentials, method, siteaccess, cached=cached
        )
        return _stateless(user, cookie_name)
    session_id = cookies.get(cookie_name) if "session" in settings.auth_methods else None
    if session_id:
        unsafe = method not in SAFE_METHODS and route_name not in CSRF_EXEMPT_ROUTES
        token = headers.get("x-csrf-token")
        known = auth.cached_session(session_id) if cached else None
        # a refusal is decided on the rows read, never on a cached session
        if known is not None and (not unsafe or csrf_token_matches(token, known[0])):
            return Caller(known[1].user, known[0], cookie_name, check=known[1])
        alive = auth.session_user(session_id)
        if alive is None:
            return Caller(auth.anonymous(), None, cookie_name, stale_cookie=True)
        session, user = alive
        if unsafe and not csrf_token_matches(token, session):
            raise Unauthorized(f"Missing or invalid CSRF token for {method}")
        return Caller(user, session, cookie_name)
    return Caller(auth.anonymous(), None, cookie_name)


def _authorization(headers: Headers, methods: tuple[str, ...]) -> tuple[str, str]:
    """The Authorization header's scheme (lower case) and credentials; ``("", "")`` without one, or when
    its scheme is unknown or of no method active."""
    scheme, _, credentials = headers.get("authorization", "").partition(" ")
    scheme = scheme.lower()
    if not any(method in methods for method in _SCHEME_METHODS.get(scheme, ())):
        return "", ""
    return scheme, credentials.strip()


async def bearer_user(
    auth: AuthService,
    oauth: OAuthService | None,
    settings: Settings,
    headers: Headers,
    client: Client,
    token: str,
    method: str,
    siteaccess: str,
    *,
    cached: bool,
) -> User | CallerCheck:
    """Whom a Bearer token names, each kind honoured only while its method is active:
    - a token the external OpenID Connect provider issued (its unverified ``iss`` says so; ``oidc``),
      verified off the event loop unless verified before (fetching the provider's keys may take up to its
      timeout);
    - an access token of this server's OAuth authorization server (its JWS header says so: ``typ``
      at+jwt or a ``kid``; ``oauth``), narrowed to the safe methods by the ``read`` scope;
    - else the session API's JWT (``jwt``), or, with ``jwt`` off, the provider's (for its error).
    A token no active method takes is an invalid token."""
    methods = settings.auth_methods
    oidc = auth.oidc if "oidc" in methods else None
    if oidc is not None and oidc.issued(token):
        return await _provider_user(oidc, token, siteaccess, cached)
    if oauth is not None and "oauth" in methods and oauth.is_access_token(token):
        verified = oauth.verify(token, issuer_of(settings, headers, client))
        if "default" not in verified.scope and method not in SAFE_METHODS:
            raise InsufficientScope(
                f"The access token's scope ({' '.join(verified.scope)}) does not allow {method}"
            )
        return verified.user
    if "jwt" in methods:
        return auth.user_from_token(token, cached=cached)
    if oidc is not None:
        return await _provider_user(oidc, token, siteaccess, cached)
    raise InvalidToken("The Bearer token is not an access token of this server")


async def _provider_user(oidc: OidcService, token: str, siteaccess: str, cached: bool) -> User | CallerCheck:
    check = oidc.cached(token, siteaccess) if cached else None
    if check is not None:
        return check
    return await off_loop(oidc.user_from_token, token, siteaccess=siteaccess)


def issuer_of(settings: Settings, headers: Headers, client: Client) -> str:
    """The OAuth issuer: ``PRESSROOM_OAUTH_ISSUER``, else the base URL the request came to."""
    if settings.oauth_issuer:
        return settings.oauth_issuer
    scheme = "https" if client.https else "http"
    return f"{scheme}://{headers.get('host', 'localhost')}"


def _stateless(found: User | CallerCheck, cookie_name: str) -> Caller:
    """The caller of stateless credentials (no session), as read or as a cache knows it."""
    if isinstance(found, CallerCheck):
        return Caller(found.user, None, cookie_name, check=found)
    return Caller(found, None, cookie_name)


def check_expected_user(headers: Headers, user: User) -> None:
    """``X-Expected-User`` names the login the client believes it acts as; an empty value asks nothing."""
    expected = headers.get("x-expected-user", "").strip()
    if expected and (user.is_anonymous or user.login != expected):
        raise Unauthorized("Expectation failed. User changed.")
