"""Login hardening (issues 14 and 15): throttling per login and per client address with 429 and
Retry-After, shared by every process on the database; the same argon2 work for unknown logins; password work
off the event loop; JWTs that end with a logout."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.domain import passwords
from pressroom.services import throttle
from pressroom.services.throttle import ADDRESS, LOGIN
from tests.conftest import make_settings
from tests.functional.support import cookie_of, error_message, login, session_of
from tests.functional.test_auth import basic, issue_token
from tests.helpers import PREFIX, Api, media


class CountingHasher:
    """Stands in for the argon2 hasher: counts verifications and notes the thread each ran on."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.threads: list[str] = []

    def verify(self, password_hash: str, password: str) -> bool:
        self.threads.append(threading.current_thread().name)
        return bool(self.real.verify(password_hash, password))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


@pytest.fixture
def hasher(monkeypatch: pytest.MonkeyPatch) -> CountingHasher:
    counting = CountingHasher(passwords._HASHER)
    monkeypatch.setattr(passwords, "_HASHER", counting)
    return counting


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The throttle's clock, moved by the test: ``clock[0] += 31``."""
    now = [1_900_000_000]
    monkeypatch.setattr(throttle, "_now", lambda: now[0])
    return now


def from_address(settings: Any, address: str) -> TestClient:
    return TestClient(create_app(settings), client=(address, 40000))


def fail(client: TestClient, times: int, user: str = "admin") -> None:
    for _ in range(times):
        error_message(login(client, user, "wrong"), 401)


def assert_throttled(response: Any, retry_after: int) -> None:
    body = error_message(response, 429)
    assert body["errorMessage"] == "Too Many Requests"
    assert body["errorDescription"] == f"Too many failed logins; try again in {retry_after} seconds"
    assert response.headers["retry-after"] == str(retry_after)


def test_a_login_is_blocked_after_a_few_failures_with_retry_after(
    client: TestClient, clock: list[int], hasher: CountingHasher
) -> None:
    fail(client, LOGIN.allowed)
    checked = len(hasher.threads)
    # blocked: even the right password is not checked, on every way to log in
    assert_throttled(login(client), LOGIN.first_block)
    assert_throttled(issue_token(client), LOGIN.first_block)
    blocked = Api(client, auth=basic("ADMIN:publish")).get("/content/sections/1", accept=media("Section"))
    assert_throttled(blocked, LOGIN.first_block)
    assert len(hasher.threads) == checked
    clock[0] += 10
    assert_throttled(login(client), LOGIN.first_block - 10)


def test_the_block_ends_and_doubles_with_each_further_failure(client: TestClient, clock: list[int]) -> None:
    fail(client, LOGIN.allowed)
    clock[0] += LOGIN.first_block
    fail(client, 1)
    assert_throttled(login(client), 2 * LOGIN.first_block)
    clock[0] += 2 * LOGIN.first_block
    assert login(client).status_code == 201
    # a success forgets the failures of the login: a few more are allowed again
    fail(client, LOGIN.allowed - 1)
    assert login(client).status_code == 201


def test_unknown_logins_are_counted_and_blocked_too(client: TestClient, clock: list[int]) -> None:
    fail(client, LOGIN.allowed, user="ghost")
    assert_throttled(login(client, "GHOST", "anything"), LOGIN.first_block)
    assert login(client).status_code == 201  # another login from the same address is not blocked yet


def test_an_address_is_blocked_after_failures_on_many_logins(
    settings: Any, clock: list[int], hasher: CountingHasher
) -> None:
    with from_address(settings, "192.0.2.7") as guesser, from_address(settings, "198.51.100.1") as other:
        for index in range(ADDRESS.allowed):
            error_message(login(guesser, f"user{index}", "wrong"), 401)
        assert_throttled(login(guesser), ADDRESS.first_block)
        # the account itself is not blocked for everyone else
        assert login(other).status_code == 201
        # an IPv6 client is counted per /64: its neighbours share the block
    with from_address(settings, "2001:db8::1") as first, from_address(settings, "2001:db8::2") as second:
        for index in range(ADDRESS.allowed):
            error_message(login(first, f"user{index}", "wrong"), 401)
        assert_throttled(login(second), ADDRESS.first_block)


def test_failures_are_shared_by_every_process_on_the_database(settings: Any, clock: list[int]) -> None:
    """Two applications on one database stand for two workers (or two hosts)."""
    with from_address(settings, "192.0.2.1") as worker1, from_address(settings, "192.0.2.2") as worker2:
        fail(worker1, LOGIN.allowed - 1)
        fail(worker2, 1)
        assert_throttled(login(worker1), LOGIN.first_block)
        assert_throttled(login(worker2), LOGIN.first_block)


def test_an_unknown_login_costs_the_same_verification_off_the_event_loop(
    client: TestClient, hasher: CountingHasher
) -> None:
    error_message(login(client, "ghost", "publish"), 401)
    error_message(login(client, "admin", "wrong"), 401)
    error_message(issue_token(client, "admin", "wrong"), 401)
    bad_basic = Api(client, auth=basic("admin:wrong")).get("/content/sections/1", accept=media("Section"))
    error_message(bad_basic, 401)
    assert len(hasher.threads) == 4  # one argon2 verification each, the unknown login included
    assert all(name.startswith("pressroom-offload") for name in hasher.threads), hasher.threads


# -- JWT and logout ----------------------------------------------------------------------------------


def test_logout_ends_the_jwts_issued_before_it(client: TestClient) -> None:
    before = issue_token(client).json()["JWT"]["token"]
    bearer = Api(client, auth=f"Bearer {before}")
    assert bearer.get("/content/sections/1", accept=media("Section")).status_code == 200
    session = session_of(login(client))
    logout = Api(client, auth=None).delete(
        f"/user/sessions/{session['identifier']}",
        headers=cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]},
    )
    assert logout.status_code == 204
    refused = bearer.get("/content/sections/1", accept=media("Section"))
    assert error_message(refused, 401)["errorDescription"] == "Invalid JWT"
    after = issue_token(client).json()["JWT"]["token"]
    current = Api(client, auth=f"Bearer {after}").get("/user/current", follow_redirects=False)
    assert current.headers["location"] == f"{PREFIX}/user/users/14"


@pytest.fixture
def twin_apps(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    settings = make_settings(sqlite_url, tmp_path)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        yield one, two


def test_a_logout_in_one_process_ends_the_jwt_in_another(twin_apps: tuple[TestClient, TestClient]) -> None:
    one, two = twin_apps
    token = issue_token(one).json()["JWT"]["token"]
    session = session_of(login(two))
    Api(two, auth=None).delete(
        f"/user/sessions/{session['identifier']}",
        headers=cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]},
    )
    refused = Api(one, auth=f"Bearer {token}").get("/content/sections/1", accept=media("Section"))
    error_message(refused, 401)
