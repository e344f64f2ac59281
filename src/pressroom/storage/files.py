"""A :class:`~pressroom.domain.fieldtypes.base.FileStore` on a local directory.

File ids are generated here, ``"ab/cd/<uuid hex>/<sanitized file name>"``, never taken from a client
path; ids handed back to :meth:`LocalFileStore.get` / :meth:`LocalFileStore.delete` are checked so that
they cannot leave the root (no ``..``, no absolute path, no backslash). Writes are atomic: a temporary
file in the target directory, then ``os.replace``.
"""

from __future__ import annotations

import os
import re
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

from pressroom.domain.errors import InvalidArgument, NotFound
from pressroom.domain.fieldtypes.base import FileStore, StoredFile

MAX_NAME_LENGTH = 100
_UNSAFE_CHARS = re.compile(r"[^A-Za-z0-9._-]+")
_SEGMENT = re.compile(r"[A-Za-z0-9._-]+")


def sanitize_file_name(file_name: str) -> str:
    """A file name safe on any file system: ASCII letters, digits, ``._-``; the extension is kept."""
    base = _UNSAFE_CHARS.sub("_", file_name.replace("\\", "/").rsplit("/", 1)[-1]).lstrip("._")
    if len(base) > MAX_NAME_LENGTH:
        stem, dot, extension = base.rpartition(".")
        extension = extension[:16]
        base = (
            stem[: MAX_NAME_LENGTH - len(extension) - 1] + dot + extension if dot else base[:MAX_NAME_LENGTH]
        )
    return base or "file"


def check_file_id(file_id: str) -> list[str]:
    """The segments of a well-formed file id; raises InvalidArgument for anything that could name a
    place outside the store (``..``, absolute, backslash, NUL, odd characters)."""
    segments = file_id.split("/")
    if not file_id or "\\" in file_id or file_id.startswith("/") or "\x00" in file_id:
        raise InvalidArgument(f"Invalid file id '{file_id}'")
    if any(segment in ("", ".", "..") or not _SEGMENT.fullmatch(segment) for segment in segments):
        raise InvalidArgument(f"Invalid file id '{file_id}'")
    return segments


def put_new(store: FileStore, data: bytes, file_name: str, mime_type: str | None) -> StoredFile:
    """Store ``data`` under a new id, ``"ab/cd/<uuid hex>/<sanitized file name>"``, in any store."""
    token = uuid.uuid4().hex
    file_id = f"{token[:2]}/{token[2:4]}/{token}/{sanitize_file_name(file_name)}"
    store.put_as(file_id, data)
    return StoredFile(file_id, file_name, len(data), mime_type)


class LocalFileStore:
    """Files under ``root``, one directory per file."""

    def __init__(self, root: Path) -> None:
        self._root = root.resolve()

    def put(self, data: bytes, file_name: str, mime_type: str | None) -> StoredFile:
        """Store ``data``; the returned ``file_name`` is the name as given (the id holds a safe form)."""
        return put_new(self, data, file_name, mime_type)

    def put_as(self, file_id: str, data: bytes) -> None:
        """Store ``data`` under an id the caller derived (a rendition beside its original), atomically:
        a concurrent writer of the same id leaves one whole file."""
        path = self._path(file_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(dir=path.parent, prefix=".upload-")
        try:
            with os.fdopen(handle, "wb") as temp:
                temp.write(data)
                temp.flush()
                os.fsync(temp.fileno())
            os.replace(temp_name, path)
        except BaseException:
            Path(temp_name).unlink(missing_ok=True)
            raise

    def get(self, file_id: str) -> bytes:
        """Raises NotFound when the file does not exist, InvalidArgument for a malformed id."""
        try:
            return self._path(file_id).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise NotFound.of("file", file_id) from None

    def size(self, file_id: str) -> int:
        try:
            return self._path(file_id).stat().st_size
        except (FileNotFoundError, NotADirectoryError):
            raise NotFound.of("file", file_id) from None

    def get_range(self, file_id: str, first: int, last: int) -> bytes:
        try:
            with self._path(file_id).open("rb") as handle:
                handle.seek(first)
                return handle.read(last - first + 1)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise NotFound.of("file", file_id) from None

    def delete(self, file_id: str) -> None:
        """Remove the file and its now empty directories; a missing file is not an error."""
        path = self._path(file_id)
        path.unlink(missing_ok=True)
        directory = path.parent
        while directory != self._root:
            try:
                directory.rmdir()
            except OSError:
                break
            directory = directory.parent

    def written_at(self, file_id: str) -> float | None:
        """When the file was last written (epoch seconds), or None when it does not exist."""
        try:
            return self._path(file_id).stat().st_mtime
        except (FileNotFoundError, NotADirectoryError):
            return None

    def file_ids(self) -> Iterator[str]:
        """Every stored file id (for integrity checks and orphan sweeps); temporary files are skipped."""
        for path in self._root.rglob("*"):
            if path.is_file() and not path.name.startswith(".upload-"):
                yield path.relative_to(self._root).as_posix()

    def _path(self, file_id: str) -> Path:
        """The path of a file id; raises InvalidArgument for an id that could leave the root."""
        path = self._root.joinpath(*check_file_id(file_id))
        if not path.resolve().is_relative_to(self._root):
            raise InvalidArgument(f"Invalid file id '{file_id}'")
        return path
