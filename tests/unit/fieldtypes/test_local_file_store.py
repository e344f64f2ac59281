"""LocalFileStore: generated ids, atomic writes, no path traversal."""

from __future__ import annotations

from pathlib import Path

import pytest

from pressroom.domain.errors import InvalidArgument, NotFound
from pressroom.storage.files import LocalFileStore, sanitize_file_name


def test_put_get_delete(tmp_path: Path) -> None:
    store = LocalFileStore(tmp_path)
    stored = store.put(b"hello", "report.pdf", "application/pdf")
    assert (stored.file_name, stored.size, stored.mime_type) == ("report.pdf", 5, "application/pdf")
    assert stored.id.endswith("/report.pdf")
    assert len(stored.id.split("/")) == 4
    assert store.get(stored.id) == b"hello"
    assert (tmp_path / stored.id).read_bytes() == b"hello"
    store.delete(stored.id)
    with pytest.raises(NotFound):
        store.get(stored.id)
    assert list(tmp_path.iterdir()) == []
    store.delete(stored.id)  # deleting twice is fine


def test_ids_are_unique_and_leave_no_temp_files(tmp_path: Path) -> None:
    store = LocalFileStore(tmp_path)
    first, second = store.put(b"1", "a.txt", None), store.put(b"2", "a.txt", None)
    assert first.id != second.id
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["a.txt", "a.txt"]


def test_client_file_name_cannot_escape(tmp_path: Path) -> None:
    store = LocalFileStore(tmp_path / "root")
    stored = store.put(b"x", "../../etc/passwd", None)
    assert stored.id.endswith("/passwd")
    assert (tmp_path / "root" / stored.id).is_file()
    assert not (tmp_path / "etc").exists()


@pytest.mark.parametrize("bad_id", ["../secret", "/etc/passwd", "a\\..\\b", "a/../../b", "a//b", "", "a/./b"])
def test_malformed_ids_are_refused(tmp_path: Path, bad_id: str) -> None:
    store = LocalFileStore(tmp_path)
    with pytest.raises(InvalidArgument):
        store.get(bad_id)
    with pytest.raises(InvalidArgument):
        store.delete(bad_id)


def test_missing_file_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        LocalFileStore(tmp_path).get("ab/cd/ef/missing.txt")


@pytest.mark.parametrize(
    ("given", "safe"),
    [("photo.jpg", "photo.jpg"), ("résumé 2024.pdf", "r_sum_2024.pdf"), ("..", "file"), (".hidden", "hidden"),
     ("C:\\tmp\\x.txt", "x.txt")],
)  # fmt: skip
def test_sanitize_file_name(given: str, safe: str) -> None:
    assert sanitize_file_name(given) == safe


def test_long_names_keep_their_extension() -> None:
    safe = sanitize_file_name("a" * 300 + ".jpeg")
    assert len(safe) <= 100
    assert safe.endswith(".jpeg")
