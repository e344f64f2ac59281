"""Export a whole repository to one zip archive, and import it into an empty database.

The archive holds ``manifest.json``, one ``tables/<name>.jsonl`` per table (one JSON object a row, in
primary key order) and ``files/<file id>`` for every stored file. Rows keep their ids and dates, so an
archive moves a repository between servers and between SQLite and PostgreSQL unchanged. Tables are
read from the schema itself, so a table added later is carried without changes here. Sessions and
login throttling are state of one deployment, not content, and stay behind.

The archive holds password hashes and the JWT signing key: keep it as safe as the database.
"""

from __future__ import annotations

import json
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, Table, insert, select
from tqdm import tqdm

from pressroom import __version__
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.storage.sql import schema
from pressroom.storage.sql.engine import transaction
from pressroom.storage.sql.install import create_schema, reset_sequences
from pressroom.storage.sql.search_index import rebuild as rebuild_search_index
from pressroom.storage.sql.sequences import bump_epoch

FORMAT = 1
# Not carried over: sessions and throttling, and the event log with its deliveries (an imported repository
# starts a log of its own; webhook subscriptions are configuration and travel).
VOLATILE = frozenset({"sessions", "login_failures", "events", "event_cursors", "webhook_deliveries"})
DERIVED = frozenset({"field_index", "search_text"})  # the search index: rebuilt on import, not archived
_BATCH = 1000


class ArchiveError(Exception):
    """The archive cannot be imported here (another format, unknown tables or columns)."""


def _tables() -> list[Table]:
    return [table for table in schema.metadata.sorted_tables if table.name not in VOLATILE | DERIVED]


def export_repository(
    engine: Engine, files: FileStore, target: Path, *, progress: bool = False
) -> dict[str, Any]:
    """Write the archive; returns its manifest (row count per table, file count)."""
    manifest: dict[str, Any] = {"format": FORMAT, "pressroom": __version__, "exported_at": int(time.time())}
    counts: dict[str, int] = {}
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        with transaction(engine, write=False) as connection:
            for table in tqdm(_tables(), desc="tables", unit="table", disable=not progress):
                query = select(table).order_by(*table.primary_key.columns)
                count = 0
                with archive.open(f"tables/{table.name}.jsonl", "w") as out:
                    for row in connection.execution_options(yield_per=_BATCH).execute(query):
                        out.write(orjson.dumps(row._asdict(), option=orjson.OPT_NON_STR_KEYS) + b"\n")
                        count += 1
                counts[table.name] = count
        file_ids = sorted(files.file_ids())
        for file_id in tqdm(file_ids, desc="files", unit="file", disable=not progress):
            archive.writestr(f"files/{file_id}", files.get(file_id))
        manifest["tables"] = counts
        manifest["files"] = len(file_ids)
        archive.writestr("manifest.json", json.dumps(manifest, indent=2))
    return manifest


def import_repository(
    engine: Engine, files: FileStore, source: Path, *, force: bool = False, progress: bool = False
) -> dict[str, Any]:
    """Load an archive into an empty database (``force``: wipe it first) and the file store.

    Raises ArchiveError for an archive this version cannot read, DatabaseNotEmpty for a database with
    data when not forced."""
    with zipfile.ZipFile(source) as archive:
        manifest = _manifest(archive)
        tables = {table.name: table for table in _tables()}
        unknown = sorted(set(manifest["tables"]) - set(tables))
        if unknown:
            raise ArchiveError(f"The archive has tables this version does not know: {', '.join(unknown)}")
        create_schema(engine, force=force)
        with transaction(engine, write=True) as connection:
            for table in tqdm(list(tables.values()), desc="tables", unit="table", disable=not progress):
                if table.name not in manifest["tables"]:
                    continue  # an archive of an older schema: the table stays empty
                for batch in _batches(archive, table):
                    connection.execute(insert(table), batch)
            if connection.dialect.name == "postgresql":
                reset_sequences(connection)
            rebuild_search_index(connection)
            bump_epoch(connection)  # servers already running on this database drop their caches
        names = [name for name in archive.namelist() if name.startswith("files/") and not name.endswith("/")]
        for name in tqdm(names, desc="files", unit="file", disable=not progress):
            files.put_as(name.removeprefix("files/"), archive.read(name))
    return manifest


def _manifest(archive: zipfile.ZipFile) -> dict[str, Any]:
    try:
        manifest: dict[str, Any] = json.loads(archive.read("manifest.json"))
    except (KeyError, ValueError) as error:
        raise ArchiveError("Not a Pressroom archive: manifest.json is missing or unreadable") from error
    if manifest.get("format") != FORMAT or not isinstance(manifest.get("tables"), dict):
        raise ArchiveError(f"Archive format {manifest.get('format')!r} is not format {FORMAT}")
    return manifest


def _batches(archive: zipfile.ZipFile, table: Table) -> Iterator[list[dict[str, Any]]]:
    columns = set(table.columns.keys())
    batch: list[dict[str, Any]] = []
    with archive.open(f"tables/{table.name}.jsonl") as lines:
        for number, line in enumerate(lines, start=1):
            row = orjson.loads(line)
            extra = set(row) - columns
            if extra:
                raise ArchiveError(f"Row {number} of table {table.name} has unknown columns: {sorted(extra)}")
            batch.append(row)
            if len(batch) == _BATCH:
                yield batch
                batch = []
    if batch:
        yield batch
