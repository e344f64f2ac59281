"""Subtree benchmark: move, hide, reveal, copy, trash, restore and delete a subtree of 10,000 locations, and
delete a subtree of more than 32k on SQLite (with the limit on bound parameters of SQLite's own build,
32,766, which the benchmark sets: Debian's is 250,000).

Grows the trees straight in a fresh database (``benchmarks/tree_data.py``) and runs each operation through
the services, once on a subtree of 3 locations and once on the big one, counting the SQL statements each
sends and timing the big one. An operation is a bounded number of statements when both counts are equal
(the copy may grow with the subtree). Prints the goal table: each goal with the figures of a saved baseline
(``--baseline``, a JSON file that ``--save`` wrote, from the code before the change, on the same machine
within the hour) and the figures measured now.

    .venv/bin/python -m benchmarks.subtree_load [--size 10000] [--large-delete 33000]
        [--database sqlite --database postgresql] [--save now.json] [--baseline before.json]
    .venv/bin/python -m benchmarks.subtree_load --show sqlite.json --show pg.json --baseline before.json

The delete runs on the subtree the restore brought back: with code that restored only the top location
(the saved baseline's), it deleted that one location.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event, func, select, text
from tests.helpers import scratch_postgres

from benchmarks.goals import load_figures, now, save_figures
from benchmarks.tree_data import grow_tree
from pressroom.domain.location import LocationUpdate
from pressroom.domain.user import User
from pressroom.services.location import LocationService
from pressroom.services.permissions import Permissions
from pressroom.services.trash import TrashService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine, transaction
from pressroom.storage.sql.install import initialise
from pressroom.storage.sql.schema import locations
from pressroom.storage.sql.store import SqlStore

ADMIN = User(id=14, login="admin", email="admin@link.invalid", enabled=True)
SECONDS_GOAL = 1.0
SMALL = 3
SQLITE_DEFAULT_VARIABLES = 32_766


@dataclass
class Measure:
    """One operation on the big subtree: statements and seconds, the statements of the same operation on
    a subtree of 3, and what went wrong (an error) or is short (a restore that left locations out)."""

    statements: int = 0
    seconds: float = 0.0
    small_statements: int = 0
    problem: str = ""
    cpu_seconds: float | None = None  # this process's CPU time (on SQLite all of the work; not PostgreSQL's)

    def cell(self) -> str:
        if self.problem:
            return self.problem[:28]
        cpu = "" if self.cpu_seconds is None else f" ({self.cpu_seconds:.2f} cpu)"
        return f"{self.statements} st / {self.seconds:.2f} s{cpu}"


@contextmanager
def counting() -> Iterator[list[str]]:
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(Engine, "before_cursor_execute", record)


def measure(run: Callable[[], object]) -> tuple[int, float, str, float]:
    """Statements, wall seconds, what went wrong, CPU seconds of this process (wall time on a shared
    machine is inflated by its load; the CPU time much less)."""
    with counting() as statements:
        started, cpu = time.perf_counter(), time.process_time()
        try:
            run()
            problem = ""
        except Exception as error:
            problem = f"error: {type(error).__name__}"
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return len(statements), seconds, problem, cpu


def subtree_size(engine: Engine, path: str) -> int:
    with transaction(engine, write=False) as connection:
        return int(
            connection.execute(
                select(func.count()).where(locations.c.path_string.startswith(path))
            ).scalar_one()
        )


def sqlite_default_limit(dbapi_connection: Any, _record: Any) -> None:
    """SQLite's own limit on bound parameters, which Debian's build raises to 250,000."""
    dbapi_connection.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, SQLITE_DEFAULT_VARIABLES)


class Bench:
    def __init__(self, database_url: str, tmp: Path) -> None:
        self.engine = make_engine(database_url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", sqlite_default_limit)
        initialise(self.engine, "publish")
        store = SqlStore(self.engine)
        permissions = Permissions(store)
        files = LocalFileStore(tmp / "files")
        self.locations = LocationService(store, permissions, files)
        self.trash = TrashService(store, permissions, self.locations, files)

    def grow(self, count: int, fanout: int = 20) -> str:
        with transaction(self.engine, write=True) as connection:
            tree = grow_tree(connection, "/1/2/", count, fanout=fanout, name="Subtree")
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("ANALYZE"))
        return tree.root_path.strip("/")

    def operations(self, path: str) -> list[tuple[str, Callable[[], object]]]:
        """Each operation on the subtree at ``path``, in an order that leaves it where it was."""
        location_id = path.rsplit("/", 1)[1]
        moved = f"1/43/{location_id}"
        return [
            ("move", lambda: self.locations.move(ADMIN, path, "1/43")),
            ("hide", lambda: self.locations.update(ADMIN, moved, LocationUpdate(hidden=True), None)),
            ("reveal", lambda: self.locations.update(ADMIN, moved, LocationUpdate(hidden=False), None)),
            ("copy", lambda: self.locations.copy(ADMIN, moved, "1/5")),
            ("trash", lambda: self.trash.trash(ADMIN, moved)),
            ("restore", lambda: self.trash.restore(ADMIN, int(location_id), None)),
            ("delete", lambda: self.locations.delete(ADMIN, moved)),
        ]

    def run(self, size: int, large_delete: int) -> dict[str, Measure]:
        warm = self.grow(SMALL, fanout=2)
        for _, operation in self.operations(warm):  # fills the process caches
            operation()
        small, big = self.grow(SMALL, fanout=2), self.grow(size)
        results: dict[str, Measure] = {}
        for (name, on_small), (_, on_big) in zip(self.operations(small), self.operations(big), strict=True):
            small_count, _, _, _ = measure(on_small)
            statements, seconds, problem, cpu = measure(on_big)
            if name == "restore" and not problem:
                restored = subtree_size(self.engine, f"/1/43/{big.rsplit('/', 1)[1]}/")
                if restored != size:
                    problem = f"restored {restored} of {size}"
            results[name] = Measure(statements, seconds, small_count, problem, cpu)
            print(f"  {name:8} {results[name].cell()} (3 locations: {small_count} st)", flush=True)
        if self.engine.dialect.name == "sqlite":
            large = self.grow(large_delete, fanout=50)
            statements, seconds, problem, cpu = measure(lambda: self.locations.delete(ADMIN, large))
            name = f"delete {large_delete}"
            results[name] = Measure(statements, seconds, statements, problem, cpu)
            print(f"  {name}: {results[name].cell()}")
        self.engine.dispose()
        return results


def met(name: str, after: Measure) -> bool:
    """Copy may grow with the subtree; restore must bring it all back; the large delete must work."""
    if after.problem or name.startswith("delete ") or name == "restore":
        return not after.problem
    bounded = name == "copy" or after.statements == after.small_statements
    return bounded and after.seconds <= SECONDS_GOAL


def goal_text(name: str) -> str:
    if name.startswith("delete "):
        return "works"
    if name == "restore":
        return "whole subtree back"
    if name == "copy":
        return f"<= {SECONDS_GOAL:g} s"
    return f"st as for 3, <= {SECONDS_GOAL:g} s"


def load(path: Path) -> tuple[str, dict[str, dict[str, Measure]]]:
    """When and what a ``--save`` wrote."""
    measured, saved = load_figures(path)
    return measured, {db: {op: Measure(**m) for op, m in ops.items()} for db, ops in saved.items()}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--large-delete", type=int, default=33_000)
    parser.add_argument("--database", action="append", choices=("sqlite", "postgresql"), default=None)
    parser.add_argument("--postgres-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--save", type=Path, help="write the figures measured here to this JSON file")
    parser.add_argument("--baseline", type=Path, help="the figures of the code before, for the table")
    parser.add_argument(
        "--show", type=Path, action="append", help="print the table of figures saved before, run nothing"
    )
    args = parser.parse_args()
    measured: dict[str, dict[str, Measure]] = {}
    stamps = []
    for saved_path in args.show or []:
        saved = load(saved_path)
        measured.update(saved[1])
        stamps.append(saved[0])
    for backend in [] if args.show else args.database or ["sqlite", "postgresql"]:
        print(f"{backend}: subtree of {args.size} locations", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            if backend == "sqlite":
                bench = Bench(f"sqlite:///{tmp}/subtree.db", Path(tmp))
                measured[backend] = bench.run(args.size, args.large_delete)
            else:
                with scratch_postgres(args.postgres_url, "pressroom_subtree") as url:
                    measured[backend] = Bench(url, Path(tmp)).run(args.size, args.large_delete)
    stamp = ", ".join(stamps) or now()
    if args.save:
        figures = {db: {op: asdict(m) for op, m in ops.items()} for db, ops in measured.items()}
        save_figures(args.save, stamp, figures)
    before: dict[str, dict[str, Measure]] = {}
    if args.baseline:
        measured_at, before = load(args.baseline)
        print(f"\nbefore: {args.baseline} (measured {measured_at}); after: measured {stamp}")
    print(f"\n{'database':10} {'goal':36} {'before':>40} {'after':>40}  met")
    for backend, operations in measured.items():
        for name, after in operations.items():
            old = before.get(backend, {}).get(name)
            goal = name if name.startswith("delete ") else f"{name} {args.size}"
            print(
                f"{backend:10} {goal + ': ' + goal_text(name):36} "
                f"{old.cell() if old else '-':>40} {after.cell():>40}  {'yes' if met(name, after) else 'NO'}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
