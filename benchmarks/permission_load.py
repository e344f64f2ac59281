"""Permission benchmark: GET /content/objects/{id} as an editor limited to a subtree vs as the administrator.

Starts ``pressroom serve`` over a fresh database, creates and publishes ``--items`` folders below the
content root, and a user in the clean install's Editors group (the Editor role assigned with Subtree
/1/2/ and /1/43/, plus Member: install.md §10). Then runs wrk over random content ids as the
administrator (``*/*``) and as that editor, both with Basic credentials, alternating ``--rounds`` times,
and prints the best requests/s, p50/p99 of each and the editor/administrator ratio of the time per request
(the goal is at most 1.2).

    .venv/bin/python -m benchmarks.permission_load [--items 2000] [--workers 1] [--duration 10]
        [--database-url postgresql://...]
"""

from __future__ import annotations

import argparse
import base64
import sys
import tempfile
from pathlib import Path

import httpx

from benchmarks.content_load import CREATE, INFO, RANDOM_ID_SCRIPT, fill
from benchmarks.http_load import ADMIN, PREFIX, TARGETS, Result, Target, run_wrk, start_server

LOGIN, PASSWORD = "bench_editor", "Bench123456"
EDITORS = "1/5/14"


def make_editor(base: str) -> str:
    """A published user in the Editors group (publishing stores its account); returns its Basic
    credentials."""
    account = {"login": LOGIN, "email": f"{LOGIN}@example.com", "password": PASSWORD, "enabled": True}
    body = {
        "ContentCreate": {
            "ContentType": {"_href": f"{PREFIX}/content/types/4"},
            "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": f"{PREFIX}/content/locations/{EDITORS}"}},
            "fields": {
                "field": [
                    {"fieldDefinitionIdentifier": "first_name", "fieldValue": "Bench"},
                    {"fieldDefinitionIdentifier": "last_name", "fieldValue": "Editor"},
                    {"fieldDefinitionIdentifier": "user_account", "fieldValue": account},
                ]
            },
        }
    }
    with httpx.Client(base_url=base, headers={"Authorization": ADMIN}, timeout=60) as client:
        created = client.post(
            PREFIX + "/content/objects", json=body, headers={"Content-Type": CREATE, "Accept": INFO}
        )
        created.raise_for_status()
        user_id = int(created.json()["Content"]["_id"])
        client.request("PUBLISH", f"{PREFIX}/content/objects/{user_id}/versions/1").raise_for_status()
    return "Basic " + base64.b64encode(f"{LOGIN}:{PASSWORD}".encode()).decode()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--rounds", type=int, default=3, help="runs per caller, alternating; the best counts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        database_url = args.database_url or f"sqlite:///{tmp}/bench.db"
        process, base = start_server(database_url, args.workers, Path(tmp) / "files")
        try:
            ids, _, _ = fill(base, args.items, args.clients)
            editor = make_editor(base)
            with httpx.Client(base_url=base, timeout=60) as client:  # the editor may read them all
                check = client.get(f"{PREFIX}/content/objects/{ids[0]}", headers={"Authorization": editor})
                check.raise_for_status()
            script = Path(tmp) / "random_id.lua"
            script.write_text(RANDOM_ID_SCRIPT % (",".join(map(str, ids)), PREFIX))
            content = Target("GET content Content+json", "/content/objects/1", TARGETS["content"].accept)
            # Alternate the callers and keep each one's best run: the box is shared, so noise only slows.
            runs: dict[str, list[Result]] = {ADMIN: [], editor: []}
            for _ in range(args.rounds):
                for credentials, results in runs.items():
                    results.append(
                        run_wrk(
                            base, content, args.duration, args.connections, script, authorization=credentials
                        )
                    )
            admin, limited = (max(runs[c], key=lambda r: r.requests_per_second) for c in (ADMIN, editor))
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(f"{database_url.split(':')[0]}, {args.workers} worker(s); {len(ids)} items")
    print(f"{'caller':24} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}")
    for name, result in (("administrator", admin), ("editor on /1/2/", limited)):
        print(
            f"{name:24} {result.requests_per_second:10.0f} {result.p50_ms:8.2f} {result.p99_ms:8.2f} "
            f"{result.errors:8d}"
        )
    ratio = admin.requests_per_second / limited.requests_per_second
    print(f"time per request, editor / administrator: {ratio:.2f}x (goal <= 1.2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
