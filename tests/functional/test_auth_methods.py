"""Choosing the active authentication methods (issue 28 item 5): PRESSROOM_AUTH_METHODS names the set;
the credentials of a method not in it are ignored like an unknown Authorization scheme, the routes that
issue them do not exist, and the OpenAPI document lists the active methods as its security schemes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import DEFAULT_AUTH_METHODS, parse_networks, settings_from_env
from tests.conftest import make_settings
from tests.functional.support import cookie_of, error_message, login, session_of
from tests.functional.users_support import basic
from tests.helpers import Api, media


def client_with(database_url: str, tmp_path: Path, *methods: str) -> TestClient:
    extra: dict[str, Any] = (
        {"trusted_proxies": parse_networks("10.0.0.1")} if "certificate" in methods else {}
    )
    settings = make_settings(database_url, tmp_path, auth_methods=methods, **extra)
    return TestClient(create_app(settings))


def whoami(client: TestClient, headers: dict[str, str]) -> int | None:
    """The id of the user the request runs as; None when anonymous (401 from /user/current)."""
    response = Api(client, auth=None).get(
        "/user/current", accept=media("User"), headers=headers, follow_redirects=False
    )
    if response.status_code == 401:
        return None
    assert response.status_code == 307, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def jwt_of(client: TestClient) -> str:
    response = Api(client, auth=None).post(
        "/user/token/jwt",
        body={"JWTInput": {"username": "admin", "password": "publish"}},
        content_type=media("JWTInput"),
        accept=media("JWT"),
    )
    assert response.status_code == 200, response.text
    token: str = response.json()["JWT"]["token"]
    return token


def test_the_default_set_is_session_jwt_and_basic(client: TestClient) -> None:
    assert settings_from_env({}).auth_methods == DEFAULT_AUTH_METHODS == ("session", "jwt", "basic")
    session = session_of(login(client))
    assert whoami(client, cookie_of(session)) == 14
    assert whoami(client, {"Authorization": "Bearer " + jwt_of(client)}) == 14
    assert whoami(client, {"Authorization": basic("admin", "publish")}) == 14


def test_credentials_of_an_inactive_method_are_ignored_like_an_unknown_scheme(
    database_url: str, tmp_path: Path
) -> None:
    with client_with(database_url, tmp_path, *DEFAULT_AUTH_METHODS) as everything:
        session, token = session_of(login(everything)), jwt_of(everything)
    with client_with(database_url, tmp_path, "basic") as basic_only:
        assert whoami(basic_only, {"Authorization": "Digest username=admin"}) is None  # unknown
        assert whoami(basic_only, {"Authorization": "Bearer " + token}) is None
        assert whoami(basic_only, cookie_of(session)) is None
        assert whoami(basic_only, {"Authorization": basic("admin", "publish")}) == 14
    with client_with(database_url, tmp_path, "jwt") as jwt_only:
        assert whoami(jwt_only, {"Authorization": basic("admin", "publish")}) is None
        assert whoami(jwt_only, {"Authorization": "Bearer " + token}) == 14
        # not even a malformed header of an inactive method is looked at
        assert whoami(jwt_only, {"Authorization": "Basic ???"}) is None


def test_the_routes_issuing_an_inactive_methods_credentials_do_not_exist(
    database_url: str, tmp_path: Path
) -> None:
    with client_with(database_url, tmp_path, "basic") as client:
        error_message(login(client), 404)
        response = Api(client, auth=None).post(
            "/user/token/jwt",
            body={"JWTInput": {"username": "admin", "password": "publish"}},
            content_type=media("JWTInput"),
            accept=media("JWT"),
        )
        error_message(response, 404)
        error_message(Api(client).get("/user/sessions/current", accept=media("Session")), 404)
        spec = client.get("/api/ibexa/v2/openapi.json").json()
        assert not [path for path in spec["paths"] if path.startswith(("/user/sessions", "/user/token"))]
    with client_with(database_url, tmp_path, "session") as client:
        assert whoami(client, cookie_of(session_of(login(client)))) == 14


def schemes_and_security(client: TestClient) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    validate(spec)
    return spec["components"]["securitySchemes"], spec["security"]


def test_the_openapi_document_lists_the_default_methods(client: TestClient) -> None:
    schemes, security = schemes_and_security(client)
    assert schemes["basic"] == {"type": "http", "scheme": "basic"}
    assert schemes["jwt"]["scheme"] == "bearer"
    assert schemes["jwt"]["bearerFormat"] == "JWT"
    assert (schemes["session"]["type"], schemes["session"]["in"]) == ("apiKey", "cookie")
    assert schemes["session"]["name"] == session_of(login(client))["name"]
    assert (schemes["csrf"]["in"], schemes["csrf"]["name"]) == ("header", "X-CSRF-Token")
    assert set(schemes) == {"basic", "jwt", "session", "csrf"}
    assert security == [{"basic": []}, {"jwt": []}, {"session": [], "csrf": []}, {}]


@pytest.mark.parametrize(
    ("methods", "names", "security"),
    [
        (("certificate",), {"certificate"}, [{"certificate": []}, {}]),
        (("jwt", "certificate"), {"jwt", "certificate"}, [{"certificate": []}, {"jwt": []}, {}]),
        (("session",), {"session", "csrf"}, [{"session": [], "csrf": []}, {}]),
        (("oauth", "basic"), {"oauth", "basic"}, [{"basic": []}, {"oauth": ["default"]}, {}]),
    ],
)
def test_the_openapi_document_lists_only_the_active_methods(
    database_url: str, tmp_path: Path, methods: tuple[str, ...], names: set[str], security: list[Any]
) -> None:
    with client_with(database_url, tmp_path, *methods) as client:
        schemes, listed = schemes_and_security(client)
    assert set(schemes) == names
    assert listed == security
    if "certificate" in names:
        assert schemes["certificate"]["type"] == "mutualTLS"
    if "oauth" in names:
        flows = schemes["oauth"]["flows"]
        assert flows["authorizationCode"]["tokenUrl"] == flows["clientCredentials"]["tokenUrl"] == "/token"
        assert set(flows["authorizationCode"]["scopes"]) == {"default", "read"}


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"PRESSROOM_AUTH_METHODS": "session,kerberos"}, "(not kerberos)"),
        ({"PRESSROOM_AUTH_METHODS": " , "}, "must name some of session, jwt, basic, oauth, certificate"),
        ({"PRESSROOM_AUTH_METHODS": "certificate"}, "needs the TLS-terminating proxy"),
        ({"PRESSROOM_CERT_LOGIN_FROM": "uid"}, "must be cn or email"),
    ],
)
def test_a_bad_method_setting_stops_the_start(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        settings_from_env(env)


def test_the_method_settings_are_read_from_the_environment() -> None:
    settings = settings_from_env(
        {
            "PRESSROOM_AUTH_METHODS": " Basic, certificate ,basic",
            "PRESSROOM_TRUSTED_PROXIES": "10.0.0.1",
            "PRESSROOM_CERT_VERIFY_HEADER": "X-Client-Verify",
            "PRESSROOM_CERT_SUBJECT_HEADER": "X-Client-DN",
            "PRESSROOM_CERT_LOGIN_FROM": "EMAIL",
        }
    )
    assert settings.auth_methods == ("basic", "certificate")
    assert (settings.cert_verify_header, settings.cert_subject_header) == ("X-Client-Verify", "X-Client-DN")
    assert settings.cert_login_from == "email"
    defaults = settings_from_env({})
    assert (defaults.cert_verify_header, defaults.cert_subject_header) == (
        "X-SSL-Client-Verify",
        "X-SSL-Client-S-DN",
    )
    assert defaults.cert_login_from == "cn"
