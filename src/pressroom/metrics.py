"""Prometheus metrics: requests by route and status, their latency, and SQL statements sent.

With several Granian workers each worker is a process: ``serve`` points ``PROMETHEUS_MULTIPROC_DIR`` at
a fresh directory before the workers start, and ``/metrics`` then sums what every worker recorded. The
workers are forked after this module is imported, so the metrics (and prometheus_client's choice of
value storage, made from that variable) are created on first use in each process, not at import.

Every label value is one of a bounded set: each new value is a series every worker keeps (and writes to
its file) until it ends, and a client may send any method on any path. Routes are the route table's
names or ``unmatched``; methods outside :data:`METHODS` share the label ``other``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from sqlalchemy import Engine, event

# HTTP's methods (RFC 9110, and PATCH) and those the REST API adds (COPY, MOVE, PUBLISH, SWAP).
_HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT")
METHODS = frozenset((*_HTTP_METHODS, "COPY", "MOVE", "PUBLISH", "SWAP"))
OTHER_METHOD = "other"


@dataclass(frozen=True, slots=True)
class Metrics:
    requests: Counter
    duration: Histogram
    statements: Counter
    event_backlog: Gauge
    webhook_pending: Gauge
    cache_lookups: Counter
    # The children of ``requests`` and ``duration`` for each (route, method label, status) seen: labels()
    # costs more than the increments it leads to. As bounded as the labels.
    answered: dict[tuple[str, str, int], tuple[Counter, Histogram]] = field(default_factory=dict)


@cache
def metrics() -> Metrics:
    """This process's metrics, created on first use."""
    values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]  # file-backed in multiprocess mode
    return Metrics(
        requests=Counter("pressroom_requests", "HTTP requests answered", ["route", "method", "status"]),
        duration=Histogram(
            "pressroom_request_duration_seconds",
            "Time from the request's arrival to its answer",
            ["route"],
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
        ),
        statements=Counter("pressroom_sql_statements", "SQL statements sent to the database"),
        # Measured by the workers' event dispatchers; with several workers, the largest reading of a live one.
        event_backlog=Gauge(
            "pressroom_event_backlog", "Events a consumer has not handled yet", ["consumer"],
            multiprocess_mode="livemax",
        ),
        webhook_pending=Gauge(
            "pressroom_webhook_deliveries_pending", "Webhook deliveries waiting to be sent or retried",
            multiprocess_mode="livemax",
        ),
        cache_lookups=Counter(
            "pressroom_representation_cache_lookups",
            "Lookups in the workers' caches of rendered representations, by result (hit, miss)",
            ["result"],
        ),
    )  # fmt: skip


def observe_request(route: str, method: str, status: int, seconds: float) -> None:
    recorded = metrics()
    label = method if method in METHODS else OTHER_METHOD
    children = recorded.answered.get((route, label, status))
    if children is None:
        children = recorded.requests.labels(route, label, str(status)), recorded.duration.labels(route)
        recorded.answered[route, label, status] = children
    children[0].inc()
    children[1].observe(seconds)


def cache_lookups() -> tuple[Counter, Counter]:
    """The counters of representation cache hits and misses (bound once: a lookup costs one increment)."""
    lookups = metrics().cache_lookups
    return lookups.labels("hit"), lookups.labels("miss")


def observe_events(backlogs: dict[str, int], pending: int) -> None:
    """The event consumers' backlogs (a consumer name is one of a few: webhooks, nats, ...)."""
    recorded = metrics()
    for consumer, count in backlogs.items():
        recorded.event_backlog.labels(consumer).set(count)
    recorded.webhook_pending.set(pending)


def _count_statement(*_args: Any) -> None:
    metrics().statements.inc()


def count_statements() -> None:
    """Count the statements of every engine of this process (idempotent)."""
    if not event.contains(Engine, "before_cursor_execute", _count_statement):
        event.listen(Engine, "before_cursor_execute", _count_statement)


def render_metrics() -> bytes:
    """The Prometheus text of this process, or of all workers in multiprocess mode (then with each live
    worker's process metrics, labelled by its pid)."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        registry.register(WorkerProcesses(Path(directory)))
        return generate_latest(registry)
    metrics()
    return generate_latest()


_PID = re.compile(r"_(\d+)\.db$")


def worker_pids(directory: Path) -> list[int]:
    """The processes that wrote metrics to ``directory`` (``counter_<pid>.db``, ...) and are alive."""
    pids = {int(found.group(1)) for path in directory.iterdir() if (found := _PID.search(path.name))}
    return sorted(pid for pid in pids if Path(f"/proc/{pid}").exists())


class WorkerProcesses(Collector):
    """``process_*`` (memory, CPU, open files, ...) of every worker, with a ``pid`` label: read from /proc
    by prometheus_client's own collector, a process at a time. A worker writes its metric files when it
    starts (:func:`metrics` in ``asgi_from_env``), so every worker is found, busy or not."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def collect(self) -> Iterator[Metric]:
        merged: dict[str, Metric] = {}
        for pid in worker_pids(self.directory):
            collector = ProcessCollector(pid=lambda pid=pid: pid, registry=None)  # type: ignore[misc]
            for family in collector.collect():
                into = merged.setdefault(family.name, Metric(family.name, family.documentation, family.type))
                for sample in family.samples:
                    into.add_sample(sample.name, {**sample.labels, "pid": str(pid)}, sample.value)
        yield from merged.values()
