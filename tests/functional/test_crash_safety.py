"""Crash safety: ``kill -9`` the server and its Granian workers (the whole process group) while clients
create and publish content and content types; after a restart every write a client saw acknowledged is
there, and ``pressroom check`` finds nothing half-written. On SQLite and PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.conftest import spawn_server
from tests.functional.content_support import content_create, post_content
from tests.functional.content_support import field as content_field
from tests.functional.content_types_support import create_type, type_create
from tests.helpers import Api, media

CLIENTS = 4
ACKNOWLEDGED_BEFORE_KILL = 24  # writes acknowledged before the kill, so that the kill lands mid-traffic
WRITE_PHASE_LIMIT_SECONDS = 20


@dataclass
class Acknowledged:
    """What the server answered with success, per kind of write; ``unexpected`` any other answer."""

    created: list[int] = field(default_factory=list)
    published: list[int] = field(default_factory=list)
    types_published: list[int] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self) -> int:
        return len(self.created) + len(self.published) + len(self.types_published)

    def add(self, kind: list[int], value: int) -> None:
        with self.lock:
            kind.append(value)


def write_until_the_server_dies(base: str, acknowledged: Acknowledged, client_no: int) -> None:
    with httpx.Client(base_url=base, timeout=30) as http:
        api = Api(http)
        for n in range(10_000):  # bounded; the kill ends it long before
            try:
                response = post_content(
                    api, content_create([content_field("name", f"crash {client_no}-{n}")])
                )
                if response.status_code != 201:
                    acknowledged.unexpected.append(f"create: {response.status_code} {response.text[:200]}")
                    continue
                content_id = response.json()["Content"]["_id"]
                acknowledged.add(acknowledged.created, content_id)
                response = api.request("PUBLISH", f"/content/objects/{content_id}/versions/1")
                if response.status_code != 204:
                    acknowledged.unexpected.append(f"publish: {response.status_code} {response.text[:200]}")
                    continue
                acknowledged.add(acknowledged.published, content_id)
                response = create_type(api, type_create(f"crash_{client_no}_{n}"))
                if response.status_code != 201:
                    acknowledged.unexpected.append(f"type: {response.status_code} {response.text[:200]}")
                    continue
                type_id = response.json()["ContentType"]["id"]
                response = api.request("PUBLISH", f"/content/types/{type_id}/draft")
                if response.status_code != 200:
                    acknowledged.unexpected.append(f"type publish: {response.status_code}")
                    continue
                acknowledged.add(acknowledged.types_published, type_id)
            except httpx.TransportError:
                return  # the server is gone: whatever was in flight was never acknowledged


def kill_during_writes(base: str, process: subprocess.Popen[bytes]) -> Acknowledged:
    acknowledged = Acknowledged()
    threads = [
        threading.Thread(target=write_until_the_server_dies, args=(base, acknowledged, n))
        for n in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + WRITE_PHASE_LIMIT_SECONDS
    while acknowledged.count() < ACKNOWLEDGED_BEFORE_KILL and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the server and every Granian worker, mid-request
    process.wait(timeout=10)
    for thread in threads:
        thread.join(timeout=30)
    return acknowledged


def assert_everything_acknowledged_is_there(base: str, acknowledged: Acknowledged) -> None:
    with httpx.Client(base_url=base, timeout=30) as http:
        api = Api(http)
        published = set(acknowledged.published)
        for content_id in acknowledged.created:
            response = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo"))
            assert response.status_code == 200, (content_id, response.text)
            info = response.json()["Content"]
            if content_id in published:
                assert info["status"] == "PUBLISHED" and info["currentVersionNo"] == 1
                assert info["MainLocation"]["_href"]
        for type_id in acknowledged.types_published:
            response = api.get(f"/content/types/{type_id}", accept=media("ContentType"))
            assert response.status_code == 200, (type_id, response.text)
            assert response.json()["ContentType"]["status"] == "DEFINED"


def run_check(database_url: str, root: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PRESSROOM_DATABASE_URL=database_url, PRESSROOM_FILE_ROOT=str(root / "files"))
    return subprocess.run(
        [sys.executable, "-m", "pressroom.cli", "check"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("workers", [2])
def test_a_kill_9_mid_write_loses_nothing_acknowledged(
    database_url: str, tmp_path: Path, workers: int
) -> None:
    process, base = spawn_server(tmp_path, database_url, workers=workers)
    try:
        acknowledged = kill_during_writes(base, process)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert acknowledged.unexpected == []
    assert len(acknowledged.published) >= 1, acknowledged
    process, base = spawn_server(tmp_path, database_url, workers=1)
    try:
        assert_everything_acknowledged_is_there(base, acknowledged)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    result = run_check(database_url, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no problems" in result.stdout
