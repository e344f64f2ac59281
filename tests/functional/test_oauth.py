"""The OAuth 2.0 authorization server and its tokens on the REST API, in process (issue 28)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.services.oauth import OAuthService
from tests.conftest import make_settings
from tests.functional.oauth_support import ISSUER, REDIRECT, code_for, pkce
from tests.helpers import Api, media


@pytest.fixture
def oauth_client(sqlite_url: str, tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(
        sqlite_url, tmp_path, auth_methods=("session", "jwt", "basic", "oauth"), oauth_issuer=ISSUER
    )
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        yield client


def service(client: TestClient) -> OAuthService:
    return client.app.services.oauth  # type: ignore[attr-defined,no-any-return]


def whoami(client: TestClient, token: str) -> Any:
    response = Api(client, auth="Bearer " + token).get(
        "/user/current", accept=media("User"), follow_redirects=False
    )
    return response


def test_code_flow_with_pkce_gives_a_token_for_the_api(oauth_client: TestClient) -> None:
    public = service(oauth_client).create_client("App", [REDIRECT], public=True).client
    verifier = pkce()
    code = code_for(oauth_client, public.id, verifier.challenge)
    answer = oauth_client.post(
        "/token",
        data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
            "client_id": public.id, "code_verifier": verifier.verifier,
        },
    )  # fmt: skip
    assert answer.status_code == 200, answer.text
    token = answer.json()
    assert token["token_type"] == "Bearer"
    me = whoami(oauth_client, token["access_token"])
    assert me.status_code == 307, me.text
    assert me.headers["location"].endswith("/user/users/14")
