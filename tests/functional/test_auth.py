"""Sessions with CSRF, JWT, Basic, anonymous, X-Expected-User, /user/current, X-Siteaccess (spec/auth.md,
service-description.md "Authentication", shapes-users.md §8 and §10)."""

from __future__ import annotations

import base64
import hashlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from tests.conftest import make_settings
from tests.functional.support import (
    ADMIN_PASSWORD,
    cookie_of,
    create_section,
    error_message,
    login,
    section_identifiers,
    session_of,
    unique,
)
from tests.helpers import EZ_PREFIX, PREFIX, Api, media

SITE_COOKIE = "eZSESSID" + hashlib.md5(b"site").hexdigest()  # noqa: S324 - the reference's cookie name
ADMIN_COOKIE = "eZSESSID" + hashlib.md5(b"admin").hexdigest()  # noqa: S324


def basic(credentials: str) -> str:
    return "Basic " + base64.b64encode(credentials.encode()).decode()


def anonymous(client: TestClient, prefix: str = PREFIX) -> Api:
    return Api(client, prefix, auth=None)


def current_session(client: TestClient, session: dict[str, Any]) -> Any:
    return anonymous(client).get(
        "/user/sessions/current", accept=media("Session"), headers=cookie_of(session)
    )


def assert_session_cleared(response: Any, name: str = SITE_COOKIE) -> None:
    assert response.headers["set-cookie"].startswith(f"{name}=deleted;")
    assert "Max-Age=0" in response.headers["set-cookie"]


# -- login -------------------------------------------------------------------------------------------


def test_login_creates_a_session(client: TestClient) -> None:
    response = login(client)
    assert response.status_code == 201
    assert response.headers["content-type"] == media("Session")
    session = response.json()["Session"]
    identifier = session["identifier"]
    assert session == {
        "_media-type": media("Session"),
        "_href": f"{PREFIX}/user/sessions/{identifier}",
        "name": SITE_COOKIE,
        "identifier": identifier,
        "csrfToken": session["csrfToken"],
        "User": {"_media-type": media("User"), "_href": f"{PREFIX}/user/users/14"},
    }
    assert len(identifier) >= 16
    assert len(session["csrfToken"]) >= 16
    assert response.headers["location"] == session["_href"]
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SITE_COOKIE}={identifier};")
    assert "HttpOnly" in cookie
    assert "Path=/" in cookie
    assert "Max-Age=86400" in cookie  # Settings.session_ttl_seconds
    # the session is stored: it answers with the same identity
    assert session_of(current_session(client, session)) == session


def test_login_in_the_ez_dialect_with_an_xml_body(client: TestClient) -> None:
    response = Api(client, EZ_PREFIX, auth=None).post(
        "/user/sessions",
        body="<SessionInput><login>admin</login><password>publish</password></SessionInput>",
        content_type=media("SessionInput", "xml", "ez"),
        accept=media("Session", vendor="ez"),
    )
    client.cookies.clear()
    assert response.status_code == 201
    session = response.json()["Session"]
    assert session["User"]["_href"] == f"{EZ_PREFIX}/user/users/14"
    assert response.headers["location"] == f"{EZ_PREFIX}/user/sessions/{session['identifier']}"


def test_login_again_with_the_cookie_of_the_same_user_is_200_with_the_same_session(
    client: TestClient,
) -> None:
    session = session_of(login(client))
    again = login(client, "ADMIN", "not even checked", headers=cookie_of(session))
    assert again.status_code == 200
    assert "set-cookie" not in again.headers
    assert session_of(again) == session


def test_login_as_another_user_with_a_live_session_is_409(client: TestClient) -> None:
    # answered before any password is checked (auth.md §3)
    session = session_of(login(client))
    response = login(client, "anonymous", "whatever", headers=cookie_of(session))
    assert response.status_code == 409
    assert response.content == b""
    assert "set-cookie" not in response.headers
    assert session_of(current_session(client, session))["User"]["_href"] == f"{PREFIX}/user/users/14"


def anonymous_session(client: TestClient) -> dict[str, str]:
    """A session of the anonymous user, as an older install could hold (anonymous cannot log in now)."""
    auth = client.app.services.auth  # type: ignore[attr-defined]
    guest = auth.start_session(auth.anonymous())
    return {"name": SITE_COOKIE, "identifier": guest.id}


def test_a_session_of_the_anonymous_user_does_not_block_a_new_login_and_is_replaced(
    client: TestClient,
) -> None:
    guest = anonymous_session(client)
    response = login(client, headers=cookie_of(guest))
    assert response.status_code == 201
    assert session_of(response)["identifier"] != guest["identifier"]
    assert session_of(response)["User"]["_href"] == f"{PREFIX}/user/users/14"
    # the id the client came with is not the logged-in session's, and it is gone (no session fixation)
    assert current_session(client, guest).status_code == 404


def test_the_anonymous_account_cannot_log_in(client: TestClient) -> None:
    for password in ("publish", "", "!unusable"):
        response = login(client, "anonymous", password)
        assert error_message(response, 401)["errorDescription"] == "Invalid login or password"


@pytest.mark.parametrize(("user", "password"), [("admin", "wrong"), ("nobody", "publish"), ("admin", "")])
def test_login_with_bad_credentials_is_401(client: TestClient, user: str, password: str) -> None:
    response = login(client, user, password)
    body = error_message(response, 401)
    assert body["errorDescription"] == "Invalid login or password"
    assert "set-cookie" not in response.headers


@pytest.mark.parametrize(
    ("values", "missing"), [({"password": "publish"}, "login"), ({"login": "admin"}, "password")]
)
def test_login_without_a_key_is_400(client: TestClient, values: dict[str, str], missing: str) -> None:
    response = anonymous(client).post(
        "/user/sessions",
        body={"SessionInput": values},
        content_type=media("SessionInput"),
        accept=media("Session"),
    )
    assert (
        error_message(response, 400)["errorDescription"] == f"Missing '{missing}' element for SessionInput."
    )


# -- CSRF --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "wrong", ""])
def test_unsafe_request_with_the_cookie_and_no_right_token_is_401(
    client: TestClient, api: Api, token: str | None
) -> None:
    session = session_of(login(client))
    headers = cookie_of(session) | ({} if token is None else {"X-CSRF-Token": token})
    identifier = unique()
    response = create_section(anonymous(client), identifier, headers=headers)
    assert error_message(response, 401)["errorDescription"] == "Missing or invalid CSRF token for POST"
    assert identifier not in section_identifiers(api)


def test_a_csrf_token_of_non_ascii_bytes_is_401_not_500(client: TestClient, api: Api) -> None:
    """auth.md §5: a missing or invalid X-CSRF-Token is 401, whatever bytes it carries (a header of
    latin-1 bytes once made the constant-time comparison raise, a 500)."""
    session = session_of(login(client))
    token: Any = "\u00ff\u00fe".encode("latin-1")
    identifier = unique()
    headers = cookie_of(session) | {"X-CSRF-Token": token}
    response = create_section(anonymous(client), identifier, headers=headers)
    assert error_message(response, 401)["errorDescription"] == "Missing or invalid CSRF token for POST"
    assert identifier not in section_identifiers(api)
    # The session routes check the token themselves (auth.md §6): 401 there too, and the session lives.
    sid = session["identifier"]
    for method, path in (("POST", f"/user/sessions/{sid}/refresh"), ("DELETE", f"/user/sessions/{sid}")):
        response = anonymous(client).request(method, path, accept=media("Session"), headers=headers)
        assert error_message(response, 401)["errorDescription"] == "Missing or invalid CSRF token"
    assert current_session(client, session).status_code == 200


def test_unsafe_request_with_the_cookie_and_the_token_succeeds(client: TestClient, api: Api) -> None:
    session = session_of(login(client))
    identifier = unique()
    headers = cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]}
    response = create_section(anonymous(client), identifier, headers=headers)
    assert response.status_code == 201
    assert identifier in section_identifiers(api)


def test_overridden_method_is_checked_for_csrf(client: TestClient, api: Api) -> None:
    session = session_of(login(client))
    response = anonymous(client).post(
        "/content/sections/3",
        body={"SectionInput": {"name": "Sneaky"}},
        content_type=media("SectionInput"),
        accept=media("Section"),
        headers=cookie_of(session) | {"X-HTTP-Method-Override": "PATCH"},
    )
    assert error_message(response, 401)["errorDescription"] == "Missing or invalid CSRF token for PATCH"
    assert api.get("/content/sections/3", accept=media("Section")).json()["Section"]["name"] == "Media"


def test_safe_request_with_the_cookie_needs_no_token(client: TestClient) -> None:
    session = session_of(login(client))
    response = anonymous(client).get(
        "/content/sections/1", accept=media("Section"), headers=cookie_of(session)
    )
    assert response.status_code == 200  # anonymous would get 401 here
    assert response.json()["Section"]["identifier"] == "standard"


# -- session check, refresh, logout ------------------------------------------------------------------


def test_current_session_without_a_session_is_404_and_clears_the_cookie(client: TestClient) -> None:
    response = anonymous(client).get("/user/sessions/current", accept=media("Session"))
    assert response.status_code == 404
    assert response.content == b""
    assert_session_cleared(response)


def test_refresh_with_the_token_returns_the_session(client: TestClient) -> None:
    session = session_of(login(client))
    response = anonymous(client).post(
        f"/user/sessions/{session['identifier']}/refresh",
        accept=media("Session"),
        headers=cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]},
    )
    assert response.status_code == 200
    assert session_of(response) == session


def test_refresh_without_the_token_is_401(client: TestClient) -> None:
    session = session_of(login(client))
    response = anonymous(client).post(
        f"/user/sessions/{session['identifier']}/refresh", accept=media("Session"), headers=cookie_of(session)
    )
    assert error_message(response, 401)["errorDescription"] == "Missing or invalid CSRF token"


def test_refresh_of_another_session_is_404(client: TestClient) -> None:
    session = session_of(login(client))
    response = anonymous(client).post(
        "/user/sessions/not-mine/refresh",
        accept=media("Session"),
        headers=cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]},
    )
    assert response.status_code == 404
    assert response.content == b""


def test_logout_ends_the_session(client: TestClient) -> None:
    session = session_of(login(client))
    response = anonymous(client).delete(
        f"/user/sessions/{session['identifier']}",
        headers=cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]},
    )
    assert response.status_code == 204
    assert response.content == b""
    assert_session_cleared(response)
    # the session is dead: the check is 404 and the cookie now means anonymous
    assert current_session(client, session).status_code == 404
    dead = anonymous(client).get("/content/sections/1", accept=media("Section"), headers=cookie_of(session))
    error_message(dead, 401)


def test_a_dead_session_cookie_is_cleared_on_any_request(client: TestClient) -> None:
    session = session_of(login(client))
    logout = anonymous(client).delete(
        f"/user/sessions/{session['identifier']}",
        headers=cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]},
    )
    assert logout.status_code == 204
    response = anonymous(client).get(
        "/languages/eng-GB", accept=media("Language"), headers=cookie_of(session)
    )
    assert response.status_code == 200
    assert_session_cleared(response)


def test_logout_without_the_token_is_401_and_keeps_the_session(client: TestClient) -> None:
    session = session_of(login(client))
    response = anonymous(client).delete(
        f"/user/sessions/{session['identifier']}", headers=cookie_of(session), accept="application/json"
    )
    assert error_message(response, 401)["errorDescription"] == "Missing or invalid CSRF token"
    assert current_session(client, session).status_code == 200


def test_logout_of_another_session_is_404(client: TestClient) -> None:
    mine = session_of(login(client))
    other = session_of(login(client))
    response = anonymous(client).delete(
        f"/user/sessions/{other['identifier']}", headers=cookie_of(mine) | {"X-CSRF-Token": mine["csrfToken"]}
    )
    assert response.status_code == 404
    assert current_session(client, other).status_code == 200


# -- JWT ---------------------------------------------------------------------------------------------


def issue_token(client: TestClient, username: str = "admin", password: str = ADMIN_PASSWORD) -> Any:
    return anonymous(client).post(
        "/user/token/jwt",
        body={"JWTInput": {"username": username, "password": password}},
        content_type=media("JWTInput"),
        accept=media("JWT"),
    )


def test_jwt_is_issued(client: TestClient) -> None:
    response = issue_token(client)
    assert response.status_code == 200
    assert response.headers["content-type"] == media("JWT")
    body = response.json()["JWT"]
    assert set(body) == {"_media-type", "_token", "token"}
    assert body["_media-type"] == media("JWT")
    assert body["_token"] == body["token"]
    assert body["token"].count(".") == 2
    assert "set-cookie" not in response.headers


def test_bearer_token_authenticates_writes_without_csrf(client: TestClient, api: Api) -> None:
    token = issue_token(client).json()["JWT"]["token"]
    bearer = Api(client, auth=f"Bearer {token}")
    identifier = unique()
    assert create_section(bearer, identifier).status_code == 201
    assert identifier in section_identifiers(api)
    current = bearer.get("/user/current", follow_redirects=False)
    assert current.headers["location"] == f"{PREFIX}/user/users/14"


def test_jwt_with_bad_credentials_is_401(client: TestClient) -> None:
    assert (
        error_message(issue_token(client, "admin", "nope"), 401)["errorDescription"]
        == "Invalid login or password"
    )


def test_jwt_without_a_key_is_400(client: TestClient) -> None:
    response = anonymous(client).post(
        "/user/token/jwt",
        body={"JWTInput": {"username": "admin"}},
        content_type=media("JWTInput"),
        accept=media("JWT"),
    )
    assert error_message(response, 400)["errorDescription"] == "Missing 'password' element for JWTInput."


@pytest.mark.parametrize("token", ["garbage", "a.b.c", ""])
def test_garbage_bearer_token_is_401(client: TestClient, token: str) -> None:
    response = Api(client, auth=f"Bearer {token}").get("/content/sections/1", accept=media("Section"))
    assert error_message(response, 401)["errorDescription"] == "Invalid JWT"


def test_bearer_token_signed_with_another_key_is_401(client: TestClient) -> None:
    forged = jwt.encode(
        {"username": "admin", "exp": 4_000_000_000}, "not-the-secret-key-" * 3, algorithm="HS256"
    )
    response = Api(client, auth=f"Bearer {forged}").get("/content/sections/1", accept=media("Section"))
    assert error_message(response, 401)["errorDescription"] == "Invalid JWT"


SECRET = "a-known-secret-for-signing-test-tokens"


@pytest.fixture
def keyed_client(sqlite_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """An application whose JWT secret the test knows, to forge tokens."""
    with TestClient(create_app(make_settings(sqlite_url, tmp_path, secret_key=SECRET))) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("claims", "status", "description"),
    [
        ({"username": "admin", "exp": int(time.time()) - 10}, 401, "The JWT has expired"),
        ({"username": "ghost", "exp": int(time.time()) + 600}, 401, "Invalid JWT"),
        ({"username": "admin"}, 401, "Invalid JWT"),  # no expiry
        ({"exp": int(time.time()) + 600}, 400, "The JWT carries no username"),
    ],
)
def test_bearer_tokens_with_bad_claims_are_refused(
    keyed_client: TestClient, claims: dict[str, Any], status: int, description: str
) -> None:
    token = jwt.encode(claims, SECRET, algorithm="HS256")
    response = Api(keyed_client, auth=f"Bearer {token}").get("/content/sections/1", accept=media("Section"))
    assert error_message(response, status)["errorDescription"] == description


def test_issued_tokens_carry_the_reference_claims(keyed_client: TestClient) -> None:
    token = issue_token(keyed_client).json()["JWT"]["token"]
    claims = jwt.decode(token, SECRET, algorithms=["HS256"])
    assert claims["username"] == "admin"
    assert claims["roles"] == ["ROLE_USER"]
    assert claims["exp"] - claims["iat"] == 3600
    signed = jwt.encode({"username": "admin", "exp": int(time.time()) + 60}, SECRET, algorithm="HS256")
    assert Api(keyed_client, auth=f"Bearer {signed}").get("/content/sections/1").status_code == 200


# -- Basic and anonymous -----------------------------------------------------------------------------


def test_basic_with_good_credentials_authenticates(client: TestClient) -> None:
    response = Api(client, auth=basic("admin:publish")).get("/content/sections/1", accept=media("Section"))
    assert response.status_code == 200
    assert "set-cookie" not in response.headers


@pytest.mark.parametrize("credentials", ["admin:wrong", "ghost:publish", "admin:"])
def test_basic_with_bad_credentials_is_401(client: TestClient, credentials: str) -> None:
    response = Api(client, auth=basic(credentials)).get("/content/sections/1", accept=media("Section"))
    assert error_message(response, 401)["errorDescription"] == "Invalid login or password"


@pytest.mark.parametrize("header", ["Basic !!!not-base64", "Basic " + base64.b64encode(b"no-colon").decode()])
def test_malformed_basic_is_400(client: TestClient, header: str) -> None:
    response = Api(client, auth=header).get("/content/sections/1", accept=media("Section"))
    assert "malformed Basic credentials" in error_message(response, 400)["errorDescription"]


def test_no_credentials_means_anonymous(client: TestClient) -> None:
    guest = anonymous(client)
    assert guest.get("/languages/eng-GB", accept=media("Language")).status_code == 200
    error_message(guest.get("/content/sections/1", accept=media("Section")), 401)


# -- X-Expected-User ---------------------------------------------------------------------------------


def test_expected_user_matching_passes(api: Api) -> None:
    response = api.get("/content/sections/1", accept=media("Section"), headers={"X-Expected-User": "admin"})
    assert response.status_code == 200


@pytest.mark.parametrize("auth", [basic("admin:publish"), None], ids=["admin", "anonymous"])
@pytest.mark.parametrize("expected", ["", " "], ids=["empty", "blank"])
def test_an_empty_expected_user_is_no_expectation(
    client: TestClient, auth: str | None, expected: str
) -> None:
    response = Api(client, auth=auth).get(
        "/languages/eng-GB", accept=media("Language"), headers={"X-Expected-User": expected}
    )
    assert response.status_code == 200
    assert response.json()["Language"]["languageCode"] == "eng-GB"


@pytest.mark.parametrize(
    ("auth", "expected"), [(basic("admin:publish"), "editor"), (None, "admin"), (None, "anonymous")]
)
def test_expected_user_mismatch_is_401(client: TestClient, auth: str | None, expected: str) -> None:
    response = Api(client, auth=auth).get(
        "/languages/eng-GB", accept=media("Language"), headers={"X-Expected-User": expected}
    )
    assert error_message(response, 401)["errorDescription"] == "Expectation failed. User changed."


# -- /user/current -----------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", [PREFIX, EZ_PREFIX])
def test_current_user_redirects_to_the_user(client: TestClient, prefix: str) -> None:
    response = Api(client, prefix).get("/user/current", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"{prefix}/user/users/14"
    assert response.content == b""


def test_current_user_follows_the_session(client: TestClient) -> None:
    session = session_of(login(client))
    response = anonymous(client).get("/user/current", headers=cookie_of(session), follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"{PREFIX}/user/users/14"


def test_current_user_without_login_is_401(client: TestClient) -> None:
    response = anonymous(client).get("/user/current", accept=media("User"), follow_redirects=False)
    assert error_message(response, 401)["errorDescription"] == "Not logged in."
    assert "location" not in response.headers


# -- X-Siteaccess ------------------------------------------------------------------------------------


def test_known_siteaccess_is_accepted_and_names_the_session_cookie(client: TestClient, api: Api) -> None:
    response = api.get("/content/sections/1", accept=media("Section"), headers={"X-Siteaccess": "admin"})
    assert response.status_code == 200
    session = session_of(login(client, headers={"X-Siteaccess": "admin"}))
    assert session["name"] == ADMIN_COOKIE
    checked = anonymous(client).get(
        "/user/sessions/current",
        accept=media("Session"),
        headers=cookie_of(session) | {"X-Siteaccess": "admin"},
    )
    assert session_of(checked) == session


def test_a_session_cookie_counts_only_on_its_own_siteaccess(client: TestClient) -> None:
    """auth.md §4: the cookie name is eZSESSID + md5(siteaccess); another siteaccess's cookie (or any name
    that merely starts with eZSESSID) is not this siteaccess's session."""
    session = session_of(login(client, headers={"X-Siteaccess": "admin"}))
    guest = anonymous(client)
    for name in (ADMIN_COOKIE, "eZSESSID", "eZSESSIDanything"):
        cookie = {"Cookie": f"{name}={session['identifier']}"}
        refused = guest.get("/content/sections/1", accept=media("Section"), headers=cookie)
        error_message(refused, 401)
        assert "set-cookie" not in refused.headers  # nothing of this siteaccess to clear
    on_admin = guest.get(
        "/content/sections/1", accept=media("Section"), headers=cookie_of(session) | {"X-Siteaccess": "admin"}
    )
    assert on_admin.status_code == 200


def test_a_dead_session_cookie_is_cleared_under_its_own_siteaccess_name(client: TestClient) -> None:
    session = session_of(login(client, headers={"X-Siteaccess": "admin"}))
    headers = cookie_of(session) | {"X-Siteaccess": "admin", "X-CSRF-Token": session["csrfToken"]}
    guest = anonymous(client)
    assert guest.delete(f"/user/sessions/{session['identifier']}", headers=headers).status_code == 204
    response = guest.get("/languages/eng-GB", accept=media("Language"), headers=headers)
    assert response.status_code == 200
    assert_session_cleared(response, ADMIN_COOKIE)


def test_unknown_siteaccess_is_400_naming_the_header(api: Api) -> None:
    response = api.get("/content/sections/1", accept=media("Section"), headers={"X-Siteaccess": "backdoor"})
    body = error_message(response, 400)
    assert "X-Siteaccess" in body["errorDescription"]
    assert "backdoor" in body["errorDescription"]


# -- key rotation, session expiry, cookie flags ----------------------------------------------------------


def app_with_keys(sqlite_url: str, tmp_path: Path, secret: str, *previous: str) -> TestClient:
    settings = make_settings(sqlite_url, tmp_path, secret_key=secret, previous_secret_keys=previous)
    return TestClient(create_app(settings))


def reads_with(client: TestClient, token: str) -> int:
    response = Api(client, auth=f"Bearer {token}").get("/content/sections/1", accept=media("Section"))
    return int(response.status_code)


def test_a_rotated_key_keeps_the_tokens_it_signed_until_they_expire(sqlite_url: str, tmp_path: Path) -> None:
    old_secret, new_secret = "the-old-secret-of-this-test-" * 2, "the-new-secret-of-this-test-" * 2
    with app_with_keys(sqlite_url, tmp_path, old_secret) as before:
        old_token = issue_token(before).json()["JWT"]["token"]
    with app_with_keys(sqlite_url, tmp_path, new_secret, old_secret) as rotated:
        assert reads_with(rotated, old_token) == 200  # nobody is logged out by the rotation
        new_token = issue_token(rotated).json()["JWT"]["token"]
        assert jwt.decode(new_token, new_secret, algorithms=["HS256"])["username"] == "admin"
        assert reads_with(rotated, new_token) == 200
        claims = {"username": "admin", "exp": int(time.time()) - 5}
        expired = jwt.encode(claims, old_secret, algorithm="HS256")
        response = Api(rotated, auth=f"Bearer {expired}").get("/content/sections/1", accept=media("Section"))
        assert error_message(response, 401)["errorDescription"] == "The JWT has expired"
    with app_with_keys(sqlite_url, tmp_path, new_secret) as retired:  # the old key dropped at last
        assert reads_with(retired, old_token) == 401
        assert reads_with(retired, new_token) == 200


class FrozenTime:
    """Stands in for the ``time`` module of the auth service: wall time moved on by ``ahead`` seconds."""

    def __init__(self, ahead: int) -> None:
        self.ahead = ahead

    def time(self) -> float:
        return time.time() + self.ahead

    def monotonic(self) -> float:
        return time.monotonic()


def test_a_session_ends_at_its_time_to_live(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from pressroom.services import auth as auth_module

    session = session_of(login(client))
    assert current_session(client, session).status_code == 200  # alive, and remembered by the process
    monkeypatch.setattr(auth_module, "time", FrozenTime(86400 + 1))  # Settings.session_ttl_seconds
    response = current_session(client, session)
    assert response.status_code == 404
    assert_session_cleared(response)


def test_the_session_cookie_is_secure_behind_https(sqlite_url: str, tmp_path: Path) -> None:
    settings = make_settings(sqlite_url, tmp_path, cookie_secure=True)
    with TestClient(create_app(settings), base_url="https://testserver") as secure_client:
        cookie = login(secure_client).headers["set-cookie"]
    flags = {part.strip() for part in cookie.split(";")}
    assert {"Secure", "HttpOnly", "SameSite=Lax", "Path=/"} <= flags
