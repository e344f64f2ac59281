"""Both file stores keep the same contract: the local directory and S3-compatible storage, the latter
against a real S3 server (moto's server mode) started by the test on a free port."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pressroom.domain.errors import InvalidArgument, NotFound
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.storage.files import LocalFileStore
from pressroom.storage.s3files import S3FileStore


@pytest.fixture(params=["local", "s3"])
def files(request: pytest.FixtureRequest, tmp_path: Path) -> FileStore:
    if request.param == "local":
        return LocalFileStore(tmp_path / "files")
    return S3FileStore(request.getfixturevalue("s3_url"))


def test_put_get_delete(files: FileStore) -> None:
    stored = files.put(b"hello", "../../etc/pass wd.txt", "text/plain")
    assert stored.file_name == "../../etc/pass wd.txt"
    assert stored.id.endswith("/pass_wd.txt") and ".." not in stored.id
    assert (stored.size, stored.mime_type) == (5, "text/plain")
    assert files.get(stored.id) == b"hello"
    files.delete(stored.id)
    with pytest.raises(NotFound):
        files.get(stored.id)
    files.delete(stored.id)  # deleting what is gone is not an error


def test_put_as_a_derived_id_and_list(files: FileStore) -> None:
    original = files.put(b"original", "photo.jpg", "image/jpeg")
    derived = original.id.rsplit("/", 1)[0] + "/small/photo.jpg"
    files.put_as(derived, b"small")
    assert files.get(derived) == b"small"
    assert sorted(files.file_ids()) == sorted([original.id, derived])


@pytest.mark.parametrize("bad", ["../x", "/etc/passwd", "a\\b", "a//b", "a/./b", "a/\x00", ""])
def test_ids_that_could_leave_the_store_are_refused(files: FileStore, bad: str) -> None:
    with pytest.raises(InvalidArgument):
        files.get(bad)
    with pytest.raises(InvalidArgument):
        files.put_as(bad, b"x")


def test_bad_store_urls_name_the_problem() -> None:
    with pytest.raises(ValueError, match="s3://"):
        S3FileStore("http://bucket/prefix")
    with pytest.raises(ValueError, match="secret"):
        S3FileStore("s3://bucket/prefix?secret=x")


def test_written_at_tells_the_age_of_a_file(files: FileStore) -> None:
    before = time.time()
    stored = files.put(b"dated", "dated.txt", "text/plain")
    written = files.written_at(stored.id)
    assert written is not None
    assert before - 2 <= written <= time.time() + 2  # S3 keeps whole seconds
    assert files.written_at(stored.id.rsplit("/", 1)[0] + "/other.txt") is None
    files.delete(stored.id)
    assert files.written_at(stored.id) is None


def test_size_and_ranged_reads(files: FileStore) -> None:
    stored = files.put(bytes(range(256)) * 4, "clip.webm", "video/webm")
    assert files.size(stored.id) == 1024
    assert files.get_range(stored.id, 0, 0) == b"\x00"
    assert files.get_range(stored.id, 250, 260) == bytes(range(250, 256)) + bytes(range(5))
    assert files.get_range(stored.id, 1000, 1023) == bytes(range(232, 256))
    missing = stored.id.rsplit("/", 1)[0] + "/other.webm"
    with pytest.raises(NotFound):
        files.size(missing)
    with pytest.raises(NotFound):
        files.get_range(missing, 0, 1)
