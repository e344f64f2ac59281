"""HTTP cache benchmark (``make bench``): a content GET through Varnish against the same GET direct, in one
run, anonymous and logged in (Basic). Starts ``pressroom serve`` (one worker) over a fresh SQLite database
with purging on, varnishd with the shipped VCL in front (tests/varnish_proxy.py), and runs wrk on
``/content/objects/1`` as Content+json against each. A logged-in read through the proxy costs a hash
lookup (cached per credential) and a cache hit; direct, it is the full request.

    .venv/bin/python -m benchmarks.varnish_load [--duration 10] [--connections 16]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from tests.varnish_proxy import start_varnish

from benchmarks.http_load import TARGETS, Result, free_port, run_wrk, start_server

GOAL = 10.0  # the cached GET is at least this many times the direct one


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    target = TARGETS["content"]
    anonymous = type(target)(target.name + " (anonymous)", target.path, target.accept, auth=False)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        port = free_port()
        os.environ["PRESSROOM_HTTP_CACHE_PURGE"] = f"varnish:http://127.0.0.1:{port}"
        server, direct = start_server(f"sqlite:///{root / 'bench.db'}", 1, root / "files")
        proxy = start_varnish(root / "proxy", port, int(direct.rsplit(":", 1)[1]))
        try:
            rows: list[tuple[str, Result, Result]] = []
            for label, wanted in (("logged in", target), ("anonymous", anonymous)):
                straight = run_wrk(direct, wanted, args.duration, args.connections)
                cached = run_wrk(f"http://127.0.0.1:{port}", wanted, args.duration, args.connections)
                rows.append((label, straight, cached))
        finally:
            proxy.terminate()
            proxy.wait(timeout=10)
            server.terminate()
            server.wait(timeout=10)
    worst = min(cached.requests_per_second / straight.requests_per_second for _, straight, cached in rows)
    print(
        f"{'content GET':12} {'direct req/s':>12} {'varnish req/s':>14} {'ratio':>7}"
        f" {'p99 direct/varnish':>20}"
    )
    for label, straight, cached in rows:
        ratio = cached.requests_per_second / straight.requests_per_second
        print(
            f"{label:12} {straight.requests_per_second:12.0f} {cached.requests_per_second:14.0f}"
            f" {ratio:6.1f}x {straight.p99_ms:9.1f} / {cached.p99_ms:.1f} ms"
            + (f"  errors {straight.errors + cached.errors}" if straight.errors + cached.errors else "")
        )
    print(f"goal: cached >= {GOAL:.0f}x direct: {'met' if worst >= GOAL else 'NOT met'} ({worst:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
