"""What an operator sees: `check` output for scripts and people, log lines in either format, the version."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import orjson
import pytest

from pressroom import __version__
from pressroom.config import Settings
from pressroom.storage.files import LocalFileStore
from tests.conftest import free_port
from tests.functional.test_file_gc import cli


def orphans(settings: Settings, count: int) -> None:
    files = LocalFileStore(settings.file_root)
    for index in range(count):
        files.put(b"x", f"orphan{index}.txt", "text/plain")


def test_check_limits_its_lines_and_counts_the_rest(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    orphans(settings, 5)
    assert cli(settings, "check", "--limit", "2") == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["orphan-file", "orphan-file"]
    assert lines[2:4] == ["... 3 more, by kind:", "  orphan-file: 5"]
    assert lines[-1].endswith(": 5 problem(s).")


def test_check_json_reports_counts_and_every_problem(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(settings, "check", "--json") == 0
    clean = orjson.loads(capsys.readouterr().out)
    assert clean["ok"] is True and clean["problems"] == 0 and clean["details"] == []
    assert clean["checked"]["content items"] > 0

    orphans(settings, 3)
    assert cli(settings, "check", "--json", "--limit", "1") == 1  # --limit shapes the text form only
    report = orjson.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["problems"] == 3
    assert report["by_kind"] == {"orphan-file": 3}
    assert len(report["details"]) == 3 and all(d["kind"] == "orphan-file" for d in report["details"])


def test_check_refuses_a_limit_below_one(settings: Settings) -> None:
    with pytest.raises(SystemExit) as refused:
        cli(settings, "check", "--limit", "0")
    assert refused.value.code == 2


def test_version_is_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    from pressroom.cli import main

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"pressroom {__version__}"


def serve_and_log(tmp_path: Path, log_format: str) -> list[str]:
    """Run `pressroom serve` with the access log on, make two requests, stop it: every line it wrote."""
    port = free_port()
    env = dict(
        os.environ,
        PRESSROOM_DATABASE_URL=f"sqlite:///{tmp_path / 'logs.db'}",
        PRESSROOM_FILE_ROOT=str(tmp_path / "files"),
        PRESSROOM_LOG_FORMAT=log_format,
        PRESSROOM_ACCESS_LOG="1",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "pressroom.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/api/ibexa/v2"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(base + "/", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and process.poll() is None, "the server did not start"
                time.sleep(0.1)
        assert httpx.get(base + "/content/sections/1", auth=("admin", "publish")).status_code == 200
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        out, _ = process.communicate(timeout=20)
    return [line for line in out.decode().splitlines() if line.strip()]


def test_json_logs_are_json_on_every_line_including_the_web_servers(tmp_path: Path) -> None:
    lines = serve_and_log(tmp_path, "json")
    entries = [orjson.loads(line) for line in lines]  # raises on any line that is not JSON
    loggers = {entry["logger"] for entry in entries}
    assert {"pressroom.serve", "_granian", "pressroom.access"} <= loggers
    banner = next(entry for entry in entries if entry["logger"] == "pressroom.serve" and "workers" in entry)
    assert banner["version"] == __version__ and banner["workers"] == 1
    access = [entry for entry in entries if entry["logger"] == "pressroom.access"]
    section = [entry for entry in access if entry.get("path", "").endswith("/content/sections/1")]
    assert [entry["status"] for entry in section] == [200]


def test_text_access_lines_show_their_fields(tmp_path: Path) -> None:
    lines = serve_and_log(tmp_path, "text")
    access = [line for line in lines if "pressroom.access:" in line and "/content/sections/1" in line]
    assert len(access) == 1, lines
    assert "status=200" in access[0] and "method=GET" in access[0]
    assert "path=/api/ibexa/v2/content/sections/1" in access[0]
    assert not any(line.lstrip().startswith("{") for line in lines)
