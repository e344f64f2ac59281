"""The external OpenID Connect provider's tokens as services/oidc.py maps them to users, on SQLite and
PostgreSQL, and its key cache (discovery, JWKS TTL, the refetch interval) on a clock of its own."""

from __future__ import annotations

import base64
import threading
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from pressroom.domain.content import FieldInput
from pressroom.domain.errors import InvalidToken, ProviderUnavailable
from pressroom.domain.user import ContentParts, UserCreate, UserUpdate
from pressroom.services.oidc import OidcService, Provider, ProviderKeys, usable_keys
from pressroom.services.permissions import Permissions
from pressroom.services.user import UserService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.store import SqlStore
from tests.oidc_provider import AUDIENCE, IdentityProvider

ISSUER = "https://id.example"
EDITORS_CONTENT_ID = "13"  # the Editors group's content (location 1/5/14)
PASSWORD = "Secret1234"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Fetcher:
    """The provider's documents as ``fetch_json`` would read them, counted; ``down`` fails every fetch."""

    def __init__(self, provider: IdentityProvider, issuer: str = ISSUER) -> None:
        self.provider = provider
        self.issuer = issuer
        self.urls: list[str] = []
        self.down = False

    def __call__(self, url: str, timeout: float) -> dict[str, Any]:
        self.urls.append(url)
        if self.down:
            raise OSError("connection refused")
        if url == ISSUER + "/.well-known/openid-configuration":
            return {"issuer": self.issuer, "jwks_uri": ISSUER + "/jwks"}
        assert url == ISSUER + "/jwks"
        return self.provider.jwks()

    @property
    def jwks_fetches(self) -> int:
        return self.urls.count(ISSUER + "/jwks")


@pytest.fixture
def provider() -> IdentityProvider:
    provider = IdentityProvider(0)
    provider.issuer = ISSUER
    return provider


def service(
    store: SqlStore, tmp_path: Path, fetcher: Fetcher, clock: Clock | None = None, **options: Any
) -> OidcService:
    keys = ProviderKeys(ISSUER, ttl=600, refetch=30, timeout=1, fetch=fetcher, clock=clock or Clock())
    permissions = Permissions(store)

    def anonymous() -> Any:
        with store.read() as tx:
            return tx.users.get(10)

    return OidcService(
        Provider(ISSUER, AUDIENCE, **options),
        store,
        permissions,
        LocalFileStore(tmp_path / "files"),
        anonymous=anonymous,
        keys=keys,
    )


def make_user(store: SqlStore, tmp_path: Path, login: str, email: str | None = None) -> int:
    users = UserService(store, Permissions(store), LocalFileStore(tmp_path / "files"))
    with store.read() as tx:
        admin = tx.users.get(14)
    assert admin is not None
    fields = (FieldInput("first_name", "eng-GB", login), FieldInput("last_name", "eng-GB", "Tester"))
    created = users.create(
        admin,
        "1/5/14",
        UserCreate(login, email or f"{login}@example.com", PASSWORD, ContentParts("eng-GB", fields)),
    )
    return created.account.id


def test_a_token_maps_to_the_user_of_its_login(
    store: SqlStore, tmp_path: Path, provider: IdentityProvider
) -> None:
    user_id = make_user(store, tmp_path, "jane")
    oidc = service(store, tmp_path, Fetcher(provider))
    user = oidc.user_from_token(provider.token("jane"), siteaccess="site")
    assert (user.id, user.login) == (user_id, "jane")
    check = oidc.cached(provider.token("jane", jti="other"), "site")
    assert check is None  # another token is verified on its own
    token = provider.token("jane")
    oidc.user_from_token(token, siteaccess="site")
    cached = oidc.cached(token, "site")
    assert cached is not None and cached.user.id == user_id
    assert oidc.cached(token, "admin") is None  # verified for one siteaccess only


def test_the_email_claim_maps_by_email(store: SqlStore, tmp_path: Path, provider: IdentityProvider) -> None:
    user_id = make_user(store, tmp_path, "mail", "Mail.Person@example.com")
    oidc = service(store, tmp_path, Fetcher(provider), login_claim="email")
    token = provider.token("whatever", email="mail.person@example.com")
    assert oidc.user_from_token(token, siteaccess="site").id == user_id
    make_user(store, tmp_path, "twin", "twin@example.com")
    make_user(store, tmp_path, "twin2", "twin@example.com")
    with pytest.raises(InvalidToken, match="More than one user has the e-mail address"):
        oidc.user_from_token(provider.token("x", email="twin@example.com"), siteaccess="site")


def test_a_disabled_user_is_refused(store: SqlStore, tmp_path: Path, provider: IdentityProvider) -> None:
    user_id = make_user(store, tmp_path, "off")
    users = UserService(store, Permissions(store), LocalFileStore(tmp_path / "files"))
    with store.read() as tx:
        admin = tx.users.get(14)
    assert admin is not None
    users.update(admin, user_id, UserUpdate(enabled=False), None)
    oidc = service(store, tmp_path, Fetcher(provider))
    with pytest.raises(InvalidToken, match="The user 'off' may not log in"):
        oidc.user_from_token(provider.token("off"), siteaccess="site")


def test_an_unknown_login_is_refused_without_the_option(
    store: SqlStore, tmp_path: Path, provider: IdentityProvider
) -> None:
    oidc = service(store, tmp_path, Fetcher(provider))
    with pytest.raises(InvalidToken, match="No user has the preferred_username 'nobody'"):
        oidc.user_from_token(provider.token("nobody"), siteaccess="site")
    with store.read() as tx:
        assert tx.users.by_login("nobody") is None


def test_an_unknown_login_is_created_in_the_group(
    store: SqlStore, tmp_path: Path, provider: IdentityProvider
) -> None:
    oidc = service(store, tmp_path, Fetcher(provider), create_users_in=EDITORS_CONTENT_ID)
    token = provider.token("fresh", given_name="Fresh", family_name="Face")
    user = oidc.user_from_token(token, siteaccess="site")
    with store.read() as tx:
        info = tx.content.get(user.id)
        groups = [location.path for location in tx.users.parent_locations(user.id)]
        by_login = tx.users.by_login("fresh")
    assert info is not None and info.name == "Fresh Face"
    assert info.main_location_path is not None and info.main_location_path.startswith("/1/5/14/")
    assert groups == ["1/5/14"]
    assert by_login is not None and by_login[0] == user
    assert user.email == "fresh@example.com" and user.enabled
    again = oidc.user_from_token(provider.token("fresh", jti="second"), siteaccess="site")
    assert again.id == user.id


def test_creation_needs_an_email(store: SqlStore, tmp_path: Path, provider: IdentityProvider) -> None:
    oidc = service(store, tmp_path, Fetcher(provider), create_users_in=EDITORS_CONTENT_ID)
    with pytest.raises(InvalidToken, match="the token has no email to create one"):
        oidc.user_from_token(provider.token("mailless", email=None), siteaccess="site")


def test_a_login_of_another_user_is_not_taken_over(
    store: SqlStore, tmp_path: Path, provider: IdentityProvider
) -> None:
    """With the email claim, the login a new user would get may be another user's: refused, not merged."""
    make_user(store, tmp_path, "taken", "first@example.com")
    oidc = service(
        store, tmp_path, Fetcher(provider), login_claim="email", create_users_in=EDITORS_CONTENT_ID
    )
    with pytest.raises(InvalidToken, match="A user with login 'taken' exists and is not this token's"):
        oidc.user_from_token(provider.token("taken", email="second@example.com"), siteaccess="site")


def test_concurrent_first_logins_create_one_user(
    store: SqlStore, tmp_path: Path, provider: IdentityProvider
) -> None:
    """Two services (two processes, as far as locks go) and two threads each: one user."""
    services = [
        service(store, tmp_path, Fetcher(provider), create_users_in=EDITORS_CONTENT_ID) for _ in range(2)
    ]
    tokens = [provider.token("racer", jti=str(n)) for n in range(4)]
    ids: list[int] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def login(oidc: OidcService, token: str) -> None:
        start.wait()
        try:
            ids.append(oidc.user_from_token(token, siteaccess="site").id)
        except BaseException as error:
            errors.append(error)

    threads = [
        threading.Thread(target=login, args=(services[n % 2], token)) for n, token in enumerate(tokens)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(ids) == 4 and len(set(ids)) == 1
    with store.read() as tx:
        assert [user.id for user in tx.users.by_email("racer@example.com")] == ids[:1]


# -- the key cache ---------------------------------------------------------------------------------------


def test_an_unknown_key_id_refetches_at_most_once_per_interval(provider: IdentityProvider) -> None:
    clock = Clock()
    fetcher = Fetcher(provider)
    keys = ProviderKeys(ISSUER, ttl=600, refetch=30, timeout=1, fetch=fetcher, clock=clock)
    assert keys.key_for("key1") is not None
    assert fetcher.urls == [ISSUER + "/.well-known/openid-configuration", ISSUER + "/jwks"]
    assert keys.key_for("made-up") is None  # within the interval: no fetch
    assert fetcher.jwks_fetches == 1
    provider.add_key()  # key2
    clock.now += 29
    assert keys.key_for("key2") is None
    assert fetcher.jwks_fetches == 1
    clock.now += 1
    assert keys.key_for("key2") is not None
    assert fetcher.jwks_fetches == 2
    assert keys.key_for("made-up") is None
    assert keys.key_for("key1") is not None
    assert fetcher.jwks_fetches == 2


def test_the_key_set_is_fetched_again_after_its_ttl(provider: IdentityProvider) -> None:
    clock = Clock()
    fetcher = Fetcher(provider)
    keys = ProviderKeys(ISSUER, ttl=600, refetch=30, timeout=1, fetch=fetcher, clock=clock)
    assert keys.knows("key1") is False
    assert keys.key_for("key1") is not None and keys.knows("key1")
    provider.remove_key(provider.keys[0])
    provider.add_key()
    clock.now += 599
    assert keys.knows("key1")
    clock.now += 1
    assert not keys.knows("key1")  # out of date: a cached token of it is verified again
    assert keys.key_for("key1") is None
    assert fetcher.jwks_fetches == 2


def test_an_unreachable_provider(provider: IdentityProvider) -> None:
    clock = Clock()
    fetcher = Fetcher(provider)
    fetcher.down = True
    keys = ProviderKeys(ISSUER, ttl=600, refetch=30, timeout=1, fetch=fetcher, clock=clock)
    with pytest.raises(ProviderUnavailable, match="cannot be reached") as raised:
        keys.key_for("key1")
    assert raised.value.retry_after == 30
    with pytest.raises(ProviderUnavailable):
        keys.key_for("key1")
    assert len(fetcher.urls) == 1  # not again within the interval
    fetcher.down = False
    clock.now += 30
    assert keys.key_for("key1") is not None
    fetcher.down = True
    clock.now += 600  # out of date and the provider down: the keys known are kept
    assert keys.key_for("key1") is not None


def test_a_discovery_document_of_another_issuer_is_not_believed(provider: IdentityProvider) -> None:
    fetcher = Fetcher(provider, issuer="https://evil.example")
    keys = ProviderKeys(ISSUER, ttl=600, refetch=30, timeout=1, fetch=fetcher, clock=Clock())
    with pytest.raises(ProviderUnavailable):
        keys.key_for("key1")
    assert fetcher.jwks_fetches == 0


def test_a_token_of_another_issuer_is_refused(
    store: SqlStore, tmp_path: Path, provider: IdentityProvider
) -> None:
    make_user(store, tmp_path, "jane")
    oidc = service(store, tmp_path, Fetcher(provider))
    token = provider.token("jane", iss="https://other.example")
    assert not oidc.issued(token)
    with pytest.raises(InvalidToken, match="not of the configured issuer"):
        oidc.user_from_token(token, siteaccess="site")


def test_a_key_signs_only_with_the_algorithms_of_its_type(provider: IdentityProvider) -> None:
    """An RSA key never verifies an ES or HS token, an EC key no RS one, and a symmetric key in the set
    (a provider's mistake) nothing at all."""
    provider.add_key("EC")
    jwks = provider.jwks()
    jwks["keys"].append({"kty": "oct", "kid": "shared", "k": "c2VjcmV0", "alg": "HS256"})
    keys = usable_keys(jwks)
    rsa, ec, shared = keys["key1"], keys["key2"], keys["shared"]
    assert rsa.fits("RS256") and not rsa.fits("ES256") and not rsa.fits("HS256")
    assert not rsa.fits("PS256")  # its JWK names RS256
    assert ec.fits("ES256") and not ec.fits("RS256") and not ec.fits("ES384")
    assert not any(shared.fits(algorithm) for algorithm in ("HS256", "RS256", "ES256", "EdDSA"))


def test_an_ec_key_written_without_leading_zero_bytes_still_verifies() -> None:
    """Encoders that write a coordinate's minimal length drop its leading zero byte (one key in 128): the
    key is still the provider's, and its tokens verify."""
    while True:  # about 64 keys until one has a coordinate starting with a zero byte
        private = ec.generate_private_key(ec.SECP256R1())
        numbers = private.public_key().public_numbers()
        if numbers.x < 1 << 248 or numbers.y < 1 << 248:
            break

    def minimal(value: int) -> str:
        raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    jwk = {"kty": "EC", "crv": "P-256", "kid": "short", "alg": "ES256", "x": minimal(numbers.x)}
    jwk["y"] = minimal(numbers.y)
    key = usable_keys({"keys": [jwk]})["short"]
    assert key.fits("ES256")
    token = jwt.encode({"sub": "jane"}, private, algorithm="ES256")
    assert jwt.decode(token, key.jwk.key, algorithms=["ES256"]) == {"sub": "jane"}
