"""Crash safety: ``kill -9`` the server and its Granian workers (the whole process group) while clients
create and publish content, move subtrees and publish content types; after a restart every write a client
saw acknowledged is there with its event, every event's write is there (the event log is a transactional
outbox: an event exists exactly when its write committed), and ``pressroom check`` finds nothing
half-written (a path that disagrees with its parent included). On SQLite and PostgreSQL.

Each client moves its previous item, with everything below it, under the item it has just published:
a chain that grows one level per round, so every move rewrites the paths of a whole subtree."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from pressroom.domain.event import Cursor, Event
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.conftest import spawn_server
from tests.functional.content_support import content_create, post_content
from tests.functional.content_support import field as content_field
from tests.functional.content_types_support import create_type, type_create
from tests.functional.events_support import settled
from tests.functional.tree_support import relocate
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
    moved: list[tuple[int, int]] = field(default_factory=list)  # (content id, its new parent location id)
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self) -> int:
        return len(self.created) + len(self.published) + len(self.types_published) + len(self.moved)

    def add(self, kind: list[Any], value: Any) -> None:
        with self.lock:
            kind.append(value)


def location_path(api: Api, content_id: int) -> str:
    """The main location path of an item, like ``1/2/61``."""
    response = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo"))
    href: str = response.json()["Content"]["MainLocation"]["_href"]
    return href.split("/content/locations/", 1)[1]


def move_under(api: Api, acknowledged: Acknowledged, item: tuple[int, str], parent: str) -> bool:
    """MOVE the subtree of ``item`` (content id, main location path) under ``parent``; True when the
    server acknowledged it."""
    content_id, path = item
    response = relocate(api, "MOVE", path, f"locations/{parent}")
    if response.status_code != 201:
        acknowledged.unexpected.append(f"move: {response.status_code} {response.text[:200]}")
        return False
    acknowledged.add(acknowledged.moved, (content_id, int(parent.rsplit("/", 1)[1])))
    return True


def write_until_the_server_dies(base: str, acknowledged: Acknowledged, client_no: int) -> None:
    with httpx.Client(base_url=base, timeout=30) as http:
        api = Api(http)
        previous: tuple[int, str] | None = None  # the top of this client's chain: content id, path
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
                path = location_path(api, content_id)
                if previous is not None and not move_under(api, acknowledged, previous, path):
                    continue
                previous = (content_id, path)
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
        for content_id, parent_id in acknowledged.moved:
            path = location_path(api, content_id).split("/")
            assert path[-2] == str(parent_id), (content_id, parent_id, path)
        for type_id in acknowledged.types_published:
            response = api.get(f"/content/types/{type_id}", accept=media("ContentType"))
            assert response.status_code == 200, (type_id, response.text)
            assert response.json()["ContentType"]["status"] == "DEFINED"


def logged_events(database_url: str) -> list[Event]:
    engine = make_engine(database_url)
    try:
        events, _ = settled(SqlStore(engine), Cursor())
    finally:
        engine.dispose()
    return events


def assert_events_match_the_writes(base: str, events: list[Event], acknowledged: Acknowledged) -> None:
    """Each acknowledged write has its event; each event's write is there (writes in flight at the kill
    that committed have both, unacknowledged)."""
    by_type: dict[str, list[Event]] = {}
    for event in events:
        by_type.setdefault(event.type.removeprefix("pressroom."), []).append(event)
    assert set(by_type) <= {
        "content.created", "content.published", "location.moved", "content_type.created",
        "content_type.published",
    }, set(by_type)  # fmt: skip
    created = [event.content_id for event in by_type.get("content.created", [])]
    published = [event.content_id for event in by_type.get("content.published", [])]
    moved = [
        (event.content_id, event.data["locations"][0]["parentId"])
        for event in by_type.get("location.moved", [])
    ]
    types_created = [event.subject for event in by_type.get("content_type.created", [])]
    types_published = [event.subject for event in by_type.get("content_type.published", [])]
    assert set(acknowledged.created) <= set(created)
    assert set(acknowledged.published) <= set(published)
    assert set(acknowledged.moved) <= set(moved)
    assert {f"content_type/{type_id}" for type_id in acknowledged.types_published} <= set(types_published)
    assert len(set(created)) == len(created) and len(set(published)) == len(published)  # once each
    with httpx.Client(base_url=base, timeout=30) as http:
        api = Api(http)
        for content_id in created:
            response = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo"))
            assert response.status_code == 200, (content_id, response.text)
            assert (content_id in published) == (response.json()["Content"]["status"] == "PUBLISHED")
        for content_id, parent_id in moved:
            assert location_path(api, content_id).split("/")[-2] == str(parent_id), (content_id, parent_id)
        for subject in types_created:
            type_id = subject.split("/")[1]
            where = f"/content/types/{type_id}" + ("" if subject in types_published else "/draft")
            assert api.get(where, accept=media("ContentType")).status_code == 200, subject
        for subject in types_published:
            response = api.get(f"/content/types/{subject.split('/')[1]}", accept=media("ContentType"))
            assert response.json()["ContentType"]["status"] == "DEFINED", subject


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
    assert len(acknowledged.moved) >= 1, acknowledged
    process, base = spawn_server(tmp_path, database_url, workers=1)
    try:
        assert_everything_acknowledged_is_there(base, acknowledged)
        assert_events_match_the_writes(base, logged_events(database_url), acknowledged)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    result = run_check(database_url, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no problems" in result.stdout
