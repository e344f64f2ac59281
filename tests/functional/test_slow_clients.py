"""Hostile clients over a real socket (issue 15): half-sent requests must not take the server down, and
an anonymous caller's oversized body is refused from its declared length, before it is sent."""

from __future__ import annotations

import select
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import running_server
from tests.helpers import PREFIX, media

# Scaled down so that the test is small: fewer request slots than half-sent requests, short timeouts.
SLOTS = 40
HALF_SENT = 200
DEADLINE = 1  # seconds for a whole body, and one more for every MIN_RATE bytes
MIN_RATE = 100


@pytest.fixture(scope="module")
def guarded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root: Path = tmp_path_factory.mktemp("guarded")
    with running_server(
        root,
        PRESSROOM_MAX_CONCURRENT_REQUESTS=str(SLOTS),
        PRESSROOM_BODY_READ_TIMEOUT="1",
        PRESSROOM_BODY_DEADLINE=str(DEADLINE),
        PRESSROOM_BODY_MIN_RATE=str(MIN_RATE),
        PRESSROOM_HEADER_READ_TIMEOUT_MS="1000",
    ) as base:
        yield base


def _open(base: str) -> socket.socket:
    host, _, port = base.removeprefix("http://").partition(":")
    return socket.create_connection((host, int(port)), timeout=20)


def _half_sent(base: str, *, body: bool) -> socket.socket:
    sock = _open(base)
    if body:  # complete headers, a body that stops after a few bytes
        sock.sendall(
            f"POST {PREFIX}/user/sessions HTTP/1.1\r\nHost: pressroom\r\nAccept: application/json\r\n"
            f"Content-Type: {media('SessionInput')}\r\nContent-Length: 1000\r\n\r\n"
            '{"SessionInput": '.encode()
        )
    else:  # headers that never end
        sock.sendall(f"GET {PREFIX}/ HTTP/1.1\r\nHost: pressroom\r\nX-Slow: ".encode())
    return sock


def test_half_sent_requests_do_not_stop_the_server(guarded_server: str) -> None:
    """More stalled requests than the server has request slots: the body read timeout gives each slot back
    (408) and the header timeout drops the rest, so a normal request is still answered."""
    sockets = [_half_sent(guarded_server, body=index % 2 == 0) for index in range(HALF_SENT)]
    try:
        response = httpx.get(f"{guarded_server}{PREFIX}/", headers={"Accept": media("Root")}, timeout=20)
        assert response.status_code == 200
        answer = sockets[0].recv(4096)
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert media("ErrorMessage").encode() in answer
    finally:
        for sock in sockets:
            sock.close()


def test_an_anonymous_oversized_body_is_refused_before_it_is_sent(guarded_server: str) -> None:
    """Only the headers go out: the 413 comes from Content-Length, without waiting for 10 MB."""
    with _open(guarded_server) as sock:
        sock.sendall(
            f"POST {PREFIX}/user/sessions HTTP/1.1\r\nHost: pressroom\r\nAccept: application/json\r\n"
            f"Content-Type: {media('SessionInput')}\r\nContent-Length: {10 * 1024 * 1024}\r\n\r\n".encode()
        )
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert b"The request body exceeds 65536 bytes, the limit for anonymous callers" in answer


def _login_headers(length: int) -> bytes:
    return (
        f"POST {PREFIX}/user/sessions HTTP/1.1\r\nHost: pressroom\r\nAccept: application/json\r\n"
        f"Content-Type: {media('SessionInput')}\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


def _trickle(sock: socket.socket, body: bytes, step: int, pause: float) -> bytes:
    """Send ``body`` ``step`` bytes at a time, ``pause`` seconds apart, until it is sent or the server
    answers; then the answer's first bytes (b"" when the server answered nothing)."""
    sent = 0
    while True:
        if select.select([sock], [], [], pause)[0]:
            return sock.recv(4096)
        if sent >= len(body):
            return b""
        sock.sendall(body[sent : sent + step])
        sent += step


def test_a_body_trickling_in_is_408_after_the_deadline(guarded_server: str) -> None:
    """Issue 23: the timeout was per chunk, so a byte every few seconds held the request for ever
    (3,000-6,000 such clients kept new ones out for 20-30 s)."""
    body = b" " * 40  # one byte every 0.2 s: 8 s in all, never idle for the 1 s read timeout
    with _open(guarded_server) as sock:
        sock.sendall(_login_headers(len(body)))
        answer = _trickle(sock, body, 1, 0.2)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert (
        f"The request body took longer than {DEADLINE} seconds, arriving slower than {MIN_RATE} bytes per"
        " second"
    ).encode() in answer


def test_a_body_arriving_faster_than_the_minimum_rate_may_take_longer_than_the_deadline(
    guarded_server: str,
) -> None:
    """100 bytes every 0.2 s (five times the minimum rate) for 3 s: read in full, answered on its merits."""
    login = b'{"SessionInput": {"login": "nobody", "password": "wrong"}}'
    body = login + b" " * (1500 - len(login))
    with _open(guarded_server) as sock:
        sock.sendall(_login_headers(len(body)))
        answer = _trickle(sock, body, 100, 0.2)
        answer = answer or sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 401 "), answer[:200]
