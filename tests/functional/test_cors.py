"""CORS: off by default; listed origins get credentials, ``*`` any origin without them; preflights name
the custom methods and headers; every answer varies by Origin. In-process and over a real socket."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import settings_from_env
from pressroom.rest.cors import ALLOWED_HEADERS
from tests.conftest import make_settings, running_server
from tests.helpers import ADMIN, PREFIX, media

LISTED = "https://a.example"
OTHER_LISTED = "https://b.example"
STRANGER = "https://evil.example"
ORIGINS = f"{LISTED},{OTHER_LISTED}"
VERSION = "/content/objects/1/versions/1"  # a route that declares PUBLISH and COPY


def preflight(client: Any, path: str, origin: str, method: str, headers: str = "") -> httpx.Response:
    request_headers = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers:
        request_headers["Access-Control-Request-Headers"] = headers
    response: httpx.Response = client.request("OPTIONS", PREFIX + path, headers=request_headers)
    return response


def split(value: str) -> set[str]:
    return {item.strip().lower() for item in value.split(",")}


def vary(response: httpx.Response) -> set[str]:
    return {item for value in response.headers.get_list("vary") for item in split(value)}


def assert_preflight_granted(response: httpx.Response, origin: str, method: str) -> None:
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == origin
    assert response.headers["access-control-allow-credentials"] == "true"
    assert method in response.headers["access-control-allow-methods"].split(",")
    assert split(response.headers["access-control-allow-headers"]) == {h.lower() for h in ALLOWED_HEADERS}
    assert int(response.headers["access-control-max-age"]) > 0
    assert "origin" in vary(response)


def assert_no_grant(response: httpx.Response) -> None:
    assert not any(name.startswith("access-control-") for name in response.headers)


@pytest.fixture
def cors_client(sqlite_url: str, tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(sqlite_url, tmp_path, cors_origins=(LISTED, OTHER_LISTED))
    with TestClient(create_app(settings), base_url="http://testserver") as test_client:
        yield test_client


def test_cors_is_off_by_default(client: TestClient) -> None:
    response = preflight(client, VERSION, LISTED, "PUBLISH")
    assert response.status_code == 200
    assert_no_grant(response)
    assert "origin" not in vary(response)
    assert_no_grant(client.get(PREFIX + "/", headers={"Origin": LISTED}))


@pytest.mark.parametrize("method", ["PUBLISH", "COPY", "DELETE"])
def test_a_preflight_from_a_listed_origin_names_the_custom_methods(
    cors_client: TestClient, method: str
) -> None:
    response = preflight(cors_client, VERSION, OTHER_LISTED, method, "x-csrf-token,if-match,content-type")
    assert_preflight_granted(response, OTHER_LISTED, method)
    assert response.content == b""


def test_a_preflight_from_an_unlisted_origin_is_not_granted(cors_client: TestClient) -> None:
    response = preflight(cors_client, VERSION, STRANGER, "PUBLISH")
    assert_no_grant(response)
    assert "origin" in vary(response)


def test_a_preflight_on_an_unknown_resource_is_404(cors_client: TestClient) -> None:
    response = preflight(cors_client, "/content/nothing", LISTED, "GET")
    assert response.status_code == 404
    assert response.headers["access-control-allow-origin"] == LISTED


def test_answers_to_a_listed_origin_carry_credentials_and_expose_headers(cors_client: TestClient) -> None:
    headers = {"Origin": LISTED, "Authorization": ADMIN, "Accept": media("ContentInfo")}
    response = cors_client.get(PREFIX + "/content/objects/1", headers=headers)
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == LISTED
    assert response.headers["access-control-allow-credentials"] == "true"
    assert "etag" in split(response.headers["access-control-expose-headers"])
    assert {"origin", "accept"} <= vary(response)


def test_errors_to_a_listed_origin_are_readable_by_its_scripts(cors_client: TestClient) -> None:
    response = cors_client.get(PREFIX + "/content/objects/999999", headers={"Origin": LISTED})
    assert response.status_code in (401, 404)
    assert response.headers["access-control-allow-origin"] == LISTED


def test_answers_to_an_unlisted_origin_carry_no_grant(cors_client: TestClient) -> None:
    response = cors_client.get(PREFIX + "/", headers={"Origin": STRANGER})
    assert response.status_code == 200
    assert_no_grant(response)
    assert "origin" in vary(response)


def test_a_wildcard_admits_any_origin_without_credentials(sqlite_url: str, tmp_path: Path) -> None:
    settings = make_settings(sqlite_url, tmp_path, cors_origins=("*", LISTED))
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        anyone = preflight(client, VERSION, STRANGER, "PUBLISH")
        assert anyone.headers["access-control-allow-origin"] == "*"
        assert "access-control-allow-credentials" not in anyone.headers
        assert_preflight_granted(preflight(client, VERSION, LISTED, "PUBLISH"), LISTED, "PUBLISH")


def test_origins_come_from_the_environment() -> None:
    settings = settings_from_env({"PRESSROOM_CORS_ORIGINS": f" {LISTED}, {OTHER_LISTED} ,"})
    assert settings.cors_origins == (LISTED, OTHER_LISTED)
    assert settings_from_env({}).cors_origins == ()


def test_cors_over_a_real_socket(tmp_path: Path) -> None:
    with (
        running_server(tmp_path, PRESSROOM_CORS_ORIGINS=ORIGINS) as base,
        httpx.Client(base_url=base) as http,
    ):
        assert_preflight_granted(preflight(http, VERSION, LISTED, "PUBLISH"), LISTED, "PUBLISH")
        assert_no_grant(preflight(http, VERSION, STRANGER, "PUBLISH"))
        response = http.get(PREFIX + "/", headers={"Origin": OTHER_LISTED})
        assert response.headers["access-control-allow-origin"] == OTHER_LISTED
        assert "origin" in vary(response)
