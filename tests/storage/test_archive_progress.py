"""Progress of export and import (issue 30 item 4): rows, the search-index rebuild as a phase of its own,
and file bytes; on a non-terminal, log lines at most one per interval."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import orjson
import pytest

from pressroom.progress import LogProgress
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.archive import export_repository, import_repository
from pressroom.storage.sql.engine import make_engine
from tests.storage.test_archive import FILE_ID, png, run


class Ticks:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def phases(records: list[logging.LogRecord]) -> list[tuple[str, int, int | None]]:
    return [(r.phase, r.done, r.total) for r in records if r.name == "pressroom.progress"]  # type: ignore[attr-defined]


def test_import_reports_rows_then_the_search_index_then_file_bytes(
    tmp_path: Path, sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    files = LocalFileStore(tmp_path / "source-files")
    files.put_as(FILE_ID, png())
    source = make_engine(sqlite_url)
    with caplog.at_level(logging.INFO, logger="pressroom.progress"):
        manifest = export_repository(source, files, tmp_path / "a.zip", progress=LogProgress(0, Ticks()))
    source.dispose()
    rows = sum(manifest["tables"].values())
    exported = phases(caplog.records)
    assert {phase for phase, _, _ in exported} == {"rows", "file bytes"}
    row_lines = [(done, total) for phase, done, total in exported if phase == "rows"]
    assert row_lines[-1] == (rows, rows)
    assert len(row_lines) > 3  # a line per table read (interval 0), not only the start and the end
    assert [done for done, _ in row_lines] == sorted(done for done, _ in row_lines)
    assert exported[-1] == ("file bytes", len(png()), None)

    caplog.clear()
    target = make_engine(f"sqlite:///{tmp_path / 'new.db'}")
    with caplog.at_level(logging.INFO, logger="pressroom.progress"):
        import_repository(
            target, LocalFileStore(tmp_path / "target"), tmp_path / "a.zip", progress=LogProgress(0)
        )
    target.dispose()
    imported = phases(caplog.records)
    order = list(dict.fromkeys(phase for phase, _, _ in imported))
    assert order == ["rows", "search index", "file bytes"]
    ends = {phase: (done, total) for phase, done, total in imported}
    assert ends["rows"] == (rows, rows)
    indexed, items = ends["search index"]
    assert indexed == items and items > 0
    assert ends["file bytes"] == (len(png()), len(png()))


def test_a_longer_interval_logs_fewer_lines(
    tmp_path: Path, sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    engine = make_engine(sqlite_url)
    counts: dict[int, int] = {}
    for interval in (0, 5):
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="pressroom.progress"):
            export_repository(
                engine,
                LocalFileStore(tmp_path),
                tmp_path / f"{interval}.zip",
                progress=LogProgress(interval, Ticks()),
            )
        counts[interval] = len(phases(caplog.records))
    engine.dispose()
    assert 2 < counts[5] < counts[0]


def test_the_command_on_a_non_terminal_logs_progress_lines(
    tmp_path: Path, sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PRESSROOM_PROGRESS_INTERVAL", "0")
    assert (
        run(monkeypatch, ["export", str(tmp_path / "a.zip"), "--database-url", sqlite_url], tmp_path / "f")
        == 0
    )
    capsys.readouterr()
    empty = f"sqlite:///{tmp_path / 'new.db'}"
    assert run(monkeypatch, ["import", str(tmp_path / "a.zip"), "--database-url", empty], tmp_path / "g") == 0
    lines: list[dict[str, Any]] = [orjson.loads(line) for line in capsys.readouterr().err.splitlines()]
    progress = [line for line in lines if line["logger"] == "pressroom.progress"]
    assert [line["phase"] for line in progress if line["message"].endswith("started")] == [
        "rows", "search index", "file bytes",
    ]  # fmt: skip
    assert any(line["phase"] == "rows" and 0 < line["done"] < line["total"] for line in progress)
    assert progress[-1]["message"].startswith("file bytes: 0/0 B")
