"""The package as a user installs it: a wheel and an sdist built from the tree, the wheel installed into a
clean virtualenv (the runtime dependencies only), then `init`, `migrate` and `serve` from that install."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import httpx

from pressroom import __version__
from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


# Nothing of the test run's own environment leaks in (PYTHONPATH would make pip see the tree as installed).
CLEAN = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}


def run(*args: str | Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], check=False, capture_output=True, text=True, env=env or CLEAN, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_wheel_installs_into_a_clean_virtualenv_and_serves(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    run(sys.executable, "-m", "build", "--outdir", dist, ROOT)
    wheel = next(dist.glob(f"pressroom-{__version__}-*.whl"))
    sdist = next(dist.glob(f"pressroom-{__version__}.tar.gz"))
    members = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "pressroom/storage/sql/migrations/script.py.mako",
        "pressroom/storage/sql/migrations/env.py",
        "pressroom/py.typed",
        "pressroom/rest/templates/login.html",  # the OAuth pages
    ):
        assert needed in members
    assert any(name.startswith("pressroom/storage/sql/migrations/versions/") for name in members)
    assert not any(name.startswith("tests/") for name in members)
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    assert f"pressroom-{__version__}/README.md" in names
    assert any("/deploy/systemd/pressroom.service" in name for name in names)

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel)
    pressroom = venv / "bin" / "pressroom"
    assert run(pressroom, "--version").strip() == f"pressroom {__version__}"
    installed = run(venv / "bin" / "python", "-m", "pip", "list", "--format=freeze").lower()
    assert "pytest" not in installed and "boto3" not in installed  # the runtime install stays lean

    work = tmp_path / "site"
    work.mkdir()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(work),
        "PRESSROOM_DATABASE_URL": f"sqlite:///{work / 'pressroom.db'}",
        "PRESSROOM_FILE_ROOT": str(work / "files"),
    }
    assert "initialised" in run(pressroom, "init", env=env)
    assert "Schema at" in run(pressroom, "migrate", env=env)
    port = free_port()
    server = subprocess.Popen(
        [pressroom, "serve", "--port", str(port)], cwd=work, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                root = httpx.get(base + "/api/ibexa/v2/", headers={"Accept": "application/json"}, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
                time.sleep(0.2)
        assert root.status_code == 200 and "Root" in root.json()
        section = httpx.get(base + "/api/ibexa/v2/content/sections/1", auth=("admin", "publish"))
        assert section.status_code == 200
        docs = httpx.get(base + "/docs/swagger-ui-bundle.js")
        assert docs.status_code == 200 and len(docs.content) > 100_000
    finally:
        server.terminate()
        server.wait(timeout=20)
