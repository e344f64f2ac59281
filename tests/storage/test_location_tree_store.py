"""The location tree in SQL on SQLite and PostgreSQL: subtree moves, hiding, deletes and the trash work on
whole path ranges, so a subtree of 10,000 locations costs the same number of statements as one of 3."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from benchmarks.tree_data import GrownTree, grow_tree
from sqlalchemy import Engine, event, func, select, text

from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.location import LocationUpdate
from pressroom.domain.query import SectionId
from pressroom.domain.user import User
from pressroom.services.integrity import IntegrityService
from pressroom.services.location import LocationService
from pressroom.services.permissions import Permissions
from pressroom.services.trash import TrashService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine, transaction
from pressroom.storage.sql.location import _TAKE_PENDING
from pressroom.storage.sql.schema import content, locations, trash
from pressroom.storage.sql.store import SqlStore
from tests.helpers import StatementCounter

ADMIN = User(id=14, login="admin", email="admin@link.invalid", enabled=True)
BIG = 10_000
# Statements a whole service call sends (loads, checks and URL alias upkeep included), the same for 3
# locations or 10,000. A move regenerates the aliases of the moved top location only (10 statements: its
# entries and its new parent's come in one query): the paths below follow its node; the content types it
# needs come from the process cache once warm, its new URL alias node from the process's block. Delete
# and trash drop the subtree's alias entries in one statement, and delete also the user accounts of the
# deleted content, marks the items that related to it changed, and deletes their field rows with RETURNING
# of the files they referenced (the stored-file bookkeeping of services/file.py). Each count includes the
# permission resolver's reads in the transaction (the caller's grants, which bring the cache epoch along),
# and the one INSERT of the write's event.
MOVE_STATEMENTS = 23
DELETE_STATEMENTS = 12
TRASH_STATEMENTS = 13
# Hiding sets the flag of the top, finds the hidden locations of the subtree (in path order, the tops of
# hidden ranges) and marks the ranges; revealing has no hidden range to mark below a visible parent.
HIDE_STATEMENTS = 12
REVEAL_STATEMENTS = 11
SQLITE_DEFAULT_VARIABLES = 32_766  # SQLite's own limit on bound parameters (Debian's build: 250,000)


def grow(engine: Engine, parent_path: str, count: int, fanout: int, **extra: object) -> GrownTree:
    with transaction(engine, write=True) as connection:
        return grow_tree(connection, parent_path, count, fanout, **extra)  # type: ignore[arg-type]


def rows(engine: Engine, root_path: str) -> list[tuple[int, str, int, bool]]:
    """(id, path, depth, invisible) of the subtree whose root has the given id, by id."""
    root_id = int(root_path.rstrip("/").rsplit("/", 1)[1])
    with transaction(engine, write=False) as connection:
        found = connection.execute(
            select(locations.c.id, locations.c.path_string, locations.c.depth, locations.c.invisible)
            .where(
                (locations.c.id == root_id)
                | (locations.c.path_string.like(f"%/{root_id}/%") & (locations.c.id != root_id))
            )
            .order_by(locations.c.id)
        )
        return [(r.id, r.path_string, r.depth, bool(r.invisible)) for r in found]


def count(engine: Engine, table: object, *where: object) -> int:
    with transaction(engine, write=False) as connection:
        return int(connection.execute(select(func.count()).select_from(table).where(*where)).scalar_one())  # type: ignore[arg-type]


@pytest.fixture
def file_store(tmp_path: Path) -> FileStore:
    return LocalFileStore(tmp_path / "files")


def assert_intact(engine: Engine, files: FileStore) -> None:
    """``pressroom check`` finds nothing wrong (paths, depths, parents, main locations, statuses...) but
    what ``grow_tree`` leaves out on purpose: the grown folders have no field rows."""
    report = IntegrityService(SqlStore(engine), files).check()
    assert [p for p in report.problems if p.kind != "version-without-fields"] == []


def services(engine: Engine, files: FileStore) -> tuple[LocationService, TrashService]:
    store = SqlStore(engine)
    permissions = Permissions(store)
    permissions.grants(ADMIN)  # role definitions are loaded once per process: not part of the counts
    locations_service = LocationService(store, permissions, files)
    return locations_service, TrashService(store, permissions, locations_service, files)


def test_moving_10000_locations_is_a_fixed_number_of_statements(
    engine: Engine, file_store: FileStore
) -> None:
    tree = grow(engine, "/1/2/", BIG, fanout=20)
    small = grow(engine, "/1/2/", 3, fanout=2)
    warm_up = grow(engine, "/1/2/", 3, fanout=2)
    service, _ = services(engine, file_store)
    service.move(ADMIN, warm_up.root_path.strip("/"), "1/5")  # fills the process caches
    with StatementCounter() as small_move:
        service.move(ADMIN, small.root_path.strip("/"), "1/43")
    with StatementCounter() as big_move:
        moved = service.move(ADMIN, tree.root_path.strip("/"), "1/43")
    assert big_move.count == small_move.count == MOVE_STATEMENTS
    assert moved.path_string == f"/1/43/{tree.root_id}/"
    after = rows(engine, moved.path_string)
    assert [r[0] for r in after] == tree.location_ids
    assert all(path.startswith(f"/1/43/{tree.root_id}/") for _, path, _, _ in after)
    assert [depth for _, _, depth, _ in after[:2]] == [2, 3]
    assert count(engine, locations, locations.c.path_string.like(f"/1/2/{tree.root_id}/%")) == 0
    assert_intact(engine, file_store)


def test_deleting_10000_locations_is_a_fixed_number_of_statements(
    engine: Engine, file_store: FileStore
) -> None:
    tree = grow(engine, "/1/2/", BIG, fanout=50)
    small = grow(engine, "/1/2/", 3, fanout=2)
    service, _ = services(engine, file_store)
    before = count(engine, content)
    with StatementCounter() as small_delete:
        service.delete(ADMIN, small.root_path.strip("/"))
    with StatementCounter() as big_delete:
        service.delete(ADMIN, tree.root_path.strip("/"))
    assert big_delete.count == small_delete.count == DELETE_STATEMENTS
    assert count(engine, content) == before - BIG - 3
    assert rows(engine, tree.root_path) == []
    assert_intact(engine, file_store)


@pytest.mark.parametrize("hidden", [True, False])
def test_hiding_and_revealing_a_subtree_is_a_fixed_number_of_statements(
    engine: Engine, file_store: FileStore, hidden: bool
) -> None:
    trees = [grow(engine, "/1/2/", size, fanout=5) for size in (3, 3, 300)]
    service, _ = services(engine, file_store)
    counts = []
    for tree in trees:
        path = tree.root_path.strip("/")
        if not hidden:
            service.update(ADMIN, path, LocationUpdate(hidden=True), None)
        with StatementCounter() as counter:
            service.update(ADMIN, path, LocationUpdate(hidden=hidden), None)
        counts.append(counter.count)
        assert {r[3] for r in rows(engine, tree.root_path)} == {hidden}
    assert counts[1:] == [HIDE_STATEMENTS if hidden else REVEAL_STATEMENTS] * 2  # the first warms caches
    assert_intact(engine, file_store)


def test_deleting_more_items_than_sqlite_takes_parameters(sqlite_url: str, file_store: FileStore) -> None:
    """A subtree of 33,000 items on SQLite's own build, which takes at most 32,766 parameters in a
    statement: their ids go to the database as one parameter (emptying the trash deletes content alike)."""
    engine = make_engine(sqlite_url)

    @event.listens_for(engine, "connect")
    def default_limit(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, SQLITE_DEFAULT_VARIABLES)

    size = SQLITE_DEFAULT_VARIABLES + 234
    tree = grow(engine, "/1/2/", size, fanout=100)
    before = count(engine, content)
    service, _ = services(engine, file_store)
    service.delete(ADMIN, tree.root_path.strip("/"))
    assert count(engine, content) == before - size
    assert_intact(engine, file_store)
    engine.dispose()


def test_hiding_marks_the_subtree_invisible_until_no_hidden_ancestor_is_left(
    engine: Engine, file_store: FileStore
) -> None:
    tree = grow(engine, "/1/2/", 7, fanout=2)  # 0 -> 1, 2; 1 -> 3, 4; 2 -> 5, 6
    service, _ = services(engine, file_store)
    paths = {r[0]: r[1].strip("/") for r in rows(engine, tree.root_path)}
    ids = tree.location_ids
    service.update(ADMIN, paths[ids[1]], LocationUpdate(hidden=True), None)
    service.update(ADMIN, paths[ids[0]], LocationUpdate(hidden=True), None)
    assert all(invisible for *_, invisible in rows(engine, tree.root_path))
    service.update(ADMIN, paths[ids[0]], LocationUpdate(hidden=False), None)
    invisible = {r[0] for r in rows(engine, tree.root_path) if r[3]}
    assert invisible == {ids[1], ids[3], ids[4]}  # still below the hidden location 1
    loaded = service.load(ADMIN, paths[ids[3]])
    assert (loaded.hidden, loaded.invisible) == (False, True)


def test_children_filtered_and_counted_in_sql(engine: Engine, file_store: FileStore) -> None:
    tree = grow(engine, "/1/2/", 5, fanout=4)
    grow(engine, tree.root_path, 3, fanout=3, section_id=3)  # another child with 2 children of its own
    service, _ = services(engine, file_store)
    anonymous = User(id=10, login="anonymous", email="", enabled=True, is_anonymous=True)
    path = tree.root_path.strip("/")
    assert Permissions(SqlStore(engine)).read_criterion(anonymous) == SectionId((1,))
    page = service.children(anonymous, path, 0, 10)
    assert [c.id for c in page.locations] == tree.location_ids[1:]
    assert page.parent.child_count is None  # a page does not count its parent's children
    assert service.load(anonymous, path).child_count == 4  # a location does, what the reader may read
    assert len(service.children(ADMIN, path, 0, 10).locations) == 5
    assert service.load(ADMIN, path).child_count == 5
    assert [c.id for c in service.children(ADMIN, path, 1, 2).locations] == tree.location_ids[2:4]


def test_trashing_10000_locations_is_a_fixed_number_of_statements(
    engine: Engine, file_store: FileStore
) -> None:
    tree = grow(engine, "/1/2/", BIG, fanout=100)
    small = grow(engine, "/1/2/", 3, fanout=2)
    _, bin_ = services(engine, file_store)
    before = [r[:3] for r in rows(engine, small.root_path)]
    with StatementCounter() as small_trash:
        bin_.trash(ADMIN, small.root_path.strip("/"))
    with StatementCounter() as big_trash:
        item = bin_.trash(ADMIN, tree.root_path.strip("/"))
    assert big_trash.count == small_trash.count == TRASH_STATEMENTS
    assert item is not None and item.location.id == tree.root_id
    assert count(engine, trash, trash.c.id.in_(tree.location_ids[:500])) == 500
    assert count(engine, content, content.c.status == 2) == BIG + 3
    # Restoring regenerates the URL aliases of every location that comes back: the small subtree's.
    restored = bin_.restore(ADMIN, small.root_id, None)
    assert restored.path_string == small.root_path
    assert restored.content_info is not None and restored.content_info.status == "PUBLISHED"
    assert [r[:3] for r in rows(engine, small.root_path)] == before  # the whole subtree, as it was
    assert count(engine, trash) == count(engine, content, content.c.status == 2) == BIG
    assert_intact(engine, file_store)


def test_a_subtree_range_stops_at_siblings_whose_id_starts_the_same(
    engine: Engine, file_store: FileStore
) -> None:
    """/1/2/61/ and /1/2/610/: byte-ordered ranges keep them apart (PostgreSQL: collation "C")."""
    first = grow(engine, "/1/2/", 2, fanout=1)
    lone_id = first.root_id
    filler = lone_id * 10 - first.location_ids[-1] - 1
    grow(engine, "/1/43/", filler, fanout=filler)
    neighbour = grow(engine, "/1/2/", 2, fanout=1)
    assert str(neighbour.root_id).startswith(str(lone_id)) and neighbour.root_id > lone_id
    service, _ = services(engine, file_store)
    assert [c.id for c in service.children(ADMIN, first.root_path.strip("/"), 0, 10).locations] == [
        first.location_ids[1]
    ]
    service.move(ADMIN, first.root_path.strip("/"), "1/5")
    assert [r[1] for r in rows(engine, neighbour.root_path)] == [
        neighbour.root_path,
        f"{neighbour.root_path}{neighbour.location_ids[1]}/",
    ]
    if engine.dialect.name == "postgresql":
        with transaction(engine, write=False) as connection:
            collation = connection.execute(
                text(
                    "SELECT collation_name FROM information_schema.columns "
                    "WHERE table_name = 'locations' AND column_name = 'path_string'"
                )
            ).scalar_one()
        assert collation == "C"


def test_taking_pending_locations_looks_up_parents_and_remote_ids_by_index(sqlite_url: str) -> None:
    """Publishing reads each pending location's parent and whether its remote id is taken inside the
    DELETE ... RETURNING: by index, not by a scan of every location. SQLite gives a RETURNING column no
    affinity, which turned the remote id lookup into a scan; the plan is SQLite's own (PostgreSQL's
    planner picks a scan of a small table on its merits, so its plan would say nothing here)."""
    engine = make_engine(sqlite_url)
    sql = str(_TAKE_PENDING.statement.compile(dialect=engine.dialect)).replace("?", "1")
    with transaction(engine, write=False) as connection:
        plan = [row[3] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}")]
    engine.dispose()
    assert not [step for step in plan if step.startswith("SCAN")], plan
