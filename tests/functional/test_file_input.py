"""Bad file-carrying field values over HTTP (issue 11 "bad input", issue 14 "../ in file names"), for each
file field type: a 400 ErrorMessage naming the field (413 for a body past the limit, which is refused before
it is read), and nothing written: no content item, and no new file in the file store."""

from __future__ import annotations

import struct
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import Settings
from pressroom.services.file import write_releasing_files
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.conftest import make_settings
from tests.functional import content_types_support as types
from tests.functional.content_support import content_create, field, post_content
from tests.functional.file_support import (
    FILE_FIELD_TYPES,
    create_item,
    file_type,
    png,
    target_value,
    upload,
)
from tests.functional.support import error_message
from tests.helpers import Api, media, xml

BAD_NAMES = [
    "../x.png",
    "a/b.png",
    "a\\b.png",
    "/x.png",
    "a\x00b.png",
    "a\r\nb.png",
    "..",
    "x" * 252 + ".png",
]


def _png_claiming(width: int, height: int) -> bytes:
    """A small PNG whose header claims ``width`` x ``height`` pixels (a decompression bomb's shape)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\x00" * 1024)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def _content_of(field_type: str) -> bytes:
    return png() if field_type == "ezimage" else b"some file content"


class Written:
    """What the repository holds: the stored file ids, and whether an item of a remote id exists."""

    def __init__(self, api: Api, settings: Settings) -> None:
        self.api = api
        self.files = LocalFileStore(settings.file_root)
        self.before = set(self.files.file_ids())

    def assert_nothing_since(self, remote_id: str) -> None:
        assert set(self.files.file_ids()) == self.before
        found = self.api.get(f"/content/objects?remoteId={remote_id}", accept=media("ContentInfo"))
        assert found.status_code == 404, found.text


def _refused(response: httpx.Response, identifier: str = "target") -> list[dict[str, str]]:
    """Assert a 400 ErrorMessage with field errors of ``identifier`` only; returns its errors."""
    body = error_message(response, 400)
    assert body["errorDescription"] == "Content fields did not validate"
    failed = body["errorDetails"]["fields"]
    assert {f["_fieldIdentifier"] for f in failed} == {identifier}
    errors: list[dict[str, str]] = failed[0]["errors"]
    return errors


def _create_refused(api: Api, settings: Settings, type_id: int, value: Any) -> list[dict[str, str]]:
    written = Written(api, settings)
    remote_id = uuid.uuid4().hex
    errors = _refused(create_item(api, type_id, value, remoteId=remote_id))
    written.assert_nothing_since(remote_id)
    return errors


@pytest.mark.parametrize("field_type", FILE_FIELD_TYPES)
@pytest.mark.parametrize(
    "name", BAD_NAMES, ids=["dotdot", "slash", "backslash", "absolute", "nul", "crlf", "dots", "long"]
)
def test_a_file_name_that_is_not_a_bare_name_is_refused(
    api: Api, settings: Settings, field_type: str, name: str
) -> None:
    type_id = file_type(api, field_type)
    [error] = _create_refused(api, settings, type_id, upload(name, _content_of(field_type)))
    assert error["type"] == "InvalidValue"
    assert error["message"].startswith("fieldValue 'fileName' ")
    assert "must be a bare file name of at most 255 characters" in error["message"]


@pytest.mark.parametrize("field_type", FILE_FIELD_TYPES)
@pytest.mark.parametrize("size", [-1, "many"])
def test_a_file_size_that_is_not_a_count_of_bytes_is_refused(
    api: Api, settings: Settings, field_type: str, size: Any
) -> None:
    data = _content_of(field_type)
    [error] = _create_refused(api, settings, file_type(api, field_type), upload("f.png", data, fileSize=size))
    assert error["type"] == "InvalidValue"
    assert "fileSize" in error["message"]


@pytest.mark.parametrize("fmt", ["json", "xml"])
@pytest.mark.parametrize("field_type", FILE_FIELD_TYPES)
def test_a_declared_file_size_is_a_hint_and_the_size_of_the_data_is_kept(
    api: Api, field_type: str, fmt: str
) -> None:
    """Issue 25: clients send a wrong (often a fixed) ``fileSize`` with the data; the upload goes in and
    the field holds and shows the real size."""
    data = _content_of(field_type)
    type_id = file_type(api, field_type)
    for given in (len(data) + 1, 10**9, 0):
        body = content_create(
            [field("title", "T"), field("target", upload("f.png", data, fileSize=given))], type_id=type_id
        )
        response = post_content(api, body, fmt, accept="Content")
        assert response.status_code == 201, response.text
        content_id = int(response.headers["Location"].rsplit("/", 1)[1])
        shown = api.get(f"/content/objects/{content_id}/versions/1", accept=media("Version", fmt))
        assert shown.status_code == 200, shown.text
        if fmt == "json":
            assert target_value(api, content_id)["fileSize"] == len(data)
        else:
            [size] = xml(shown).xpath(
                "//field[fieldDefinitionIdentifier='target']/fieldValue/value[@key='fileSize']/text()"
            )
            assert int(size) == len(data)
        served = api.get(target_value(api, content_id)["uri"])
        assert served.content == data


@pytest.mark.parametrize("field_type", FILE_FIELD_TYPES)
def test_a_true_file_size_is_accepted(api: Api, field_type: str) -> None:
    data = _content_of(field_type)
    response = create_item(api, file_type(api, field_type), upload("f.png", data, fileSize=len(data)))
    assert response.status_code == 201, response.text


@pytest.mark.parametrize("field_type", FILE_FIELD_TYPES)
def test_a_reference_with_a_lying_file_size_or_to_no_stored_file_is_refused(
    api: Api, settings: Settings, field_type: str
) -> None:
    type_id = file_type(api, field_type)
    data = _content_of(field_type)
    first = create_item(api, type_id, upload("f.png", data))
    assert first.status_code == 201, first.text
    file_id = next(iter(LocalFileStore(settings.file_root).file_ids()))
    [lying] = _create_refused(api, settings, type_id, {"inputUri": file_id, "fileSize": len(data) + 1})
    assert (
        lying["message"]
        == f"fieldValue 'fileSize' {len(data) + 1} is not the size of the file ({len(data)} bytes)"
    )
    [missing] = _create_refused(api, settings, type_id, {"inputUri": "ab/cd/ef/none.png"})
    assert missing["message"] == "fieldValue 'inputUri' 'ab/cd/ef/none.png' is not a stored file"


@pytest.mark.parametrize("field_type", FILE_FIELD_TYPES)
@pytest.mark.parametrize("mime_type", ["text/html\r\nSet-Cookie: a=b", "nonsense", "text/", "a b/c"])
def test_a_mime_type_that_is_not_a_media_type_is_refused(
    api: Api, settings: Settings, field_type: str, mime_type: str
) -> None:
    value = upload("f.png", _content_of(field_type), mimeType=mime_type)
    [error] = _create_refused(api, settings, file_type(api, field_type), value)
    assert error["message"].startswith("fieldValue 'mimeType' ")


@pytest.mark.parametrize("field_type", FILE_FIELD_TYPES)
def test_a_file_over_the_field_maximum_is_refused(api: Api, settings: Settings, field_type: str) -> None:
    limit = {"validatorConfiguration": {"FileSizeValidator": {"maxFileSize": 1}}}
    type_id = file_type(api, field_type, **limit)
    data = _content_of(field_type) + b"\x00" * (1024 * 1024)  # trailing bytes: still a readable PNG
    errors = _create_refused(api, settings, type_id, upload("big.png", data))
    assert {"type": "FileSizeValidator", "message": "The file size cannot exceed 1 megabyte."} in errors


@pytest.fixture
def small_body_api(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[Api, Settings]]:
    settings = make_settings(sqlite_url, tmp_path, max_body_bytes=64 * 1024)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        yield Api(client), settings


@pytest.mark.parametrize("field_type", FILE_FIELD_TYPES)
def test_an_upload_past_the_body_limit_is_413_and_writes_nothing(
    small_body_api: tuple[Api, Settings], field_type: str
) -> None:
    api, settings = small_body_api
    type_id = file_type(api, field_type)
    written = Written(api, settings)
    remote_id = uuid.uuid4().hex
    data = _content_of(field_type) + b"\x00" * (64 * 1024)
    response = create_item(api, type_id, upload("big.png", data), remoteId=remote_id)
    body = error_message(response, 413)
    assert body["errorDescription"] == "The request body exceeds 65536 bytes"
    written.assert_nothing_since(remote_id)


@pytest.mark.parametrize("data", [b"plain text, no image", _png_claiming(50_000, 50_000), png()[:40]])
def test_an_image_field_refuses_what_is_not_a_readable_image(
    api: Api, settings: Settings, data: bytes
) -> None:
    """Not an image, a decompression bomb (past the pixel bound), a truncated header."""
    errors = _create_refused(api, settings, file_type(api, "ezimage"), upload("x.png", data))
    assert {"type": "ImageValidator", "message": "A valid image file is required."} in errors


def test_a_bomb_under_the_pixel_limit_warning_is_refused_too(api: Api, settings: Settings) -> None:
    """Under twice Pillow's own bound, where Pillow only warns: the pixel bound refuses it."""
    data = _png_claiming(10_000, 10_000)  # 1e8 pixels: over 89.5 million, under 179 million
    errors = _create_refused(api, settings, file_type(api, "ezimage"), upload("x.png", data))
    assert {"type": "ImageValidator", "message": "A valid image file is required."} in errors


def test_an_upload_goes_when_a_later_field_of_the_same_write_is_refused(api: Api, settings: Settings) -> None:
    """The upload of ``target`` is written before ``other``'s reference is found missing: it is deleted."""
    fields = [
        types.field("title"),
        types.field("target", "ezbinaryfile"),
        types.field("other", "ezbinaryfile"),
    ]
    type_id = types.new_type(api, fields=fields)["id"]
    written = Written(api, settings)
    remote_id = uuid.uuid4().hex
    values = [
        field("title", "T"),
        field("target", upload("kept.txt", b"uploaded first")),
        field("other", {"inputUri": "ab/cd/ef/none.txt"}),
    ]
    response = post_content(api, content_create(values, type_id=type_id, remoteId=remote_id))
    [error] = _refused(response, "other")
    assert error["message"] == "fieldValue 'inputUri' 'ab/cd/ef/none.txt' is not a stored file"
    written.assert_nothing_since(remote_id)


def test_uploads_of_a_write_that_fails_are_deleted_and_found_files_kept(api: Api, settings: Settings) -> None:
    """The database refuses the write after its files were stored: the uploads go, the rest stays."""
    response = create_item(api, file_type(api, "ezbinaryfile"), upload("old.txt", b"already there"))
    assert response.status_code == 201, response.text
    files = LocalFileStore(settings.file_root)
    [existing] = files.file_ids()
    store = SqlStore(make_engine(settings.database_url))
    with pytest.raises(RuntimeError), write_releasing_files(store, files) as tx:
        uploaded = files.put(b"new", "new.txt", "text/plain")
        tx.content.uploaded_files.add(uploaded.id)
        raise RuntimeError("the transaction fails after the upload")
    assert list(files.file_ids()) == [existing]


def test_an_overlong_remote_id_beside_an_upload_leaves_no_file_on_postgresql(
    database_url: str, tmp_path: Path
) -> None:
    """On PostgreSQL the INSERT of the item fails after the upload was stored (remote ids are 100
    characters at most): the upload goes with the transaction. SQLite stores any length."""
    settings = make_settings(database_url, tmp_path)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        api = Api(client)
        type_id = file_type(api, "ezbinaryfile")
        written = Written(api, settings)
        remote_id = "r" * 200 + uuid.uuid4().hex
        values = [field("title", "T"), field("target", upload("f.txt", b"content"))]
        response = post_content(api, content_create(values, type_id=type_id, remoteId=remote_id))
        if response.status_code == 400:
            assert response.json()["ErrorMessage"]["errorDescription"] == (
                "A text in the request is longer than the repository stores"
            )
            written.assert_nothing_since(remote_id)
        else:
            assert response.status_code == 201, response.text
            assert database_url.startswith("sqlite")
            assert len(set(written.files.file_ids()) - written.before) == 1
