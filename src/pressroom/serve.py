"""The server's main process: Granian and its workers, nothing of the application.

``pressroom serve`` prepares the database (install or migrate, the file store record) and then replaces
itself with ``python -m pressroom.serve``: the process keeps its id (and so its signals, its supervisor and
its port) but starts again with only Granian, the settings and logging loaded. The main process does not
serve requests; its workers are separate processes that import the application themselves
(``pressroom.app:asgi_from_env``), so none of it needs to sit in the main process's memory. Only with
``PRESSROOM_METRICS_ADDRESS`` does the main process load the metrics renderer, to answer ``/metrics``.

Everything comes from the environment ``pressroom serve`` set (``PRESSROOM_*``) and from ``--host``,
``--port`` and ``--workers``.
"""

from __future__ import annotations

import argparse
import ctypes
import logging
import os
import shutil
import signal
import sys
import tempfile
from typing import Any

from granian.constants import Interfaces, Loops
from granian.http import HTTP1Settings
from granian.server import Server

from pressroom import __version__
from pressroom.config import Settings, settings_from_env
from pressroom.logs import configure_logging, granian_log_config

log = logging.getLogger("pressroom.serve")


def main(argv: list[str] | None = None) -> int:
    settings = settings_from_env()
    configure_logging(settings.log_format)
    parser = argparse.ArgumentParser(prog="pressroom.serve")
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, required=True)
    args = parser.parse_args(argv)
    own_directory = None
    if (args.workers > 1 or settings.metrics_address) and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Each worker writes its metrics here; /metrics sums them (a fresh directory per start, removed at
        # the end). On an address of its own, /metrics is answered by this process: from the directory too.
        own_directory = tempfile.mkdtemp(prefix="pressroom-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = own_directory
    metrics_server = None
    try:
        if settings.metrics_address:
            from pressroom.rest.operations import serve_metrics  # noqa: PLC0415 (only then: a heavy import)

            host, port = settings.metrics_address
            try:
                metrics_server = serve_metrics(settings.metrics_address, settings.metrics_token)
            except OSError as error:
                print(f"error: cannot serve metrics on {host}:{port}: {error}", file=sys.stderr)
                return 2
            log.info("Metrics on http://%s:%s/metrics", host, port)
        _run_granian(args, settings)
    finally:
        if metrics_server is not None:
            metrics_server.shutdown()
            metrics_server.server_close()
        if own_directory:
            shutil.rmtree(own_directory, ignore_errors=True)
    return 0


def _run_granian(args: argparse.Namespace, settings: Settings) -> None:
    log.info(
        "Pressroom %s on http://%s:%s/api/ibexa/v2/ (%s worker(s))",
        __version__, args.host, args.port, args.workers,
        extra={"version": __version__, "address": f"{args.host}:{args.port}", "workers": args.workers},
    )  # fmt: skip
    # Slow clients: headers must arrive within header_read_timeout_ms, a body that stalls ends in a 408
    # (rest/app.py), and a worker takes at most max_concurrent_requests at once, so a flood of half-sent
    # requests holds a bounded number of slots for a bounded time.
    Server(
        "pressroom.serve:worker_app",
        address=args.host,
        port=args.port,
        workers=args.workers,
        interface=Interfaces.ASGI,
        # Not "auto", which takes rloop or uvloop when either happens to be installed: rloop kept every
        # request's task alive (a leak), uvloop measured no faster here, and asyncio is what the tests run.
        loop=Loops.asyncio,
        factory=True,
        log_access=False,  # our own access log (PRESSROOM_ACCESS_LOG) has route, user and request id
        backlog=settings.backlog,
        backpressure=settings.max_concurrent_requests,
        http1_settings=HTTP1Settings(header_read_timeout=settings.header_read_timeout_ms),
        log_dictconfig=granian_log_config(settings.log_format),
    ).serve()


def worker_app() -> Any:
    """A worker's application (Granian's factory target, called in each worker process).

    Granian gives a worker its own SIGTERM/SIGINT handling only once the application is loaded; until
    then the forked worker has this process's handlers, which would take a stop signal sent while it
    loads (seconds: the application is imported here, not before the fork) as meant for the main
    process, and the worker would serve on, never to stop. While it loads, a stop signal ends it at once.
    """
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, signal.SIG_DFL)
    limit_malloc_arenas()
    from pressroom.app import asgi_from_env  # noqa: PLC0415 (in the worker only)

    return asgi_from_env()


M_ARENA_MAX = -8  # glibc's mallopt parameter
WORKER_ARENAS = 2


def limit_malloc_arenas() -> bool:
    """At most :data:`WORKER_ARENAS` malloc arenas in this worker, as ``MALLOC_ARENA_MAX=2`` would give:
    glibc opens an arena for each thread that allocates (up to eight per core: Granian's threads, the
    off-loop pool), and the memory freed in one is not reused by another, so a worker that had read 10,000
    items held about 20 MB more with the default (219 against 200 MB) for the same requests per second.
    The environment variable, when set, is the operator's choice and glibc applied it at start. False
    where there is no glibc."""
    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, WORKER_ARENAS))


if __name__ == "__main__":
    sys.exit(main())
