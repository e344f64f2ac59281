"""HTTP cache benchmark (``make bench``): a content GET through Varnish against the same GET direct, in one
run, anonymous and logged in (Basic); then reads racing publishes through the proxy.

Starts ``pressroom serve`` (one worker) over a fresh SQLite database with purging on, varnishd with the
shipped VCL in front (tests/varnish_proxy.py, in this process's session so that both sides get the same
share of the CPU), and runs wrk on ``/content/objects/1`` as Content+json against each. A logged-in read
through the proxy costs a hash lookup (cached per credential) and a cache hit; direct, it is the full
request.

The mixed run: reader threads GET an item's ContentInfo through Varnish (logged in) while a writer
publishes new versions of it (direct, one every ``--publish-every`` seconds). With
``PRESSROOM_HTTP_CACHE_SYNC_PURGE`` on, a *stale read* is a read that started after a publish's answer
came and still shows an older version: there must be none. Without it, the purge delay of a publish is
the time from its answer to the end of the first read through the proxy that shows it (p50, p99).

    .venv/bin/python -m benchmarks.varnish_load [--duration 10] [--connections 16] [--readers 4]
"""

from __future__ import annotations

import argparse
import bisect
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from tests.functional.content_support import new_draft, publish, published_folder
from tests.helpers import Api, media
from tests.varnish_proxy import start_varnish

from benchmarks.http_load import ADMIN, PREFIX, TARGETS, Result, free_port, run_wrk, start_server

GOAL = 10.0  # the cached GET is at least this many times the direct one


@contextmanager
def proxied(root: Path, **env: str) -> Iterator[tuple[str, str]]:
    """``pressroom serve`` (purging the proxy, ``env`` on top) and varnishd in front: (direct, proxy)."""
    port = free_port()
    os.environ.update(PRESSROOM_HTTP_CACHE_PURGE=f"varnish:http://127.0.0.1:{port}", **env)
    root.mkdir(parents=True)
    server, direct = start_server(f"sqlite:///{root / 'bench.db'}", 1, root / "files")
    proxy: subprocess.Popen[bytes] | None = None
    try:
        proxy = start_varnish(root / "proxy", port, int(direct.rsplit(":", 1)[1]), new_session=False)
        yield direct, f"http://127.0.0.1:{port}"
    finally:
        for process in (proxy, server):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)


def compare(direct: str, cached: str, duration: int, connections: int) -> list[tuple[str, Result, Result]]:
    target = TARGETS["content"]
    anonymous = type(target)(target.name + " (anonymous)", target.path, target.accept, auth=False)
    rows: list[tuple[str, Result, Result]] = []
    for label, wanted in (("logged in", target), ("anonymous", anonymous)):
        straight = run_wrk(direct, wanted, duration, connections)
        through = run_wrk(cached, wanted, duration, connections)
        rows.append((label, straight, through))
    return rows


@dataclass(frozen=True)
class Mixed:
    reads: int
    publishes: int
    stale: int  # reads started after a publish answered that showed an older version
    delays: list[float]  # seconds from each publish's answer to the end of the first read showing it
    unseen: int  # publishes no read showed (superseded before a read came)


def mixed(direct: str, cached: str, duration: float, readers: int, publish_every: float) -> Mixed:
    """Readers through the proxy race a writer publishing new versions of one item (see the module)."""
    admin = Api(httpx.Client(base_url=direct, timeout=30), check_schemas=False)
    content_id = published_folder(admin, "Mixed load")["_id"]
    path = f"{PREFIX}/content/objects/{content_id}"
    headers = {"Accept": media("ContentInfo"), "Authorization": ADMIN}
    published: list[tuple[float, int]] = [(time.monotonic(), 1)]  # (answered at, version) in order
    reads: list[list[tuple[float, float, int]]] = [[] for _ in range(readers)]  # (started, ended, version)
    stop = threading.Event()

    def read(into: list[tuple[float, float, int]]) -> None:
        with httpx.Client(base_url=cached, timeout=30, headers=headers) as client:
            while not stop.is_set():
                started = time.monotonic()
                answer = client.get(path)
                answer.raise_for_status()
                into.append((started, time.monotonic(), int(answer.json()["Content"]["currentVersionNo"])))

    threads = [threading.Thread(target=read, args=(into,)) for into in reads]
    for thread in threads:
        thread.start()
    try:
        end = time.monotonic() + duration
        while time.monotonic() < end:
            version = new_draft(admin, content_id)
            publish(admin, content_id, version)
            published.append((time.monotonic(), version))
            time.sleep(publish_every)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    answered = [at for at, _ in published]
    every = sorted(read for into in reads for read in into)
    stale = 0
    for started, _, version in every:
        latest = bisect.bisect_right(answered, started) - 1
        stale += version < published[latest][1]
    delays: list[float] = []
    unseen = 0
    for at, version in published[1:]:
        seen = [ended for started, ended, shown in every if started >= at and shown >= version]
        if seen:
            delays.append(min(seen) - at)
        else:
            unseen += 1
    return Mixed(len(every), len(published) - 1, stale, delays, unseen)


def percentile(values: list[float], share: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--publish-every", type=float, default=0.2)
    args = parser.parse_args()
    runs: dict[str, Mixed] = {}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        with proxied(root / "reads") as (direct, cached):
            rows = compare(direct, cached, args.duration, args.connections)
        for mode, sync in (("synchronous", "1"), ("asynchronous", "0")):
            with proxied(root / mode, PRESSROOM_HTTP_CACHE_SYNC_PURGE=sync) as (direct, cached):
                runs[mode] = mixed(direct, cached, args.duration, args.readers, args.publish_every)
    worst = min(through.requests_per_second / straight.requests_per_second for _, straight, through in rows)
    print(f"wrk -t1 -c{args.connections} -d{args.duration}s; one server worker, SQLite")
    print(
        f"{'content GET':12} {'direct req/s':>12} {'varnish req/s':>14} {'ratio':>7}"
        f" {'p99 direct/varnish':>20}"
    )
    for label, straight, through in rows:
        ratio = through.requests_per_second / straight.requests_per_second
        print(
            f"{label:12} {straight.requests_per_second:12.0f} {through.requests_per_second:14.0f}"
            f" {ratio:6.1f}x {straight.p99_ms:9.1f} / {through.p99_ms:.1f} ms"
            + (f"  errors {straight.errors + through.errors}" if straight.errors + through.errors else "")
        )
    print(f"goal: cached >= {GOAL:.0f}x direct: {'met' if worst >= GOAL else 'NOT met'} ({worst:.1f}x)")
    print(f"mixed: {args.readers} readers through Varnish (logged in), a publish every {args.publish_every}s")
    for mode, run in runs.items():
        delay = (
            f"purge delay p50 {percentile(run.delays, 0.5) * 1000:.0f} ms,"
            f" p99 {percentile(run.delays, 0.99) * 1000:.0f} ms"
        )
        print(
            f"{mode:12} {run.reads} reads, {run.publishes} publishes, stale reads {run.stale}"
            + (" (must be 0)" if mode == "synchronous" else "")
            + f", {delay}"
            + (f", {run.unseen} publishes never read" if run.unseen else "")
        )
    return 1 if runs["synchronous"].stale else 0


if __name__ == "__main__":
    sys.exit(main())
