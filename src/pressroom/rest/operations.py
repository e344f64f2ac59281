"""What operators ask of a running server, outside the API prefixes and without authentication:
``/health`` (the process answers), ``/health/ready`` (its database answers and is installed) and
``/metrics`` (Prometheus text format). Also the per-request trace behind metrics and the access log.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import orjson
from prometheus_client import CONTENT_TYPE_LATEST

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
    """The caller's ``X-Request-Id`` when it is a sane token, else a new one."""
    if header and _REQUEST_ID.match(header):
        return header
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


def answer(path: str, ready: Callable[[], bool]) -> Answer:
    """The answer to one of :data:`PATHS`; ``ready`` asks the database."""
    if path == METRICS:
        return Answer(200, CONTENT_TYPE_LATEST, render_metrics())
    if path == HEALTH:
        return Answer(200, "application/json", orjson.dumps({"status": "ok"}))
    if ready():
        return Answer(200, "application/json", orjson.dumps({"status": "ready"}))
    body = orjson.dumps(
        {"status": "unavailable", "detail": "the database does not answer or is not installed"}
    )
    return Answer(503, "application/json", body, (("retry-after", "5"),))
