"""Reading an archive that may be hostile: every entry is checked before anything is written.

:func:`check_archive` refuses, from the zip's directory alone, names that are not the archive's layout
(``manifest.json``, ``tables/<table>.jsonl``, ``files/<file id>``: no ``..``, no absolute name, no
backslash), symbolic links, encrypted and duplicate entries, and declared sizes or compression ratios
past :class:`ArchiveLimits`; it then reads every entry through the same bounded readers the import uses,
so an entry that inflates past what it declares, or fails its checksum, is refused too. Entries are
streamed: a table a line at a time (a line is bounded), a file whole but within ``max_file_bytes``.
"""

from __future__ import annotations

import json
import stat
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any, TypeVar

import orjson

from pressroom.domain.errors import InvalidArgument
from pressroom.storage.files import check_file_id

T = TypeVar("T")
FORMAT = 1
MANIFEST = "manifest.json"
TABLES = "tables/"
FILES = "files/"
_MiB = 1024 * 1024
_FLAG_ENCRYPTED = 0x1


class ArchiveError(Exception):
    """The archive cannot be imported here (another format, unknown tables or columns, unsafe entries)."""


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    """What an archive may unpack to. Sizes are uncompressed bytes; ``max_ratio`` (uncompressed to
    compressed) applies to entries above ``ratio_floor_bytes`` (small entries of repeated text compress
    well and harm nobody)."""

    max_entries: int = 10_000_000
    max_total_bytes: int = 64 * 1024 * _MiB
    max_table_bytes: int = 16 * 1024 * _MiB
    max_file_bytes: int = 32 * _MiB  # one file is held in memory to be stored
    max_line_bytes: int = 64 * _MiB  # one row of a table
    max_manifest_bytes: int = _MiB
    max_ratio: float = 200.0
    ratio_floor_bytes: int = _MiB


DEFAULT_LIMITS = ArchiveLimits()


def check_archive(
    archive: zipfile.ZipFile, known_tables: Mapping[str, set[str]], limits: ArchiveLimits
) -> dict[str, Any]:
    """The manifest of an archive found safe and readable; raises ArchiveError naming the first fault.
    ``known_tables``: the columns of each table this version imports."""
    entries = archive.infolist()
    if len(entries) > limits.max_entries:
        raise ArchiveError(f"The archive has {len(entries)} entries, more than {limits.max_entries}")
    total = 0
    for info in entries:
        _check_entry(info, known_tables, limits)
        total += info.file_size
    if total > limits.max_total_bytes:
        raise ArchiveError(f"The archive unpacks to {total} bytes, more than {limits.max_total_bytes}")
    names = [info.filename for info in entries]
    [(most_often, times)] = Counter(names).most_common(1) or [("", 0)]
    if times > 1:
        raise ArchiveError(f"The archive holds '{most_often}' more than once")
    manifest = _manifest(archive, limits)
    tables: dict[str, Any] = manifest["tables"]
    unknown = sorted(set(tables) - set(known_tables))
    if unknown:
        raise ArchiveError(f"The archive has tables this version does not know: {', '.join(unknown)}")
    present = {table for table in map(table_of, names) if table is not None}
    for name in sorted(set(tables) | present):
        if name not in tables or TABLES + name + ".jsonl" not in names:
            raise ArchiveError(f"Table {name} is not both in the manifest and in the archive")
        rows = sum(1 for _ in table_rows(archive, name, known_tables[name], limits))
        if rows != tables[name]:
            raise ArchiveError(f"Table {name} has {rows} rows; the manifest says {tables[name]}")
    stored = file_entries(archive)
    for info in stored:
        read_file(archive, info, limits)
    if manifest.get("files") != len(stored):
        raise ArchiveError(f"The archive has {len(stored)} files; the manifest says {manifest.get('files')}")
    return manifest


def table_of(name: str) -> str | None:
    """The table of an entry name ``tables/<table>.jsonl``, else None."""
    if name.startswith(TABLES) and name.endswith(".jsonl"):
        return name[len(TABLES) : -len(".jsonl")]
    return None


def file_entries(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    return [info for info in archive.infolist() if info.filename.startswith(FILES) and not info.is_dir()]


def table_rows(
    archive: zipfile.ZipFile, table: str, columns: set[str], limits: ArchiveLimits
) -> Iterator[dict[str, Any]]:
    """The rows of a table entry, a line at a time; ArchiveError for a line past ``max_line_bytes``,
    a line that is no JSON object or has columns the table lacks."""
    info = archive.getinfo(TABLES + table + ".jsonl")
    with _open(archive, info) as lines:
        read = 0
        number = 0
        while line := _read(info, lambda: lines.readline(limits.max_line_bytes + 1)):
            number += 1
            read += len(line)
            if len(line) > limits.max_line_bytes:
                too_long = f"longer than {limits.max_line_bytes} bytes"
                raise ArchiveError(f"Row {number} of table {table} is {too_long}")
            try:
                row = orjson.loads(line)
            except orjson.JSONDecodeError:
                raise ArchiveError(f"Row {number} of table {table} is not JSON") from None
            if not isinstance(row, dict):
                raise ArchiveError(f"Row {number} of table {table} is not a JSON object")
            extra = set(row) - columns
            if extra:
                raise ArchiveError(f"Row {number} of table {table} has unknown columns: {sorted(extra)}")
            yield row
    _check_length(info, read)


def read_file(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limits: ArchiveLimits) -> bytes:
    """The content of a ``files/`` entry (its declared size was checked against ``max_file_bytes``)."""
    with _open(archive, info) as stream:
        data = _read(info, lambda: stream.read(info.file_size + 1))
    _check_length(info, len(data))
    return data


def _check_entry(info: zipfile.ZipInfo, known_tables: Mapping[str, set[str]], limits: ArchiveLimits) -> None:
    name = info.filename
    shown = name.encode("unicode_escape").decode("ascii")[:120]
    if stat.S_ISLNK(info.external_attr >> 16):
        raise ArchiveError(f"Entry '{shown}' is a symbolic link")
    if info.flag_bits & _FLAG_ENCRYPTED:
        raise ArchiveError(f"Entry '{shown}' is encrypted")
    if info.is_dir():
        limit = 0
        safe = name in (TABLES, FILES) or (name.startswith(FILES) and _is_file_id(name[len(FILES) : -1]))
    elif name.startswith(FILES):
        limit, safe = limits.max_file_bytes, _is_file_id(name[len(FILES) :])
    elif name == MANIFEST:
        limit, safe = limits.max_manifest_bytes, True
    else:
        limit, safe = limits.max_table_bytes, table_of(name) in known_tables
        table = table_of(name)
        if not safe and table is not None and _is_file_id(table):  # a table of a newer schema
            raise ArchiveError(f"Entry '{shown}' is a table this version does not know")
    if not safe:
        raise ArchiveError(f"Entry '{shown}' is not a name of the archive's layout")
    if info.file_size > limit:
        raise ArchiveError(f"Entry '{shown}' declares {info.file_size} bytes, more than {limit}")
    if info.file_size > limits.ratio_floor_bytes and info.file_size > limits.max_ratio * info.compress_size:
        raise ArchiveError(
            f"Entry '{shown}' inflates {info.file_size} bytes from {info.compress_size}: more than "
            f"{limits.max_ratio:g} times"
        )


def _is_file_id(file_id: str) -> bool:
    try:
        check_file_id(file_id)
    except InvalidArgument:
        return False
    return True


def _manifest(archive: zipfile.ZipFile, limits: ArchiveLimits) -> dict[str, Any]:
    try:
        info = archive.getinfo(MANIFEST)
    except KeyError:
        raise ArchiveError("Not a Pressroom archive: manifest.json is missing") from None
    with _open(archive, info) as stream:
        data = _read(info, lambda: stream.read(limits.max_manifest_bytes + 1))
    _check_length(info, len(data))
    try:
        manifest = json.loads(data)
    except ValueError:
        raise ArchiveError("Not a Pressroom archive: manifest.json is unreadable") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else None
        raise ArchiveError(f"Archive format {found!r} is not format {FORMAT}")
    tables = manifest.get("tables")
    if not isinstance(tables, dict) or not all(type(count) is int for count in tables.values()):
        raise ArchiveError("The manifest's tables are not a map of table names to row counts")
    return manifest


@contextmanager
def _open(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Iterator[IO[bytes]]:
    stream = _read(info, lambda: archive.open(info))
    try:
        yield stream
    finally:
        stream.close()


def _read(info: zipfile.ZipInfo, step: Callable[[], T]) -> T:
    """``step()``, with the zip module's complaints about a damaged entry made ArchiveErrors."""
    try:
        return step()
    except (zipfile.BadZipFile, EOFError, zlib.error, NotImplementedError) as error:
        raise ArchiveError(f"Entry '{info.filename}' is damaged: {error}") from None


def _check_length(info: zipfile.ZipInfo, actual: int) -> None:
    if actual != info.file_size:
        raise ArchiveError(f"Entry '{info.filename}' holds {actual} bytes; it declares {info.file_size}")
