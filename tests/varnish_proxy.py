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


def start_varnish(root: Path, port: int, backend: int) -> subprocess.Popen[bytes]:
    """varnishd on 127.0.0.1:``port`` (its files under ``root``), listening when this returns."""
    varnishd = shutil.which("varnishd") or "/usr/sbin/varnishd"
    assert os.access(varnishd, os.X_OK), "Debian's varnish is needed: `make varnish` installs it"
    root.mkdir(parents=True, exist_ok=True)
    vcl = root / "pressroom.vcl"
    vcl.write_text(re.sub(r'\.port = "\d+";', f'.port = "{backend}";', SHIPPED.read_text(), count=1))
    process = subprocess.Popen(
        [varnishd, "-F", "-j", "none", "-a", f"127.0.0.1:{port}", "-f", str(vcl),
         "-n", str(root / "varnish"), "-s", "malloc,64m"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
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
