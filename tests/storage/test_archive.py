"""`pressroom export` / `pressroom import`: a repository moves from SQLite to PostgreSQL unchanged."""

from __future__ import annotations

import base64
import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import select
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.cli import main
from pressroom.config import Settings
from pressroom.domain.query import FullText
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.archive import ArchiveError, import_repository
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
