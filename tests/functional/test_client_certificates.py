"""Client certificates (issue 28 item 4): behind a trusted TLS-terminating proxy, the verify outcome and the
subject DN it passes identify the user (subject CN as a login, or e-mail address as a user's e-mail); from
any other peer the headers are ignored. The end to end test through nginx: test_nginx_client_cert.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import Settings, parse_networks
from tests.conftest import make_settings
from tests.functional.support import cookie_of, error_message, login, session_of
from tests.functional.users_support import EDITORS, basic, create_user, new_login
from tests.helpers import Api, StatementCounter, media

PROXY = "10.0.0.1"
ALL_METHODS = ("session", "jwt", "basic", "certificate")


def settings_for(database_url: str, tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"trusted_proxies": parse_networks("10.0.0.0/8"), "auth_methods": ALL_METHODS}
    return make_settings(database_url, tmp_path, **(values | overrides))


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(database_url, tmp_path)


@pytest.fixture
def proxy(settings: Settings) -> Iterator[TestClient]:
    """Requests arriving from the trusted proxy."""
    with TestClient(create_app(settings), client=(PROXY, 40000)) as client:
        yield client


def certificate(subject: str, verify: str = "SUCCESS") -> dict[str, str]:
    """The headers the proxy sets for a client certificate."""
    return {"X-SSL-Client-Verify": verify, "X-SSL-Client-S-DN": subject}


def current(client: TestClient, headers: dict[str, str]) -> httpx.Response:
    return Api(client, auth=None).get(
        "/user/current", accept=media("User"), headers=headers, follow_redirects=False
    )


def refused(response: httpx.Response) -> None:
    """A 401 for the certificate (not the 401 of /user/current for an anonymous caller)."""
    assert "client certificate" in error_message(response, 401)["errorDescription"]


def whoami(client: TestClient, headers: dict[str, str]) -> int | None:
    """The id of the user the request runs as; None when anonymous (401 from /user/current)."""
    response = current(client, headers)
    if response.status_code == 401:
        return None
    assert response.status_code == 307, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def test_the_common_name_of_a_verified_certificate_is_the_login(proxy: TestClient) -> None:
    assert whoami(proxy, certificate("CN=admin,O=Example")) == 14
    assert whoami(proxy, certificate("emailAddress=x@example.com,CN=ADMIN,OU=Staff\\, North")) == 14
    assert whoami(proxy, certificate("/O=Example/CN=admin")) == 14  # OpenSSL's one-line form


def test_the_certificate_user_needs_no_csrf_token_even_beside_a_session_cookie(proxy: TestClient) -> None:
    session = session_of(login(proxy))  # the cookie of a session: not looked at beside a certificate
    response = Api(proxy, auth=None).post(
        "/content/sections",
        body={"SectionInput": {"identifier": new_login("cert"), "name": "By certificate"}},
        content_type=media("SectionInput"),
        accept=media("Section"),
        headers={**certificate("CN=admin"), **cookie_of(session)},
    )
    assert response.status_code == 201, response.text


@pytest.mark.parametrize("verify", ["NONE", "FAILED:certificate has expired", "success", ""])
def test_only_a_successful_verification_counts(proxy: TestClient, verify: str) -> None:
    assert whoami(proxy, certificate("CN=admin", verify)) is None


def test_the_headers_from_an_untrusted_peer_are_ignored(settings: Settings) -> None:
    with TestClient(create_app(settings), client=("192.0.2.7", 40000)) as direct:
        assert whoami(direct, certificate("CN=admin")) is None


def test_the_headers_are_ignored_unless_the_method_is_active(database_url: str, tmp_path: Path) -> None:
    settings = settings_for(database_url, tmp_path, auth_methods=("session", "jwt", "basic"))
    with TestClient(create_app(settings), client=(PROXY, 40000)) as client:
        assert whoami(client, certificate("CN=admin")) is None


@pytest.mark.parametrize("subject", ["CN=nobody", "CN=anonymous", "O=Example", "CN=admin+CN=other", ""])
def test_a_subject_naming_no_single_user_who_may_log_in_is_refused(proxy: TestClient, subject: str) -> None:
    refused(current(proxy, certificate(subject)))


def test_a_disabled_user_is_refused(proxy: TestClient) -> None:
    user = create_user(Api(proxy), EDITORS, enabled=False)
    refused(current(proxy, certificate(f"CN={user['login']}")))


def test_a_malformed_subject_or_a_header_sent_twice_is_a_bad_request(proxy: TestClient) -> None:
    described = error_message(current(proxy, certificate("CN=ad\\FFmin")), 400)["errorDescription"]
    assert "X-SSL-Client-S-DN" in described
    twice = [("X-SSL-Client-Verify", "SUCCESS"), ("X-SSL-Client-Verify", "SUCCESS")]
    headers = [*twice, ("X-SSL-Client-S-DN", "CN=admin"), ("Accept", media("User"))]
    response = proxy.get("/api/ibexa/v2/user/current", headers=headers)
    assert "X-SSL-Client-Verify" in error_message(response, 400)["errorDescription"]


def test_a_certificate_beside_an_authorization_header_is_refused(proxy: TestClient) -> None:
    headers = {**certificate("CN=admin"), "Authorization": basic("admin", "publish")}
    assert "Authorization" in error_message(current(proxy, headers), 400)["errorDescription"]


def test_beside_the_authorization_of_an_inactive_method_the_certificate_decides(
    database_url: str, tmp_path: Path
) -> None:
    """A proxy's own Basic gate may stand in front: its header is not Pressroom's business."""
    settings = settings_for(database_url, tmp_path, auth_methods=("session", "certificate"))
    with TestClient(create_app(settings), client=(PROXY, 40000)) as client:
        headers = {**certificate("CN=admin"), "Authorization": basic("gate", "keeper")}
        assert whoami(client, headers) == 14


def test_the_email_address_names_the_one_user_with_it(database_url: str, tmp_path: Path) -> None:
    settings = settings_for(database_url, tmp_path, cert_login_from="email")
    with TestClient(create_app(settings), client=(PROXY, 40000)) as client:
        api = Api(client)
        user = create_user(api, EDITORS, email="Jane.Doe@Example.com")
        assert whoami(client, certificate("emailAddress=jane.doe@example.com,CN=whatever")) == user["_id"]
        refused(current(client, certificate("CN=admin")))  # no e-mail address in the subject
        create_user(api, EDITORS, email="shared@example.com")
        create_user(api, EDITORS, email="SHARED@example.com")
        refused(current(client, certificate("emailAddress=shared@example.com")))  # which one?


def test_a_remembered_certificate_user_is_confirmed_by_the_request(settings: Settings) -> None:
    """The user found for a subject is remembered per process; a user disabled by another process since is
    refused at once, and the stale entry is dropped."""
    with (
        TestClient(create_app(settings), client=(PROXY, 40000)) as reader,
        TestClient(create_app(settings)) as writer,
    ):
        user = create_user(Api(writer), EDITORS, login=new_login("cert"))
        headers = certificate(f"CN={user['login']}")
        assert whoami(reader, headers) == user["_id"]
        with StatementCounter() as warm:
            assert whoami(reader, headers) == user["_id"]
        assert warm.count == 1, warm.statements  # remembered: one statement confirms the account
        response = Api(writer).patch(
            f"/user/users/{user['_id']}",
            body={"UserUpdate": {"enabled": False}},
            content_type=media("UserUpdate"),
            accept=media("User"),
        )
        assert response.status_code == 200, response.text
        refused(current(reader, headers))
        refused(current(reader, headers))  # the stale entry is gone, not used again
