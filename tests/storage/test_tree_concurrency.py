"""The location tree under concurrent writers, on SQLite and PostgreSQL (issue 23 item 2).

Each round builds a small tree of its own, then two threads, each with its own engine (its own
connections, as two server processes have), wait on a barrier and run one tree write each at the same
moment (tests/storage/racing.py). After every round ``pressroom check`` (services/integrity.py) must
find nothing new: no cycle (a cycle shows as paths that disagree with their parents), no location below
a deleted parent, no visibility flag that disagrees with its ancestors. SQLite serialises its writers;
on PostgreSQL the tree lock (storage/sql/engine.py) does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import text

from pressroom.domain.location import Location, LocationCreate, LocationUpdate
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.storage.racing import ADMIN, WAIT, Action, Round, Services, race, services_on

ROUNDS = 10


@pytest.fixture
def workers(database_url: str, tmp_path: Path) -> Iterator[list[Services]]:
    """The test's own services and two racers'."""
    with services_on(database_url, tmp_path, 3) as found:
        yield found


def moves_both_ways(own: Services, root: Location) -> tuple[Action, Action]:
    a, b = own.folder("A", root), own.folder("B", root)
    return (
        lambda s: s.locations.move(ADMIN, a.path, b.path),
        lambda s: s.locations.move(ADMIN, b.path, a.path),
    )


def copy_beside_move(own: Services, root: Location) -> tuple[Action, Action]:
    a, b = own.folder("A", root), own.folder("B", root)
    own.folder("Below A", a)
    return (
        lambda s: s.locations.copy(ADMIN, a.path, b.path),
        lambda s: s.locations.move(ADMIN, b.path, a.path),
    )


def publish_below_deleted(own: Services, root: Location) -> tuple[Action, Action]:
    parent = own.folder("P", root)
    draft = own.draft("Draft", parent)
    return (
        lambda s: s.versions.publish(ADMIN, draft, 1),
        lambda s: s.locations.delete(ADMIN, parent.path),
    )


def location_below_deleted(own: Services, root: Location) -> tuple[Action, Action]:
    parent, elsewhere = own.folder("P", root), own.folder("Elsewhere", root)
    assert elsewhere.content_id is not None
    content_id = elsewhere.content_id
    return (
        lambda s: s.locations.create(ADMIN, content_id, LocationCreate(parent.id)),
        lambda s: s.locations.delete(ADMIN, parent.path),
    )


def restore_below_trashed(own: Services, root: Location) -> tuple[Action, Action]:
    parent = own.folder("P", root)
    trashed = own.folder("Trashed", parent)
    own.trash.trash(ADMIN, trashed.path)
    return (
        lambda s: s.trash.restore(ADMIN, trashed.id, None),
        lambda s: s.trash.trash(ADMIN, parent.path),
    )


def move_into_trashed(own: Services, root: Location) -> tuple[Action, Action]:
    parent, moved = own.folder("P", root), own.folder("Moved", root)
    return (
        lambda s: s.locations.move(ADMIN, moved.path, parent.path),
        lambda s: s.trash.trash(ADMIN, parent.path),
    )


def swap_beside_delete(own: Services, root: Location) -> tuple[Action, Action]:
    first, second = own.folder("First", root), own.folder("Second", root)
    own.folder("Below first", first)
    return (
        lambda s: s.locations.swap(ADMIN, first.path, second.path),
        lambda s: s.locations.delete(ADMIN, first.path),
    )


def hide_beside_publish(own: Services, root: Location) -> tuple[Action, Action]:
    parent = own.folder("P", root)
    draft = own.draft("Draft", parent)
    return (
        lambda s: s.locations.update(ADMIN, parent.path, LocationUpdate(hidden=True), None),
        lambda s: s.versions.publish(ADMIN, draft, 1),
    )


def hide_beside_move(own: Services, root: Location) -> tuple[Action, Action]:
    parent, moved = own.folder("P", root), own.folder("Moved", root)
    return (
        lambda s: s.locations.update(ADMIN, parent.path, LocationUpdate(hidden=True), None),
        lambda s: s.locations.move(ADMIN, moved.path, parent.path),
    )


def bookmark_beside_delete(own: Services, root: Location) -> tuple[Action, Action]:
    doomed = own.folder("Doomed", root)
    return (
        lambda s: s.bookmarks.create(ADMIN, doomed.id),
        lambda s: s.locations.delete(ADMIN, doomed.path),
    )


# (the round, the outcomes each round may have: sorted)
PAIRS: dict[str, tuple[Round, set[tuple[str, ...]]]] = {
    # the loser finds A below B (Forbidden), or its path gone (NotFound: paths are resolved as they are)
    "move A to B beside B to A": (moves_both_ways, {("Forbidden", "ok"), ("NotFound", "ok")}),
    "copy A to B beside move B to A": (copy_beside_move, {("ok", "ok"), ("NotFound", "ok")}),
    "publish below P beside delete P": (publish_below_deleted, {("ok", "ok"), ("NotFound", "ok")}),
    "add a location below P beside delete P": (location_below_deleted, {("ok", "ok"), ("NotFound", "ok")}),
    "restore below P beside trash P": (restore_below_trashed, {("ok", "ok"), ("Forbidden", "ok")}),
    "move below P beside trash P": (move_into_trashed, {("ok", "ok"), ("NotFound", "ok")}),
    "swap beside delete": (swap_beside_delete, {("ok", "ok"), ("NotFound", "ok")}),
    "hide P beside publish below P": (hide_beside_publish, {("ok", "ok")}),
    "hide P beside move below P": (hide_beside_move, {("ok", "ok")}),
    "bookmark L beside delete L": (bookmark_beside_delete, {("ok", "ok"), ("NotFound", "ok")}),
}


@pytest.mark.parametrize("pair", list(PAIRS))
def test_concurrent_tree_writes_keep_a_tree(workers: list[Services], pair: str) -> None:
    build, allowed = PAIRS[pair]
    outcomes, damage = race(workers, build, ROUNDS)
    first = next(iter(damage.values()), [])[:2]
    assert damage == {}, f"{pair}: {len(damage)} of {ROUNDS} rounds damaged the tree, e.g. {first}"
    unexpected = [found for found in outcomes if tuple(found) not in allowed]
    assert unexpected == [], f"{pair}: {len(unexpected)} of {ROUNDS} rounds ended otherwise: {unexpected}"


def test_shared_tree_writers_run_together_and_an_exclusive_one_alone(postgres_url: str) -> None:
    """The lock itself on PostgreSQL: publishes and placements do not queue behind each other; a move
    waits for them, and they for it."""
    engine = make_engine(postgres_url)
    store = SqlStore(engine)
    ran = threading.Event()

    def waiting() -> int:
        with engine.connect() as connection:
            query = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            return int(connection.execute(text(query)).scalar_one())

    def exclusive() -> None:
        with store.write("exclusive"):
            ran.set()

    try:
        with ThreadPoolExecutor(1) as pool:
            with store.write("shared"):
                with store.write("shared"):  # another connection: granted beside the first
                    pass
                future = pool.submit(exclusive)
                for _ in range(WAIT * 100):  # until the exclusive writer queues or runs (bounded)
                    if waiting() or ran.is_set():
                        break
                    time.sleep(0.01)
                assert (waiting(), ran.is_set()) == (1, False)
            future.result(timeout=WAIT)
        assert ran.is_set()
    finally:
        engine.dispose()
