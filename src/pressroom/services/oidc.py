"""Access tokens of an external OpenID Connect provider (``PRESSROOM_OIDC_ISSUER``), mapped to users.

The provider is found by its discovery document (``{issuer}/.well-known/openid-configuration``, whose
``issuer`` must be the configured one), which names its key set (JWKS). The keys are kept for the JWKS TTL;
a token signed with a key id not among them fetches the set again, at most once per refetch interval, so a
provider's key rollover is followed at once while made-up key ids cannot make this server hammer it. A key
that has left the set signs nothing any more, even for tokens verified before.

A token is accepted when its signature verifies with one of the configured (asymmetric) algorithms and a
key of the matching type, and its ``iss``, ``aud``, ``exp`` (and ``nbf``, ``iat`` when present, with a
small leeway) hold; the login claim names the user: an existing enabled user of that login (or of that
e-mail address, for the ``email`` claim), who may log in on the siteaccess. With
``PRESSROOM_OIDC_CREATE_USERS_IN`` an unknown user is created in that group on first sight, through the
user service (a real user content item, one transaction), acting for nobody in particular: the
configuration, not a caller, allows it. Its password is random and never told: it logs in through the
provider only.

Fetching from the provider blocks (with a timeout): the REST layer calls :meth:`OidcService.user_from_token`
off the event loop, and the token cache (:meth:`OidcService.cached`) on it. A provider that cannot be
reached before any key is known gives ProviderUnavailable (503); later, the keys known are kept.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import jwt

from pressroom.domain.caller import CallerCheck
from pressroom.domain.content import FieldInput
from pressroom.domain.errors import Forbidden, InvalidToken, NotFound, PressroomError, ProviderUnavailable
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.integers import MAX_ID, parse_int
from pressroom.domain.permission import Target
from pressroom.domain.query import Criterion, MatchAll
from pressroom.domain.user import ContentParts, User, UserCreate
from pressroom.services.permissions import Permissions
from pressroom.services.user import UserService
from pressroom.storage.spi import Store, Tx

log = logging.getLogger(__name__)

LEEWAY_SECONDS = 30
MAX_DOCUMENT_BYTES = 1024 * 1024
TOKEN_CACHE_SIZE = 1024
# The key type each algorithm family signs with.
_KEY_TYPES = {"RS": "RSA", "PS": "RSA", "ES": "EC", "Ed": "OKP"}

Fetch = Callable[[str, float], dict[str, Any]]


def fetch_json(url: str, timeout: float) -> dict[str, Any]:
    """The JSON object at ``url`` (http or https only), read within ``timeout`` seconds per operation."""
    if not url.startswith(("https://", "http://")):
        raise ValueError(f"not an http(s) URL: {url}")
    request = urllib.request.Request(url, headers={"Accept": "application/json"})  # noqa: S310 (checked)
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (checked)
        body = response.read(MAX_DOCUMENT_BYTES + 1)
    if len(body) > MAX_DOCUMENT_BYTES:
        raise ValueError(f"{url} answered more than {MAX_DOCUMENT_BYTES} bytes")
    document = json.loads(body)
    if not isinstance(document, dict):
        raise ValueError(f"{url} answered no JSON object")
    return document


class ProviderKeys:
    """The provider's signing keys by key id, from its discovery document and JWKS."""

    def __init__(
        self,
        issuer: str,
        *,
        ttl: float,
        refetch: float,
        timeout: float,
        fetch: Fetch = fetch_json,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.issuer = issuer
        self.ttl = ttl
        self.refetch = refetch
        self.timeout = timeout
        self._fetch = fetch
        self._clock = clock
        self._lock = threading.Lock()
        self._keys: dict[str, SigningKey] | None = None
        self._expires = 0.0
        self._fetched_at: float | None = None
        self._jwks_uri: str | None = None
        self.fetches = 0  # key set fetches tried (for the operator's log and the tests)

    def key_for(self, kid: str | None) -> SigningKey | None:
        """The key of ``kid`` (a token without one: the only key), fetching the set when it is out of
        date or lacks ``kid`` and the last fetch is long enough ago; None when the provider has no such
        key. Blocks while it fetches."""
        with self._lock:
            now = self._clock()
            if self._keys is None or now >= self._expires:
                self._load(now)
            key = self._find(kid)
            if key is None and self._may_fetch(now):
                self._load(now)
                key = self._find(kid)
            return key

    def knows(self, kid: str | None) -> bool:
        """Is ``kid`` still in the key set last fetched (and not out of date)? No fetch."""
        keys = self._keys
        return keys is not None and self._clock() < self._expires and _pick(keys, kid) is not None

    def _find(self, kid: str | None) -> SigningKey | None:
        return _pick(self._keys, kid) if self._keys is not None else None

    def _may_fetch(self, now: float) -> bool:
        return self._fetched_at is None or now - self._fetched_at >= self.refetch

    def _load(self, now: float) -> None:
        """Fetch discovery (first time) and the key set. A failure keeps the keys known; with none known,
        ProviderUnavailable. Failed fetches count against the refetch interval too."""
        if not self._may_fetch(now):
            if self._keys is None:
                raise self._unavailable()
            return
        self._fetched_at = now
        self.fetches += 1
        try:
            if self._jwks_uri is None:
                self._jwks_uri = self._discover()
            keys = usable_keys(self._fetch(self._jwks_uri, self.timeout))
        except (OSError, ValueError, jwt.PyJWTError) as error:
            self._jwks_uri = None  # discover again next time: the provider may have moved its keys
            log.warning("OpenID Connect provider %s: cannot fetch its keys: %s", self.issuer, error)
            if self._keys is None:
                raise self._unavailable() from None
            return
        self._keys, self._expires = keys, now + self.ttl

    def _discover(self) -> str:
        url = self.issuer.rstrip("/") + "/.well-known/openid-configuration"
        document = self._fetch(url, self.timeout)
        if document.get("issuer") != self.issuer:
            raise ValueError(f"the discovery document names issuer {document.get('issuer')!r}")
        uri = document.get("jwks_uri")
        if not isinstance(uri, str):
            raise ValueError("the discovery document names no jwks_uri")
        return uri

    def _unavailable(self) -> ProviderUnavailable:
        return ProviderUnavailable(
            f"The OpenID Connect provider {self.issuer} cannot be reached to verify the token",
            max(1, int(self.refetch)),
        )


@dataclass(frozen=True, slots=True)
class SigningKey:
    """One key of the provider's set, and the algorithm its JWK names (None: any of its type's)."""

    jwk: jwt.PyJWK
    algorithm: str | None

    def fits(self, algorithm: str) -> bool:
        return self.jwk.key_type == _KEY_TYPES.get(algorithm[:2]) and self.algorithm in (None, algorithm)


def usable_keys(jwks: dict[str, Any]) -> dict[str, SigningKey]:
    """The signing keys of a JWKS by key id ("" for a key without one); keys this server cannot use
    (encryption keys, unknown types) are left out."""
    found = jwks.get("keys")
    if not isinstance(found, list):
        raise ValueError("the JWKS has no keys list")
    keys: dict[str, SigningKey] = {}
    for item in found:
        if not isinstance(item, dict) or item.get("use", "sig") != "sig":
            continue
        try:
            key = jwt.PyJWK(_padded_coordinates(item))
        except jwt.PyJWTError:
            continue
        algorithm = item.get("alg")
        keys[str(item.get("kid", ""))] = SigningKey(key, algorithm if isinstance(algorithm, str) else None)
    return keys


# The byte length of an EC key's coordinates per curve (RFC 7518 6.2.1.2: the full size of the field).
_COORDINATE_BYTES = {"P-256": 32, "P-384": 48, "P-521": 66}


def _padded_coordinates(item: dict[str, Any]) -> dict[str, Any]:
    """An EC key whose ``x`` or ``y`` lost its leading zero bytes (one key in 128 from encoders that write
    the integer's minimal length) padded back to the curve's size, which the JWT library insists on;
    any other key unchanged."""
    size = _COORDINATE_BYTES.get(str(item.get("crv"))) if item.get("kty") == "EC" else None
    if size is None:
        return item
    padded = dict(item)
    for name in ("x", "y"):
        value = item.get(name)
        if isinstance(value, str):
            try:
                raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
            except ValueError:
                return item  # not base64url: the JWT library names the fault
            if len(raw) < size:
                padded[name] = base64.urlsafe_b64encode(raw.rjust(size, b"\0")).rstrip(b"=").decode()
    return padded


def _pick(keys: dict[str, SigningKey], kid: str | None) -> SigningKey | None:
    if kid is None:
        return next(iter(keys.values())) if len(keys) == 1 else None
    return keys.get(kid)


class _Unrestricted(Permissions):
    """Permissions that allow everything: for the one write the configuration itself allows (creating a
    user on first login), never for a caller."""

    def can(self, user: User, module: str, function: str, **_: Any) -> bool:
        return True

    def criterion(self, user: User, module: str, function: str, tx: Tx | None = None) -> Criterion:
        return MatchAll()


@dataclass(frozen=True, slots=True)
class Provider:
    """The provider as configured (``PRESSROOM_OIDC_*``, see config.py)."""

    issuer: str
    audience: str
    login_claim: str = "preferred_username"
    create_users_in: str = ""  # a user group's content id or remote id; empty: unknown users are refused
    algorithms: tuple[str, ...] = ("RS256", "ES256")
    jwks_ttl: float = 3600.0
    jwks_refetch: float = 30.0
    timeout: float = 5.0


class OidcService:
    def __init__(
        self,
        provider: Provider,
        store: Store,
        permissions: Permissions,
        files: FileStore,
        *,
        anonymous: Callable[[], User],
        keys: ProviderKeys | None = None,
    ) -> None:
        self.issuer = provider.issuer
        self.audience = provider.audience
        self.claim = provider.login_claim
        self.create_in = provider.create_users_in
        self.algorithms = provider.algorithms
        self.store = store
        self.permissions = permissions
        self.keys = keys or ProviderKeys(
            self.issuer,
            ttl=provider.jwks_ttl,
            refetch=provider.jwks_refetch,
            timeout=provider.timeout,
        )
        self._anonymous = anonymous
        self._creator = UserService(store, _Unrestricted(store), files)
        self._create_lock = threading.Lock()
        self._cache: dict[Hashable, tuple[float, str | None, User]] = {}  # -> (exp, kid, user)
        self._lock = threading.Lock()

    def issued(self, token: str) -> bool:
        """Does ``token`` say (unverified) that the provider issued it?"""
        try:
            claims = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError:
            return False
        return claims.get("iss") == self.issuer

    # -- the token cache --------------------------------------------------------------------------------
    def _key(self, token: str, siteaccess: str) -> Hashable:
        return ("oidc", hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest(), siteaccess)

    def cached(self, token: str, siteaccess: str) -> CallerCheck | None:
        """The user of a token verified before, unexpired, whose key is still the provider's, for the
        request to confirm (a user disabled, deleted or renamed since is not taken); None otherwise."""
        key = self._key(token, siteaccess)
        known = self._cache.get(key)
        if known is None or known[0] <= time.time() or not self.keys.knows(known[1]):
            return None
        return CallerCheck(known[2], key=key)

    def forget(self, key: Hashable) -> None:
        with self._lock:
            self._cache.pop(key, None)

    # -- verification ------------------------------------------------------------------------------------
    def user_from_token(self, token: str, *, siteaccess: str) -> User:
        """The user the token names, read (or created); InvalidToken when the token is not good,
        Unauthorized when its user may not log in on ``siteaccess``. Blocks on the provider: call it off
        the event loop."""
        claims, kid = self.verified(token)
        user = self.user_for(claims)
        self.permissions.require(user, "user", "login", target=Target(siteaccess=siteaccess))
        with self._lock:
            if len(self._cache) >= TOKEN_CACHE_SIZE:
                self._cache.clear()
            self._cache[self._key(token, siteaccess)] = (float(claims["exp"]), kid, user)
        return user

    def verified(self, token: str) -> tuple[dict[str, Any], str | None]:
        """The claims of a good token, and the id of the key that signed it."""
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise InvalidToken("The token is not a JWT") from None
        algorithm, kid = header.get("alg"), header.get("kid")
        if algorithm not in self.algorithms:
            raise InvalidToken(f"The token's algorithm {algorithm!r} is not accepted")
        if kid is not None and not isinstance(kid, str):
            raise InvalidToken("The token's key id is not a string")
        key = self.keys.key_for(kid)
        if key is None:
            raise InvalidToken("The token is signed with a key the provider does not have")
        if not key.fits(algorithm):
            raise InvalidToken(f"The token's algorithm {algorithm} does not fit its key")
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key.jwk.key,
                algorithms=[algorithm],
                audience=self.audience,
                issuer=self.issuer,
                leeway=LEEWAY_SECONDS,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.ExpiredSignatureError:
            raise InvalidToken("The token has expired") from None
        except jwt.InvalidAudienceError:
            raise InvalidToken("The token is not meant for this server (aud)") from None
        except jwt.InvalidIssuerError:
            raise InvalidToken("The token is not of the configured issuer") from None
        except jwt.PyJWTError as error:
            raise InvalidToken(f"The token is not valid: {error}") from None
        if not isinstance(claims.get(self.claim), str) or not claims[self.claim]:
            raise InvalidToken(f"The token carries no {self.claim} claim")
        return claims, kid

    # -- users --------------------------------------------------------------------------------------------
    def user_for(self, claims: dict[str, Any]) -> User:
        """The enabled user the verified claims name; created when configured and there is none."""
        user = self._existing(claims[self.claim])
        if user is None and self.create_in:
            user = self._created(claims)
        if user is None:
            raise InvalidToken(f"No user has the {self.claim} '{claims[self.claim]}'")
        if not user.enabled or user.is_anonymous:
            raise InvalidToken(f"The user '{user.login}' may not log in")
        return user

    def _existing(self, value: str) -> User | None:
        with self.store.read() as tx:
            if self.claim == "email":
                users = tx.users.by_email(value)
                if len(users) > 1:
                    raise InvalidToken(f"More than one user has the e-mail address '{value}'")
                return users[0] if users else None
            found = tx.users.by_login(value)
            return found[0] if found is not None else None

    def _created(self, claims: dict[str, Any]) -> User:
        """A new user in the configured group; a user a concurrent first login created (in this process
        or another) is taken instead of a second one."""
        value = claims[self.claim]
        email = claims.get("email")
        login = value
        if self.claim == "email":
            preferred = claims.get("preferred_username")
            login = preferred if isinstance(preferred, str) and preferred else value.partition("@")[0]
        if not isinstance(email, str) or not email:
            raise InvalidToken(
                f"No user has the {self.claim} '{value}', and the token has no email to create one"
            )
        with self._create_lock:
            user = self._existing(value)
            if user is not None:
                return user
            given, family = claims.get("given_name"), claims.get("family_name")
            try:
                group_path, language = self._group()
                fields = (
                    FieldInput("first_name", language, given if isinstance(given, str) and given else login),
                    FieldInput(
                        "last_name", language, family if isinstance(family, str) and family else login
                    ),
                )
                struct = UserCreate(
                    login=login,
                    email=email,
                    password=secrets.token_urlsafe(32) + "aA1",  # never told: the provider logs it in
                    parts=ContentParts(main_language_code=language, fields=fields),
                )
                created = self._creator.create(self._anonymous(), group_path, struct)
            except Forbidden:  # the login was taken meanwhile, by this user's login elsewhere or another user
                user = self._existing(value)
                if user is None:
                    raise InvalidToken(
                        f"A user with login '{login}' exists and is not this token's"
                    ) from None
                return user
            except PressroomError as error:
                log.warning("OpenID Connect: cannot create user '%s': %s", login, error.message)
                raise InvalidToken(
                    f"No user has the {self.claim} '{value}', and none can be created"
                ) from None
        log.info("OpenID Connect: created user %s ('%s') in %s", created.account.id, login, group_path)
        return created.account

    def _group(self) -> tuple[str, str]:
        """The path of the configured group's main location and its main language."""
        with self.store.read() as tx:
            ident = self.create_in
            number = parse_int(ident)
            info = tx.content.get(number) if number is not None and 0 < number <= MAX_ID else None
            info = info or tx.content.by_remote_id(ident)
        if info is None or info.main_location_path is None:
            raise NotFound(f"PRESSROOM_OIDC_CREATE_USERS_IN '{ident}' names no user group")
        return info.main_location_path.strip("/"), info.main_language_code
