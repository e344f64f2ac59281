"""The OAuth authorization code flow driven through the in-process client, without a browser: the
login form, the consent form, the code."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

from starlette.testclient import TestClient

ISSUER = "https://pressroom.test"
REDIRECT = "http://127.0.0.1:8765/callback"
ADMIN_PASSWORD = "publish"
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass(frozen=True)
class Pkce:
    verifier: str
    challenge: str


def pkce() -> Pkce:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return Pkce(verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode())


def authorize_query(client_id: str, challenge: str | None, **extra: str) -> str:
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "scope": "default",
        "state": "s1",
    }
    if challenge is not None:
        params.update(code_challenge=challenge, code_challenge_method="S256")
    params.update(extra)
    return "/authorize?" + urlencode(params)


def csrf_of(html: str) -> str:
    found = _CSRF.search(html)
    assert found is not None, html
    return found.group(1)


def log_in(
    client: TestClient, next_path: str = "", login: str = "admin", password: str = ADMIN_PASSWORD
) -> None:
    form = client.get("/login", params={"next": next_path} if next_path else None)
    assert form.status_code == 200, form.text
    answer = client.post(
        "/login",
        data={"csrf_token": csrf_of(form.text), "login": login, "password": password, "next": next_path},
        follow_redirects=False,
    )
    assert answer.status_code in (200, 303), answer.text


def consent(client: TestClient, query: str, decision: str = "allow") -> dict[str, list[str]]:
    """Allow (or deny) on the consent page; the parameters of the redirect back to the client."""
    page = client.get(query, follow_redirects=False)
    assert page.status_code == 200, page.text
    answer = client.post(
        query, data={"csrf_token": csrf_of(page.text), "decision": decision}, follow_redirects=False
    )
    assert answer.status_code == 302, answer.text
    location = answer.headers["location"]
    assert location.startswith(REDIRECT + "?")
    return parse_qs(urlsplit(location).query)


def code_for(client: TestClient, client_id: str, challenge: str | None) -> str:
    query = authorize_query(client_id, challenge)
    first = client.get(query, follow_redirects=False)
    if first.status_code == 303:  # not logged in yet
        log_in(client, query)
    params = consent(client, query)
    assert params["state"] == ["s1"]
    return params["code"][0]
