"""Load benchmark: a real Granian server under wrk, a resource endpoint against a trivial one.

Starts ``pressroom serve`` on a free port over a fresh database, then runs wrk against each target and
prints requests/s, p50 and p99 latency, and the ratio of each target to the trivial endpoint (the root
resource: routing, negotiation and serialisation, no database). Numbers are comparable only on the same
machine; the ratio is the figure to watch.

    .venv/bin/python -m benchmarks.http_load [--duration 10] [--connections 64] [--workers 1]
        [--database-url postgresql://...] [--target NAME ...]
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

PREFIX = "/api/ibexa/v2"
ADMIN = "Basic " + base64.b64encode(b"admin:publish").decode()


@dataclass(frozen=True)
class Target:
    name: str
    path: str
    accept: str
    auth: bool = True


TARGETS = {
    "root": Target("root (trivial)", "/", "application/vnd.ibexa.api.Root+json", auth=False),
    "section": Target("GET section 1", "/content/sections/1", "application/vnd.ibexa.api.Section+json"),
    "section-xml": Target(
        "GET section 1 XML", "/content/sections/1", "application/vnd.ibexa.api.Section+xml"
    ),
    "content": Target(
        "GET content 1 Content+json", "/content/objects/1", "application/vnd.ibexa.api.Content+json"
    ),
}


@dataclass(frozen=True)
class Result:
    target: Target
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int
    requests: int = 0


@dataclass(frozen=True)
class Usage:
    """CPU seconds (user + system, all threads) and resident memory of a process, from /proc."""

    cpu_seconds: float
    rss_mb: float


_TICKS = os.sysconf("SC_CLK_TCK")


def usage(pid: int) -> Usage:
    # Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    rss = next(line.split()[1] for line in status if line.startswith("VmRSS:"))
    return Usage((int(fields[11]) + int(fields[12])) / _TICKS, int(rss) / 1024)


def worker_pids(server: int) -> list[int]:
    """The server's worker processes: the children of its main process."""
    children: set[int] = set()
    for task in Path(f"/proc/{server}/task").iterdir():
        children.update(int(pid) for pid in (task / "children").read_text().split())
    return sorted(children)


def workers_cpu(server: int) -> float:
    """CPU seconds the server's workers have used so far."""
    return sum(usage(pid).cpu_seconds for pid in worker_pids(server))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ms(text: str) -> float:
    match = re.match(r"([\d.]+)(us|ms|s)", text)
    if match is None:
        raise ValueError(f"unparsable latency {text!r}")
    value, unit = float(match.group(1)), match.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


def run_wrk(
    base: str,
    target: Target,
    duration: int,
    connections: int,
    script: Path | None = None,
    authorization: str = ADMIN,
) -> Result:
    """Run wrk on one target; ``script`` is an optional Lua file that picks the request paths, and
    ``authorization`` the credentials of an authenticated target."""
    command = [
        "wrk",
        "-t1",
        f"-c{connections}",
        f"-d{duration}s",
        "--latency",
        "-H",
        f"Accept: {target.accept}",
    ]
    if script is not None:
        command += ["-s", str(script)]
    if target.auth:
        command += ["-H", f"Authorization: {authorization}"]
    output = subprocess.run(
        [*command, base + PREFIX + target.path], capture_output=True, text=True, check=True
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"\s50%\s+(\S+)", output).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"\s99%\s+(\S+)", output).group(1))  # type: ignore[union-attr]
    errors_match = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    requests = int(re.search(r"(\d+) requests in", output).group(1))  # type: ignore[union-attr]
    return Result(target, rps, p50, p99, int(errors_match.group(1)) if errors_match else 0, requests)


def start_server(database_url: str, workers: int, file_root: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, PRESSROOM_DATABASE_URL=database_url, PRESSROOM_FILE_ROOT=str(file_root))
    process = subprocess.Popen(
        [sys.executable, "-m", "pressroom.cli", "serve", "--port", str(port), "--workers", str(workers)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180  # installing the database takes a while on a busy machine
    while True:
        try:
            urllib.request.urlopen(base + PREFIX + "/", timeout=1).read()  # noqa: S310 (loopback only)
            return process, base
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--target", action="append", choices=sorted(TARGETS), default=None)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk)", file=sys.stderr)
        return 2
    names = args.target or ["root", "section", "section-xml"]
    if "root" not in names:
        names.insert(0, "root")
    with tempfile.TemporaryDirectory() as tmp:
        database_url = args.database_url or f"sqlite:///{tmp}/bench.db"
        process, base = start_server(database_url, args.workers, Path(tmp) / "files")
        try:
            results = [run_wrk(base, TARGETS[name], args.duration, args.connections) for name in names]
        finally:
            process.terminate()
            process.wait(timeout=10)
    baseline = results[0].requests_per_second
    backend = database_url.split(":")[0]
    print(f"wrk -t1 -c{args.connections} -d{args.duration}s, {args.workers} worker(s), {backend}")
    print(f"{'target':32} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>6} {'non-2xx':>8}")
    for result in results:
        print(
            f"{result.target.name:32} {result.requests_per_second:10.0f} {result.p50_ms:8.2f} "
            f"{result.p99_ms:8.2f} {result.requests_per_second / baseline:6.2f} {result.errors:8d}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
