"""Soak benchmark (not a test): mixed reads and writes from 64 connections for a long time, to see that
nothing drifts: no errors, a flat p99 per minute, and worker memory that levels off.

Starts ``pressroom serve`` over a fresh database (or ``--database-url``), seeds published folders, then
runs for ``--seconds`` (default 600) a mix of reads of random items, creates, creates+publishes, new
drafts of published items and deletes. Every ``--bucket`` seconds (default 60) it records the requests,
the errors (5xx answers and broken connections; a 404 for an item another client deleted is not one)
and the p50/p99 latency, and samples the RSS of every server process. Loopback only; every loop bounded.

    .venv/bin/python -m benchmarks.soak [--seconds 600] [--connections 64] [--workers 2]
        [--database-url postgresql://...] [--bucket 60]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from benchmarks.content_load import CREATE, _body
from benchmarks.http_load import ADMIN, PREFIX, start_server

CONTENT_INFO = "application/vnd.ibexa.api.ContentInfo+json"
VERSION = "application/vnd.ibexa.api.Version+json"
SEED_ITEMS = 200
MIX = (("read", 70), ("create", 8), ("publish", 10), ("draft", 7), ("delete", 5))


@dataclass
class Bucket:
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)


@dataclass
class Soak:
    started: float
    bucket_seconds: float
    buckets: dict[int, Bucket] = field(default_factory=dict)
    published: list[int] = field(default_factory=list)
    serial: int = 0
    buckets_in_run: int = 0

    def record(self, began: float, status: int | None) -> None:
        bucket = self.buckets.setdefault(int((began - self.started) // self.bucket_seconds), Bucket())
        bucket.latencies_ms.append((time.monotonic() - began) * 1000)
        if status is None or status >= 500:
            bucket.errors += 1
        if status is not None:
            bucket.statuses[status] = bucket.statuses.get(status, 0) + 1


async def timed(soak: Soak, call: Awaitable[httpx.Response]) -> httpx.Response | None:
    began = time.monotonic()
    try:
        response = await call
    except httpx.HTTPError:
        soak.record(began, None)
        return None
    soak.record(began, response.status_code)
    return response


async def create(http: httpx.AsyncClient, soak: Soak) -> int | None:
    soak.serial += 1
    body = _body(soak.serial)
    headers = {"Content-Type": CREATE, "Accept": CONTENT_INFO}
    response = await timed(soak, http.post(f"{PREFIX}/content/objects", json=body, headers=headers))
    if response is None or response.status_code != 201:
        return None
    content_id: int = response.json()["Content"]["_id"]
    return content_id


async def op_read(http: httpx.AsyncClient, soak: Soak) -> None:
    if soak.published:
        content_id = random.choice(soak.published)
        await timed(
            soak, http.get(f"{PREFIX}/content/objects/{content_id}", headers={"Accept": CONTENT_INFO})
        )


async def op_create(http: httpx.AsyncClient, soak: Soak) -> None:
    await create(http, soak)


async def op_publish(http: httpx.AsyncClient, soak: Soak) -> None:
    content_id = await create(http, soak)
    if content_id is not None:
        path = f"{PREFIX}/content/objects/{content_id}/versions/1"
        response = await timed(soak, http.request("PUBLISH", path))
        if response is not None and response.status_code == 204:
            soak.published.append(content_id)


async def op_draft(http: httpx.AsyncClient, soak: Soak) -> None:
    if soak.published:
        content_id = random.choice(soak.published)
        path = f"{PREFIX}/content/objects/{content_id}/currentversion"
        await timed(soak, http.request("COPY", path, headers={"Accept": VERSION}))


async def op_delete(http: httpx.AsyncClient, soak: Soak) -> None:
    if len(soak.published) > SEED_ITEMS // 2:
        content_id = soak.published.pop(random.randrange(len(soak.published)))
        await timed(soak, http.delete(f"{PREFIX}/content/objects/{content_id}"))


OPERATIONS: dict[str, Callable[[httpx.AsyncClient, Soak], Awaitable[None]]] = {
    "read": op_read,
    "create": op_create,
    "publish": op_publish,
    "draft": op_draft,
    "delete": op_delete,
}


async def connection(base: str, soak: Soak, until: float) -> None:
    names = [name for name, _ in MIX]
    weights = [weight for _, weight in MIX]
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": ADMIN}, timeout=60) as http:
        while time.monotonic() < until:
            name = random.choices(names, weights)[0]
            await OPERATIONS[name](http, soak)


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def sample_rss(
    root_pid: int, soak: Soak, until: float, samples: dict[int, list[tuple[int, float]]]
) -> None:
    while time.monotonic() < until:
        bucket = int((time.monotonic() - soak.started) // soak.bucket_seconds)
        for pid in process_tree(root_pid):
            samples.setdefault(pid, []).append((bucket, rss_mb(pid)))
        await asyncio.sleep(min(5.0, soak.bucket_seconds / 4))


async def run(base: str, root_pid: int, seconds: float, connections: int, bucket: float) -> None:
    seed = Soak(time.monotonic(), bucket)
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": ADMIN}, timeout=60) as http:
        for _ in range(SEED_ITEMS):
            await op_publish(http, seed)
    soak = Soak(time.monotonic(), bucket, published=seed.published, serial=seed.serial)
    soak.buckets_in_run = max(1, round(seconds / bucket))
    until = soak.started + seconds
    samples: dict[int, list[tuple[int, float]]] = {}
    await asyncio.gather(
        sample_rss(root_pid, soak, until, samples),
        *(connection(base, soak, until) for _ in range(connections)),
    )
    report(soak, samples, root_pid)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def report(soak: Soak, samples: dict[int, list[tuple[int, float]]], root_pid: int) -> None:
    print(f"{'bucket':>6} {'requests':>9} {'req/s':>7} {'errors':>7} {'p50 ms':>8} {'p99 ms':>8}  statuses")
    p99s = []
    whole = [index for index in sorted(soak.buckets) if index < soak.buckets_in_run]
    for index in whole:  # a last request that began late would make a bucket of its own
        bucket = soak.buckets[index]
        p99 = percentile(bucket.latencies_ms, 0.99)
        p99s.append(p99)
        statuses = " ".join(f"{status}:{count}" for status, count in sorted(bucket.statuses.items()))
        count = len(bucket.latencies_ms)
        print(
            f"{index:>6} {count:>9} {count / soak.bucket_seconds:>7.0f} "
            f"{bucket.errors:>7} {statistics.median(bucket.latencies_ms):>8.1f} {p99:>8.1f}  {statuses}"
        )
    errors = sum(soak.buckets[index].errors for index in whole)
    total = sum(len(soak.buckets[index].latencies_ms) for index in whole)
    if p99s:
        print(
            f"requests {total}, errors {errors};"
            f" p99 per bucket min {min(p99s):.1f} ms, max {max(p99s):.1f} ms"
        )
    print("RSS MB per server process (first and last sample of each bucket):")
    for pid, values in sorted(samples.items()):
        role = "server" if pid == root_pid else "worker"
        per_bucket: dict[int, list[float]] = {}
        for index, value in values:
            per_bucket.setdefault(index, []).append(value)
        line = " ".join(f"{v[0]:.0f}-{v[-1]:.0f}" for _, v in sorted(per_bucket.items()))
        print(f"  {role} {pid}: {line}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bucket", type=float, default=60, help="seconds per report line (default 60)")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        database_url = args.database_url or f"sqlite:///{tmp}/soak.db"
        process, base = start_server(database_url, args.workers, Path(tmp) / "files")
        try:
            print(
                f"soak: {args.seconds:g} s, {args.connections} connections, {args.workers} worker(s), "
                f"{database_url.split(':')[0]}"
            )
            asyncio.run(run(base, process.pid, args.seconds, args.connections, args.bucket))
        finally:
            process.terminate()
            process.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
