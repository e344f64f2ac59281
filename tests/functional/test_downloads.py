"""Downloads of stored files (the ``uri`` of ezbinaryfile, ezmedia and ezimage values, issue 11; issue 14
"served files"): what a browser may show inline and what it must download, the headers that keep a stored
page from running as our origin, file names in Content-Disposition, and range requests on the local and the
S3 store. The rule itself is in src/pressroom/rest/handlers/files.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from tests.conftest import make_settings, running_server
from tests.functional.content_support import publish
from tests.functional.file_support import create_item, file_type, png, target_value, upload
from tests.functional.support import error_message
from tests.helpers import Api, media

SANDBOX = "sandbox; default-src 'none'; img-src 'self'; media-src 'self'"
SCRIPTED = [
    ("x.html", b"<html><body><script>alert(document.cookie)</script></body></html>", "text/html"),
    ("x.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "image/svg+xml"),
    ("x.xml", b'<x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>', "application/xml"),
    ("x.js", b"alert(document.cookie)", "text/javascript"),
    ("x.pdf", b"%PDF-1.4 /OpenAction << /JS (app.alert(1)) >>", "application/pdf"),
    ("x.xhtml", b'<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>', ""),
]
CLIP = bytes(range(256)) * 40  # 10240 bytes of "video"


def _stored_file(api: Api, field_type: str, value: dict[str, Any]) -> dict[str, Any]:
    """Create (and publish) an item of a one-file type; returns its ``target`` value."""
    response = create_item(api, file_type(api, field_type), value)
    assert response.status_code == 201, response.text
    content_id = response.json()["Content"]["_id"]
    publish(api, content_id)
    stored: dict[str, Any] = target_value(api, content_id)
    return stored


def _assert_safe_headers(response: httpx.Response) -> None:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["content-security-policy"] == SANDBOX
    assert response.headers["accept-ranges"] == "bytes"


@pytest.mark.parametrize("field_type", ["ezbinaryfile", "ezmedia"])
@pytest.mark.parametrize(("name", "data", "mime_type"), SCRIPTED, ids=[s[0] for s in SCRIPTED])
def test_a_stored_page_or_script_is_always_an_attachment(
    api: Api, field_type: str, name: str, data: bytes, mime_type: str
) -> None:
    extra = {"mimeType": mime_type} if mime_type else {}
    value = _stored_file(api, field_type, upload(name, data, **extra))
    response = api.get(value["uri"])
    assert (response.status_code, response.content) == (200, data)
    if mime_type:
        assert response.headers["content-type"] == mime_type
    assert (
        response.headers["content-disposition"] == f"attachment; filename=\"{name}\"; filename*=UTF-8''{name}"
    )
    _assert_safe_headers(response)


@pytest.mark.parametrize("field_type", ["ezbinaryfile", "ezmedia"])
def test_a_page_declared_as_an_image_is_served_as_that_image_and_never_sniffed(
    api: Api, field_type: str
) -> None:
    """The declared type is what goes out: with nosniff, a browser shows a broken image, not a page."""
    value = _stored_file(api, field_type, upload("x.html", SCRIPTED[0][1], mimeType="image/png"))
    response = api.get(value["uri"])
    assert response.headers["content-type"] == "image/png"
    assert response.headers["content-disposition"].startswith("inline;")
    _assert_safe_headers(response)


@pytest.mark.parametrize(("name", "data"), [(s[0], s[1]) for s in SCRIPTED[:3]])
def test_an_image_field_refuses_pages_and_svg_as_not_an_image(api: Api, name: str, data: bytes) -> None:
    response = create_item(api, file_type(api, "ezimage"), upload(name, data, mimeType="image/svg+xml"))
    body = error_message(response, 400)
    [failed] = body["errorDetails"]["fields"]
    assert failed["_fieldIdentifier"] == "target"
    assert {"type": "ImageValidator", "message": "A valid image file is required."} in failed["errors"]


@pytest.mark.parametrize(
    ("field_type", "name", "data", "mime_type"),
    [
        ("ezimage", "photo.png", png(), "image/png"),
        ("ezmedia", "clip.mp4", CLIP, "video/mp4"),
        ("ezmedia", "song.ogg", CLIP, "audio/ogg"),
        ("ezbinaryfile", "readme.txt", b"plain words", "text/plain"),
        ("ezbinaryfile", "picture.gif", b"GIF89a...", "image/gif"),
    ],
)
def test_raster_images_media_and_plain_text_are_inline(
    api: Api, field_type: str, name: str, data: bytes, mime_type: str
) -> None:
    value = _stored_file(api, field_type, upload(name, data, mimeType=mime_type))
    response = api.get(value["uri"])
    assert (response.status_code, response.content) == (200, data)
    assert response.headers["content-type"] == mime_type
    assert response.headers["content-disposition"] == f"inline; filename=\"{name}\"; filename*=UTF-8''{name}"
    _assert_safe_headers(response)


def test_an_image_rendition_is_served_inline_under_its_own_type(api: Api) -> None:
    value = _stored_file(api, "ezimage", upload("big.png", png(400, 300)))
    variation = api.get(value["variations"]["small"]["href"], accept=media("ContentImageVariation"))
    response = api.get(variation.json()["ContentImageVariation"]["uri"])
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.headers["content-disposition"].startswith('inline; filename="big.png"')
    _assert_safe_headers(response)


def test_an_unknown_or_malformed_stored_media_type_goes_out_as_an_octet_stream_attachment(api: Api) -> None:
    value = _stored_file(api, "ezbinaryfile", upload("data.zzunknown", b"\x00\x01"))
    response = api.get(value["uri"])
    assert response.headers["content-type"] == "application/octet-stream"
    assert response.headers["content-disposition"].startswith("attachment;")


def test_the_download_name_is_the_uploaded_name_in_both_rfc_6266_forms(api: Api) -> None:
    name = 'Rapport "final"; été 2024.pdf'
    value = _stored_file(api, "ezbinaryfile", upload(name, b"%PDF-1.4", mimeType="application/pdf"))
    response = api.get(value["uri"])
    assert response.headers["content-disposition"] == (
        'attachment; filename="Rapport _final_; _t_ 2024.pdf"; '
        "filename*=UTF-8''Rapport%20%22final%22%3B%20%C3%A9t%C3%A9%202024.pdf"
    )


# -- ranges ------------------------------------------------------------------------------------------


@pytest.fixture(params=["local", "s3"])
def store_api(request: pytest.FixtureRequest, sqlite_url: str, tmp_path: Path) -> Iterator[Api]:
    """The app on the local store and on an S3 server (moto)."""
    store = request.getfixturevalue("s3_url") if request.param == "s3" else ""
    settings = make_settings(sqlite_url, tmp_path, file_store=store)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        yield Api(client)


@pytest.fixture
def clip_uri(store_api: Api) -> str:
    uri: str = _stored_file(store_api, "ezmedia", upload("clip.webm", CLIP, mimeType="video/webm"))["uri"]
    return uri


@pytest.mark.parametrize(
    ("header", "first", "last"),
    [
        ("bytes=0-0", 0, 0),
        ("bytes=100-299", 100, 299),
        ("bytes=10000-", 10000, 10239),
        ("bytes=-240", 10000, 10239),
        ("bytes=10200-99999", 10200, 10239),  # a last byte past the end stops at the end
        ("bytes=-99999", 0, 10239),  # a suffix longer than the file is all of it
        ("BYTES=5-6", 5, 6),
    ],
)
def test_one_range_is_206_with_content_range(
    store_api: Api, clip_uri: str, header: str, first: int, last: int
) -> None:
    response = store_api.get(clip_uri, headers={"Range": header})
    assert response.status_code == 206, response.text
    assert response.content == CLIP[first : last + 1]
    assert response.headers["content-range"] == f"bytes {first}-{last}/{len(CLIP)}"
    assert response.headers["content-length"] == str(last - first + 1)
    assert response.headers["content-type"] == "video/webm"
    assert response.headers["content-disposition"].startswith("inline;")
    _assert_safe_headers(response)


@pytest.mark.parametrize("header", ["bytes=10240-", "bytes=20000-30000", "bytes=-0"])
def test_a_range_past_the_end_is_416_with_the_size(store_api: Api, clip_uri: str, header: str) -> None:
    response = store_api.get(clip_uri, headers={"Range": header}, accept=media("ErrorMessage"))
    body = error_message(response, 416)
    assert body["errorDescription"] == "The requested range is not satisfiable: the file has 10240 bytes"
    assert response.headers["content-range"] == "bytes */10240"


@pytest.mark.parametrize(
    "header",
    ["bytes=0-1,5-6", "bytes=5-2", "items=0-5", "bytes=a-b", "bytes=-", "bytes 0-5", "bytes=0-5 junk"],
)
def test_several_or_malformed_ranges_get_the_whole_file(store_api: Api, clip_uri: str, header: str) -> None:
    response = store_api.get(clip_uri, headers={"Range": header})
    assert (response.status_code, response.content) == (200, CLIP)
    assert "content-range" not in response.headers
    assert response.headers["accept-ranges"] == "bytes"


def test_if_range_with_another_validator_gets_the_whole_file(store_api: Api, clip_uri: str) -> None:
    etag = store_api.get(clip_uri).headers["etag"]
    same = store_api.get(clip_uri, headers={"Range": "bytes=0-9", "If-Range": etag})
    assert (same.status_code, same.content) == (206, CLIP[:10])
    other = store_api.get(clip_uri, headers={"Range": "bytes=0-9", "If-Range": '"elsewhere"'})
    assert (other.status_code, other.content) == (200, CLIP)


def test_a_range_of_a_file_the_caller_may_not_read_is_refused_like_the_file(store_api: Api) -> None:
    response = create_item(store_api, file_type(store_api, "ezmedia"), upload("draft.webm", CLIP))
    uri = target_value(store_api, response.json()["Content"]["_id"])["uri"]
    anonymous = Api(store_api.client, auth=None)
    refused = anonymous.get(uri, headers={"Range": "bytes=0-9"}, accept=media("ErrorMessage"))
    error_message(refused, 401)


# -- over a real socket ------------------------------------------------------------------------------


def test_download_headers_and_ranges_over_a_real_socket(tmp_path: Path) -> None:
    """Through Granian: the headers arrive as sent (one Content-Disposition, nothing split off a name),
    and a 206 carries exactly the asked bytes."""
    with running_server(tmp_path) as base, httpx.Client(base_url=base, timeout=10) as http:
        api = Api(http)
        page = _stored_file(api, "ezbinaryfile", upload('a "b";c=d é.html', SCRIPTED[0][1]))
        response = api.get(page["uri"])
        assert response.status_code == 200
        assert response.headers.get_list("content-disposition") == [
            "attachment; filename=\"a _b_;c=d _.html\"; filename*=UTF-8''a%20%22b%22%3Bc%3Dd%20%C3%A9.html"
        ]
        assert response.headers["content-type"] == "text/html"
        _assert_safe_headers(response)
        clip = _stored_file(api, "ezmedia", upload("clip.mp4", CLIP, mimeType="video/mp4"))
        part = api.get(clip["uri"], headers={"Range": "bytes=-100"})
        assert (part.status_code, part.content) == (206, CLIP[-100:])
        assert part.headers["content-range"] == "bytes 10140-10239/10240"
        past = api.get(clip["uri"], headers={"Range": "bytes=99999-"}, accept=media("ErrorMessage"))
        assert (past.status_code, past.headers["content-range"]) == (416, "bytes */10240")
