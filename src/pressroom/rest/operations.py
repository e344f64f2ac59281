"""What operators ask of a running server, outside the API prefixes and without the API's authentication:
``/health`` (the process answers), ``/health/ready`` (its database answers and is installed) and
``/metrics`` (Prometheus text format; with ``PRESSROOM_METRICS_TOKEN`` for a Bearer token only, with
``PRESSROOM_METRICS_ADDRESS`` only on that address, from :func:`serve_metrics`). Also the per-request
trace behind metrics and the access log.
"""

from __future__ import annotations

import hmac
import itertools
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson
from prometheus_client import CONTENT_TYPE_LATEST

from pressroom.config import Settings
from pressroom.metrics import observe_request, render_metrics

access_log = logging.getLogger("pressroom.access")

HEALTH = "/health"
READY = "/health/ready"
METRICS = "/metrics"
PATHS = (HEALTH, READY, METRICS)
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


@dataclass(slots=True)
class Trace:
    """What one request did, filled in as it goes: for metrics and the access log."""

    request_id: str
    method: str
    path: str
    started: float = field(default_factory=time.perf_counter)
    route: str = "unmatched"
    user_id: int | None = None
    client: str | None = None  # the client's address (behind a trusted proxy: X-Forwarded-For)

    def finish(self, status: int, log_access: bool) -> None:
        elapsed = time.perf_counter() - self.started
        observe_request(self.route, self.method, status, elapsed)
        if log_access:
            access_log.info(
                "request",
                extra={
                    "request_id": self.request_id,
                    "method": self.method,
                    "path": self.path,
                    "route": self.route,
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 3),
                    "user_id": self.user_id,
                    "client": self.client,
                },
            )


def request_id(header: str | None) -> str:
    """The caller's ``X-Request-Id`` when it is a sane token, else a new one: 32 hex digits, a random half
    drawn once per process and a counter (a uuid4 per request cost more than the rest of the trace)."""
    if header and _REQUEST_ID.match(header):
        return header
    return _made.prefix + format(next(_made.counter), "016x")


class _RequestIds:
    """This process's request ids: a random prefix and a counter, both drawn again in a forked child."""

    def __init__(self) -> None:
        self.prefix = ""
        self.counter: itertools.count[int] = itertools.count()
        self.restart()

    def restart(self) -> None:
        self.prefix = os.urandom(8).hex()
        self.counter = itertools.count(int.from_bytes(os.urandom(4)))


_made = _RequestIds()
os.register_at_fork(after_in_child=_made.restart)


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


def answer(path: str, ready: Callable[[], bool], settings: Settings, authorization: str | None) -> Answer:
    """The answer to one of :data:`PATHS`; ``ready`` asks the database, ``authorization`` is the
    request's header."""
    if path == METRICS:
        if settings.metrics_address is not None:  # served on its own address only
            return Answer(404, "application/json", orjson.dumps({"status": "not found"}))
        return metrics_answer(settings.metrics_token, authorization)
    if path == HEALTH:
        return Answer(200, "application/json", orjson.dumps({"status": "ok"}))
    if ready():
        return Answer(200, "application/json", orjson.dumps({"status": "ready"}))
    body = orjson.dumps(
        {"status": "unavailable", "detail": "the database does not answer or is not installed"}
    )
    return Answer(503, "application/json", body, (("retry-after", "5"),))


def metrics_answer(token: str, authorization: str | None) -> Answer:
    """``/metrics``, to a caller with ``Authorization: Bearer <token>`` when there is a token."""
    if token:
        scheme, _, given = (authorization or "").strip().partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
            body = orjson.dumps({"status": "unauthorized", "detail": "send Authorization: Bearer <token>"})
            return Answer(401, "application/json", body, (("www-authenticate", 'Bearer realm="metrics"'),))
    return Answer(200, CONTENT_TYPE_LATEST, render_metrics())


def serve_metrics(address: tuple[str, int], token: str) -> ThreadingHTTPServer:
    """``/metrics`` on ``address`` from a thread of the calling process (``serve``'s main process, which
    sums the workers' metric files); stop it with ``shutdown()`` and ``server_close()``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.partition("?")[0] != METRICS:
                reply = Answer(404, "application/json", orjson.dumps({"status": "not found"}))
            else:
                reply = metrics_answer(token, self.headers.get("authorization"))
            self.send_response(reply.status)
            for name, value in (("content-type", reply.content_type), *reply.headers):
                self.send_header(name, value)
            self.send_header("content-length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def log_message(self, *_args: Any) -> None:  # the scraper's every visit is no news
            return

    server = ThreadingHTTPServer(address, Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    return server
