"""Login hardening (issues 14, 15 and 23): throttling per login and client address pair with 429 and
Retry-After, a pace for a login or an address under wide attack but never a lockout, shared by every process
on the database; the same argon2 work for unknown logins; password work
off the event loop; JWTs that end with a logout."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.domain import passwords
from pressroom.services import throttle
from pressroom.services.throttle import ADDRESS, LOGIN, PAIR
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


def at(client: TestClient, address: str) -> TestClient:
    """A client of the same application whose connections come from ``address``."""
    return TestClient(client.app, client=(address, 40000))


def fail(client: TestClient, times: int, user: str = "admin") -> None:
    for _ in range(times):
        error_message(login(client, user, "wrong"), 401)


def assert_throttled(response: Any, retry_after: int) -> None:
    body = error_message(response, 429)
    assert body["errorMessage"] == "Too Many Requests"
    assert body["errorDescription"] == f"Too many failed logins; try again in {retry_after} seconds"
    assert response.headers["retry-after"] == str(retry_after)


def basic_login(client: TestClient, credentials: str = "admin:publish") -> Any:
    return Api(client, auth=basic(credentials)).get("/content/sections/1", accept=media("Section"))


def assert_gets_in(client: TestClient) -> None:
    """The right password gets in by session, JWT and Basic."""
    assert login(client).status_code == 201
    assert issue_token(client).status_code == 200
    assert basic_login(client).status_code == 200


def test_a_login_is_blocked_from_an_address_after_a_few_failures_with_retry_after(
    client: TestClient, clock: list[int], hasher: CountingHasher
) -> None:
    fail(client, PAIR.allowed)
    checked = len(hasher.threads)
    # blocked: even the right password is not checked, on every way to log in
    assert_throttled(login(client), PAIR.first_block)
    assert_throttled(issue_token(client), PAIR.first_block)
    assert_throttled(basic_login(client, "ADMIN:publish"), PAIR.first_block)
    assert len(hasher.threads) == checked
    clock[0] += 10
    assert_throttled(login(client), PAIR.first_block - 10)


def test_the_owner_gets_in_from_another_address_while_one_is_blocked(
    client: TestClient, clock: list[int]
) -> None:
    guesser = at(client, "192.0.2.66")
    fail(guesser, PAIR.allowed)
    assert_throttled(login(guesser), PAIR.first_block)
    assert_gets_in(at(client, "198.51.100.1"))
    assert_gets_in(client)


def test_the_block_ends_and_doubles_with_each_further_failure(client: TestClient, clock: list[int]) -> None:
    fail(client, PAIR.allowed)
    clock[0] += PAIR.first_block
    fail(client, 1)
    assert_throttled(login(client), 2 * PAIR.first_block)
    clock[0] += 2 * PAIR.first_block
    assert login(client).status_code == 201
    # a success forgets the failures of the pair: a few more are allowed again
    fail(client, PAIR.allowed - 1)
    assert login(client).status_code == 201


def test_unknown_logins_are_counted_and_blocked_too(client: TestClient, clock: list[int]) -> None:
    fail(client, PAIR.allowed, user="ghost")
    assert_throttled(login(client, "GHOST", "anything"), PAIR.first_block)
    assert login(client).status_code == 201  # another login from the same address is not blocked


def test_an_ipv6_client_is_one_address_per_64(client: TestClient, clock: list[int]) -> None:
    fail(at(client, "2001:db8::1"), PAIR.allowed)
    assert_throttled(login(at(client, "2001:db8::2")), PAIR.first_block)
    assert login(at(client, "2001:db8:0:1::1")).status_code == 201


def test_a_login_under_wide_attack_paces_the_addresses_that_failed_on_it(
    db_api: Api, clock: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    client = db_api.client
    guessers = [at(client, f"203.0.113.{index}") for index in range(LOGIN.allowed - 1)]
    with caplog.at_level(logging.WARNING, "pressroom.throttle"):
        for guesser in guessers:
            fail(guesser, 1)
        fail(guessers[0], 1)  # no pause yet: this failure makes the wide attack
    assert [record.getMessage() for record in caplog.records] == [
        f"Login 'admin' under wide attack: {LOGIN.allowed} failed logins, its failed pairs are paced"
    ]
    # an address that failed on the login waits a little, with the right password too; its other logins do not
    assert_throttled(login(guessers[1]), LOGIN.first_block)
    assert login(guessers[1], "editor", "wrong").status_code == 401
    # the owner from an address that has not failed on it gets in at once, by every way
    assert_gets_in(at(client, "198.51.100.1"))
    clock[0] += LOGIN.first_block
    fail(guessers[1], 1)  # the pause doubles with each failure on the login
    assert_throttled(login(guessers[1]), 2 * LOGIN.first_block)
    assert_throttled(login(guessers[2], "admin", "wrong"), LOGIN.first_block)
    clock[0] += 2 * LOGIN.first_block
    assert login(guessers[1]).status_code == 201  # paced, not blocked


def test_an_address_failing_on_many_logins_is_paced_on_those_only_and_locks_nobody_out(
    client: TestClient, clock: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    """An office or a NAT shares one address: a neighbour's failures on other logins block nobody."""
    office = at(client, "192.0.2.9")
    with caplog.at_level(logging.WARNING, "pressroom.throttle"):
        for index in range(ADDRESS.allowed):
            error_message(login(office, f"user{index}", "wrong"), 401)
    assert [record.getMessage() for record in caplog.records] == [
        f"Address 192.0.2.9 under wide attack: {ADDRESS.allowed} failed logins, its failed pairs are paced"
    ]
    assert_throttled(login(office, "user0", "wrong"), ADDRESS.first_block)
    assert_gets_in(office)  # a login that has not failed from there


def test_a_block_at_its_longest_is_logged(
    client: TestClient, clock: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    guesser = at(client, "192.0.2.13")
    with caplog.at_level(logging.WARNING, "pressroom.throttle"):
        fail(guesser, PAIR.allowed)
        blocks = [PAIR.first_block]
        while blocks[-1] < PAIR.max_block:
            clock[0] += blocks[-1]
            fail(guesser, 1)
            blocks.append(min(PAIR.max_block, 2 * blocks[-1]))
            assert_throttled(login(guesser), blocks[-1])
    assert blocks == [30, 60, 120, 240, 480, 900]
    assert [record.getMessage() for record in caplog.records] == [
        f"Login 'admin' from 192.0.2.13 blocked for {PAIR.max_block} s, the longest block: its failures go on"
    ]


def test_failures_are_shared_by_every_process_on_the_database(settings: Any, clock: list[int]) -> None:
    """Two applications on one database stand for two workers (or two hosts)."""
    with TestClient(create_app(settings)) as worker1, TestClient(create_app(settings)) as worker2:
        fail(worker1, PAIR.allowed - 1)
        fail(worker2, 1)
        assert_throttled(login(worker1), PAIR.first_block)
        assert_throttled(login(worker2), PAIR.first_block)


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
