"""Over a real socket (Granian): custom methods must reach the router, not die in the HTTP parser
(spec/README.md: "Both must work over a real socket, not only in a test client")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.functional.support import (
    cookie_of,
    create_section,
    error_message,
    login,
    section_identifiers,
    session_of,
    unique,
)
from tests.helpers import EZ_PREFIX, PREFIX, Api, media

CUSTOM_METHODS = ["PUBLISH", "SWAP", "COPY", "MOVE"]
SECTION_ALLOW = "GET,PATCH,DELETE"


@pytest.fixture(scope="module")
def http(live_server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server, timeout=10) as client:
        yield client


@pytest.fixture
def api(http: httpx.Client) -> Api:
    return Api(http)


@pytest.mark.parametrize("method", CUSTOM_METHODS)
def test_custom_methods_reach_the_router(api: Api, method: str) -> None:
    response = api.request(method, "/content/sections/1", accept="application/json")
    body = error_message(response, 405)
    assert body["errorDescription"] == f"Method {method} is not allowed on '/content/sections/1'"
    assert response.headers["allow"] == SECTION_ALLOW


@pytest.mark.parametrize("method", CUSTOM_METHODS)
def test_custom_methods_on_an_unknown_resource_are_404(api: Api, method: str) -> None:
    response = api.request(method, "/content/nowhere/1", accept="application/json")
    assert error_message(response, 404)["errorDescription"] == "No resource at '/content/nowhere/1'"


@pytest.mark.parametrize("method", CUSTOM_METHODS)
def test_custom_methods_through_the_override_header(api: Api, method: str) -> None:
    response = api.post(
        "/content/sections/1", headers={"X-HTTP-Method-Override": method}, accept="application/json"
    )
    assert (
        error_message(response, 405)["errorDescription"]
        == f"Method {method} is not allowed on '/content/sections/1'"
    )
    assert response.headers["allow"] == SECTION_ALLOW


def test_override_patch_updates_over_the_socket(api: Api) -> None:
    created = create_section(api, unique()).json()["Section"]
    response = api.post(
        created["_href"],
        body={"SectionInput": {"name": "Patched over TCP"}},
        content_type=media("SectionInput"),
        accept=media("Section"),
        headers={"X-HTTP-Method-Override": "PATCH"},
    )
    assert response.status_code == 200
    assert api.get(created["_href"], accept=media("Section")).json()["Section"]["name"] == "Patched over TCP"


@pytest.mark.parametrize("prefix", [PREFIX, EZ_PREFIX])
def test_options_over_the_socket(http: httpx.Client, prefix: str) -> None:
    response = http.options(f"{prefix}/content/sections/1")
    assert response.status_code == 200
    assert response.headers["allow"] == SECTION_ALLOW
    assert response.content == b""


def test_head_over_the_socket(api: Api) -> None:
    get = api.get("/content/sections/1", accept=media("Section"))
    head = api.request("HEAD", "/content/sections/1", accept=media("Section"))
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == media("Section")
    assert head.headers["etag"] == get.headers["etag"]
    assert head.headers["content-length"] == str(len(get.content))


def test_conditional_get_over_the_socket(api: Api) -> None:
    etag = api.get("/content/sections/2").headers["etag"]
    response = api.get("/content/sections/2", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.content == b""


def test_session_cookie_and_csrf_over_the_socket(http: httpx.Client) -> None:
    response = login(http)
    assert response.status_code == 201
    session = session_of(response)
    assert response.headers["set-cookie"].startswith(f"{session['name']}={session['identifier']};")
    guest = Api(http, auth=None)

    identifier = unique()
    refused = create_section(guest, identifier, headers=cookie_of(session))
    assert error_message(refused, 401)["errorDescription"] == "Missing or invalid CSRF token for POST"

    headers = cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]}
    created = create_section(guest, identifier, headers=headers)
    assert created.status_code == 201
    assert identifier in section_identifiers(Api(http))

    logout = guest.delete(f"/user/sessions/{session['identifier']}", headers=headers)
    assert logout.status_code == 204
    assert logout.headers["set-cookie"].startswith(f"{session['name']}=deleted;")
    assert guest.get("/user/sessions/current", headers=cookie_of(session)).status_code == 404


def test_the_cookie_jar_of_a_real_client_carries_the_session(live_server: str) -> None:
    with httpx.Client(base_url=live_server, timeout=10) as browser:
        response = Api(browser, auth=None).post(
            "/user/sessions",
            body={"SessionInput": {"login": "admin", "password": "publish"}},
            content_type=media("SessionInput"),
            accept=media("Session"),
        )
        session = session_of(response)
        assert browser.cookies.get(session["name"]) == session["identifier"]
        current = browser.get(f"{PREFIX}/user/current", follow_redirects=False)
        assert current.status_code == 307
        assert current.headers["location"] == f"{PREFIX}/user/users/14"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("X-CSRF-Token", b"\xff\xfe"),
        ("X-CSRF-Token", b"a" * 6000),
        ("X-Expected-User", b"\xc3("),
        ("Accept", b"\xff/\xff+json, ;;;,"),
        ("X-HTTP-Method-Override", b"\xff"),
        ("If-Match", b"\xff"),
    ],
)
def test_odd_header_bytes_with_a_live_session_are_client_errors(
    http: httpx.Client, name: str, value: bytes
) -> None:
    """README "5xx never leak internals" and auth.md §5: whatever bytes a header carries over a real
    socket, the answer is a 4xx ErrorMessage (a non-ASCII X-CSRF-Token once made the comparison raise)."""
    session = session_of(login(http))
    headers: dict[str, Any] = {"Accept": "application/json", **cookie_of(session), name: value}
    response = http.request(
        "PATCH",
        f"{PREFIX}/content/sections/1",
        content=b'{"SectionInput": {"name": "Standard"}}',
        headers={"Content-Type": media("SectionInput"), **headers},
    )
    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"] in (media("ErrorMessage"), media("ErrorMessage", "xml"))
