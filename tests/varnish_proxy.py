"""Debian's varnishd running the shipped deploy/varnish/pressroom.vcl in front of a server on ``backend``
(for tests/functional/test_varnish.py and benchmarks/varnish_load.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx

SHIPPED = Path(__file__).parents[1] / "deploy" / "varnish" / "pressroom.vcl"
PARAMS = SHIPPED.with_name("varnishd.params")


def shipped_params() -> list[str]:
    """The options of deploy/varnish/varnishd.params (comment lines left out)."""
    lines = [line.strip() for line in PARAMS.read_text().splitlines()]
    return [word for line in lines if line and not line.startswith("#") for word in line.split()]


def start_varnish(
    root: Path, port: int, backend: int, *, new_session: bool = True
) -> subprocess.Popen[bytes]:
    """varnishd on 127.0.0.1:``port`` (its files under ``root``), listening when this returns; in a session
    of its own unless ``new_session`` is off. A benchmark keeps it in its own session: with the kernel's
    autogroup scheduling each session shares the CPU as one group, so a varnishd in a session of its own gets
    a share that depends on how many other sessions are busy, not the share the server it is compared with
    gets."""
    varnishd = shutil.which("varnishd") or "/usr/sbin/varnishd"
    assert os.access(varnishd, os.X_OK), "Debian's varnish is needed: `make varnish` installs it"
    root.mkdir(parents=True, exist_ok=True)
    vcl = root / "pressroom.vcl"
    vcl.write_text(re.sub(r'\.port = "\d+";', f'.port = "{backend}";', SHIPPED.read_text(), count=1))
    process = subprocess.Popen(
        [varnishd, "-F", "-j", "none", "-a", f"127.0.0.1:{port}", "-f", str(vcl),
         "-n", str(root / "varnish"), *shipped_params()],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=new_session,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/_fos_user_context_hash", timeout=1)
            return process
        except httpx.TransportError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError("varnishd did not listen") from None
            time.sleep(0.1)
