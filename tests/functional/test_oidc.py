"""Access tokens of an external OpenID Connect provider, over real sockets: a provider (discovery, JWKS,
authlib.jose-signed tokens) served on a free port, and ``pressroom serve`` configured with
``PRESSROOM_OIDC_*`` (services/oidc.py, rest/auth.py)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import settings_from_env
from tests.conftest import free_port, make_settings, running_server, spawn_server
from tests.functional.users_support import EDITORS, PASSWORD, create_user, new_login
from tests.helpers import PREFIX, Api, StatementCounter, media
from tests.oidc_provider import AUDIENCE, IdentityProvider, b64url, hmac_signed, public_pem, unsigned

EDITORS_REMOTE_ID = "3c160cca19fb135f83bd02d911f04db2"  # the Editors group's content (install.md §9)


@pytest.fixture(scope="module")
def provider() -> Iterator[IdentityProvider]:
    with IdentityProvider(free_port()).serving() as serving:
        yield serving


def oidc_env(provider: IdentityProvider, **extra: str) -> dict[str, str]:
    return {
        "PRESSROOM_AUTH_METHODS": "session,jwt,basic,oidc",
        "PRESSROOM_OIDC_ISSUER": provider.issuer,
        "PRESSROOM_OIDC_AUDIENCE": AUDIENCE,
        "PRESSROOM_OIDC_JWKS_REFETCH": "0",  # every unknown key id fetches: rollover at once in the tests
        "PRESSROOM_OIDC_TIMEOUT_SECONDS": "30",  # a loaded test machine is no unreachable provider
        "PRESSROOM_EVENTS_DISPATCH": "false",
        **extra,
    }


@pytest.fixture(scope="module")
def server(provider: IdentityProvider, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Pressroom with the provider's tokens as method ``oidc``; unknown logins are refused."""
    with running_server(tmp_path_factory.mktemp("oidc"), **oidc_env(provider)) as base:
        yield base


@pytest.fixture(scope="module")
def admin(server: str) -> Iterator[Api]:
    with httpx.Client(base_url=server, timeout=30) as client:
        yield Api(client)


def bearer(base: str, token: str, path: str = "/user/current", **kwargs: Any) -> httpx.Response:
    return httpx.get(
        base + PREFIX + path,
        headers={"Authorization": f"Bearer {token}", "Accept": media("User")},
        follow_redirects=False,
        timeout=30,
        **kwargs,
    )


def current_id(response: httpx.Response) -> int:
    assert response.status_code == 307, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def refused(response: httpx.Response, challenge: bool = True) -> str:
    """The description of a 401 ErrorMessage; with ``challenge``, the Bearer invalid_token one."""
    assert response.status_code == 401, response.text
    body = response.json()["ErrorMessage"]
    assert body["errorCode"] == 401
    if challenge:
        assert response.headers["www-authenticate"].startswith(
            'Bearer error="invalid_token", error_description="'
        )
    description: str = body["errorDescription"]
    return description


def test_a_token_names_its_user_on_rest_routes(provider: IdentityProvider, server: str, admin: Api) -> None:
    login = new_login("jane")
    jane = create_user(admin, EDITORS, login)
    token = provider.token(login)
    assert current_id(bearer(server, token)) == jane["_id"]
    assert current_id(bearer(server, token)) == jane["_id"]  # again, from the token cache
    read = bearer(server, token, f"/user/users/{jane['_id']}")
    assert read.status_code == 200
    assert read.json()["User"]["login"] == login


def test_the_api_description_names_the_provider(provider: IdentityProvider, server: str) -> None:
    document = httpx.get(server + PREFIX + "/openapi.json", timeout=30).json()
    assert document["components"]["securitySchemes"]["oidc"] == {
        "type": "openIdConnect",
        "openIdConnectUrl": provider.issuer + "/.well-known/openid-configuration",
        "description": "An access token of the external OpenID Connect provider, sent as Bearer",
    }
    assert {"oidc": []} in document["security"]


def test_hostile_tokens_are_refused(provider: IdentityProvider, server: str, admin: Api) -> None:
    login = new_login("target")
    create_user(admin, EDITORS, login)
    key = provider.keys[-1]
    kid = key.as_dict()["kid"]
    claims = provider.claims(login)
    good = provider.token(login)
    head, body, signature = good.split(".")
    forged_claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    forged_claims["preferred_username"] = "admin"
    cases = {
        "wrong audience": provider.token(login, aud="another-api"),
        "expired": provider.token(login, iat=1_000_000_000, exp=1_000_000_300),
        "not yet valid": provider.token(login, nbf=claims["iat"] + 3600),
        "tampered": f"{head}.{b64url(json.dumps(forged_claims).encode())}.{signature}",
        "alg none": unsigned(provider.claims("admin"), {"alg": "none", "kid": kid}),
        "alg none, no kid": unsigned(provider.claims("admin"), {"alg": "none"}),
        "HS256 with the public key": hmac_signed(
            provider.claims("admin"), {"alg": "HS256", "kid": kid}, public_pem(key)
        ),
        "unknown key": hmac_signed(provider.claims("admin"), {"alg": "RS256", "kid": "made-up"}, b"x"),
        "no login claim": provider.token(login, preferred_username=None),
        "RS384, not configured": provider.token(login, alg="RS384"),
    }
    descriptions = {name: refused(bearer(server, token)) for name, token in cases.items()}
    assert descriptions["wrong audience"] == "The token is not meant for this server (aud)"
    assert descriptions["expired"] == "The token has expired"
    assert descriptions["alg none"] == "The token's algorithm 'none' is not accepted"
    assert descriptions["HS256 with the public key"] == "The token's algorithm 'HS256' is not accepted"
    assert descriptions["unknown key"] == "The token is signed with a key the provider does not have"
    assert descriptions["no login claim"] == "The token carries no preferred_username claim"
    # another issuer's token is not the provider's: this server's JWT method refuses it
    assert (
        refused(bearer(server, provider.token(login, iss="http://elsewhere.invalid")), False) == "Invalid JWT"
    )
    assert current_id(bearer(server, good)) > 0  # the good one still works


def test_key_rollover(provider: IdentityProvider, server: str, admin: Api) -> None:
    login = new_login("roll")
    user = create_user(admin, EDITORS, login)
    old = provider.keys[-1]
    before = provider.token(login, key=old)
    assert current_id(bearer(server, before)) == user["_id"]
    fetched = provider.jwks_requests
    new = provider.add_key("EC")
    provider.remove_key(old)  # a rotation: the old key is gone from the set at once
    after = provider.token(login)
    assert current_id(bearer(server, after)) == user["_id"]
    assert provider.jwks_requests == fetched + 1  # the new key id fetched the set once
    assert current_id(bearer(server, after)) == user["_id"]
    assert provider.jwks_requests == fetched + 1
    # the old key signs nothing any more: neither a new token nor the one verified before
    assert refused(bearer(server, provider.token(login, key=old))) == (
        "The token is signed with a key the provider does not have"
    )
    assert refused(bearer(server, before)) == "The token is signed with a key the provider does not have"
    assert new in provider.keys


def test_a_disabled_user_is_refused_even_when_cached(
    provider: IdentityProvider, server: str, admin: Api
) -> None:
    login = new_login("gone")
    user = create_user(admin, EDITORS, login)
    token = provider.token(login)
    assert current_id(bearer(server, token)) == user["_id"]
    assert bearer(server, token, f"/user/users/{user['_id']}").status_code == 200
    response = admin.patch(
        f"/user/users/{user['_id']}",
        body={"UserUpdate": {"enabled": False}},
        content_type=media("UserUpdate"),
        accept=media("User"),
    )
    assert response.status_code == 200, response.text
    assert refused(bearer(server, token)) == f"The user '{login}' may not log in"
    assert (
        refused(bearer(server, token, f"/user/users/{user['_id']}")) == f"The user '{login}' may not log in"
    )
    assert refused(bearer(server, provider.token(login))) == f"The user '{login}' may not log in"


def test_an_unknown_login_is_refused_without_the_create_option(
    provider: IdentityProvider, server: str
) -> None:
    login = new_login("stranger")
    assert refused(bearer(server, provider.token(login))) == f"No user has the preferred_username '{login}'"


@pytest.fixture(scope="module")
def creating_server(provider: IdentityProvider, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Pressroom (two workers) that creates unknown users in the Editors group."""
    env = oidc_env(provider, PRESSROOM_OIDC_CREATE_USERS_IN=EDITORS_REMOTE_ID)
    process, base = spawn_server(tmp_path_factory.mktemp("oidc-create"), workers=2, **env)
    try:
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def users_named(base: str, login: str) -> list[Any]:
    with httpx.Client(base_url=base, timeout=30) as client:
        response = Api(client).get(f"/user/users?login={login}", accept=media("UserRefList"))
    if response.status_code == 404:
        return []
    assert response.status_code == 200, response.text
    found: list[Any] = response.json()["UserRefList"]["User"]
    return found


def test_an_unknown_login_is_created_in_the_group(provider: IdentityProvider, creating_server: str) -> None:
    login = new_login("newbie")
    first = provider.token(login, given_name="Nina", family_name="Newbie")
    user_id = current_id(bearer(creating_server, first))
    with httpx.Client(base_url=creating_server, timeout=30) as client:
        admin = Api(client)
        groups = admin.get(f"/user/users/{user_id}/groups", accept=media("UserGroupRefList")).json()
        user = admin.get(f"/user/users/{user_id}", accept=media("User")).json()["User"]
    assert [ref["_href"] for ref in groups["UserGroupRefList"]["UserGroup"]] == [
        f"{PREFIX}/user/groups/{EDITORS}"
    ]
    assert (user["login"], user["email"], user["enabled"]) == (login, f"{login}@example.com", True)
    assert user["name"] == "Nina Newbie"
    # a later token (another iat) is the same user
    assert current_id(
        bearer(creating_server, provider.token(login, iat=provider.claims(login)["iat"] - 5))
    ) == (user_id)
    assert len(users_named(creating_server, login)) == 1


def test_concurrent_first_logins_create_one_user(provider: IdentityProvider, creating_server: str) -> None:
    login = new_login("racer")
    tokens = [provider.token(login, jti=str(n)) for n in range(6)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        ids = list(pool.map(lambda token: current_id(bearer(creating_server, token)), tokens))
    assert len(set(ids)) == 1
    assert len(users_named(creating_server, login)) == 1


def test_an_inactive_method_treats_the_token_as_unknown(provider: IdentityProvider, tmp_path: Path) -> None:
    env = oidc_env(provider, PRESSROOM_AUTH_METHODS="session,jwt,basic")
    with running_server(tmp_path, **env) as base:
        with httpx.Client(base_url=base, timeout=30) as client:
            create_user(Api(client), EDITORS, "outsider")
        jwks_before = provider.jwks_requests
        # the Bearer scheme belongs to this server's JWTs alone: the provider's token is not one
        assert refused(bearer(base, provider.token("outsider")), False) == "Invalid JWT"
        assert provider.jwks_requests == jwks_before
        document = httpx.get(base + PREFIX + "/openapi.json", timeout=30).json()
        assert "oidc" not in document["components"]["securitySchemes"]


def test_the_settings_are_checked_at_start() -> None:
    """A missing audience or issuer stops the start, naming the setting."""
    with pytest.raises(ValueError, match="PRESSROOM_OIDC_AUDIENCE must be set"):
        settings_from_env({"PRESSROOM_OIDC_ISSUER": "https://id.example"})
    with pytest.raises(ValueError, match="needs PRESSROOM_OIDC_ISSUER"):
        settings_from_env({"PRESSROOM_AUTH_METHODS": "oidc"})
    with pytest.raises(ValueError, match=r"PRESSROOM_OIDC_ALGORITHMS 'RS256,HS256'.*\(not HS256\)"):
        settings_from_env({"PRESSROOM_OIDC_ALGORITHMS": "RS256,HS256"})
    with pytest.raises(ValueError, match="not none"):
        settings_from_env({"PRESSROOM_OIDC_ALGORITHMS": "none"})
    with pytest.raises(ValueError, match="PRESSROOM_OIDC_LOGIN_CLAIM 'name' must be one of"):
        settings_from_env({"PRESSROOM_OIDC_LOGIN_CLAIM": "name"})


def test_an_unreachable_provider_is_a_503(provider: IdentityProvider, tmp_path: Path) -> None:
    """Nothing listens at the issuer: the token cannot be checked, and the client may retry."""
    issuer = f"http://127.0.0.1:{free_port()}"
    env = oidc_env(provider, PRESSROOM_OIDC_ISSUER=issuer, PRESSROOM_OIDC_JWKS_REFETCH="7")
    with running_server(tmp_path, **env) as base:
        response = bearer(base, provider.token("jane", iss=issuer))
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "7"
    assert response.json()["ErrorMessage"]["errorDescription"] == (
        f"The OpenID Connect provider {issuer} cannot be reached to verify the token"
    )


def test_a_known_token_costs_what_a_known_jwt_costs(provider: IdentityProvider, tmp_path: Path) -> None:
    """Once verified, a provider's token is taken from the cache and confirmed by the request's own
    statements, as this server's JWT is: a content read runs as many statements with either."""
    settings = make_settings(
        f"sqlite:///{tmp_path / 'count.db'}",
        tmp_path,
        auth_methods=("jwt", "basic", "oidc"),
        oidc_issuer=provider.issuer,
        oidc_audience=AUDIENCE,
        events_dispatch=False,
    )
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        login = new_login("counted")
        create_user(Api(client), EDITORS, login)
        issued = client.post(
            PREFIX + "/user/token/jwt",
            content=json.dumps({"JWTInput": {"username": login, "password": PASSWORD}}),
            headers={"Content-Type": media("JWTInput"), "Accept": media("JWT")},
        )
        assert issued.status_code == 200, issued.text
        tokens = {"jwt": issued.json()["JWT"]["token"], "oidc": provider.token(login)}
        counts = {}
        for name, token in tokens.items():
            reader = Api(client, auth=f"Bearer {token}")
            assert reader.get("/content/objects/1", accept=media("ContentInfo")).status_code == 200
            with StatementCounter() as counter:
                assert reader.get("/content/objects/1", accept=media("ContentInfo")).status_code == 200
            counts[name] = counter.count
    assert counts["oidc"] == counts["jwt"]


def test_without_jwt_every_bearer_token_is_the_providers(provider: IdentityProvider, tmp_path: Path) -> None:
    settings = make_settings(
        f"sqlite:///{tmp_path / 'nojwt.db'}",
        tmp_path,
        auth_methods=("basic", "oidc"),
        oidc_issuer=provider.issuer,
        oidc_audience=AUDIENCE,
        events_dispatch=False,
    )
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        login = new_login("solo")
        user = create_user(Api(client), EDITORS, login)
        current = Api(client, auth=f"Bearer {provider.token(login)}").get(
            "/user/current", follow_redirects=False
        )
        assert current_id(current) == user["_id"]
        elsewhere = provider.token(login, iss="http://elsewhere.invalid")
        response = Api(client, auth=f"Bearer {elsewhere}").get("/user/current", accept=media("User"))
        assert refused(response) == "The token is not of the configured issuer"
