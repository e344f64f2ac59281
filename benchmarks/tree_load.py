"""Tree benchmark: children listing below a parent with 10,000 children, and moving 10,000 locations.

Grows the tree straight in a fresh database (``benchmarks/tree_data.py``): one parent with ``--children``
children, and a separate subtree of ``--subtree`` locations. Times moving that subtree back and forth
between two parents through the location service (the path-range UPDATEs, visibility and reloads; one
transaction each), then starts ``pressroom serve`` and runs wrk on ``GET .../children`` at random offsets
(pages of 10 references, and of 10 whole Locations), printing requests/s and p50/p99 latency.

    .venv/bin/python -m benchmarks.tree_load [--children 10000] [--subtree 10000] [--moves 6]
        [--duration 10] [--connections 16] [--workers 1] [--database-url postgresql://...]

``--database-url`` must name an empty database (it is initialised here); default: a fresh SQLite file.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

from benchmarks.http_load import Result, Target, run_wrk, start_server
from benchmarks.tree_data import grow_tree
from pressroom.domain.user import User
from pressroom.services.location import LocationService
from pressroom.services.permissions import Permissions
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine, transaction
from pressroom.storage.sql.install import initialise
from pressroom.storage.sql.store import SqlStore

ADMIN = User(id=14, login="admin", email="admin@link.invalid", enabled=True)

RANDOM_OFFSET_SCRIPT = """
request = function()
  local path = "%s?offset=" .. math.random(0, %d) .. "&limit=10"
  return wrk.format("GET", path)
end
"""


def time_moves(database_url: str, subtree_path: str, moves: int) -> list[float]:
    """Move the subtree between 1/43 and 1/2 ``moves`` times; the seconds each move took."""
    engine = make_engine(database_url)
    store = SqlStore(engine)
    # Moves delete no content, so no file is ever released: the store's directory stays empty.
    service = LocationService(store, Permissions(store), LocalFileStore(Path(tempfile.mkdtemp())))
    location_id = subtree_path.strip("/").rsplit("/", 1)[1]
    timings = []
    try:
        path = subtree_path.strip("/")
        for n in range(moves):
            target = "1/43" if n % 2 == 0 else "1/2"
            started = time.perf_counter()
            moved = service.move(ADMIN, path, target)
            timings.append(time.perf_counter() - started)
            path = moved.path
            assert path == f"{target}/{location_id}"
    finally:
        engine.dispose()
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--children", type=int, default=10_000)
    parser.add_argument("--subtree", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--database-url", default=None, help="an empty database; default: a fresh SQLite file"
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        database_url = args.database_url or f"sqlite:///{tmp}/tree.db"
        engine = make_engine(database_url)
        initialise(engine, "publish")
        with transaction(engine, write=True) as connection:
            parent = grow_tree(connection, "/1/2/", args.children + 1, fanout=args.children, name="Child")
            subtree = grow_tree(connection, "/1/2/", args.subtree, fanout=20, name="Moved")
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("ANALYZE"))  # planner statistics, as autovacuum would gather them
        engine.dispose()
        moves = time_moves(database_url, subtree.root_path, args.moves)
        children = parent.root_path.strip("/") + "/children"
        script = Path(tmp) / "children.lua"
        script.write_text(
            RANDOM_OFFSET_SCRIPT % ("/api/ibexa/v2/content/locations/" + children, args.children - 10)
        )
        targets = [
            Target("children refs (LocationList)", "", "application/vnd.ibexa.api.LocationList+json"),
            Target("children whole (Locations)", "", "application/vnd.ibexa.api.Locations+json"),
        ]
        process, base = start_server(database_url, args.workers, Path(tmp) / "files")
        try:
            results: list[Result] = [
                run_wrk(base, target, args.duration, args.connections, script) for target in targets
            ]
        finally:
            process.terminate()
            process.wait(timeout=10)
    backend = database_url.split(":")[0]
    print(f"{backend}: parent with {args.children} children, subtree of {args.subtree} locations")
    median, fastest, slowest = (
        seconds * 1000 for seconds in (statistics.median(moves), min(moves), max(moves))
    )
    print(
        f"move {args.subtree} locations, {len(moves)} moves: median {median:.0f} ms, "
        f"range {fastest:.0f}-{slowest:.0f} ms"
    )
    print(
        f"wrk -t1 -c{args.connections} -d{args.duration}s, {args.workers} worker(s), random offsets, limit 10"
    )
    print(f"{'target':32} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}")
    for result in results:
        print(
            f"{result.target.name:32} {result.requests_per_second:10.0f} {result.p50_ms:8.2f} "
            f"{result.p99_ms:8.2f} {result.errors:8d}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
