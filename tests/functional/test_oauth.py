"""The OAuth 2.0 authorization server and its tokens on the REST API, in process (issue 28): the code
flow with PKCE, refresh rotation, revocation, scopes, and the hostile cases (replayed codes, PKCE and
redirect URI mismatches, refresh token reuse, forged and foreign tokens, disabled users, logout)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from joserfc import jwt
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.services.oauth import OAuthService
from tests.conftest import make_settings
from tests.functional.oauth_support import (
    ADMIN_PASSWORD,
    ISSUER,
    REDIRECT,
    authorize_query,
    code_for,
    consent,
    csrf_of,
    log_in,
    pkce,
)
from tests.functional.test_users import patch_user
from tests.functional.users_support import PASSWORD, basic, create_user
from tests.helpers import Api, media

METHODS = ("session", "jwt", "basic", "oauth")


@pytest.fixture
def oauth_client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(database_url, tmp_path, auth_methods=METHODS, oauth_issuer=ISSUER)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        yield client


def service(client: TestClient) -> OAuthService:
    return client.app.services.oauth  # type: ignore[attr-defined,no-any-return]


def public_client(client: TestClient) -> str:
    return service(client).create_client("Public app", [REDIRECT], public=True).client.id


def exchange(client: TestClient, client_id: str, code: str, verifier: str) -> httpx.Response:
    return client.post(
        "/token",
        data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
            "client_id": client_id, "code_verifier": verifier,
        },
    )  # fmt: skip


def tokens(
    client: TestClient, client_id: str, login: str = "admin", password: str = ADMIN_PASSWORD
) -> dict[str, Any]:
    """Log in as ``login``, consent, exchange the code: the token response."""
    verifier = pkce()
    query = authorize_query(client_id, verifier.challenge)
    if client.get(query, follow_redirects=False).status_code == 303:
        log_in(client, query, login, password)
    code = consent(client, query)["code"][0]
    answer = exchange(client, client_id, code, verifier.verifier)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def refresh(client: TestClient, client_id: str, refresh_token: str) -> httpx.Response:
    return client.post(
        "/token", data={"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id}
    )


def whoami(client: TestClient, token: str) -> int | None:
    """The user id an access token acts as on the API; None when refused (401, Bearer challenge)."""
    response = Api(client, auth="Bearer " + token).get(
        "/user/current", accept=media("User"), follow_redirects=False
    )
    if response.status_code == 401:
        assert response.headers["www-authenticate"].startswith('Bearer error="invalid_token"'), response.text
        return None
    assert response.status_code == 307, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def test_code_flow_refresh_rotation_and_revocation(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    first = tokens(oauth_client, client_id)
    assert first["token_type"] == "Bearer" and first["scope"] == "default"
    assert whoami(oauth_client, first["access_token"]) == 14
    rotated = refresh(oauth_client, client_id, first["refresh_token"])
    assert rotated.status_code == 200, rotated.text
    second = rotated.json()
    assert second["refresh_token"] != first["refresh_token"]
    assert whoami(oauth_client, second["access_token"]) == 14
    # revoking the refresh token takes its family: the access tokens issued with it stop working
    revoked = oauth_client.post("/revoke", data={"token": second["refresh_token"], "client_id": client_id})
    assert revoked.status_code == 200, revoked.text
    assert whoami(oauth_client, second["access_token"]) is None
    assert whoami(oauth_client, first["access_token"]) is None
    assert refresh(oauth_client, client_id, second["refresh_token"]).json()["error"] == "invalid_grant"


def test_a_revoked_access_token_goes_alone(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    issued = tokens(oauth_client, client_id)
    assert (
        oauth_client.post(
            "/revoke", data={"token": issued["access_token"], "client_id": client_id}
        ).status_code
        == 200
    )
    assert whoami(oauth_client, issued["access_token"]) is None
    assert refresh(oauth_client, client_id, issued["refresh_token"]).status_code == 200


def test_a_replayed_code_is_refused_and_revokes_what_it_gave(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    verifier = pkce()
    code = code_for(oauth_client, client_id, verifier.challenge)
    first = exchange(oauth_client, client_id, code, verifier.verifier)
    assert first.status_code == 200, first.text
    replay = exchange(oauth_client, client_id, code, verifier.verifier)
    assert (replay.status_code, replay.json()["error"]) == (400, "invalid_grant")
    assert whoami(oauth_client, first.json()["access_token"]) is None
    assert refresh(oauth_client, client_id, first.json()["refresh_token"]).json()["error"] == "invalid_grant"


def test_a_pkce_mismatch_is_refused_and_burns_the_code(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    verifier = pkce()
    code = code_for(oauth_client, client_id, verifier.challenge)
    wrong = exchange(oauth_client, client_id, code, pkce().verifier)
    assert (wrong.status_code, wrong.json()["error"]) == (400, "invalid_grant")
    assert exchange(oauth_client, client_id, code, verifier.verifier).json()["error"] == "invalid_grant"


def test_a_public_client_must_use_pkce_with_s256(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    log_in(oauth_client)
    for query in (
        authorize_query(client_id, None),
        authorize_query(client_id, pkce().challenge, code_challenge_method="plain"),
    ):
        answer = oauth_client.get(query, follow_redirects=False)
        assert answer.status_code == 302, answer.text
        assert "error=invalid_request" in answer.headers["location"]
        assert answer.headers["location"].startswith(REDIRECT)


@pytest.mark.parametrize(
    "redirect",
    [
        "http://127.0.0.1:8765/callback/",
        "http://127.0.0.1:8765/callback?x=1",
        "https://evil.example/callback",
    ],
)
def test_a_redirect_uri_not_registered_exactly_gets_a_page_not_a_redirect(
    oauth_client: TestClient, redirect: str
) -> None:
    client_id = public_client(oauth_client)
    log_in(oauth_client)
    answer = oauth_client.get(
        authorize_query(client_id, pkce().challenge, redirect_uri=redirect), follow_redirects=False
    )
    assert answer.status_code == 400
    assert "location" not in answer.headers
    assert answer.headers["x-frame-options"] == "DENY"


def test_refresh_token_reuse_revokes_the_whole_family(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    first = tokens(oauth_client, client_id)
    second = refresh(oauth_client, client_id, first["refresh_token"]).json()
    reuse = refresh(oauth_client, client_id, first["refresh_token"])  # someone kept a copy
    assert (reuse.status_code, reuse.json()["error"]) == (400, "invalid_grant")
    assert refresh(oauth_client, client_id, second["refresh_token"]).json()["error"] == "invalid_grant"
    assert whoami(oauth_client, second["access_token"]) is None
    assert whoami(oauth_client, first["access_token"]) is None


def _segments(token: str) -> list[str]:
    return token.split(".")


def _b64(value: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def _unb64(segment: str) -> dict[str, Any]:
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))  # type: ignore[no-any-return]


def test_forged_tampered_and_foreign_tokens_are_invalid(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    good = tokens(oauth_client, client_id)["access_token"]
    header_segment, payload_segment, _ = _segments(good)
    header, claims = _unb64(header_segment), _unb64(payload_segment)
    jwk = next(key for key in service(oauth_client).jwks()["keys"] if key["kid"] == header["kid"])
    forged_claims = _b64({**claims, "sub": "10"})
    none_token = f"{_b64({**header, 'alg': 'none'})}.{_b64(claims)}."
    signing_input = f"{_b64({**header, 'alg': 'HS256'})}.{_b64(claims)}"
    public_secret = json.dumps(jwk).encode()  # HS/RS confusion: the public key as an HMAC secret
    mac = base64.urlsafe_b64encode(hmac.new(public_secret, signing_input.encode(), hashlib.sha256).digest())
    confused = signing_input + "." + mac.rstrip(b"=").decode()
    key = service(oauth_client)._signing_key().private
    now = int(time.time())

    def signed(**changes: Any) -> str:
        return jwt.encode(header, {**claims, **changes}, key, algorithms=["ES256"])

    for bad in (
        f"{header_segment}.{forged_claims}.{_segments(good)[2]}",  # tampered payload
        none_token,
        confused,
        signed(aud="https://other.example"),  # another audience
        signed(iss="https://other.example"),
        signed(exp=now - 120, iat=now - 700),  # expired
        good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB"),
    ):
        assert whoami(oauth_client, bad) is None, bad
    assert whoami(oauth_client, good) == 14


def test_tokens_die_when_their_user_is_disabled_or_logs_out(oauth_client: TestClient) -> None:
    admin = Api(oauth_client)
    user = create_user(admin)
    client_id = public_client(oauth_client)
    issued = tokens(oauth_client, client_id, user["login"], PASSWORD)
    assert whoami(oauth_client, issued["access_token"]) == user["_id"]
    # logging out of the session API ends every token the user had until then
    session = Api(oauth_client, auth=basic(user["login"])).post(
        "/user/sessions", body={"SessionInput": {"login": user["login"], "password": PASSWORD}},
        content_type=media("SessionInput"), accept=media("Session"),
    )  # fmt: skip
    assert session.status_code in (200, 201), session.text
    body = session.json()["Session"]
    # the login set the session cookie on the client
    gone = oauth_client.delete(
        "/api/ibexa/v2/user/sessions/" + body["identifier"], headers={"X-CSRF-Token": body["csrfToken"]}
    )
    assert gone.status_code == 204, gone.text
    assert whoami(oauth_client, issued["access_token"]) is None
    assert refresh(oauth_client, client_id, issued["refresh_token"]).status_code == 400
    oauth_client.cookies.clear()
    again = tokens(oauth_client, client_id, user["login"], PASSWORD)
    assert whoami(oauth_client, again["access_token"]) == user["_id"]
    assert patch_user(admin, user["_id"], {"enabled": False}).status_code == 200  # type: ignore[attr-defined]
    assert whoami(oauth_client, again["access_token"]) is None


def test_the_read_scope_allows_only_safe_methods(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    verifier = pkce()
    query = authorize_query(client_id, verifier.challenge, scope="read")
    log_in(oauth_client)
    code = consent(oauth_client, query)["code"][0]
    token = exchange(oauth_client, client_id, code, verifier.verifier).json()
    assert token["scope"] == "read"
    api = Api(oauth_client, auth="Bearer " + token["access_token"])
    assert api.get("/content/sections", accept=media("SectionList")).status_code == 200
    refused = api.post(
        "/content/sections", body={"SectionInput": {"identifier": "oauth_read", "name": "No"}},
        content_type=media("SectionInput"), accept=media("Section"),
    )  # fmt: skip
    assert refused.status_code == 403, refused.text
    assert refused.headers["www-authenticate"] == 'Bearer error="insufficient_scope"'


def test_denying_consent_tells_the_client(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    query = authorize_query(client_id, pkce().challenge)
    log_in(oauth_client)
    assert consent(oauth_client, query, "deny")["error"] == ["access_denied"]


def test_the_pages_refuse_framing_forged_forms_and_open_redirects(oauth_client: TestClient) -> None:
    page = oauth_client.get("/login")
    assert page.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["cache-control"] == "no-store"
    assert '<label for="login">' in page.text
    forged = oauth_client.post(
        "/login",
        data={"csrf_token": "forged", "login": "admin", "password": "publish"},
        follow_redirects=False,
    )
    assert forged.status_code == 400
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil.example"):
        form = oauth_client.get("/login")
        answer = oauth_client.post(
            "/login",
            data={"csrf_token": csrf_of(form.text), "login": "admin", "password": "publish", "next": target},
            follow_redirects=False,
        )
        assert answer.status_code == 200 and "location" not in answer.headers, target
    # the consent form needs the session's CSRF token
    client_id = public_client(oauth_client)
    query = authorize_query(client_id, pkce().challenge)
    refused = oauth_client.post(
        query, data={"csrf_token": "forged", "decision": "allow"}, follow_redirects=False
    )
    assert refused.status_code == 400 and "location" not in refused.headers


def test_a_wrong_password_on_the_login_page_is_counted_by_the_throttle(oauth_client: TestClient) -> None:
    form = oauth_client.get("/login")
    for _ in range(12):
        answer = oauth_client.post(
            "/login", data={"csrf_token": csrf_of(form.text), "login": "admin", "password": "wrong"}
        )
        if answer.status_code == 429:
            break
        assert answer.status_code == 401
    assert answer.status_code == 429


def test_metadata_and_jwks_describe_the_server(oauth_client: TestClient) -> None:
    metadata = oauth_client.get("/.well-known/oauth-authorization-server").json()
    assert metadata["issuer"] == ISSUER
    assert metadata["token_endpoint"] == ISSUER + "/token"
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert oauth_client.get("/.well-known/openid-configuration").json() == metadata
    keys = oauth_client.get("/jwks.json").json()["keys"]
    assert [key["kty"] for key in keys] == ["EC"] and "d" not in keys[0]
    assert oauth_client.get("/token").status_code == 405
    too_large = oauth_client.post("/token", data={"grant_type": "x" * 70_000})
    assert too_large.status_code == 413
    not_a_form = oauth_client.post("/token", content=b"{}", headers={"Content-Type": "application/json"})
    assert (not_a_form.status_code, not_a_form.json()["error"]) == (400, "invalid_request")


def test_a_rotated_key_keeps_verifying_its_tokens_until_they_expire(oauth_client: TestClient) -> None:
    client_id = public_client(oauth_client)
    before = tokens(oauth_client, client_id)["access_token"]
    old_kid = _unb64(before.split(".")[0])["kid"]
    new_kid = service(oauth_client).rotate_key()
    after = refresh(oauth_client, client_id, tokens(oauth_client, client_id)["refresh_token"]).json()[
        "access_token"
    ]
    assert _unb64(after.split(".")[0])["kid"] == new_kid
    assert {key["kid"] for key in oauth_client.get("/jwks.json").json()["keys"]} == {old_kid, new_kid}
    assert whoami(oauth_client, before) == whoami(oauth_client, after) == 14


def test_without_the_oauth_method_its_endpoints_and_tokens_are_unknown(
    database_url: str, tmp_path: Path
) -> None:
    settings = make_settings(
        database_url, tmp_path, auth_methods=("session", "jwt", "basic"), oauth_issuer=ISSUER
    )
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        assert client.post("/token", data={"grant_type": "client_credentials"}).status_code == 404
        assert client.get("/login").status_code == 200  # the session method's login page
        client_id = public_client(client)
        assert service(client).client(client_id) is not None
        forged = f"{_b64({'alg': 'ES256', 'typ': 'at+jwt', 'kid': 'x'})}.{_b64({'sub': '14'})}.AAAA"
        assert (
            Api(client, auth="Bearer " + forged)
            .get("/user/current", accept=media("User"), follow_redirects=False)
            .status_code
            == 401
        )


def test_the_cli_manages_clients_and_shows_a_secret_once(
    settings: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from pressroom.cli import main

    def run(*args: str) -> tuple[int, list[str]]:
        code = main(["oauth-client", *args, "--database-url", settings.database_url])
        return code, capsys.readouterr().out.splitlines()

    code, lines = run(
        "create", "--name", "Sync job", "--redirect-uri", "https://app.example/cb", "--user", "admin"
    )
    assert code == 0
    client_id, name, kind, uris, acting = lines[0].split("\t")
    assert (name, kind, uris, acting) == (
        "Sync job",
        "confidential",
        "https://app.example/cb",
        "client credentials as user 14",
    )
    secret = lines[1].removeprefix("secret (shown once): ")
    assert len(secret) >= 40
    code, listed = run("list")
    assert listed == [lines[0]] and secret not in capsys.readouterr().out
    stored = create_app(settings).services.oauth.client(client_id)
    assert stored is not None and stored.secret_hash is not None and secret not in stored.secret_hash
    code, lines = run(
        "update", client_id, "--redirect-uri", "https://a.example/1", "--redirect-uri", "https://a.example/2"
    )
    assert code == 0 and lines[0].split("\t")[3] == "https://a.example/1 https://a.example/2"
    bad = ["oauth-client", "create", "--name", "Bad", "--redirect-uri", "http://app.example/cb"]
    assert main([*bad, "--database-url", settings.database_url]) == 2
    assert "must use https" in capsys.readouterr().err
    assert run("delete", client_id) == (0, [f"OAuth client {client_id} deleted."])
    assert run("list") == (0, [])
    assert run("delete", client_id)[0] == 2
