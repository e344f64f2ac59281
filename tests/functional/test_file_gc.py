"""Orphan files: an upload whose transaction fails is deleted with it, but one whose process dies before
the commit (or whose deletion fails) leaves a stored file nothing references; ``pressroom check`` lists
it and ``pressroom gc-files`` removes it once it is older than the grace period, while every referenced
file and every young file stays."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from pressroom.cli import main
from pressroom.config import Settings
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.content import SqlContentGateway
from tests.functional.content_support import content_create, field, post_content
from tests.functional.test_images import image_item, jpeg
from tests.helpers import Api

IMAGE_TYPE = 5  # the clean install's "image"


def failed_upload(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """A create whose transaction fails after its file was written (the database refusing the version),
    in a process that cannot delete the upload afterwards (as one killed at that moment would not)."""

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("injected: the transaction fails after the upload")

    with monkeypatch.context() as patch:
        patch.setattr(SqlContentGateway, "create_version", refuse)
        patch.setattr(LocalFileStore, "delete", refuse)
        value = {"fileName": "lost.jpg", "data": base64.b64encode(jpeg(8, 8)).decode()}
        response = post_content(
            api,
            content_create([field("name", "Lost"), field("image", value)], type_id=IMAGE_TYPE, parent="1/43"),
        )
    assert response.status_code == 500


def cli(settings: Settings, *args: str) -> int:
    os.environ["PRESSROOM_FILE_ROOT"] = str(settings.file_root)
    try:
        return main([*args, "--database-url", settings.database_url])
    finally:
        del os.environ["PRESSROOM_FILE_ROOT"]


def age(path: Path, seconds: float) -> None:
    stat = path.stat()
    os.utime(path, (stat.st_atime - seconds, stat.st_mtime - seconds))


def test_a_failed_upload_is_deleted_with_its_transaction(
    api: Api, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(SqlContentGateway, "create_version", lambda *_a, **_k: 1 / 0)
        value = {"fileName": "gone.jpg", "data": base64.b64encode(jpeg(8, 8)).decode()}
        body = content_create(
            [field("name", "Gone"), field("image", value)], type_id=IMAGE_TYPE, parent="1/43"
        )
        assert post_content(api, body).status_code == 500
    assert list(LocalFileStore(settings.file_root).file_ids()) == []


def test_gc_files_removes_the_orphan_of_a_failed_upload(
    api: Api, settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files = LocalFileStore(settings.file_root)
    _, kept = image_item(api, jpeg(16, 16))
    failed_upload(api, monkeypatch)
    orphans = sorted(set(files.file_ids()) - {kept["id"]})
    assert len(orphans) == 1 and orphans[0].endswith("/lost.jpg")
    capsys.readouterr()

    assert cli(settings, "check") == 1
    assert f"orphan-file: file {orphans[0]}: stored but nothing references it" in capsys.readouterr().out

    assert cli(settings, "gc-files") == 0  # younger than the default grace period: spared
    assert "0 unreferenced file(s)" in capsys.readouterr().out
    assert orphans[0] in set(files.file_ids())

    age(settings.file_root / orphans[0], 7200)
    assert cli(settings, "gc-files", "--dry-run") == 0
    assert orphans[0] in capsys.readouterr().out
    assert orphans[0] in set(files.file_ids())

    assert cli(settings, "gc-files", "--older-than", "3600") == 0
    assert capsys.readouterr().out.splitlines() == [
        orphans[0],
        "1 unreferenced file(s) older than 3600 s deleted.",
    ]
    assert set(files.file_ids()) == {kept["id"]}
    assert api.get(kept["uri"]).status_code == 200
    assert cli(settings, "check") == 0
    assert "no problems" in capsys.readouterr().out


def test_gc_files_spares_renditions_and_referenced_files(
    api: Api, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    _, value = image_item(api, jpeg(640, 480))
    assert (
        api.get(
            value["variations"]["small"]["href"],
            accept="application/vnd.ibexa.api.ContentImageVariation+json",
        ).status_code
        == 200
    )
    files = LocalFileStore(settings.file_root)
    before = set(files.file_ids())
    assert len(before) == 2  # the original and its rendition
    for file_id in before:
        age(settings.file_root / file_id, 7200)
    assert cli(settings, "gc-files", "--older-than", "0") == 0
    assert set(files.file_ids()) == before
    assert "0 unreferenced file(s)" in capsys.readouterr().out
