"""The file store follows the repository (issue 30 item 5): a repository records where its files live,
commands use that record, and a store named otherwise is refused unless the operator forces it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import pressroom
from pressroom.cli import main
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.install import recorded_file_store

OWN = "ab/cd/0123456789abcdef0123456789abcdef/own.txt"
SERVERS = "ef/01/0123456789abcdef0123456789abcdef/server.txt"


def recorded(database_url: str) -> str | None:
    engine = make_engine(database_url)
    with engine.connect() as connection:
        found = recorded_file_store(connection)
    engine.dispose()
    return found


def packed(archive: Path) -> list[str]:
    with zipfile.ZipFile(archive) as opened:
        return sorted(name for name in opened.namelist() if name.startswith("files/"))


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A repository made by ``init`` with its files in ``own-files``, one file stored; the working
    directory holds another server's default store (``var/storage``) with a file of its own; no
    PRESSROOM_FILE_* in the environment."""
    monkeypatch.chdir(tmp_path)
    for name in ("PRESSROOM_FILE_ROOT", "PRESSROOM_FILE_STORE"):
        monkeypatch.delenv(name, raising=False)
    url = f"sqlite:///{tmp_path / 'other.db'}"
    assert main(["init", "--database-url", url, "--file-store", str(tmp_path / "own-files")]) == 0
    LocalFileStore(tmp_path / "own-files").put_as(OWN, b"mine")
    LocalFileStore(tmp_path / "var" / "storage").put_as(SERVERS, b"the running server's")
    return url


def test_init_records_the_store_and_export_packs_that_one(tmp_path: Path, repository: str) -> None:
    assert recorded(repository) == str(tmp_path / "own-files")
    assert main(["export", str(tmp_path / "a.zip"), "--database-url", repository]) == 0
    assert packed(tmp_path / "a.zip") == [f"files/{OWN}"]


@pytest.mark.parametrize("command", [["export", "out.zip"], ["check"], ["gc-files", "--older-than", "0"]])
def test_a_store_named_otherwise_is_refused_naming_both(
    tmp_path: Path,
    repository: str,
    command: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PRESSROOM_FILE_ROOT", "var/storage")
    assert main([*command, "--database-url", repository]) == 2
    error = capsys.readouterr().err
    assert f"'{tmp_path / 'own-files'}' (recorded in its database)" in error
    assert f"'{tmp_path / 'var' / 'storage'}'" in error and "--force-file-store" in error
    assert not (tmp_path / "out.zip").exists()
    assert (tmp_path / "var" / "storage" / SERVERS).exists()  # gc-files deleted nothing of the other store
    assert recorded(repository) == str(tmp_path / "own-files")


def test_the_recorded_store_named_again_is_fine(tmp_path: Path, repository: str) -> None:
    args = ["export", str(tmp_path / "a.zip"), "--database-url", repository]
    assert main([*args, "--file-store", "own-files"]) == 0  # relative to the working directory: the same
    assert packed(tmp_path / "a.zip") == [f"files/{OWN}"]


def test_forcing_a_moved_store_uses_and_records_it(tmp_path: Path, repository: str) -> None:
    (tmp_path / "own-files").rename(tmp_path / "moved")
    args = ["export", str(tmp_path / "a.zip"), "--database-url", repository]
    assert main([*args, "--file-store", str(tmp_path / "moved"), "--force-file-store"]) == 0
    assert recorded(repository) == str(tmp_path / "moved")
    assert main(args) == 0
    assert packed(tmp_path / "a.zip") == [f"files/{OWN}"]


def test_import_records_the_target_store_not_the_sources(
    tmp_path: Path, repository: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(tmp_path / "a.zip"), "--database-url", repository]) == 0
    target = f"sqlite:///{tmp_path / 'target.db'}"
    monkeypatch.setenv("PRESSROOM_FILE_ROOT", str(tmp_path / "target-files"))
    assert main(["import", str(tmp_path / "a.zip"), "--database-url", target]) == 0
    assert recorded(target) == str(tmp_path / "target-files")
    monkeypatch.delenv("PRESSROOM_FILE_ROOT")
    capsys.readouterr()
    assert main(["check", "--database-url", target]) == 1  # the file is looked for where it was put
    out = capsys.readouterr().out  # (nothing references it: an orphan; not the working directory's file)
    assert f"orphan-file: file {OWN}:" in out and SERVERS not in out


def test_migrate_records_the_store_of_an_older_repository(
    tmp_path: Path, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert recorded(sqlite_url) is None  # the test template, like a repository made before the record
    monkeypatch.setenv("PRESSROOM_FILE_ROOT", str(tmp_path / "files"))
    assert main(["migrate", "--database-url", sqlite_url]) == 0
    assert recorded(sqlite_url) == str(tmp_path / "files")


def test_serve_refuses_a_store_other_than_the_recorded_one(tmp_path: Path, repository: str) -> None:
    sources = str(Path(pressroom.__file__).parents[1])  # the working directory is not the checkout's
    env = {**os.environ, "PRESSROOM_FILE_ROOT": str(tmp_path / "elsewhere"), "PYTHONPATH": sources}
    done = subprocess.run(
        [sys.executable, "-m", "pressroom.cli", "serve", "--port", "0", "--database-url", repository],
        env=env, capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "recorded in its database" in done.stderr


def test_import_over_a_repository_keeps_its_store(
    tmp_path: Path, repository: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["export", str(tmp_path / "a.zip"), "--database-url", repository]) == 0
    replace = ["import", str(tmp_path / "a.zip"), "--database-url", repository, "--force"]
    monkeypatch.setenv("PRESSROOM_FILE_ROOT", str(tmp_path / "elsewhere"))
    assert main(replace) == 2
    assert not (tmp_path / "elsewhere").exists()
    monkeypatch.delenv("PRESSROOM_FILE_ROOT")
    assert main(replace) == 0
    assert recorded(repository) == str(tmp_path / "own-files")
