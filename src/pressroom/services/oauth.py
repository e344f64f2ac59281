"""The OAuth 2.0 authorization server and the check of its access tokens (the resource server side).

The protocol is authlib's (rfc6749 grants, rfc7636 PKCE, rfc7009 revocation, rfc7662 introspection); this
module gives it storage, clients, users and tokens:

- Clients have exact redirect URIs; a confidential one a secret kept as a SHA-256 hash (it is random and
  long, shown once), a public one none and must use PKCE with S256. A confidential client configured with a
  user may use the client credentials grant and then acts as that user.
- Authorization codes live a minute and are taken once: presenting one again revokes what it was
  exchanged for. Refresh tokens rotate on every use; presenting a rotated one again (a reuse: someone kept
  a copy) revokes its whole family, every refresh and access token descended from the same grant.
- Access tokens are JWTs signed with ES256 (``typ: at+jwt``, ``kid``; RFC 9068 claims plus the family and
  the user's token epoch). The signing keys are kept in the database, the private half encrypted with a
  key derived from the server secret; a new key is made when the newest is older than the rotation period,
  and an old one stays published (and accepted) until the last token it signed has expired.
- A token is honoured while its client exists, neither it nor its family is revoked, its user is enabled
  and has not logged out since it was issued (the token epoch, services/auth.py).

Each protocol request runs in one transaction (``_tx``): authlib calls back into this module for the rows.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import (
    AuthorizationCodeMixin,
    AuthorizationServer,
    ClientMixin,
    InvalidGrantError,
    InvalidRequestError,
    OAuth2Payload,
    OAuth2Request,
    TokenMixin,
    grants,
)
from authlib.oauth2.rfc6749.util import scope_to_list
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc7662 import IntrospectionEndpoint
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import ECKey, KeySet
from joserfc.jws import extract_compact
from joserfc.jwt import JWTClaimsRegistry

from pressroom.domain.errors import BadRequest, InvalidToken, NotFound
from pressroom.domain.oauth import SCOPES, AuthorizationCode, OAuthClient, RefreshToken, SigningKey
from pressroom.domain.user import User
from pressroom.storage.spi import Store, Tx

ALGORITHM = "ES256"
ACCESS_TOKEN_TYPE = "at+jwt"  # noqa: S105 (a JWS typ)
CODE_TTL = 60
CLOCK_LEEWAY = 30
_KEY_INFO = b"pressroom oauth signing key"
_KEYS_RELOAD = 60.0
_CONFIDENTIAL = ["client_secret_basic", "client_secret_post"]
_ANY_CLIENT = [*_CONFIDENTIAL, "none"]
_GRANTS = ("authorization_code", "refresh_token")


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


# -- authlib's models over the domain values ------------------------------------------------------------
class _Client(ClientMixin):  # type: ignore[misc]
    def __init__(self, client: OAuthClient) -> None:
        self.client = client

    def get_client_id(self) -> str:
        return self.client.id

    def get_default_redirect_uri(self) -> str | None:
        uris = self.client.redirect_uris
        return uris[0] if len(uris) == 1 else None

    def get_allowed_scope(self, scope: str | None) -> str:
        wanted = [item for item in scope_to_list(scope or "") or [] if item in SCOPES]
        return " ".join(dict.fromkeys(wanted)) or "default"

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri in self.client.redirect_uris

    def check_client_secret(self, client_secret: str) -> bool:
        stored = self.client.secret_hash
        return stored is not None and hmac.compare_digest(_hash(client_secret), stored)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method == "none" if self.client.public else method in _CONFIDENTIAL

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        if grant_type == "client_credentials":
            return not self.client.public and self.client.user_id is not None
        return grant_type in _GRANTS


class _Code(AuthorizationCodeMixin):  # type: ignore[misc]
    def __init__(self, code: AuthorizationCode) -> None:
        self.code = code

    def get_redirect_uri(self) -> str:
        return self.code.redirect_uri

    def get_scope(self) -> str:
        return self.code.scope


@dataclass(frozen=True, slots=True)
class _Refresh(TokenMixin):  # type: ignore[misc]
    token: RefreshToken

    def check_client(self, client: _Client) -> bool:
        return client.get_client_id() == self.token.client_id

    def get_scope(self) -> str:
        return self.token.scope

    def get_expires_in(self) -> int:
        return max(0, self.token.expires_at - int(time.time()))

    def is_expired(self) -> bool:
        return self.token.expires_at < int(time.time())

    def is_revoked(self) -> bool:
        return self.token.used


@dataclass(frozen=True, slots=True)
class _Presented(TokenMixin):  # type: ignore[misc]
    """A token presented to revocation or introspection, as this server knows it."""

    kind: str  # access_token | refresh_token
    client_id: str
    user: User | None
    scope: str
    family: str
    expires_at: int
    claims: Mapping[str, Any]
    revoked: bool

    def check_client(self, client: _Client) -> bool:
        return client.get_client_id() == self.client_id

    def get_scope(self) -> str:
        return self.scope

    def get_expires_in(self) -> int:
        return max(0, self.expires_at - int(time.time()))

    def is_expired(self) -> bool:
        return self.expires_at < int(time.time())

    def is_revoked(self) -> bool:
        return self.revoked


# -- requests -------------------------------------------------------------------------------------------
class _Payload(OAuth2Payload):  # type: ignore[misc]
    def __init__(self, values: Sequence[tuple[str, str]]) -> None:
        self._values = values

    @property
    def data(self) -> dict[str, str]:
        return dict(self._values)

    @property
    def datalist(self) -> dict[str, list[str]]:
        grouped: dict[str, list[str]] = {}
        for name, value in self._values:
            grouped.setdefault(name, []).append(value)
        return grouped


class OAuthRequest(OAuth2Request):  # type: ignore[misc]
    """One HTTP request as authlib reads it: the query for the authorization endpoint, the form for the
    others (as both, like a web framework's request values)."""

    def __init__(
        self,
        method: str,
        uri: str,
        headers: Mapping[str, str],
        query: Sequence[tuple[str, str]],
        form: Sequence[tuple[str, str]] = (),
        *,
        issuer: str,
    ) -> None:
        super().__init__(method, uri, headers=headers)
        self.issuer = issuer
        self.payload = _Payload([*query, *form])
        self._query = dict(query)
        self._form = dict(form)

    @property
    def args(self) -> dict[str, str]:
        return self._query

    @property
    def form(self) -> dict[str, str]:
        return self._form


# -- grants ---------------------------------------------------------------------------------------------
class _Tokens:
    """Tokens are made by the service (signed JWT, refresh token row) in the request's transaction."""

    request: OAuthRequest
    server: _Server

    def generate_token(
        self,
        user: User | None = None,
        scope: str | None = None,
        grant_type: str | None = None,
        expires_in: int | None = None,
        include_refresh_token: bool = True,
    ) -> dict[str, Any]:
        return self.server.service.issue(
            self.server.transaction(), self.request, user, scope or "default", include_refresh_token
        )

    def save_token(self, token: dict[str, Any]) -> None:
        """Kept when made (the refresh token's row); an access token is not stored."""


class _Pkce(CodeChallenge):  # type: ignore[misc]
    """PKCE with S256 only; a public client must use it."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant: Any, redirect_uri: str) -> None:
        data = grant.request.payload.data
        challenge, method = data.get("code_challenge"), data.get("code_challenge_method")
        if grant.request.client.client.public and not challenge:
            raise InvalidRequestError("A public client must send a PKCE 'code_challenge' (S256)")
        if challenge and method != "S256":
            raise InvalidRequestError("'code_challenge_method' must be S256")
        super().validate_code_challenge(grant, redirect_uri)

    def get_authorization_code_challenge(self, authorization_code: _Code) -> str | None:
        return authorization_code.code.code_challenge

    def get_authorization_code_challenge_method(self, authorization_code: _Code) -> str | None:
        return authorization_code.code.code_challenge_method


class _CodeGrant(_Tokens, grants.AuthorizationCodeGrant):  # type: ignore[misc]
    TOKEN_ENDPOINT_AUTH_METHODS = _ANY_CLIENT

    def save_authorization_code(self, code: str, request: OAuthRequest) -> None:
        data = request.payload.data
        self.server.transaction().oauth.add_code(
            AuthorizationCode(
                code_hash=_hash(code),
                client_id=request.client.get_client_id(),
                user_id=request.user.id,
                redirect_uri=request.payload.redirect_uri or "",
                scope=request.client.get_allowed_scope(request.payload.scope),
                code_challenge=data.get("code_challenge"),
                code_challenge_method=data.get("code_challenge_method"),
                family_id=secrets.token_urlsafe(16),
                expires_at=int(time.time()) + CODE_TTL,
            )
        )

    def query_authorization_code(self, code: str, client: _Client) -> _Code | None:
        """The code, taken: a second presentation (a replay) revokes what the first got."""
        found = self.server.transaction().oauth.take_code(_hash(code))
        if found is None:
            return None
        stored, fresh = found
        if not fresh:
            self.server.service.revoke_family(self.server.transaction(), stored.family_id)
            return None
        if stored.client_id != client.get_client_id() or stored.expires_at < time.time():
            return None
        return _Code(stored)

    def delete_authorization_code(self, authorization_code: _Code) -> None:
        """Taken when queried already."""

    def authenticate_user(self, authorization_code: _Code) -> User | None:
        user = self.server.transaction().users.get(authorization_code.code.user_id)
        return user if user is not None and user.enabled else None


class _RefreshGrant(_Tokens, grants.RefreshTokenGrant):  # type: ignore[misc]
    TOKEN_ENDPOINT_AUTH_METHODS = _ANY_CLIENT
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token: str) -> _Refresh | None:
        """The token, rotated out: presented again later, it revokes its whole family."""
        tx = self.server.transaction()
        found = tx.oauth.refresh_token(_hash(refresh_token))
        if found is None or found.client_id != self.request.client.get_client_id():
            return None
        if found.used or not tx.oauth.use_refresh_token(found.token_hash):
            self.server.service.revoke_family(self.server.transaction(), found.family_id)
            return None
        if found.expires_at < time.time():
            return None
        return _Refresh(found)

    def authenticate_user(self, refresh_token: _Refresh) -> User | None:
        tx = self.server.transaction()
        user = tx.users.get(refresh_token.token.user_id)
        if user is None or not user.enabled or tx.users.token_epoch(user.id) != refresh_token.token.epoch:
            return None
        return user

    def revoke_old_credential(self, refresh_token: _Refresh) -> None:
        """Marked used when authenticated already."""


class _ClientCredentialsGrant(_Tokens, grants.ClientCredentialsGrant):  # type: ignore[misc]
    TOKEN_ENDPOINT_AUTH_METHODS = _CONFIDENTIAL


class _Revocation(RevocationEndpoint):  # type: ignore[misc]
    CLIENT_AUTH_METHODS = _ANY_CLIENT

    def query_token(self, token_string: str, token_type_hint: str | None) -> _Presented | None:
        server: _Server = self.server
        return server.service.presented(server.transaction(), token_string, server.issuer)

    def revoke_token(self, token: _Presented, request: OAuthRequest) -> None:
        """A refresh token takes its family with it; an access token goes alone."""
        if token.kind == "refresh_token":
            self.server.service.revoke_family(self.server.transaction(), token.family)
        else:
            self.server.transaction().oauth.revoke(
                f"jti:{token.claims['jti']}", token.expires_at, int(time.time())
            )


class _Introspection(IntrospectionEndpoint):  # type: ignore[misc]
    """Any confidential client (a resource server is one) may ask about any token."""

    CLIENT_AUTH_METHODS = _CONFIDENTIAL

    def query_token(self, token_string: str, token_type_hint: str | None) -> _Presented | None:
        server: _Server = self.server
        return server.service.presented(server.transaction(), token_string, server.issuer)

    def check_permission(self, token: _Presented, client: _Client, request: OAuthRequest) -> bool:
        return not client.client.public

    def introspect_token(self, token: _Presented) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "active": True,
            "client_id": token.client_id,
            "token_type": "Bearer" if token.kind == "access_token" else "refresh_token",
            "scope": token.scope,
            "exp": token.expires_at,
        }
        if token.user is not None:
            answer.update(sub=str(token.user.id), username=token.user.login)
        for claim in ("iat", "iss", "aud", "jti"):
            if claim in token.claims:
                answer[claim] = token.claims[claim]
        return answer


class _Server(AuthorizationServer):  # type: ignore[misc]
    """authlib's server for one request: its callbacks run in ``tx``, for the ``issuer`` the request
    came to (a server is made per request, so nothing of a request rides global state)."""

    def __init__(self, service: OAuthService, tx: Tx | None = None, issuer: str = "") -> None:
        super().__init__(scopes_supported=list(SCOPES))
        self.service = service
        self.tx = tx
        self.issuer = issuer
        self.register_grant(_CodeGrant, [_Pkce(required=True)])
        self.register_grant(_RefreshGrant)
        self.register_grant(_ClientCredentialsGrant)
        self.register_endpoint(_Revocation)
        self.register_endpoint(_Introspection)

    def transaction(self) -> Tx:
        if self.tx is None:
            raise RuntimeError("an OAuth callback ran outside its transaction")
        return self.tx

    def query_client(self, client_id: str) -> _Client | None:
        found = self.transaction().oauth.client(client_id) if client_id else None
        return None if found is None else _Client(found)

    def save_token(self, token: dict[str, Any], request: OAuthRequest) -> None:
        """Kept when made."""

    def create_oauth2_request(self, request: OAuthRequest) -> OAuthRequest:
        return request

    def handle_response(
        self, status: int, body: Any, headers: list[tuple[str, str]]
    ) -> tuple[int, Any, list[tuple[str, str]]]:
        return status, body, headers

    def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
        """No signals."""


# -- keys -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Key:
    kid: str
    public: ECKey
    public_jwk: dict[str, Any]
    created_at: int
    private: ECKey | None  # None: not decryptable with the secrets known (made under another secret)


def _wrapping_key(secret: str) -> AESGCM:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_KEY_INFO).derive(secret.encode())
    return AESGCM(derived)


# -- the service ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Verified:
    """The caller of an access token."""

    user: User
    scope: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClientSecret:
    client: OAuthClient
    secret: str | None  # shown once; None for a public client


class OAuthService:
    def __init__(
        self,
        store: Store,
        *,
        secret_keys: Sequence[str],
        access_ttl: int,
        refresh_ttl: int,
        key_rotation: int,
    ) -> None:
        self.store = store
        self.secret_keys = tuple(secret_keys)  # the current one first
        self.access_ttl = access_ttl
        self.refresh_ttl = refresh_ttl
        self.key_rotation = key_rotation
        self._keys: tuple[float, list[_Key]] = (0.0, [])
        self._lock = threading.Lock()

    @contextmanager
    def _serving(self, request: OAuthRequest, *, write: bool) -> Iterator[_Server]:
        """authlib's server for ``request``, its callbacks in one transaction."""
        with self.store.write() if write else self.store.read() as tx:
            yield _Server(self, tx, request.issuer)

    # -- clients --------------------------------------------------------------------------------------
    def create_client(
        self, name: str, redirect_uris: Sequence[str], *, public: bool = False, user_login: str | None = None
    ) -> ClientSecret:
        """A new client; its secret (a confidential client's) is in the answer and nowhere else."""
        if not name.strip():
            raise BadRequest("The client needs a name (--name)")
        uris = _redirect_uris(redirect_uris)
        if public and user_login:
            raise BadRequest("A public client cannot act as a user (--user): it has no secret")
        secret = None if public else secrets.token_urlsafe(32)
        with self.store.write() as tx:
            user_id = None
            if user_login:
                found = tx.users.by_login(user_login)
                if found is None or found[0].is_anonymous:
                    raise NotFound(f"Could not find 'User' with login '{user_login}'")
                user_id = found[0].id
            # hex: an id never starts with "-", which the command line would take for an option
            client = OAuthClient(
                id=secrets.token_hex(16),
                name=name.strip(),
                redirect_uris=uris,
                secret_hash=None if secret is None else _hash(secret),
                user_id=user_id,
                created_at=int(time.time()),
            )
            tx.oauth.create_client(client)
        return ClientSecret(client, secret)

    def clients(self) -> list[OAuthClient]:
        with self.store.read() as tx:
            return tx.oauth.clients()

    def client(self, client_id: str) -> OAuthClient | None:
        with self.store.read() as tx:
            return tx.oauth.client(client_id)

    def set_redirect_uris(self, client_id: str, redirect_uris: Sequence[str]) -> OAuthClient:
        uris = _redirect_uris(redirect_uris)
        with self.store.write() as tx:
            if not tx.oauth.set_redirect_uris(client_id, uris):
                raise NotFound.of("OAuth client", client_id)
            found = tx.oauth.client(client_id)
        assert found is not None
        return found

    def delete_client(self, client_id: str) -> None:
        """The client goes with its codes and refresh tokens; its access tokens are refused from then."""
        with self.store.write() as tx:
            if not tx.oauth.delete_client(client_id):
                raise NotFound.of("OAuth client", client_id)

    # -- protocol endpoints ---------------------------------------------------------------------------
    def consent_request(self, request: OAuthRequest) -> tuple[OAuthClient, str]:
        """The client and the scopes of a valid authorization request (raises OAuth2Error)."""
        with self._serving(request, write=False) as server:
            grant = server.get_consent_grant(request)
        client: _Client = grant.client
        return client.client, client.get_allowed_scope(request.payload.scope)

    def authorize(self, request: OAuthRequest, user: User | None) -> tuple[int, Any, list[tuple[str, str]]]:
        """The redirect back to the client: with a code if ``user`` allowed, an error if denied (None)."""
        with self._serving(request, write=True) as server:
            grant = server.get_consent_grant(request, end_user=user)
            return server.create_authorization_response(request, grant_user=user, grant=grant)  # type: ignore[no-any-return]

    def token(self, request: OAuthRequest) -> tuple[int, Any, list[tuple[str, str]]]:
        self._signing_key()  # made (if due) before the grant's transaction
        with self._serving(request, write=True) as server:
            return server.create_token_response(request)  # type: ignore[no-any-return]

    def revoke(self, request: OAuthRequest) -> tuple[int, Any, list[tuple[str, str]]]:
        with self._serving(request, write=True) as server:
            return server.create_endpoint_response("revocation", request)  # type: ignore[no-any-return]

    def introspect(self, request: OAuthRequest) -> tuple[int, Any, list[tuple[str, str]]]:
        with self._serving(request, write=False) as server:
            return server.create_endpoint_response("introspection", request)  # type: ignore[no-any-return]

    def handle_error(
        self, request: OAuthRequest, error: OAuth2Error
    ) -> tuple[int, Any, list[tuple[str, str]]]:
        return _Server(self).handle_error_response(request, error)  # type: ignore[no-any-return]

    # -- tokens ---------------------------------------------------------------------------------------
    def issue(
        self, tx: Tx, request: OAuthRequest, user: User | None, scope: str, refresh: bool
    ) -> dict[str, Any]:
        """The token response of a grant: a signed access token, and a refresh token (stored) if asked."""
        client: OAuthClient = request.client.client
        if user is None:  # client credentials: the client's configured user
            user = tx.users.get(client.user_id) if client.user_id is not None else None
            if user is None or not user.enabled:
                raise InvalidGrantError("The client's user cannot log in")
        now = int(time.time())
        if request.refresh_token is not None:
            family, epoch = request.refresh_token.token.family_id, request.refresh_token.token.epoch
        elif request.authorization_code is not None:
            family, epoch = request.authorization_code.code.family_id, tx.users.token_epoch(user.id)
        else:
            family, epoch = secrets.token_urlsafe(16), tx.users.token_epoch(user.id)
        key = self._signing_key()
        claims = {
            "iss": request.issuer,
            "aud": request.issuer,
            "sub": str(user.id),
            "client_id": client.id,
            "scope": scope,
            "iat": now,
            "exp": now + self.access_ttl,
            "jti": secrets.token_urlsafe(16),
            "fam": family,
            "epoch": epoch,
        }
        header = {"alg": ALGORITHM, "typ": ACCESS_TOKEN_TYPE, "kid": key.kid}
        assert key.private is not None
        token: dict[str, Any] = {
            "token_type": "Bearer",
            "access_token": jwt.encode(header, claims, key.private, algorithms=[ALGORITHM]),
            "expires_in": self.access_ttl,
            "scope": scope,
        }
        if refresh:
            value = secrets.token_urlsafe(32)
            tx.oauth.add_refresh_token(
                RefreshToken(
                    _hash(value), family, client.id, user.id, scope, epoch, now + self.refresh_ttl, False
                )
            )
            token["refresh_token"] = value
        return token

    def revoke_family(self, tx: Tx, family: str) -> None:
        """Every token of the family: its refresh tokens go, its access tokens are refused."""
        now = int(time.time())
        tx.oauth.revoke(f"family:{family}", now + max(self.refresh_ttl, self.access_ttl), now)

    def is_access_token(self, token: str) -> bool:
        """The token claims to be one of this server's access tokens (its header: ``typ`` at+jwt or a
        ``kid``), whether or not it is valid: the Bearer dispatch (rest/auth.py) reads this."""
        header = _header(token)
        return header is not None and (header.get("typ") == ACCESS_TOKEN_TYPE or "kid" in header)

    def verify(self, token: str, issuer: str) -> Verified:
        """The caller of a valid access token, read (raises InvalidToken)."""
        claims = self._claims(token, issuer)
        with self.store.read() as tx:
            user = tx.users.get(int(claims["sub"]))
            alive = user is not None and user.enabled and tx.users.token_epoch(user.id) == claims["epoch"]
            if not alive or not tx.oauth.token_alive(
                claims["jti"], claims["fam"], claims["client_id"], _now()
            ):
                raise InvalidToken("The access token was revoked, or its user cannot log in")
        assert user is not None
        return Verified(user, tuple(scope_to_list(claims["scope"]) or ()))

    def _claims(self, token: str, issuer: str) -> dict[str, Any]:
        """The claims of an access token signed by one of the published keys with ES256, for ``issuer``
        (audience and issuer), not expired. Any other algorithm (``none``, HS256 with a public key as its
        secret) is refused before a key is looked at."""
        header = _header(token)
        if header is None or header.get("typ") != ACCESS_TOKEN_TYPE or header.get("alg") != ALGORITHM:
            raise InvalidToken("Not an access token of this server")
        keys = self._published(header.get("kid"))
        if not keys:
            raise InvalidToken("The access token's key is unknown")
        try:
            decoded = jwt.decode(token, KeySet([key.public for key in keys]), algorithms=[ALGORITHM])
            JWTClaimsRegistry(
                leeway=CLOCK_LEEWAY,
                iss={"essential": True, "value": issuer},
                aud={"essential": True, "value": issuer},
                exp={"essential": True},
                sub={"essential": True},
                jti={"essential": True},
                client_id={"essential": True},
            ).validate(decoded.claims)
        except (JoseError, ValueError) as error:
            raise InvalidToken(f"Invalid access token ({error.__class__.__name__})") from None
        claims = decoded.claims
        if not (
            isinstance(claims.get("epoch"), int)
            and isinstance(claims.get("fam"), str)
            and isinstance(claims.get("scope"), str)
            and str(claims["sub"]).isdigit()
        ):
            raise InvalidToken("The access token lacks claims of this server")
        return claims

    def presented(self, tx: Tx, token: str, issuer: str) -> _Presented | None:
        """A token given to revocation or introspection, as this server knows it; None if it is none of
        its own. An access token that is no longer honoured is marked revoked."""
        if self.is_access_token(token):
            try:
                claims = self._claims(token, issuer)
            except InvalidToken:
                return None
            user = tx.users.get(int(claims["sub"]))
            alive = (
                user is not None
                and user.enabled
                and tx.users.token_epoch(user.id) == claims["epoch"]
                and tx.oauth.token_alive(claims["jti"], claims["fam"], claims["client_id"], _now())
            )
            return _Presented(
                "access_token", claims["client_id"], user, claims["scope"], claims["fam"], claims["exp"],
                claims, not alive,
            )  # fmt: skip
        found = tx.oauth.refresh_token(_hash(token))
        if found is None:
            return None
        user = tx.users.get(found.user_id)
        alive = user is not None and user.enabled and tx.users.token_epoch(user.id) == found.epoch
        return _Presented(
            "refresh_token", found.client_id, user, found.scope, found.family_id, found.expires_at, {},
            found.used or not alive,
        )  # fmt: skip

    # -- keys -----------------------------------------------------------------------------------------
    def jwks(self) -> dict[str, Any]:
        self._signing_key()
        return {"keys": [key.public_jwk for key in self._published(None)]}

    def _published(self, kid: str | None) -> list[_Key]:
        """The keys whose tokens may still be alive (all when ``kid`` is None, else the one named); read
        again when a kid is unknown (another process made it) at most once a second."""
        keys = self._loaded()
        unknown = kid is not None and not any(key.kid == kid for key in keys)
        if unknown and time.monotonic() - self._keys[0] > 1.0:
            keys = self._loaded(force=True)
        now = _now()
        alive = []
        successor_made = None
        for key in keys:  # newest first: a key retires when the one after it is made
            if successor_made is None or successor_made > now - self.access_ttl - CLOCK_LEEWAY:
                alive.append(key)
            successor_made = key.created_at
        return [key for key in alive if kid is None or key.kid == kid]

    def _loaded(self, *, force: bool = False) -> list[_Key]:
        loaded_at, keys = self._keys
        if force or not keys or time.monotonic() - loaded_at > _KEYS_RELOAD:
            with self.store.read() as tx:
                rows = tx.oauth.signing_keys()
            keys = [self._key(row) for row in rows]
            self._keys = (time.monotonic(), keys)
        return keys

    def _key(self, row: SigningKey) -> _Key:
        public_jwk = orjson.loads(row.public_jwk)
        known = next((key for key in self._keys[1] if key.kid == row.kid), None)
        if known is not None:
            return known
        return _Key(row.kid, ECKey.import_key(public_jwk), public_jwk, row.created_at, self._decrypt(row))

    def _decrypt(self, row: SigningKey) -> ECKey | None:
        blob = base64.b64decode(row.private_key)
        for secret in self.secret_keys:
            try:
                pem = _wrapping_key(secret).decrypt(blob[:12], blob[12:], row.kid.encode())
            except Exception:  # noqa: S112 (InvalidTag: wrapped with another secret; try the next)
                continue
            return ECKey.import_key(pem, parameters={"kid": row.kid})
        return None

    def _signing_key(self) -> _Key:
        """The newest key this process can sign with; a new one when it is older than the rotation
        period (or there is none)."""
        keys = self._loaded()
        newest = next((key for key in keys if key.private is not None), None)
        if newest is not None and newest.created_at > _now() - self.key_rotation:
            return newest
        with self._lock:
            keys = self._loaded(force=True)
            newest = next((key for key in keys if key.private is not None), None)
            if newest is not None and newest.created_at > _now() - self.key_rotation:
                return newest
            self.rotate_key()
            return next(key for key in self._loaded(force=True) if key.private is not None)

    def rotate_key(self) -> str:
        """Make a new signing key (the previous ones stay published until their tokens expire); its kid."""
        kid = secrets.token_urlsafe(12)
        private = ECKey.generate_key("P-256", parameters={"kid": kid}, private=True)
        nonce = secrets.token_bytes(12)
        wrapped = nonce + _wrapping_key(self.secret_keys[0]).encrypt(
            nonce, private.as_pem(private=True), kid.encode()
        )
        # later than every key there: the newest key is the one with the latest created_at
        now = max([_now(), *(key.created_at + 1 for key in self._loaded(force=True))])
        row = SigningKey(
            kid, base64.b64encode(wrapped), orjson.dumps(private.as_dict(private=False)).decode(), now
        )
        with self.store.write() as tx:
            tx.oauth.add_key(row, drop_before=now - 2 * self.key_rotation - self.access_ttl)
        self._keys = (0.0, self._keys[1])
        return kid

    def metadata(self, issuer: str) -> dict[str, Any]:
        """RFC 8414 authorization server metadata (also served as the OpenID configuration)."""
        return {
            "issuer": issuer,
            "authorization_endpoint": issuer + "/authorize",
            "token_endpoint": issuer + "/token",
            "revocation_endpoint": issuer + "/revoke",
            "introspection_endpoint": issuer + "/introspect",
            "jwks_uri": issuer + "/jwks.json",
            "scopes_supported": list(SCOPES),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": _ANY_CLIENT,
            "revocation_endpoint_auth_methods_supported": _ANY_CLIENT,
            "introspection_endpoint_auth_methods_supported": _CONFIDENTIAL,
            "token_endpoint_auth_signing_alg_values_supported": [ALGORITHM],
        }


def _now() -> int:
    return int(time.time())


def _header(token: str) -> dict[str, Any] | None:
    """The JWS header of a compact token, unverified; None if it is not one."""
    try:
        header = extract_compact(token.encode("ascii")).protected
    except (JoseError, ValueError, UnicodeEncodeError):
        return None
    return header if isinstance(header, dict) else None


def _redirect_uris(uris: Sequence[str]) -> tuple[str, ...]:
    """Absolute http(s) URIs without a fragment; http only for a loopback host (RFC 8252)."""
    if not uris:
        raise BadRequest("The client needs at least one redirect URI (--redirect-uri)")
    for uri in uris:
        parts = urlsplit(uri)
        local = parts.hostname in {"localhost", "127.0.0.1", "::1"}
        if parts.scheme not in {"https", "http"} or not parts.hostname or parts.fragment:
            raise BadRequest(f"Redirect URI '{uri}' must be an absolute http(s) URI without a fragment")
        if parts.scheme == "http" and not local:
            raise BadRequest(f"Redirect URI '{uri}' must use https (http only for localhost)")
    return tuple(dict.fromkeys(uris))
