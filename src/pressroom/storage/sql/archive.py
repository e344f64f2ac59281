"""Export a whole repository to one zip archive, and import it into an empty database.

The archive holds ``manifest.json``, one ``tables/<name>.jsonl`` per table (one JSON object a row, in
primary key order) and ``files/<file id>`` for every stored file. Rows keep their ids and dates, so an
archive moves a repository between servers and between SQLite and PostgreSQL unchanged. Tables are
read from the schema itself, so a table added later is carried without changes here. Sessions and
login throttling are state of one deployment, not content, and stay behind.

The archive holds password hashes and the JWT signing key: keep it as safe as the database.
"""

from __future__ import annotations

import itertools
import json
import time
import zipfile
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, Table, func, insert, select, text
from sqlalchemy.exc import DataError, IntegrityError

from pressroom import __version__
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.progress import NO_PROGRESS, Advance, Progress
from pressroom.storage.sql import schema
from pressroom.storage.sql.archive_check import (
    DEFAULT_LIMITS,
    FILES,
    FORMAT,
    ArchiveError,
    ArchiveLimits,
    check_archive,
    file_entries,
    read_file,
    table_rows,
)
from pressroom.storage.sql.engine import transaction
from pressroom.storage.sql.install import record_file_store, replace_schema, reset_sequences
from pressroom.storage.sql.search_index import rebuild as rebuild_search_index
from pressroom.storage.sql.sequences import bump_epoch

__all__ = ["ArchiveError", "ArchiveLimits", "export_repository", "import_repository"]

# Not carried over: sessions and throttling, and the event log with its deliveries (an imported repository
# starts a log of its own; webhook subscriptions are configuration and travel). OAuth clients travel too
# (configuration, their secrets only as hashes); the grants and keys do not: an imported repository signs
# with keys of its own, and every client asks its users again.
VOLATILE = frozenset(
    {
        "sessions", "login_failures", "events", "event_cursors", "webhook_deliveries",
        "oauth_codes", "oauth_refresh_tokens", "oauth_revocations", "oauth_keys",
    }
)  # fmt: skip
DERIVED = frozenset({"field_index", "search_text"})  # the search index: rebuilt on import, not archived
_BATCH = 1000


def _tables() -> list[Table]:
    return [table for table in schema.metadata.sorted_tables if table.name not in VOLATILE | DERIVED]


def export_repository(
    engine: Engine, files: FileStore, target: Path, *, progress: Progress = NO_PROGRESS
) -> dict[str, Any]:
    """Write the archive; returns its manifest (row count per table, file count). ``progress`` sees
    two phases: rows (of every table) and file bytes."""
    manifest: dict[str, Any] = {"format": FORMAT, "pressroom": __version__, "exported_at": int(time.time())}
    counts: dict[str, int] = {}
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        # PostgreSQL streams rows through a server-side cursor, which needs a transaction: one snapshot
        # of every table, read-only. SQLite reads in autocommit (a transaction there would lock writers).
        postgresql = engine.dialect.name == "postgresql"
        with transaction(engine, write=postgresql) as connection:
            if postgresql:
                connection.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
            count = select(func.count())
            total = sum(connection.execute(count.select_from(t)).scalar_one() for t in _tables())
            with progress.phase("rows", total, "rows") as advance:
                for table in _tables():
                    counts[table.name] = _export_table(connection, table, archive, advance)
        file_ids = sorted(files.file_ids())
        with progress.phase("file bytes", None, "B") as advance:
            for file_id in file_ids:
                data = files.get(file_id)
                archive.writestr(f"files/{file_id}", data)
                advance(len(data))
        manifest["tables"] = counts
        manifest["files"] = len(file_ids)
        archive.writestr("manifest.json", json.dumps(manifest, indent=2))
    return manifest


def _export_table(connection: Connection, table: Table, archive: zipfile.ZipFile, advance: Advance) -> int:
    query = select(table).order_by(*table.primary_key.columns)
    count = 0
    with archive.open(f"tables/{table.name}.jsonl", "w") as out:
        for rows in connection.execution_options(yield_per=_BATCH).execute(query).partitions():
            lines = (orjson.dumps(row._asdict(), option=orjson.OPT_NON_STR_KEYS) + b"\n" for row in rows)
            out.write(b"".join(lines))
            count += len(rows)
            advance(len(rows))
    return count


def import_repository(
    engine: Engine,
    files: FileStore,
    source: Path,
    *,
    force: bool = False,
    progress: Progress = NO_PROGRESS,
    limits: ArchiveLimits = DEFAULT_LIMITS,
    file_store: str | None = None,
) -> dict[str, Any]:
    """Load an archive into an empty database (``force``: wipe it first) and the file store, all or
    nothing: the archive is checked whole (archive_check.py) before anything is written, the database
    is replaced in one transaction, and the files it wrote go again should that transaction fail.

    The repository records ``file_store`` as its file store (None: no record), not the source's.
    ``progress`` sees three phases: rows, the search index (rebuilt, not archived) and file bytes.

    Raises ArchiveError for an archive this version cannot read or will not trust, DatabaseNotEmpty for
    a database with data when not forced."""
    tables = {table.name: table for table in _tables()}
    with zipfile.ZipFile(source) as archive:
        manifest = check_archive(archive, {n: set(t.columns.keys()) for n, t in tables.items()}, limits)
        written: list[str] = []
        try:
            with transaction(engine, write=True) as connection:
                replace_schema(connection, force=force)
                with progress.phase("rows", sum(manifest["tables"].values()), "rows") as advance:
                    for table in tables.values():
                        if table.name in manifest["tables"]:  # else an archive of an older schema: left empty
                            rows = table_rows(archive, table.name, set(table.columns.keys()), limits)
                            while batch := list(itertools.islice(rows, _BATCH)):
                                connection.execute(insert(table), batch)
                                advance(len(batch))
                record_file_store(connection, file_store)
                if connection.dialect.name == "postgresql":
                    reset_sequences(connection)
                rebuild_search_index(connection, progress=progress)
                bump_epoch(connection)  # servers already running on this database drop their caches
                entries = file_entries(archive)
                with progress.phase("file bytes", sum(i.file_size for i in entries), "B") as advance:
                    for info in entries:
                        file_id = info.filename.removeprefix(FILES)
                        if files.written_at(file_id) is None:
                            written.append(file_id)
                        files.put_as(file_id, read_file(archive, info, limits))
                        advance(info.file_size)
        except (IntegrityError, DataError) as error:  # rows that do not fit the schema: the archive's fault
            _delete(files, written)
            raise ArchiveError(f"The archive's rows do not fit the database: {error.orig}") from None
        except BaseException:
            _delete(files, written)
            raise
    return manifest


def _delete(files: FileStore, file_ids: list[str]) -> None:
    for file_id in file_ids:
        files.delete(file_id)
