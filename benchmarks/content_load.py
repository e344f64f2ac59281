"""Content benchmark (``make bench``): the issue-10 goals on SQLite and PostgreSQL, beside each figure.

For each database: start ``pressroom serve`` (one worker) over a fresh database, count the SQL statements
of one create, one publish and one warm content GET (from the server's ``/metrics``), fill it with
``--items`` folders through the REST API (ContentCreate + PUBLISH from ``--clients`` clients), then run
wrk on the trivial root resource, read every item once in each format (the cold path, printed on its own
line; it leaves the caches as a running server has them), then random content ids as Content+json and
Content+xml, a section, and Content+json at 8 connections for the p99: the steady state the goals are
about. On PostgreSQL the content GET runs once more with two workers, warmed the same way.
Ratios compare with the root resource of the same server in the same run: the figure to watch on a
shared machine.

    .venv/bin/python -m benchmarks.content_load [--items 10000] [--clients 4] [--writes 200] [--duration 10]
        [--database sqlite --database postgresql] [--postgres-url postgresql://postgres@127.0.0.1/postgres]
        [--baseline before.json] [--save-baseline now.json]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from tests.helpers import scratch_postgres

from benchmarks.goals import Goal, at_least, at_most, below, goal_figures, now, print_goals, save_figures
from benchmarks.http_load import (
    ADMIN,
    PREFIX,
    TARGETS,
    Result,
    Target,
    run_wrk,
    start_server,
    usage,
    worker_pids,
    workers_cpu,
)

CREATE = "application/vnd.ibexa.api.ContentCreate+json"
INFO = "application/vnd.ibexa.api.ContentInfo+json"

RANDOM_ID_SCRIPT = """
local ids = {%s}
request = function()
  local path = "%s/content/objects/" .. ids[math.random(#ids)]
  return wrk.format("GET", path)
end
"""

# Every item in each format, in order, ``passes`` times, from 64 connections; wrk exits when the last answer
# is in.
FIRST_READ_SCRIPT = """
local ids = {%s}
local formats = {"%s", "%s"}
local total = #ids * #formats * %d
local sent, seen, failed = 0, 0, 0
request = function()
  local n = sent %% total
  sent = sent + 1
  local path = "%s/content/objects/" .. ids[math.floor(n / #formats) %% #ids + 1]
  local headers = {Accept = formats[(n %% #formats) + 1]}
  for name, value in pairs(wrk.headers) do
    if name ~= "Accept" then headers[name] = value end
  end
  return wrk.format("GET", path, headers)
end
response = function(status, headers, body)
  seen = seen + 1
  if status >= 300 then failed = failed + 1 end
  if seen >= total then
    io.write("first reads: ", seen, " failed: ", failed, "\\n")
    os.exit(0)
  end
end
"""


def _body(n: int) -> dict[str, object]:
    return {
        "ContentCreate": {
            "ContentType": {"_href": f"{PREFIX}/content/types/1"},
            "mainLanguageCode": "eng-GB",
            "LocationCreate": {
                "ParentLocation": {"_href": f"{PREFIX}/content/locations/1/2"},
                "sortField": "PATH",
                "sortOrder": "ASC",
            },
            "fields": {
                "field": [
                    {
                        "fieldDefinitionIdentifier": "name",
                        "languageCode": "eng-GB",
                        "fieldValue": f"Folder {n}",
                    },
                    {
                        "fieldDefinitionIdentifier": "short_description",
                        "languageCode": "eng-GB",
                        "fieldValue": {
                            "xml": '<?xml version="1.0" encoding="UTF-8"?><section '
                            'xmlns="http://docbook.org/ns/docbook" version="5.0-variant ezpublish-1.0">'
                            f"<para>Benchmark item <emphasis>{n}</emphasis>.</para></section>"
                        },
                    },
                ]
            },
        }
    }


def create_and_publish(client: httpx.Client, n: int) -> int:
    response = client.post(
        PREFIX + "/content/objects",
        json=_body(n),
        headers={"Content-Type": CREATE, "Accept": INFO},
    )
    response.raise_for_status()
    content_id = int(response.json()["Content"]["_id"])
    published = client.request("PUBLISH", f"{PREFIX}/content/objects/{content_id}/versions/1")
    published.raise_for_status()
    return content_id


def fill(base: str, items: int, clients: int) -> tuple[list[int], list[float], float]:
    ids: list[int] = []
    latencies: list[float] = []
    lock = threading.Lock()
    counter = iter(range(items))

    def work() -> None:
        with httpx.Client(base_url=base, headers={"Authorization": ADMIN}, timeout=60) as client:
            for n in counter:
                started = time.perf_counter()
                content_id = create_and_publish(client, n)
                elapsed = time.perf_counter() - started
                with lock:
                    ids.append(content_id)
                    latencies.append(elapsed)

    started = time.perf_counter()
    threads = [threading.Thread(target=work) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return ids, latencies, time.perf_counter() - started


@contextmanager
def served(database_url: str, workers: int, root: Path) -> Iterator[tuple[str, int]]:
    """The server's address and its main process id."""
    process, base = start_server(database_url, workers, root / "files")
    try:
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(timeout=10)


def statements_sent(client: httpx.Client) -> int:
    found = re.search(r"^pressroom_sql_statements_total (\S+)$", client.get("/metrics").text, re.M)
    return int(float(found.group(1))) if found else 0


def count_statements(base: str, tries: int = 3) -> tuple[int, int, int]:
    """Statements of one create, one publish and one warm content GET (one worker, from /metrics): the
    fewest of ``tries`` (the worker's event dispatcher polls the database now and then, on the same
    counter)."""
    with httpx.Client(base_url=base, headers={"Authorization": ADMIN}, timeout=60) as client:
        create_and_publish(client, -1)  # warms the process: user, type, caches

        def measured(action: Callable[[], object]) -> int:
            before = statements_sent(client)
            action()
            return statements_sent(client) - before

        created: list[int] = []

        def create() -> None:
            response = client.post(
                PREFIX + "/content/objects",
                json=_body(-2),
                headers={"Content-Type": CREATE, "Accept": INFO},
            )
            response.raise_for_status()
            created.append(int(response.json()["Content"]["_id"]))

        def publish() -> None:
            client.request("PUBLISH", f"{PREFIX}/content/objects/{created[-1]}/versions/1").raise_for_status()

        def read() -> None:
            accept = {"Accept": TARGETS["content"].accept}
            client.get(f"{PREFIX}/content/objects/{created[-1]}", headers=accept).raise_for_status()

        counts = []
        for _ in range(tries):
            create_count, publish_count = measured(create), measured(publish)
            read()
            counts.append((create_count, publish_count, measured(read)))
        fewest = [min(column) for column in zip(*counts, strict=True)]
        return fewest[0], fewest[1], fewest[2]


def write_cpu(base: str, server: int, count: int) -> tuple[float, float]:
    """Worker CPU ms per create and per publish: ``count`` creates from one client, the workers' CPU
    time before and after, then the publishes of those drafts the same way."""
    with httpx.Client(base_url=base, headers={"Authorization": ADMIN}, timeout=60) as client:
        created: list[int] = []
        before = workers_cpu(server)
        for n in range(count):
            response = client.post(
                PREFIX + "/content/objects",
                json=_body(-10 - n),
                headers={"Content-Type": CREATE, "Accept": INFO},
            )
            response.raise_for_status()
            created.append(int(response.json()["Content"]["_id"]))
        between = workers_cpu(server)
        for content_id in created:
            client.request("PUBLISH", f"{PREFIX}/content/objects/{content_id}/versions/1").raise_for_status()
        after = workers_cpu(server)
    return (between - before) * 1000 / count, (after - between) * 1000 / count


def random_content(root: Path, ids: list[int], name: str, accept: str) -> tuple[Target, Path]:
    script = root / "random_id.lua"
    sample = ids if len(ids) <= 20_000 else ids[:: len(ids) // 20_000]
    script.write_text(RANDOM_ID_SCRIPT % (",".join(map(str, sample)), PREFIX))
    return Target(name, "/content/objects/1", accept), script


@dataclass(frozen=True)
class FirstReads:
    requests_per_second: float
    requests: int
    failed: int


def first_reads(base: str, root: Path, ids: list[int], json_accept: str, passes: int = 1) -> FirstReads:
    """Read every item as Content+json and as Content+xml, ``passes`` times (64 connections): the cold
    path, and the warm-up that leaves the caches as a server's steady state has them for the measured
    runs. With two workers each pass reaches each worker with about half the items: three passes leave
    an eighth of them cold."""
    script = root / "first_reads.lua"
    xml_accept = json_accept.replace("+json", "+xml")
    listed = ",".join(map(str, ids))
    script.write_text(FIRST_READ_SCRIPT % (listed, json_accept, xml_accept, passes, PREFIX))
    command = ["wrk", "-t1", "-c64", "-d3600s", "-s", str(script), "-H", f"Authorization: {ADMIN}", base]
    started = time.perf_counter()
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    elapsed = time.perf_counter() - started
    found = re.search(r"first reads: (\d+) failed: (\d+)", output)
    if found is None:
        raise RuntimeError(f"wrk did not finish the first reads: {output}")
    requests = int(found.group(1))
    return FirstReads(requests / elapsed, requests, int(found.group(2)))


def bench_database(database_url: str, args: argparse.Namespace, root: Path) -> list[Goal]:
    postgres = database_url.startswith("postgres")
    duration, connections = args.duration, args.connections
    json_accept = TARGETS["content"].accept
    with served(database_url, 1, root) as (base, server):
        creates, publishes, reads = count_statements(base)
        create_ms, publish_ms = write_cpu(base, server, args.writes)
        ids, latencies, elapsed = fill(base, args.items, args.clients)
        content_json, script = random_content(root, ids, "GET content Content+json", json_accept)
        content_xml = Target("GET content Content+xml", "/", json_accept.replace("+json", "+xml"))
        cpu_before = workers_cpu(server)
        root_result = run_wrk(base, TARGETS["root"], duration, connections)
        root_ms = (workers_cpu(server) - cpu_before) * 1000 / root_result.requests
        cold = first_reads(base, root, ids, json_accept)
        (worker,) = worker_pids(server)
        worker_mb, main_mb = usage(worker).rss_mb, usage(server).rss_mb
        loaded: dict[str, Result] = {
            "json": run_wrk(base, content_json, duration, connections, script=script),
            "xml": run_wrk(base, content_xml, duration, connections, script=script),
            "section": run_wrk(base, TARGETS["section"], duration, connections),
            "json8": run_wrk(base, content_json, duration, 8, script=script),
        }
    rate = len(ids) / elapsed
    cuts = statistics.quantiles(latencies, n=100)
    print(
        f"  {len(ids)} items created+published by {args.clients} clients: {rate:.0f} items/s, "
        f"p50 {cuts[49] * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms"
    )
    print(
        f"  worker CPU per request: root {root_ms:.3f} ms, create {create_ms:.2f} ms, publish "
        f"{publish_ms:.2f} ms ({args.writes} of each, one client); after reading {len(ids)} items in "
        f"both formats: worker {worker_mb:.0f} MB, main process {main_mb:.0f} MB"
    )
    print(f"  {'target':32} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>6} {'non-2xx':>8}")
    print(
        f"  {'first read of each, json+xml':32} {cold.requests_per_second:10.0f} {'':8} {'':8} "
        f"{cold.requests_per_second / root_result.requests_per_second:6.2f} {cold.failed:8d}"
    )
    for result in (root_result, *loaded.values()):
        print(
            f"  {result.target.name:32} {result.requests_per_second:10.0f} {result.p50_ms:8.2f} "
            f"{result.p99_ms:8.2f} {result.requests_per_second / root_result.requests_per_second:6.2f} "
            f"{result.errors:8d}"
        )

    def ratio(key: str) -> float:
        return loaded[key].requests_per_second / root_result.requests_per_second

    cold_ratio = cold.requests_per_second / root_result.requests_per_second
    goals = [
        at_least("GET content Content+json / root", ratio("json"), 0.40, f"{ratio('json'):.2f}"),
        at_least("GET content Content+xml / root", ratio("xml"), 0.25, f"{ratio('xml'):.2f}"),
        at_least("GET section / root", ratio("section"), 0.50, f"{ratio('section'):.2f}"),
        at_most(
            "GET content p99 at 8 connections (ms)",
            loaded["json8"].p99_ms,
            5,
            f"{loaded['json8'].p99_ms:.2f}",
        ),
        at_least("first read of each (cold) / root", cold_ratio, 0.35, f"{cold_ratio:.2f}"),
        at_most("worker CPU ms per request: root", root_ms, 0.10, f"{root_ms:.3f}"),
        at_most("worker CPU ms per request: create", create_ms, 1.3, f"{create_ms:.2f}"),
        at_most("worker CPU ms per request: publish", publish_ms, 1.3, f"{publish_ms:.2f}"),
        at_least(
            f"create+publish, {args.clients} clients (items/s)", rate, 250 if postgres else 500, f"{rate:.0f}"
        ),
        below("worker RSS after reading every item (MB)", worker_mb, 200, f"{worker_mb:.0f}"),
        below("main process RSS (MB)", main_mb, 50, f"{main_mb:.0f}"),
        at_most("SQL statements: content GET (warm)", reads, 1, str(reads)),
        at_most("SQL statements: create", creates, 6, str(creates)),
        at_most("SQL statements: publish", publishes, 8, str(publishes)),
    ]
    if postgres:
        with served(database_url, 2, root) as (base, _):
            first_reads(base, root, ids, json_accept, passes=3)
            two = run_wrk(base, content_json, duration, connections, script=script)
        speedup = two.requests_per_second / loaded["json"].requests_per_second
        print(f"  --workers 2: {two.requests_per_second:.0f} req/s, p99 {two.p99_ms:.2f} ms")
        goals.append(at_least("content GET, 2 workers vs 1", speedup, 1.6, f"{speedup:.2f}x"))
    return goals


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--writes", type=int, default=200, help="creates, then publishes, timed for CPU")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--database", action="append", choices=("sqlite", "postgresql"), default=None)
    parser.add_argument("--postgres-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--baseline", type=Path, help="the figures of the code before, for the table")
    parser.add_argument("--save-baseline", type=Path, help="write the figures measured here to this file")
    args = parser.parse_args()
    table: list[tuple[str, Goal]] = []
    for backend in args.database or ["sqlite", "postgresql"]:
        print(f"{backend}: wrk -t1 -c{args.connections} -d{args.duration}s, one worker", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            if backend == "sqlite":
                goals = bench_database(f"sqlite:///{tmp}/bench.db", args, Path(tmp))
            else:
                with scratch_postgres(args.postgres_url, "pressroom_bench") as url:
                    goals = bench_database(url, args, Path(tmp))
        table += [(backend, goal) for goal in goals]
    measured = f"{now()}, {args.items} items"
    if args.save_baseline:
        save_figures(args.save_baseline, measured, goal_figures(table))
    print_goals(table, args.baseline, measured)
    return 0


if __name__ == "__main__":
    sys.exit(main())
