"""Content items over HTTP after creation: metadata updates, delete, copy, hide and reveal
(spec/endpoints-content.tsv content/objects rows, shapes-content.md §3, §9; service-description.md)."""

from __future__ import annotations

from typing import Any

from tests.functional.content_support import (
    content_info,
    encode,
    main_location_path,
    published_folder,
)
from tests.functional.support import error_message
from tests.helpers import PREFIX, Api, media, xml

# -- update metadata ---------------------------------------------------------------------------------


def patch(api: Api, content_id: int, data: dict[str, Any], fmt: str = "json", **kwargs: Any) -> Any:
    return api.patch(
        f"/content/objects/{content_id}",
        body=encode("ContentUpdate", data, fmt),
        content_type=media("ContentUpdate", fmt),
        accept=media("ContentInfo", fmt),
        **kwargs,
    )


def test_update_metadata_and_read_back(api: Api) -> None:
    info = published_folder(api, "Meta")
    data = {
        "Section": {"_href": f"{PREFIX}/content/sections/2"},
        "Owner": {"_href": f"{PREFIX}/user/users/10"},
        "alwaysAvailable": "false",
        "remoteId": f"meta-{info['_id']}",
        "modificationDate": "2020-01-02T03:04:05+00:00",
        "publishDate": "2020-01-01T00:00:00+00:00",
    }
    response = patch(api, info["_id"], data)
    assert response.status_code == 200
    assert response.headers["content-type"] == media("ContentInfo")
    stored = content_info(api, info["_id"])
    assert stored["Section"]["_href"] == f"{PREFIX}/content/sections/2"
    assert stored["Owner"]["_href"] == f"{PREFIX}/user/users/10"
    assert stored["alwaysAvailable"] is False
    assert stored["_remoteId"] == f"meta-{info['_id']}"
    assert stored["lastModificationDate"] == "2020-01-02T03:04:05+00:00"
    assert stored["publishedDate"] == "2020-01-01T00:00:00+00:00"


def test_update_in_xml(api: Api) -> None:
    info = published_folder(api, "Xml meta")
    response = patch(api, info["_id"], {"alwaysAvailable": "false", "mainLanguageCode": "eng-GB"}, fmt="xml")
    assert response.status_code == 200
    assert xml(response).findtext("alwaysAvailable") == "false"


def test_update_honours_if_match(api: Api) -> None:
    info = published_folder(api, "Etag")
    etag = api.get(f"/content/objects/{info['_id']}", accept=media("Content")).headers["etag"]
    assert (
        patch(api, info["_id"], {"remoteId": f"e1-{info['_id']}"}, headers={"If-Match": etag}).status_code
        == 200
    )
    error_message(patch(api, info["_id"], {"remoteId": f"e2-{info['_id']}"}, headers={"If-Match": etag}), 412)
    assert content_info(api, info["_id"])["_remoteId"] == f"e1-{info['_id']}"


def test_update_refuses_other_media_types_and_bad_values(api: Api) -> None:
    info = published_folder(api, "Strict")
    wrong = api.patch(
        f"/content/objects/{info['_id']}",
        body=encode("SectionInput", {"identifier": "x", "name": "x"}, "json"),
        content_type=media("SectionInput"),
        accept=media("ContentInfo"),
    )
    error_message(wrong, 415)
    error_message(
        patch(api, info["_id"], {"MainLocation": {"_href": f"{PREFIX}/content/locations/1/43"}}), 400
    )
    error_message(patch(api, info["_id"], {"mainLanguageCode": "ger-DE"}), 400)
    error_message(patch(api, info["_id"], {"remoteId": "9459d3c29e15006e45197295722c7ade"}), 403)
    error_message(patch(api, info["_id"], {"Section": {"_href": f"{PREFIX}/content/sections/99"}}), 404)


# -- delete, copy, hide ------------------------------------------------------------------------------


def test_delete_removes_the_item_and_its_subtree(api: Api) -> None:
    parent = published_folder(api, "Doomed")
    child = published_folder(api, "Child", parent=main_location_path(parent))
    response = api.delete(f"/content/objects/{parent['_id']}")
    assert response.status_code == 204
    for content_id in (parent["_id"], child["_id"]):
        error_message(api.get(f"/content/objects/{content_id}", accept=media("ContentInfo")), 404)
    error_message(api.get(f"/content/locations/{main_location_path(child)}", accept=media("Location")), 404)
    error_message(api.delete(f"/content/objects/{parent['_id']}"), 404, "xml")


def test_copy_creates_a_published_copy_under_the_destination(api: Api) -> None:
    source = published_folder(api, "Original")
    response = api.request(
        "COPY",
        f"/content/objects/{source['_id']}",
        headers={"Destination": f"{PREFIX}/content/locations/1/43"},
    )
    assert response.status_code == 201
    assert response.content == b""
    copy_id = int(response.headers["location"].rsplit("/", 1)[1])
    copy = content_info(api, copy_id)
    assert copy_id != source["_id"] and copy["Name"] == "Original"
    assert copy["status"] == "PUBLISHED" and copy["_remoteId"] != source["_remoteId"]
    assert main_location_path(copy).startswith("1/43/")


def test_copy_through_method_override_and_missing_destination(api: Api) -> None:
    source = published_folder(api, "Override")
    response = api.post(
        f"/content/objects/{source['_id']}",
        headers={"X-HTTP-Method-Override": "COPY", "Destination": f"{PREFIX}/content/locations/1/2"},
    )
    assert response.status_code == 201
    missing = api.request(
        "COPY",
        f"/content/objects/{source['_id']}",
        headers={"Destination": f"{PREFIX}/content/locations/9999"},
        accept=media("ContentInfo"),
    )
    error_message(missing, 404)


def test_hide_and_reveal(api: Api) -> None:
    parent = published_folder(api, "Hidden")
    child = published_folder(api, "Below", parent=main_location_path(parent))
    assert api.post(f"/content/objects/{parent['_id']}/hide").status_code == 204
    assert content_info(api, parent["_id"])["isHidden"] is True
    location = api.get(f"/content/locations/{main_location_path(parent)}", accept=media("Location")).json()
    assert (location["Location"]["hidden"], location["Location"]["invisible"]) == (True, True)
    assert location["Location"]["explicitlyHidden"] is False
    below = api.get(f"/content/locations/{main_location_path(child)}", accept=media("Location")).json()
    assert (below["Location"]["hidden"], below["Location"]["invisible"]) == (False, True)
    assert api.post(f"/content/objects/{parent['_id']}/reveal").status_code == 204
    assert content_info(api, parent["_id"])["isHidden"] is False
    below = api.get(f"/content/locations/{main_location_path(child)}", accept=media("Location")).json()
    assert below["Location"]["invisible"] is False
    error_message(api.post("/content/objects/9999/hide"), 404, "xml")


def test_a_section_with_content_cannot_be_deleted(api: Api) -> None:
    error_message(api.delete("/content/sections/3", accept=media("Section")), 403)
    published_folder(api, "In section 2", Section={"_href": f"{PREFIX}/content/sections/2"})
    error_message(api.delete("/content/sections/2", accept=media("Section")), 403)
