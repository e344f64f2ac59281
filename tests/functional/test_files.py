"""Stored binary files served back at /content/files/{fileId} (the uri of file, image and media fields)."""

from __future__ import annotations

import pytest

from pressroom.config import Settings
from pressroom.storage.files import LocalFileStore
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, Api, media


def test_a_stored_file_is_served_with_its_mime_type(api: Api, settings: Settings) -> None:
    stored = LocalFileStore(settings.file_root).put(b"%PDF-1.4 hello", "Annual report.pdf", "application/pdf")
    assert "/" in stored.id
    response = api.get(f"/content/files/{stored.id}")
    assert response.status_code == 200
    assert response.content == b"%PDF-1.4 hello"
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-length"] == "14"
    assert response.headers["x-content-type-options"] == "nosniff"


def test_a_file_is_served_to_anonymous_users_and_under_the_ez_prefix(api: Api, settings: Settings) -> None:
    stored = LocalFileStore(settings.file_root).put(b"\x89PNG...", "pixel.png", "image/png")
    response = Api(api.client, EZ_PREFIX, auth=None).get(f"/content/files/{stored.id}")
    assert (response.status_code, response.headers["content-type"]) == (200, "image/png")


def test_an_url_encoded_file_id_is_decoded(api: Api, settings: Settings) -> None:
    stored = LocalFileStore(settings.file_root).put(b"plain", "notes.txt", None)
    response = api.get("/content/files/" + stored.id.replace("/", "%2F").replace(".", "%2E"))
    assert (response.status_code, response.content) == (200, b"plain")
    assert response.headers["content-type"].startswith("text/plain")


def test_an_unknown_file_is_404(api: Api) -> None:
    response = api.get("/content/files/ab/cd/0123/none.pdf", accept=media("ErrorMessage"))
    assert (
        error_message(response, 404)["errorDescription"]
        == "Could not find 'file' with identifier 'ab/cd/0123/none.pdf'"
    )


@pytest.mark.parametrize("path", ["/content/files/%2E%2E/%2E%2E/etc/passwd", "/content/files/a/%2E%2E/b"])
def test_a_file_id_leaving_the_root_is_400(api: Api, path: str) -> None:
    response = api.get(path, accept=media("ErrorMessage"))
    assert error_message(response, 400)["errorDescription"].startswith("Invalid file id")
