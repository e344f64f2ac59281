"""Events under write load: create+publish throughput with and without webhook delivery, in one run, and the
delay from an event's commit to its receipt by a real webhook receiver (p50/p99).

Each phase starts `pressroom serve` on a fresh SQLite file (or a fresh PostgreSQL database with
``--postgres-url``), creates and publishes ``--items`` items from ``--clients`` threads, and, in the webhook
phase, a receiver on this machine records when each signed delivery arrives. The delay is the receipt time
minus the event's own time (stamped in the writing transaction), so it includes the dispatcher's polling,
fan-out, claim and the HTTP round trip.

    python -m benchmarks.event_delivery --items 2000
"""

from __future__ import annotations

import argparse
import http.server
import os
import statistics
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

import httpx
import orjson

from benchmarks.content_load import ADMIN, PREFIX, fill
from benchmarks.http_load import free_port, start_server


class Receiver:
    def __init__(self) -> None:
        self.delays: list[float] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                arrived = time.time()
                body = orjson.loads(self.rfile.read(int(self.headers["content-length"])))
                sent = datetime.fromisoformat(body["time"].replace("Z", "+00:00")).timestamp()
                with receiver.lock:
                    receiver.delays.append(arrived - sent)
                self.send_response(204)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_args: object) -> None:
                pass

        self.port = free_port()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def phase(
    database_url: str, root: Path, items: int, clients: int, deliver: bool
) -> tuple[float, list[float]]:
    os.environ["PRESSROOM_WEBHOOK_ALLOW_PRIVATE"] = "1"
    os.environ["PRESSROOM_EVENTS_DISPATCH"] = "1" if deliver else "0"
    process, base = start_server(database_url, 1, root / "files")
    receiver = Receiver() if deliver else None
    try:
        if receiver is not None:
            created = httpx.post(
                base + PREFIX + "/webhooks",
                content=orjson.dumps(
                    {
                        "WebhookInput": {
                            "url": f"http://127.0.0.1:{receiver.port}/hook",
                            "eventTypes": {"eventType": ["pressroom.content.*"]},
                        }
                    }
                ),
                headers={
                    "Authorization": ADMIN,
                    "Content-Type": "application/vnd.ibexa.api.WebhookInput+json",
                    "Accept": "application/vnd.ibexa.api.Webhook+json",
                },
            )
            created.raise_for_status()
            time.sleep(1.5)  # the dispatcher's fan-out cursor starts at the end of the log
        ids, _, elapsed = fill(base, items, clients)
        if receiver is None:
            return len(ids) / elapsed, []
        deadline = time.monotonic() + 300
        while len(receiver.delays) < 2 * items and time.monotonic() < deadline:  # created + published
            time.sleep(0.2)
        receiver.server.shutdown()
        return len(ids) / elapsed, receiver.delays
    finally:
        process.terminate()
        process.wait(timeout=20)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pressroom-events-") as temp:
        root = Path(temp)
        quiet, _ = phase(
            f"sqlite:///{root / 'off.db'}", root / "off", args.items, args.clients, deliver=False
        )
        busy, delays = phase(
            f"sqlite:///{root / 'on.db'}", root / "on", args.items, args.clients, deliver=True
        )
    print(f"create+publish, {args.clients} clients, SQLite, one worker, {args.items} items")
    print(f"  dispatcher off:              {quiet:8.1f} items/s")
    print(f"  webhook delivering each:     {busy:8.1f} items/s  ({busy / quiet:.2f}x)")
    if delays:
        print(
            f"  commit -> receipt, {len(delays)} deliveries: p50 {statistics.median(delays) * 1000:.0f} ms, "
            f"p99 {percentile(delays, 0.99) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
