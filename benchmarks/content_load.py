"""Content benchmark: create+publish throughput, then GET /content/objects/{id} (Content+json) under wrk.

Starts ``pressroom serve`` over a fresh database, fills it with ``--items`` folders through the REST API
(ContentCreate + PUBLISH, from ``--clients`` concurrent clients), reporting the create+publish latency
percentiles and rate; then runs wrk against random content ids with ``Accept: ...Content+json`` next to
the trivial root resource, printing requests/s, p50/p99 and the ratio.

    .venv/bin/python -m benchmarks.content_load [--items 10000] [--clients 4] [--workers 1]
        [--duration 10] [--database-url postgresql://...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from benchmarks.http_load import ADMIN, PREFIX, TARGETS, Target, run_wrk, start_server

CREATE = "application/vnd.ibexa.api.ContentCreate+json"
INFO = "application/vnd.ibexa.api.ContentInfo+json"

RANDOM_ID_SCRIPT = """
local ids = {%s}
request = function()
  local path = "%s/content/objects/" .. ids[math.random(#ids)]
  return wrk.format("GET", path)
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


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        database_url = args.database_url or f"sqlite:///{tmp}/bench.db"
        process, base = start_server(database_url, args.workers, Path(tmp) / "files")
        try:
            ids, latencies, elapsed = fill(base, args.items, args.clients)
            script = Path(tmp) / "random_id.lua"
            sample = ids if len(ids) <= 20_000 else ids[:: len(ids) // 20_000]
            script.write_text(RANDOM_ID_SCRIPT % (",".join(map(str, sample)), PREFIX))
            content = Target("GET content Content+json", "/content/objects/1", TARGETS["content"].accept)
            root = run_wrk(base, TARGETS["root"], args.duration, args.connections)
            loaded = run_wrk(base, content, args.duration, args.connections, script=script)
        finally:
            process.terminate()
            process.wait(timeout=10)
    cuts = statistics.quantiles(latencies, n=100)
    backend = database_url.split(":")[0]
    print(
        f"{backend}, {args.workers} worker(s); {len(ids)} items created+published by {args.clients} clients"
    )
    print(
        f"create+publish: {len(ids) / elapsed:.0f} items/s, p50 {cuts[49] * 1000:.1f} ms, "
        f"p99 {cuts[98] * 1000:.1f} ms"
    )
    print(f"{'target':32} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>6} {'non-2xx':>8}")
    for result in (root, loaded):
        print(
            f"{result.target.name:32} {result.requests_per_second:10.0f} {result.p50_ms:8.2f} "
            f"{result.p99_ms:8.2f} {result.requests_per_second / root.requests_per_second:6.2f} "
            f"{result.errors:8d}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
