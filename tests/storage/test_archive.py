"""`pressroom export` / `pressroom import`: a repository moves from SQLite to PostgreSQL unchanged."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import stat
import struct
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import MetaData, Table, inspect, select
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.cli import main
from pressroom.config import Settings
from pressroom.domain.query import FullText
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.archive import ArchiveError, ArchiveLimits, export_repository, import_repository
from pressroom.storage.sql.criteria import compile_criterion
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.schema import content
from tests.functional.content_support import content_create, field, post_content, publish
from tests.helpers import Api, media


def png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 16), (0, 90, 200)).save(buffer, "PNG")
    return buffer.getvalue()


def fill(api: Api) -> dict[str, Any]:
    """Content of several kinds; returns what to compare after the move."""
    section = api.post(
        "/content/sections",
        body={"SectionInput": {"identifier": "archive_test", "name": "Archive"}},
        content_type=media("SectionInput"),
        accept=media("Section"),
    ).json()["Section"]
    folder = post_content(api, content_create([field("name", "Moved folder")])).json()["Content"]
    publish(api, folder["_id"])
    image = {"fileName": "pixel.png", "data": base64.b64encode(png()).decode()}
    created = post_content(
        api, content_create([field("name", "Pic"), field("image", image)], type_id=5, parent="1/43")
    )
    picture = created.json()["Content"]["_id"]
    publish(api, picture)
    return {"section": section["sectionId"], "folder": folder["_id"], "picture": picture}


def snapshot(api: Api, ids: dict[str, Any]) -> dict[str, Any]:
    paths = {
        "section": f"/content/sections/{ids['section']}",
        "folder": f"/content/objects/{ids['folder']}",
        "picture": f"/content/objects/{ids['picture']}",
        "versions": f"/content/objects/{ids['folder']}/versions",
        "location": "/content/locations/1/2",
        "users_group": "/content/objects/4",
    }
    accept = {"section": "Section", "versions": "VersionList", "location": "Location"}
    result = {}
    for key, path in paths.items():
        response = api.get(path, accept=media(accept.get(key, "Content")))
        assert response.status_code == 200, response.text
        result[key] = response.json()
    return result


def test_round_trip_from_sqlite_to_postgresql(
    tmp_path: Path, sqlite_url: str, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = Settings(database_url=sqlite_url, file_root=tmp_path / "source-files")
    with TestClient(create_app(source)) as client:
        api = Api(client)
        ids = fill(api)
        before = snapshot(api, ids)
        image_uri = next(
            f["fieldValue"]["uri"]
            for f in before["picture"]["Content"]["CurrentVersion"]["Version"]["Fields"]["field"]
            if f["fieldDefinitionIdentifier"] == "image"
        )
    archive = tmp_path / "repo.zip"
    assert run(monkeypatch, ["export", str(archive), "--database-url", sqlite_url], source.file_root) == 0
    with zipfile.ZipFile(archive) as zipped:
        names = zipped.namelist()
    assert "manifest.json" in names and "tables/content.jsonl" in names
    assert "tables/sessions.jsonl" not in names  # deployment state stays behind
    assert "tables/search_text.jsonl" not in names  # the search index is rebuilt on import
    assert any(name.startswith("files/") for name in names)

    imported = ["import", str(archive), "--database-url", postgres_url]
    assert run(monkeypatch, imported, tmp_path / "target-files") == 0
    target = Settings(database_url=postgres_url, file_root=tmp_path / "target-files")
    with TestClient(create_app(target, initialise_empty=False)) as client:
        api = Api(client)
        assert snapshot(api, ids) == before  # ids, dates, names, versions, locations: all kept
        assert api.get(image_uri).content == png()
        assert found(postgres_url, "moved folder") == [ids["folder"]]
        # The id counters moved with the rows: the next section gets the next id, as at the source.
        created = api.post(
            "/content/sections",
            body={"SectionInput": {"identifier": "after_import", "name": "After"}},
            content_type=media("SectionInput"),
            accept=media("Section"),
        )
        assert created.json()["Section"]["sectionId"] == ids["section"] + 1
    # Importing again into the now full database is refused unless forced.
    assert run(monkeypatch, imported, tmp_path / "target-files") == 2


def found(database_url: str, words: str) -> list[int]:
    engine = make_engine(database_url)
    query = select(content.c.id).where(compile_criterion(FullText(words)))
    with engine.connect() as connection:
        ids = list(connection.execute(query).scalars())
    engine.dispose()
    return ids


def run(monkeypatch: pytest.MonkeyPatch, args: list[str], file_root: Path) -> int:
    """``pressroom ARGS`` in process, with its file store at ``file_root``."""
    monkeypatch.setenv("PRESSROOM_FILE_ROOT", str(file_root))
    return main(args)


def test_archives_that_cannot_be_read_are_refused(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'new.db'}")
    files = LocalFileStore(tmp_path / "files")
    not_zip = tmp_path / "x.zip"
    not_zip.write_bytes(b"hello")
    with pytest.raises(zipfile.BadZipFile):
        import_repository(engine, files, not_zip)
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("manifest.json", '{"format": 99, "tables": {}}')
    with pytest.raises(ArchiveError, match="format"):
        import_repository(engine, files, other)
    newer = tmp_path / "newer.zip"
    with zipfile.ZipFile(newer, "w") as archive:
        archive.writestr("manifest.json", '{"format": 1, "tables": {"holograms": 0}}')
    with pytest.raises(ArchiveError, match="holograms"):
        import_repository(engine, files, newer)


# -- hostile archives (issue 23 item 7): refused whole, before anything is written ----------------------
FILE_ID = "ab/cd/0123456789abcdef0123456789abcdef/pic.png"
SMALL = ArchiveLimits(max_file_bytes=256 * 1024, ratio_floor_bytes=64 * 1024, max_ratio=50)
Entry = tuple[zipfile.ZipInfo | str, bytes]


def exported(tmp_path: Path, database_url: str) -> Path:
    """An archive of the repository at ``database_url`` with one file, made by ``export``."""
    files = LocalFileStore(tmp_path / "source-files")
    files.put_as(FILE_ID, png())
    engine = make_engine(database_url)
    export_repository(engine, files, tmp_path / "good.zip")
    engine.dispose()
    return tmp_path / "good.zip"


def hostile(good: Path, target: Path, extra: list[Entry], changed: dict[str, bytes] | None = None) -> Path:
    """``good`` with the entries ``changed``, then ``extra`` after its tables and files, and a manifest
    that counts what the archive holds (so only the hostile part can be refused)."""
    changed = changed or {}
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        manifest = json.loads(source.read("manifest.json"))
        for info in source.infolist():
            if info.filename != "manifest.json":
                data = changed.get(info.filename, source.read(info))
                out.writestr(info, data)
                if info.filename.startswith("tables/"):
                    manifest["tables"][info.filename[7:-6]] = data.count(b"\n")
        for entry, data in extra:
            out.writestr(entry, data)
        manifest["files"] = sum(1 for name in out.namelist() if name.startswith("files/"))
        out.writestr("manifest.json", json.dumps(manifest))
    return target


def symlink(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info


def declaring(archive: Path, name: str, size: int) -> None:
    """Make the entry ``name`` declare ``size`` bytes, in its local header and the central directory."""
    data = bytearray(archive.read_bytes())
    encoded = name.encode()
    for signature, name_at, size_at in ((b"PK\x03\x04", 30, 22), (b"PK\x01\x02", 46, 24)):
        at = data.index(signature)
        while data[at + name_at : at + name_at + len(encoded)] != encoded:
            at = data.index(signature, at + 4)
        struct.pack_into("<I", data, at + size_at, size)
    archive.write_bytes(bytes(data))


def dump(database_url: str) -> dict[str, list[str]]:
    """Every row of every table there is (alembic's too), as sorted text."""
    engine = make_engine(database_url)
    with engine.connect() as connection:
        tables = [
            Table(name, MetaData(), autoload_with=connection)
            for name in inspect(connection).get_table_names()
        ]
        rows = {table.name: sorted(map(str, connection.execute(select(table)))) for table in tables}
    engine.dispose()
    return rows


def refused(
    tmp_path: Path, database_url: str, archive: Path, message: str, limits: ArchiveLimits = SMALL
) -> None:
    """Importing ``archive`` with ``force`` over the repository at ``database_url`` raises ArchiveError
    with ``message``, and leaves its rows and its file store as they were."""
    files = LocalFileStore(tmp_path / "target-files")
    files.put_as("aa/bb/cc/kept.txt", b"kept")
    before = dump(database_url)
    engine = make_engine(database_url)
    with pytest.raises(ArchiveError, match=re.escape(message)):
        import_repository(engine, files, archive, force=True, limits=limits)
    engine.dispose()
    assert dump(database_url) == before
    assert list(files.file_ids()) == ["aa/bb/cc/kept.txt"]


BOMB = b"\x00" * (200 * 1024)  # deflates to some 200 bytes: a ratio near 1000, under the size limit
HOSTILE: dict[str, tuple[list[Entry], str]] = {
    "bomb": ([("files/ab/cd/ef/bomb.bin", BOMB)], "inflates 204800 bytes from"),
    "oversized": ([("files/ab/cd/ef/big.bin", os.urandom(300 * 1024))], "declares 307200 bytes, more than"),
    "slip": ([("files/../../evil.txt", b"x")], "'files/../../evil.txt' is not a name of"),
    "slip_up": ([("../evil.txt", b"x")], "'../evil.txt' is not a name of"),
    "slip_deep": ([("files/ab/../../../evil.txt", b"x")], "is not a name of"),
    "absolute": ([("/etc/evil.txt", b"x")], "'/etc/evil.txt' is not a name of"),
    "absolute_in_files": ([("files//etc/evil.txt", b"x")], "is not a name of"),
    "backslash": ([("files\\..\\..\\evil.txt", b"x")], "is not a name of"),
    "table_slip": ([("tables/../../evil.jsonl", b"{}\n")], "is not a name of"),
    "unknown": ([("notes.txt", b"x")], "'notes.txt' is not a name of"),
    "symlink": ([(symlink("files/ab/cd/ef/link.txt"), b"/etc/passwd")], "is a symbolic link"),
    "duplicate": ([(f"files/{FILE_ID}", b"other")], "more than once"),
}


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_entry_is_refused_and_nothing_is_written(
    tmp_path: Path, database_url: str, case: str
) -> None:
    """Even with ``force``, over a repository that holds data: the entry comes after every table and
    file, yet no row is replaced and no file written."""
    extra, message = HOSTILE[case]
    archive = hostile(exported(tmp_path, database_url), tmp_path / "hostile.zip", extra)
    refused(tmp_path, database_url, archive, message)


def test_an_archive_unpacking_past_the_total_limit_is_refused(tmp_path: Path, database_url: str) -> None:
    archive = hostile(exported(tmp_path, database_url), tmp_path / "big.zip", [])
    with zipfile.ZipFile(archive) as zipped:
        total = sum(info.file_size for info in zipped.infolist())
    limits = ArchiveLimits(max_total_bytes=total - 1)
    refused(tmp_path, database_url, archive, f"unpacks to {total} bytes, more than {total - 1}", limits)


@pytest.mark.parametrize("shift", [-100, 100], ids=["declares_less", "declares_more"])
def test_an_entry_holding_other_than_it_declares_is_refused(
    tmp_path: Path, database_url: str, shift: int
) -> None:
    """Declared sizes pass the limits, but the data inflates past them (or falls short)."""
    name = "files/ab/cd/ef/sized.bin"
    data = b"\x01" * 5000
    archive = hostile(exported(tmp_path, database_url), tmp_path / "lying.zip", [(name, data)])
    declaring(archive, name, len(data) + shift)
    refused(tmp_path, database_url, archive, f"Entry '{name}'")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (b'{"id": 99, "identifier": "x", "name": "X", "hologram": 1}\n', "has unknown columns: ['hologram']"),
        (b"[1, 2]\n", "is not a JSON object"),
        (b"{not json\n", "is not JSON"),
        (b'{"id": 1, "identifier": "again", "name": "Same id"}\n', "rows do not fit the database"),
    ],
    ids=["unknown_column", "not_object", "not_json", "duplicate_key"],
)
def test_a_bad_row_is_refused_and_nothing_is_written(
    tmp_path: Path, database_url: str, row: bytes, message: str
) -> None:
    """The last row of a table is bad; a duplicate key is found only by the database, after the old
    repository was dropped in the same transaction, which is undone whole."""
    good = exported(tmp_path, database_url)
    with zipfile.ZipFile(good) as zipped:
        sections = zipped.read("tables/sections.jsonl")
    archive = hostile(good, tmp_path / "rows.zip", [], {"tables/sections.jsonl": sections + row})
    refused(tmp_path, database_url, archive, message)


def test_a_manifest_that_miscounts_is_refused(tmp_path: Path, database_url: str) -> None:
    """A table cut short (or padded) no longer has the rows its manifest counts."""
    archive = tmp_path / "miscounted.zip"
    with zipfile.ZipFile(exported(tmp_path, database_url)) as source, zipfile.ZipFile(archive, "w") as out:
        manifest = json.loads(source.read("manifest.json"))
        rows = manifest["tables"]["sections"]
        manifest["tables"]["sections"] = rows + 1
        for info in source.infolist():
            out.writestr(
                info, json.dumps(manifest) if info.filename == "manifest.json" else source.read(info)
            )
    refused(tmp_path, database_url, archive, f"Table sections has {rows} rows; the manifest says {rows + 1}")


class FailingStore(LocalFileStore):
    """A file store whose disk fills after ``room`` files."""

    def __init__(self, root: Path, room: int) -> None:
        super().__init__(root)
        self.room = room

    def put_as(self, file_id: str, data: bytes) -> None:
        if self.room == 0:
            raise OSError(28, "No space left on device")
        self.room -= 1
        super().put_as(file_id, data)


def test_a_write_that_fails_midway_takes_back_its_rows_and_files(tmp_path: Path, database_url: str) -> None:
    """The store fails on the second file, after the first was written: the database is as it was and
    the first file is gone, while a file that was there before stays."""
    extra: list[Entry] = [("files/ab/cd/ef/second.txt", b"second")]
    archive = hostile(exported(tmp_path, database_url), tmp_path / "two.zip", extra)
    files = FailingStore(tmp_path / "target-files", room=1)
    files.put_as("aa/bb/cc/kept.txt", b"kept")
    files.room = 1
    before = dump(database_url)
    engine = make_engine(database_url)
    with pytest.raises(OSError, match="No space"):
        import_repository(engine, files, archive, force=True)
    engine.dispose()
    assert dump(database_url) == before
    assert list(files.file_ids()) == ["aa/bb/cc/kept.txt"]


def test_the_command_refuses_a_zip_slip_archive_with_the_database_untouched(
    tmp_path: Path, sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = hostile(exported(tmp_path, sqlite_url), tmp_path / "slip.zip", [("files/../../evil.txt", b"x")])
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    assert run(monkeypatch, ["import", str(archive), "--database-url", empty], tmp_path / "target-files") == 2
    assert dump(empty) == {}  # not even the schema
    assert "'files/../../evil.txt' is not a name of the archive's layout" in capsys.readouterr().err
    assert not (tmp_path / "target-files").exists() or not any((tmp_path / "target-files").iterdir())
    assert not (tmp_path / "evil.txt").exists()


def test_a_table_of_a_newer_schema_and_a_total_past_the_command_limit_are_refused(
    tmp_path: Path, sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = exported(tmp_path, sqlite_url)
    newer = hostile(good, tmp_path / "newer.zip", [("tables/holograms.jsonl", b"")])
    refused(tmp_path, sqlite_url, newer, "'tables/holograms.jsonl' is a table this version does not know")
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    command = ["import", str(good), "--database-url", empty, "--max-bytes", "1000"]
    assert run(monkeypatch, command, tmp_path / "target-files") == 2
    assert dump(empty) == {}
    assert "more than 1000" in capsys.readouterr().err
