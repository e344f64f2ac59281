"""Hostile clients over a real socket (issue 15): half-sent requests must not take the server down, and
an anonymous caller's oversized body is refused from its declared length, before it is sent."""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def guarded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root: Path = tmp_path_factory.mktemp("guarded")
    with running_server(
        root,
        PRESSROOM_MAX_CONCURRENT_REQUESTS=str(SLOTS),
        PRESSROOM_BODY_READ_TIMEOUT="1",
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
