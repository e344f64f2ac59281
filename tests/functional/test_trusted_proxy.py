"""Behind a reverse proxy (issue 14): PRESSROOM_TRUSTED_PROXIES names the proxies whose X-Forwarded-For
(the client's address, for the login throttle and the access log) and X-Forwarded-Proto (HTTPS: a Secure
session cookie) are believed; from any other peer both headers are ignored."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import Settings, parse_networks, settings_from_env
from pressroom.logs import JsonFormatter
from pressroom.rest.forwarded import client_of
from pressroom.services import throttle
from pressroom.services.throttle import PAIR
from tests.conftest import make_settings
from tests.functional.support import cookie_of, error_message, login, session_of
from tests.helpers import Api

PROXIES = "10.0.0.0/8, 2001:db8:ffff::/48"


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    now = [1_900_000_000]
    monkeypatch.setattr(throttle, "_now", lambda: now[0])
    return now


@pytest.fixture
def settings(database_url: str, tmp_path: Path, clock: list[int]) -> Settings:
    """Behind the proxies of PROXIES, on each database."""
    return make_settings(database_url, tmp_path, trusted_proxies=parse_networks(PROXIES))


def peer(settings: Settings, address: str) -> TestClient:
    """A client whose TCP connection comes from ``address``."""
    return TestClient(create_app(settings), client=(address, 40000))


def fail_as_admin(client: TestClient, forwarded_for: list[str] | None = None) -> None:
    """Enough failed logins as admin (each with the next X-Forwarded-For) to block admin from the address
    they are counted for."""
    for index in range(PAIR.allowed):
        headers = {"X-Forwarded-For": forwarded_for[index]} if forwarded_for else {}
        error_message(login(client, "admin", "wrong", headers=headers), 401)


def throttled(response: Any) -> bool:
    if response.status_code == 429:
        return True
    assert response.status_code == 201, response.text
    return False


# -- the client address: login throttling ----------------------------------------------------------


def test_an_untrusted_peer_cannot_dodge_the_throttle_with_x_forwarded_for(settings: Settings) -> None:
    spoofed = [f"198.51.100.{index}" for index in range(PAIR.allowed)]
    with peer(settings, "192.0.2.7") as attacker, peer(settings, "192.0.2.8") as other:
        fail_as_admin(attacker, spoofed)
        # counted for the peer: another made-up address does not help, and no forwarded one was blocked
        assert throttled(login(attacker, headers={"X-Forwarded-For": "203.0.113.1"}))
        assert throttled(login(attacker))
        assert not throttled(login(other, headers={"X-Forwarded-For": "192.0.2.7"}))
    with peer(settings, "10.0.0.1") as proxy:
        assert not throttled(login(proxy, headers={"X-Forwarded-For": spoofed[0]}))


def test_a_trusted_proxy_forwards_each_client_address_to_the_throttle(settings: Settings) -> None:
    with peer(settings, "10.0.0.1") as proxy:
        fail_as_admin(proxy, ["192.0.2.7"] * PAIR.allowed)
        assert throttled(login(proxy, headers={"X-Forwarded-For": "192.0.2.7"}))
        # the other clients of the proxy, and the proxy itself, are not blocked
        assert not throttled(login(proxy, headers={"X-Forwarded-For": "192.0.2.8"}))
        assert not throttled(login(proxy))
    with peer(settings, "192.0.2.7") as direct:  # the same client, without the proxy: the same address
        assert throttled(login(direct))
    with peer(settings, "2001:db8:ffff::5") as proxy6:  # another proxy of the list, over IPv6
        assert throttled(login(proxy6, headers={"X-Forwarded-For": "192.0.2.7"}))
        assert not throttled(login(proxy6, headers={"X-Forwarded-For": "2001:db8:1::1"}))


def test_the_walk_from_the_right_skips_trusted_hops_and_ignores_what_the_client_prepended(
    settings: Settings,
) -> None:
    # client 192.0.2.7 sends a made-up X-Forwarded-For; the outer proxy 10.0.0.2 appends the client's
    # address, the inner one (the peer, 10.0.0.1) appends 10.0.0.2's
    chains = [f"198.51.100.{index}, 192.0.2.7, 10.0.0.2" for index in range(PAIR.allowed)]
    with peer(settings, "10.0.0.1") as proxy:
        fail_as_admin(proxy, chains)
        assert throttled(login(proxy, headers={"X-Forwarded-For": "192.0.2.7"}))
        assert not throttled(login(proxy, headers={"X-Forwarded-For": "198.51.100.0"}))
        assert not throttled(login(proxy, headers={"X-Forwarded-For": "10.0.0.2"}))


def test_an_unparseable_x_forwarded_for_leaves_the_peer_as_the_client(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    settings = settings.with_overrides(access_log=True)
    with peer(settings, "10.0.0.1") as proxy, caplog.at_level(logging.INFO, "pressroom.access"):
        for value in ("unknown", "not an address, 10.0.0.2", "192.0.2.7, ", "", ",,", "x" * 4000):
            response = login(proxy, headers={"X-Forwarded-For": value})
            assert response.status_code == 201, (value, response.text)
        assert login(proxy, headers={"X-Forwarded-For": "192.0.2.9"}).status_code == 201
    clients = [
        _access_line(record)["client"] for record in caplog.records if record.name == "pressroom.access"
    ]
    assert clients == ["10.0.0.1"] * 6 + ["192.0.2.9"]


def test_the_access_log_names_the_forwarded_client_only_from_a_trusted_proxy(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    settings = settings.with_overrides(access_log=True)
    with caplog.at_level(logging.INFO, "pressroom.access"):
        with peer(settings, "10.0.0.1") as proxy:
            Api(proxy).get("/", headers={"X-Forwarded-For": "2001:db8:1::1, 10.0.0.3"})
        with peer(settings, "192.0.2.7") as direct:
            Api(direct).get("/", headers={"X-Forwarded-For": "2001:db8:1::1"})
        with peer(settings, "10.0.0.1") as proxy:
            proxy.get("/health", headers={"X-Forwarded-For": "198.51.100.1"})
    clients = [
        _access_line(record)["client"] for record in caplog.records if record.name == "pressroom.access"
    ]
    assert clients == ["2001:db8:1::1", "192.0.2.7", "198.51.100.1"]


# -- HTTPS: the Secure session cookie ---------------------------------------------------------------


def flags(cookie: str) -> set[str]:
    return {part.strip() for part in cookie.split(";")}


def login_and_logout(client: TestClient, headers: dict[str, str]) -> tuple[str, str]:
    """The Set-Cookie of a login and of the logout that follows."""
    response = login(client, headers=headers)
    session = session_of(response)
    logout = Api(client, auth=None).delete(
        f"/user/sessions/{session['identifier']}",
        headers=cookie_of(session) | {"X-CSRF-Token": session["csrfToken"]} | headers,
    )
    assert logout.status_code == 204, logout.text
    return response.headers["set-cookie"], logout.headers["set-cookie"]


def test_x_forwarded_proto_https_from_a_trusted_proxy_makes_the_cookie_secure(settings: Settings) -> None:
    with peer(settings, "10.0.0.1") as proxy:
        for proto in ("https", "HTTPS", "http, https"):
            cookie, cleared = login_and_logout(proxy, {"X-Forwarded-Proto": proto})
            assert {"Secure", "HttpOnly", "SameSite=Lax"} <= flags(cookie), proto
            assert {"Secure", "HttpOnly", "Max-Age=0"} <= flags(cleared), proto
        for headers in ({}, {"X-Forwarded-Proto": "http"}, {"X-Forwarded-Proto": "https, http"}):
            cookie, cleared = login_and_logout(proxy, headers)
            assert "Secure" not in flags(cookie) and "Secure" not in flags(cleared), headers
        # a session that is gone is cleared with the same flag: by the session routes and by any other
        session = session_of(login(proxy, headers={"X-Forwarded-Proto": "https"}))
        dead = cookie_of(session) | {"X-Forwarded-Proto": "https"}
        anonymous = Api(proxy, auth=None)
        anonymous.delete(
            f"/user/sessions/{session['identifier']}", headers=dead | {"X-CSRF-Token": session["csrfToken"]}
        )
        gone = anonymous.get("/user/sessions/current", headers=dead)
        elsewhere = anonymous.get("/", headers=dead)
        assert (gone.status_code, elsewhere.status_code) == (404, 200)
        for response in (gone, elsewhere):
            assert {f"{session['name']}=deleted", "Secure", "Max-Age=0"} <= flags(
                response.headers["set-cookie"]
            )


def test_x_forwarded_proto_from_an_untrusted_peer_is_ignored(settings: Settings) -> None:
    with peer(settings, "192.0.2.7") as direct:
        cookie, cleared = login_and_logout(direct, {"X-Forwarded-Proto": "https"})
    assert "Secure" not in flags(cookie) and "Secure" not in flags(cleared)


def test_the_cookie_is_secure_when_the_connection_itself_is_https_or_the_setting_says_so(
    settings: Settings,
) -> None:
    with TestClient(create_app(settings), base_url="https://testserver", client=("192.0.2.7", 1)) as tls:
        assert "Secure" in flags(login(tls).headers["set-cookie"])
    always = settings.with_overrides(cookie_secure=True)
    with peer(always, "192.0.2.7") as direct:
        cookie, cleared = login_and_logout(direct, {"X-Forwarded-Proto": "http"})
    assert "Secure" in flags(cookie) and "Secure" in flags(cleared)


# -- the setting ------------------------------------------------------------------------------------


def test_the_setting_takes_addresses_and_networks_of_both_families() -> None:
    loaded = settings_from_env({"PRESSROOM_TRUSTED_PROXIES": " 10.0.0.1, 172.16.0.0/12,::1 , fd00::/8,"})
    assert [str(network) for network in loaded.trusted_proxies] == [
        "10.0.0.1/32",
        "172.16.0.0/12",
        "::1/128",
        "fd00::/8",
    ]
    assert settings_from_env({}).trusted_proxies == ()  # trust nobody


@pytest.mark.parametrize("entry", ["proxy.example", "10.0.0.300", "10.0.0.1/8", "fd00::/129", "10.0.0.0/"])
def test_a_malformed_entry_fails_loading_the_settings_naming_it(entry: str) -> None:
    with pytest.raises(ValueError, match="PRESSROOM_TRUSTED_PROXIES") as raised:
        settings_from_env({"PRESSROOM_TRUSTED_PROXIES": f"10.0.0.1, {entry}"})
    assert f"entry '{entry}'" in str(raised.value)


# -- the rules, on ASGI scopes ----------------------------------------------------------------------

TRUSTED = parse_networks(PROXIES)


def scope(peer: str | None, *headers: tuple[str, str], scheme: str = "http") -> dict[str, Any]:
    return {
        "client": (peer, 1234) if peer else None,
        "scheme": scheme,
        "headers": [(name.encode(), value.encode("latin-1")) for name, value in headers],
    }


@pytest.mark.parametrize(
    ("peer_address", "headers", "expected"),
    [
        ("10.0.0.1", [("x-forwarded-for", "192.0.2.7")], "192.0.2.7"),
        ("10.0.0.1", [("x-forwarded-for", "192.0.2.1, 192.0.2.7, 10.0.0.2")], "192.0.2.7"),
        # several header lines are one list, in order
        (
            "10.0.0.1",
            [("x-forwarded-for", "192.0.2.1, 192.0.2.7"), ("x-forwarded-for", "10.0.0.2")],
            "192.0.2.7",
        ),
        # every hop trusted: the leftmost
        ("10.0.0.1", [("x-forwarded-for", "10.0.0.9, 10.0.0.2")], "10.0.0.9"),
        # ports, brackets, IPv4-mapped, IPv6 proxies
        ("10.0.0.1", [("x-forwarded-for", "192.0.2.7:4711")], "192.0.2.7"),
        ("10.0.0.1", [("x-forwarded-for", "[2001:db8:1::1]:443")], "2001:db8:1::1"),
        ("::ffff:10.0.0.1", [("x-forwarded-for", "::ffff:192.0.2.7")], "192.0.2.7"),
        ("2001:db8:ffff::1", [("x-forwarded-for", "2001:db8:1::1, 2001:db8:ffff::2")], "2001:db8:1::1"),
        # garbage on the way: the peer
        ("10.0.0.1", [("x-forwarded-for", "192.0.2.7, unknown")], "10.0.0.1"),
        ("10.0.0.1", [("x-forwarded-for", "")], "10.0.0.1"),
        ("10.0.0.1", [], "10.0.0.1"),
        # what the client put left of its own address does not matter, valid or not
        ("10.0.0.1", [("x-forwarded-for", "unknown, 192.0.2.7")], "192.0.2.7"),
        # untrusted peers: the headers are not read
        ("192.0.2.7", [("x-forwarded-for", "198.51.100.1")], "192.0.2.7"),
        ("10.0.0.1.nip.io", [("x-forwarded-for", "198.51.100.1")], "10.0.0.1.nip.io"),
        ("testclient", [("x-forwarded-for", "198.51.100.1")], "testclient"),
        (None, [("x-forwarded-for", "198.51.100.1")], None),
    ],
)
def test_the_client_address(
    peer_address: str | None, headers: list[tuple[str, str]], expected: str | None
) -> None:
    assert client_of(scope(peer_address, *headers), TRUSTED).address == expected
    # with nobody trusted, the peer, whatever the headers
    assert client_of(scope(peer_address, *headers), ()).address == peer_address


@pytest.mark.parametrize(
    ("peer_address", "headers", "scheme", "https"),
    [
        ("10.0.0.1", [("x-forwarded-proto", "https")], "http", True),
        ("10.0.0.1", [("x-forwarded-proto", " HTTPS ")], "http", True),
        ("10.0.0.1", [("x-forwarded-proto", "http"), ("x-forwarded-proto", "https")], "http", True),
        ("10.0.0.1", [("x-forwarded-proto", "https, http")], "http", False),
        ("10.0.0.1", [("x-forwarded-proto", "wss")], "http", False),
        ("10.0.0.1", [], "http", False),
        ("10.0.0.1", [("x-forwarded-proto", "http")], "https", True),  # the connection itself is TLS
        ("192.0.2.7", [("x-forwarded-proto", "https")], "http", False),
        ("192.0.2.7", [], "https", True),
    ],
)
def test_https(peer_address: str, headers: list[tuple[str, str]], scheme: str, https: bool) -> None:
    assert client_of(scope(peer_address, *headers, scheme=scheme), TRUSTED).https is https


def _access_line(record: logging.LogRecord) -> dict[str, Any]:
    line: dict[str, Any] = json.loads(JsonFormatter().format(record))
    return line
