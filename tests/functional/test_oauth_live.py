"""The OAuth 2.0 server over real sockets (Granian): a client app in a real browser (Debian's chromium
driven by Playwright) goes through login and consent and gets a code, which authlib's OAuth client
exchanges with PKCE; the token calls the REST API, is refreshed and revoked. A confidential client uses the
client credentials grant, and introspection tells live tokens from revoked ones."""

from __future__ import annotations

import http.server
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from authlib.integrations.httpx_client import OAuth2Client
from playwright.sync_api import sync_playwright

from pressroom.cli import main
from tests.conftest import free_port, running_server
from tests.functional.test_docs_browser import _chromium
from tests.helpers import local_http_server, media

USER = media("User")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The server's base URL and its database URL."""
    root = tmp_path_factory.mktemp("oauth")
    with running_server(root, PRESSROOM_AUTH_METHODS="session,jwt,basic,oauth") as base:
        yield base, f"sqlite:///{root / 'live.db'}"


def new_client(database_url: str, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, str | None]:
    """``pressroom oauth-client create ...``: the client id and its secret (None for a public client)."""
    capsys.readouterr()
    assert main(["oauth-client", "create", *args, "--database-url", database_url]) == 0
    lines = capsys.readouterr().out.splitlines()
    secret = lines[1].removeprefix("secret (shown once): ") if len(lines) > 1 else None
    return lines[0].split("\t")[0], secret


def current_user(base: str, token: str) -> int | None:
    answer = httpx.get(
        base + "/api/ibexa/v2/user/current", headers={"Authorization": "Bearer " + token, "Accept": USER}
    )
    if answer.status_code == 401:
        assert answer.headers["www-authenticate"].startswith('Bearer error="invalid_token"')
        return None
    assert answer.status_code == 307, answer.text
    return int(answer.headers["location"].rsplit("/", 1)[1])


class ClientApp:
    """A tiny web app using the server: /start sends the browser to the authorization endpoint, /callback
    takes the code back."""

    def __init__(self, base: str, client_id: str, port: int) -> None:
        self.port = port
        self.redirect_uri = f"http://127.0.0.1:{self.port}/callback"
        self.oauth = OAuth2Client(
            client_id,
            token_endpoint_auth_method="none",
            redirect_uri=self.redirect_uri,
            scope="default",
            code_challenge_method="S256",
        )
        self.verifier = secrets.token_urlsafe(48)
        self.authorization_url, self.state = self.oauth.create_authorization_url(
            base + "/authorize", code_verifier=self.verifier
        )
        self.callback: str | None = None
        self.called = threading.Event()

    def handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        app = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path == "/start":
                    self.send_response(302)
                    self.send_header("Location", app.authorization_url)
                    self.end_headers()
                    return
                if not self.path.startswith("/callback?"):  # the browser's /favicon.ico
                    self.send_error(404)
                    return
                app.callback = f"http://127.0.0.1:{app.port}{self.path}"
                body = b"<!doctype html><title>Client app</title><p id=done>Signed in</p>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                app.called.set()

            def log_message(self, *args: Any) -> None:
                pass

        return Handler


def test_a_browser_user_lets_an_app_use_the_api(
    live: tuple[str, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base, database_url = live
    port = free_port()
    client_id, _ = new_client(
        database_url,
        capsys,
        "--name",
        "Photo app",
        "--public",
        "--redirect-uri",
        f"http://127.0.0.1:{port}/callback",
    )
    app = ClientApp(base, client_id, port)
    requested: list[str] = []
    with local_http_server(app.handler(), port), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_chromium(), headless=True)
        try:
            page = browser.new_page()
            page.on("request", lambda request: requested.append(request.url))
            page.goto(f"http://127.0.0.1:{port}/start")
            page.get_by_label("Login").fill("admin")
            page.get_by_label("Password").fill("publish")
            page.get_by_role("button", name="Log in").click()
            page.get_by_role("heading", name="Allow Photo app to use your account?").wait_for(timeout=30_000)
            consent_text = page.locator("main").inner_text()
            page.get_by_role("button", name="Allow").click()
            page.locator("#done").wait_for(timeout=30_000)
        finally:
            browser.close()
    assert app.called.is_set() and app.callback is not None
    assert "default: act as you" in consent_text
    assert parse_qs(urlsplit(app.callback).query)["state"] == [app.state]
    outside = [url for url in requested if not url.startswith((base, f"http://127.0.0.1:{port}"))]
    assert outside == []  # the pages load nothing from elsewhere

    token = app.oauth.fetch_token(
        base + "/token", authorization_response=app.callback, code_verifier=app.verifier
    )
    assert token["token_type"] == "Bearer" and "refresh_token" in token
    answer = app.oauth.get(
        base + "/api/ibexa/v2/user/current", headers={"Accept": USER}, follow_redirects=False
    )
    assert answer.status_code == 307 and answer.headers["location"].endswith("/user/users/14")

    refreshed = app.oauth.refresh_token(base + "/token", refresh_token=token["refresh_token"])
    assert refreshed["access_token"] != token["access_token"]
    assert current_user(base, refreshed["access_token"]) == 14
    revoked = app.oauth.revoke_token(
        base + "/revoke", token=refreshed["refresh_token"], token_type_hint="refresh_token"
    )
    assert revoked.status_code == 200
    assert current_user(base, refreshed["access_token"]) is None
    assert current_user(base, token["access_token"]) is None


def test_client_credentials_and_introspection(
    live: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    base, database_url = live
    sync_id, sync_secret = new_client(
        database_url,
        capsys,
        "--name",
        "Sync job",
        "--user",
        "admin",
        "--redirect-uri",
        "https://sync.example/cb",
    )
    probe_id, probe_secret = new_client(
        database_url, capsys, "--name", "Gateway", "--redirect-uri", "https://gw.example/cb"
    )
    job = OAuth2Client(sync_id, sync_secret)
    token = job.fetch_token(base + "/token", grant_type="client_credentials")
    assert "refresh_token" not in token
    assert current_user(base, token["access_token"]) == 14

    gateway = OAuth2Client(probe_id, probe_secret, token_endpoint_auth_method="client_secret_post")
    about = gateway.introspect_token(base + "/introspect", token=token["access_token"]).json()
    assert about["active"] is True
    assert (about["client_id"], about["username"], about["sub"], about["scope"]) == (
        sync_id,
        "admin",
        "14",
        "default",
    )
    assert about["iss"] == base and about["aud"] == base
    assert gateway.introspect_token(base + "/introspect", token="nonsense").json() == {"active": False}

    assert job.revoke_token(base + "/revoke", token=token["access_token"]).status_code == 200
    assert gateway.introspect_token(base + "/introspect", token=token["access_token"]).json() == {
        "active": False
    }
    assert current_user(base, token["access_token"]) is None

    wrong = httpx.post(
        base + "/token", data={"grant_type": "client_credentials"}, auth=(sync_id, "wrong-secret")
    )
    assert (wrong.status_code, wrong.json()["error"]) == (401, "invalid_client")
    # a client without a configured user may not use the grant
    refused = httpx.post(
        base + "/token", data={"grant_type": "client_credentials"}, auth=(probe_id, probe_secret or "")
    )
    assert refused.json()["error"] == "unauthorized_client"
