"""The Fastly driver (storage/purge.py) against a local fake of Fastly's API, over real sockets from a real
``pressroom serve``: the fake checks each request the way Fastly would (method, path, ``Fastly-Key``, JSON
body of surrogate keys) and records the keys; a publish purges the keys of what it changed before its
answer (synchronous mode), soft purges say so, a 500 is retried, and the token never reaches the log."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from pressroom.storage.purge import Fastly, PurgeFailed
from tests.conftest import free_port, running_server
from tests.functional.content_support import main_location_path, new_draft, publish, published_folder
from tests.helpers import Api, local_http_server, media

SERVICE = "SU1Z0isxPaozGVKXdv0eY"
TOKEN = "fastly-token-4f9d2c7e1b"  # made up: the log must not show it


@dataclass
class FakeFastly:
    port: int
    failures: int = 0  # answer 500 to this many requests before accepting again
    purges: list[tuple[list[str], bool]] = field(default_factory=list)  # (keys, soft) of accepted requests
    refused: list[str] = field(default_factory=list)  # what was wrong with requests answered 4xx
    attempts: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def purged(self) -> set[str]:
        with self.lock:
            return {key for keys, _ in self.purges for key in keys}

    def check(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, str]:
        """Fastly's answer: 401 without the token, 404 for another path, 400 for a body it cannot read."""
        if headers.get("fastly-key") != TOKEN:
            return 401, "bad Fastly-Key"
        if method != "POST" or path != f"/service/{SERVICE}/purge":
            return 404, f"{method} {path}"
        if headers.get("content-type") != "application/json":
            return 400, f"content-type {headers.get('content-type')}"
        try:
            keys = json.loads(body)["surrogate_keys"]
        except (ValueError, KeyError, TypeError):
            return 400, f"body {body!r}"
        if (
            not isinstance(keys, list)
            or not keys
            or len(keys) > 256
            or not all(isinstance(k, str) for k in keys)
        ):
            return 400, f"keys {keys!r}"
        with self.lock:
            self.attempts += 1
            if self.failures > 0:
                self.failures -= 1
                return 500, "injected"
            self.purges.append((keys, headers.get("fastly-soft-purge") == "1"))
        return 200, json.dumps({key: f"purge-{n}" for n, key in enumerate(keys)})


@pytest.fixture
def fastly() -> Iterator[FakeFastly]:
    state = FakeFastly(free_port())

    class Handler(http.server.BaseHTTPRequestHandler):
        def _answer(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            headers = {name.lower(): value for name, value in self.headers.items()}
            status, text = state.check(self.command, self.path, headers, body)
            if 400 <= status < 500:
                state.refused.append(text)
            payload = text.encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_POST = do_GET = do_PURGE = _answer

        def log_message(self, *_args: object) -> None:
            pass

    with local_http_server(Handler, state.port):
        yield state


@pytest.fixture
def served(fastly: FakeFastly, tmp_path: Path) -> Iterator[tuple[Api, Path]]:
    log = tmp_path / "server.log"
    with running_server(
        tmp_path / "pressroom", log=log,
        PRESSROOM_HTTP_CACHE_PURGE=f"fastly:{SERVICE}",
        PRESSROOM_FASTLY_API_TOKEN=TOKEN,
        PRESSROOM_FASTLY_API_URL=f"http://127.0.0.1:{fastly.port}",
        PRESSROOM_HTTP_CACHE_SYNC_PURGE="1",
        PRESSROOM_HTTP_CACHE_SOFT_PURGE="1",
        PRESSROOM_HTTP_CACHE_REPURGE_SECONDS="0",
        PRESSROOM_EVENTS_POLL_SECONDS="0.2",
    ) as base:  # fmt: skip
        yield Api(httpx.Client(base_url=base, timeout=10)), log


def test_a_publish_soft_purges_its_keys_at_fastly_before_its_answer(
    fastly: FakeFastly, served: tuple[Api, Path]
) -> None:
    api, log = served
    parent = published_folder(api, "Parent")
    child = published_folder(api, "Child", parent=main_location_path(parent))
    path = main_location_path(child).split("/")
    content_id = child["_id"]
    fastly.purges.clear()
    publish(api, content_id, new_draft(api, content_id))  # its answer comes after the purge
    assert fastly.refused == []
    assert {
        f"c{content_id}",
        f"cv{content_id}",
        f"r{content_id}",
        f"l{path[-1]}",
        f"pl{path[-2]}",
    } <= fastly.purged()
    assert all(soft for _, soft in fastly.purges)
    anonymous = Api(api.client, auth=None)  # a logged-in read without the hash flow is not shared
    read = anonymous.get(f"/content/objects/{content_id}", accept=media("ContentInfo"))
    assert read.headers["surrogate-key"] == read.headers["xkey"]  # what Fastly tags the answer with
    assert {f"c{content_id}", f"l{path[-1]}", "ez-all"} <= set(read.headers["surrogate-key"].split())
    assert TOKEN not in log.read_text()


def test_a_purge_fastly_answers_500_is_sent_again(fastly: FakeFastly, served: tuple[Api, Path]) -> None:
    api, log = served
    published_folder(api, "First")  # the purger's cursor is running
    fastly.failures = 1
    tried = fastly.attempts
    folder = published_folder(api, "Retried")
    deadline = time.monotonic() + 20  # bounded wait for the dispatcher's next round (polls every 0.2 s)
    while f"c{folder['_id']}" not in fastly.purged() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert f"c{folder['_id']}" in fastly.purged()
    assert fastly.attempts >= tried + 2  # the refused one and the one that went through
    assert fastly.refused == []
    output = log.read_text()
    assert f"fastly service {SERVICE}: HTTP 500" in output  # the failure is logged ...
    assert TOKEN not in output  # ... without the token


def test_a_hard_purge_and_errors_that_name_the_service_only(fastly: FakeFastly) -> None:
    api_url = f"http://127.0.0.1:{fastly.port}"
    Fastly(SERVICE, TOKEN, api_url).send(["c1", "l2"], soft=False, timeout=5)
    assert fastly.purges == [(["c1", "l2"], False)]
    with pytest.raises(PurgeFailed, match=f"fastly service {SERVICE}: HTTP 401") as refused:
        Fastly(SERVICE, "not-the-token", api_url).send(["c1"], soft=False, timeout=5)
    assert "not-the-token" not in str(refused.value)
    assert fastly.refused == ["bad Fastly-Key"]
