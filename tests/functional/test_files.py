"""Stored binary files served back at /content/files/{fileId} (the uri of file, image and media fields):
readable exactly when a version that references them is, and deleted once no version does (issue 15,
items 13 and 14)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from pressroom.config import Settings
from pressroom.services.file import write_releasing_files
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.functional.content_support import (
    ROOT,
    content_create,
    field,
    new_draft,
    post_content,
    publish,
    update_version,
    version,
)
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, StatementCounter, media

FILE_TYPE = 12  # the clean install's "file" type: name, description, file (ezbinaryfile)
MEDIA = "1/43"  # the Media folder: section 3, which anonymous users may not read


def _upload(name: str, data: bytes, mime_type: str | None = None) -> dict[str, Any]:
    value: dict[str, Any] = {"fileName": name, "data": base64.b64encode(data).decode()}
    if mime_type:
        value["mimeType"] = mime_type
    return field("file", value)


def _file_of(api: Api, content_id: int, version_no: int) -> dict[str, Any]:
    fields = version(api, content_id, version_no)["Fields"]["field"]
    value: dict[str, Any] = next(f["fieldValue"] for f in fields if f["fieldDefinitionIdentifier"] == "file")
    return value


def _create_file(
    api: Api, data: bytes = b"%PDF-1.4 hello", name: str = "Annual report.pdf", parent: str = ROOT
) -> tuple[int, str]:
    """A draft file item; returns its content id and the file id."""
    body = content_create(
        [field("name", name), _upload(name, data, "application/pdf")], type_id=FILE_TYPE, parent=parent
    )
    response = post_content(api, body)
    assert response.status_code == 201, response.text
    content_id: int = response.json()["Content"]["_id"]
    file_id: str = _file_of(api, content_id, 1)["id"]
    return content_id, file_id


def _on_disk(settings: Settings, file_id: str) -> bool:
    return Path(settings.file_root, *file_id.split("/")).is_file()


def _anonymous(api: Api, prefix: str = PREFIX) -> Api:
    return Api(api.client, prefix, auth=None)


def test_a_published_file_is_served_with_its_mime_type_and_uri(api: Api) -> None:
    content_id, file_id = _create_file(api)
    publish(api, content_id)
    value = _file_of(api, content_id, 1)
    assert value["uri"] == f"{PREFIX}/content/files/{file_id}"
    response = api.get(value["uri"])
    assert response.status_code == 200
    assert response.content == b"%PDF-1.4 hello"
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-length"] == "14"
    assert response.headers["x-content-type-options"] == "nosniff"


def test_a_published_file_in_the_standard_section_is_served_to_anonymous_users_under_both_prefixes(
    api: Api,
) -> None:
    content_id, file_id = _create_file(api, b"\x89PNG...", "pixel.png")
    publish(api, content_id)
    for prefix in (PREFIX, EZ_PREFIX):
        response = _anonymous(api, prefix).get(f"/content/files/{file_id}")
        assert (response.status_code, response.content) == (200, b"\x89PNG...")


def test_an_url_encoded_file_id_is_decoded(api: Api) -> None:
    _, file_id = _create_file(api, b"plain", "notes.txt")
    response = api.get("/content/files/" + file_id.replace("/", "%2F").replace(".", "%2E"))
    assert (response.status_code, response.content) == (200, b"plain")


def test_anonymous_users_cannot_read_the_file_of_a_draft(api: Api) -> None:
    _, file_id = _create_file(api)
    response = _anonymous(api).get(f"/content/files/{file_id}", accept=media("ErrorMessage"))
    assert "'versionread' 'content'" in error_message(response, 401)["errorDescription"]
    assert api.get(f"/content/files/{file_id}").status_code == 200  # the draft's creator may


def test_anonymous_users_cannot_read_a_file_of_another_section(api: Api) -> None:
    content_id, file_id = _create_file(api, parent=MEDIA)
    publish(api, content_id)
    response = _anonymous(api).get(f"/content/files/{file_id}", accept=media("ErrorMessage"))
    assert error_message(response, 401)["errorDescription"] == (
        "The User does not have the 'read' 'content' permission with: "
        f"contentId '{content_id}', sectionId '3'"
    )
    assert api.get(f"/content/files/{file_id}").status_code == 200


def test_a_stored_file_no_version_references_is_404(api: Api, settings: Settings) -> None:
    stored = LocalFileStore(settings.file_root).put(b"stray", "stray.txt", None)
    response = _anonymous(api).get(f"/content/files/{stored.id}", accept=media("ErrorMessage"))
    assert (
        error_message(response, 404)["errorDescription"]
        == f"Could not find 'file' with identifier '{stored.id}'"
    )
    assert api.get(f"/content/files/{stored.id}", accept=media("ErrorMessage")).status_code == 404


def test_an_unknown_file_is_404(api: Api) -> None:
    response = api.get("/content/files/ab/cd/0123/none.pdf", accept=media("ErrorMessage"))
    assert (
        error_message(response, 404)["errorDescription"]
        == "Could not find 'file' with identifier 'ab/cd/0123/none.pdf'"
    )


@pytest.mark.parametrize("path", ["/content/files/%2E%2E/%2E%2E/etc/passwd", "/content/files/a/%2E%2E/b"])
def test_a_file_id_leaving_the_root_is_404(api: Api, path: str) -> None:
    """No version references such an id, so it names nothing: the id never reaches the file system."""
    response = api.get(path, accept=media("ErrorMessage"))
    error_message(response, 404)


def test_deleting_the_item_deletes_its_files_and_they_are_404(api: Api, settings: Settings) -> None:
    content_id, file_id = _create_file(api)
    publish(api, content_id)
    draft = new_draft(api, content_id)
    replaced = update_version(api, content_id, draft, [_upload("v2.pdf", b"%PDF second")])
    assert replaced.status_code == 200, replaced.text
    second = _file_of(api, content_id, draft)["id"]
    assert _on_disk(settings, file_id) and _on_disk(settings, second)
    assert api.delete(f"/content/objects/{content_id}").status_code == 204
    assert not _on_disk(settings, file_id) and not _on_disk(settings, second)
    for gone in (file_id, second):
        error_message(api.get(f"/content/files/{gone}", accept=media("ErrorMessage")), 404)


def _location_path(api: Api, content_id: int) -> str:
    info = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo")).json()["Content"]
    href: str = info["MainLocation"]["_href"]
    return href.split("/content/locations/", 1)[1]


def test_deleting_the_location_subtree_deletes_its_files(api: Api, settings: Settings) -> None:
    content_id, file_id = _create_file(api)
    publish(api, content_id)
    assert _on_disk(settings, file_id)
    assert api.delete(f"/content/locations/{_location_path(api, content_id)}").status_code == 204
    assert not _on_disk(settings, file_id)


@pytest.mark.parametrize("how", ["item", "empty"])
def test_deleting_from_the_trash_deletes_the_files(api: Api, settings: Settings, how: str) -> None:
    content_id, file_id = _create_file(api)
    publish(api, content_id)
    trashed = api.request(
        "MOVE",
        f"/content/locations/{_location_path(api, content_id)}",
        headers={"Destination": f"{PREFIX}/content/trash"},
    )
    assert trashed.status_code == 201, trashed.text
    assert _on_disk(settings, file_id)  # in the trash the item can still come back
    gone = api.delete(trashed.headers["location"] if how == "item" else "/content/trash")
    assert gone.status_code == 204, gone.text
    assert not _on_disk(settings, file_id)


def test_replacing_the_file_of_a_draft_deletes_the_file_it_replaced(api: Api, settings: Settings) -> None:
    content_id, first = _create_file(api)
    response = update_version(api, content_id, 1, [_upload("v2.pdf", b"%PDF second")])
    assert response.status_code == 200, response.text
    second = _file_of(api, content_id, 1)["id"]
    assert second != first
    assert not _on_disk(settings, first)
    error_message(api.get(f"/content/files/{first}", accept=media("ErrorMessage")), 404)
    assert api.get(f"/content/files/{second}").content == b"%PDF second"


def test_a_file_stays_while_an_archived_version_references_it(api: Api, settings: Settings) -> None:
    content_id, first = _create_file(api)
    publish(api, content_id)
    draft = new_draft(api, content_id)
    assert _file_of(api, content_id, draft)["id"] == first  # the copy shares the file
    assert update_version(api, content_id, draft, [_upload("v2.pdf", b"%PDF second")]).status_code == 200
    publish(api, content_id, draft)
    assert _on_disk(settings, first)  # version 1 is archived, and still references it
    anonymous = _anonymous(api).get(f"/content/files/{first}", accept=media("ErrorMessage"))
    assert "'versionread' 'content'" in error_message(anonymous, 401)["errorDescription"]
    assert api.get(f"/content/files/{first}").status_code == 200
    assert api.delete(f"/content/objects/{content_id}/versions/1").status_code == 204
    assert not _on_disk(settings, first)
    error_message(api.get(f"/content/files/{first}", accept=media("ErrorMessage")), 404)


def test_a_write_that_fails_keeps_every_file(api: Api, settings: Settings) -> None:
    content_id, file_id = _create_file(api)
    store, files = SqlStore(make_engine(settings.database_url)), LocalFileStore(settings.file_root)
    with pytest.raises(RuntimeError), write_releasing_files(store, files) as tx:
        tx.content.delete([content_id])
        raise RuntimeError("the transaction fails after the rows went")
    assert _on_disk(settings, file_id)
    assert api.get(f"/content/files/{file_id}").content == b"%PDF-1.4 hello"


def test_a_file_shared_by_reference_stays_until_its_last_item_goes(api: Api, settings: Settings) -> None:
    """``inputUri`` names a stored file instead of uploading one; the file goes with its last reference."""
    first, file_id = _create_file(api)
    body = content_create([field("name", "Copy"), field("file", {"inputUri": file_id})], type_id=FILE_TYPE)
    response = post_content(api, body)
    assert response.status_code == 201, response.text
    second = response.json()["Content"]["_id"]
    assert _file_of(api, second, 1)["id"] == file_id
    assert api.delete(f"/content/objects/{first}").status_code == 204
    assert _on_disk(settings, file_id)
    assert api.get(f"/content/files/{file_id}").status_code == 200
    assert api.delete(f"/content/objects/{second}").status_code == 204
    assert not _on_disk(settings, file_id)


def test_file_bookkeeping_costs_statements_only_when_a_file_is_released(api: Api) -> None:
    """The released files come back from the DELETE itself (RETURNING); a file the saved rows keep is not
    released, so only a write that drops a file pays: one SELECT to see whether another version uses it,
    and one DELETE ... RETURNING for the image renditions made of it."""
    content_id, _ = _create_file(api)
    with StatementCounter() as name_only:
        assert update_version(api, content_id, 1, [field("name", "Renamed")]).status_code == 200
    with StatementCounter() as replacing:
        assert update_version(api, content_id, 1, [_upload("v2.pdf", b"%PDF second")]).status_code == 200
    assert replacing.count == name_only.count + 2
    second = _file_of(api, content_id, 1)["id"]
    with StatementCounter() as reading:
        assert api.get(f"/content/files/{second}").status_code == 200
    # Basic's account read (2), then the referencing versions, the item, the version: no loop over the store
    assert reading.count <= 6
