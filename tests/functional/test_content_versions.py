"""Versions over HTTP: list, load, edit drafts, delete, copy, publish, the current version
(spec/endpoints-content.tsv version rows, shapes-content.md §4-§6, §9; service-description.md states)."""

from __future__ import annotations

import httpx
import pytest
from starlette.testclient import TestClient

from tests.functional.content_support import (
    ARTICLE,
    INTRO,
    content_create,
    content_info,
    create_folder,
    field,
    field_values,
    main_location_path,
    new_draft,
    post_content,
    publish,
    published_folder,
    update_version,
    version,
)
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml


def statuses(api: Api, content_id: int) -> dict[int, str]:
    response = api.get(f"/content/objects/{content_id}/versions", accept=media("VersionList"))
    assert response.status_code == 200
    return {
        i["VersionInfo"]["versionNo"]: i["VersionInfo"]["status"]
        for i in response.json()["VersionList"]["VersionItem"]
    }


# -- list and load -----------------------------------------------------------------------------------


def test_version_list_of_the_clean_root(api: Api) -> None:
    response = api.get("/content/objects/1/versions", accept=media("VersionList"))
    assert response.headers["content-type"] == media("VersionList")
    assert "accept-patch" not in response.headers
    body = response.json()["VersionList"]
    assert body["_href"] == f"{PREFIX}/content/objects/1/versions"
    [item] = body["VersionItem"]
    assert item["Version"] == {
        "_media-type": media("Version"),
        "_href": f"{PREFIX}/content/objects/1/versions/9",
    }
    info = item["VersionInfo"]
    assert (info["id"], info["versionNo"], info["status"], info["languageCodes"]) == (
        506,
        9,
        "PUBLISHED",
        "eng-GB",
    )
    assert info["names"] == {"value": [{"_languageCode": "eng-GB", "#text": "Ibexa Platform"}]}
    assert info["Content"] == {"_media-type": media("ContentInfo"), "_href": f"{PREFIX}/content/objects/1"}
    assert "Fields" not in item


def test_version_list_in_xml(api: Api) -> None:
    root = xml(api.get("/content/objects/14/versions", accept=media("VersionList", "xml")))
    assert root.tag == "VersionList"
    assert [i.findtext("VersionInfo/versionNo") for i in root.findall("VersionItem")] == ["3"]


def test_load_version_with_fields_relations_and_etag(api: Api) -> None:
    response = api.get("/content/objects/41/versions/1", accept=media("Version"))
    assert response.headers["content-type"] == media("Version")
    assert response.headers["accept-patch"] == media("VersionUpdate")
    body = response.json()["Version"]
    assert body["_href"] == f"{PREFIX}/content/objects/41/versions/1"
    assert field_values(body)[("name", "eng-GB")] == "Media"
    assert body["Relations"] == {
        "_media-type": media("RelationList"),
        "_href": f"{PREFIX}/content/objects/41/versions/1/relations",
        "Relation": [],
    }
    assert body["Thumbnail"] == {
        "_media-type": media("Thumbnail"),
        "resource": "/placeholder",
        "width": None,
        "height": None,
        "mimeType": "image/svg+xml",
    }
    again = api.get(
        "/content/objects/41/versions/1",
        accept=media("Version"),
        headers={"If-None-Match": response.headers["etag"]},
    )
    assert again.status_code == 304


@pytest.mark.parametrize(("prefix", "vendor"), [(PREFIX, "ibexa"), (EZ_PREFIX, "ez")])
def test_thumbnail_in_xml_carries_every_key(api: Api, prefix: str, vendor: str) -> None:
    """An empty <Thumbnail/> fails the reference's Version schema: the icon fallback fills it."""
    response = Api(api.client, prefix).get(
        "/content/objects/41/versions/1", accept=media("Version", "xml", vendor)
    )
    thumbnail = xml(response).find("Thumbnail")
    assert thumbnail.get("media-type") == media("Thumbnail", "xml", vendor)
    assert [(child.tag, child.text) for child in thumbnail] == [
        ("resource", "/placeholder"),
        ("width", None),
        ("height", None),
        ("mimeType", "image/svg+xml"),
    ]


def test_the_embedded_version_of_a_content_has_the_thumbnail(api: Api) -> None:
    content = api.get("/content/objects/41", accept=media("Content")).json()["Content"]
    thumbnail = content["CurrentVersion"]["Version"]["Thumbnail"]
    assert (thumbnail["resource"], thumbnail["mimeType"]) == ("/placeholder", "image/svg+xml")


def test_unknown_version_is_404(api: Api) -> None:
    error_message(api.get("/content/objects/1/versions/99", accept=media("Version")), 404)


def test_current_version_redirects(api: Api) -> None:
    response = api.get("/content/objects/14/currentversion", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"{PREFIX}/content/objects/14/versions/3"
    ez = Api(api.client, EZ_PREFIX).get("/content/objects/14/currentversion", follow_redirects=False)
    assert ez.headers["location"] == f"{EZ_PREFIX}/content/objects/14/versions/3"


# -- drafts ------------------------------------------------------------------------------------------


def test_copy_current_version_makes_a_new_draft(api: Api) -> None:
    info = published_folder(api, "Drafted")
    response = api.request("COPY", f"/content/objects/{info['_id']}/currentversion", accept=media("Version"))
    assert response.status_code == 201
    assert response.headers["location"] == f"{PREFIX}/content/objects/{info['_id']}/versions/2"
    draft = response.json()["Version"]["VersionInfo"]
    assert (draft["versionNo"], draft["status"]) == (2, "DRAFT")
    assert statuses(api, info["_id"]) == {1: "PUBLISHED", 2: "DRAFT"}
    assert field_values(version(api, info["_id"], 2))[("name", "eng-GB")] == "Drafted"


def test_copy_current_version_of_a_draft_is_403(api: Api) -> None:
    draft = create_folder(api, "Never published")
    error_message(
        api.request("COPY", f"/content/objects/{draft['_id']}/currentversion", accept=media("Version")), 403
    )


def test_update_draft_fields(api: Api) -> None:
    info = published_folder(api, "Before")
    number = new_draft(api, info["_id"])
    response = update_version(api, info["_id"], number, [field("name", "After")])
    assert response.status_code == 200
    assert response.headers["content-type"] == media("Version")
    assert response.json()["Version"]["VersionInfo"]["names"]["value"][0]["#text"] == "After"
    assert field_values(version(api, info["_id"], number))[("name", "eng-GB")] == "After"
    assert content_info(api, info["_id"])["Name"] == "Before"  # still the published version's name


def test_update_draft_in_xml(api: Api) -> None:
    draft = create_folder(api, "Xml draft")
    response = update_version(api, draft["_id"], 1, [field("short_name", "Short")], fmt="xml")
    assert response.status_code == 200
    root = xml(response)
    assert root.tag == "Version"
    assert root.findtext("VersionInfo/names/value") == "Short"


def test_update_published_version_is_403(api: Api) -> None:
    info = published_folder(api, "Fixed")
    error_message(update_version(api, info["_id"], 1, [field("name", "Changed")]), 403)


def test_update_validation_errors(api: Api) -> None:
    draft = create_folder(api, "Valid")
    response = update_version(api, draft["_id"], 1, [field("name", ""), field("nope", 1)])
    error_message(response, 400)
    found = {
        d["_fieldIdentifier"]: d["errors"][0]["type"]
        for d in response.json()["ErrorMessage"]["errorDetails"]["fields"]
    }
    assert found == {"name": "empty", "nope": "UnknownField"}
    assert field_values(version(api, draft["_id"], 1))[("name", "eng-GB")] == "Valid"


def test_update_honours_if_match(api: Api) -> None:
    draft = create_folder(api, "Tagged")
    etag = api.get(f"/content/objects/{draft['_id']}/versions/1", accept=media("Version")).headers["etag"]
    first = api.patch(
        f"/content/objects/{draft['_id']}/versions/1",
        body={"VersionUpdate": {"fields": {"field": [field("name", "One")]}}},
        content_type=media("VersionUpdate"),
        accept=media("Version"),
        headers={"If-Match": etag},
    )
    assert first.status_code == 200
    stale = api.patch(
        f"/content/objects/{draft['_id']}/versions/1",
        body={"VersionUpdate": {"fields": {"field": [field("name", "Two")]}}},
        content_type=media("VersionUpdate"),
        accept=media("Version"),
        headers={"If-Match": etag},
    )
    error_message(stale, 412)
    assert field_values(version(api, draft["_id"], 1))[("name", "eng-GB")] == "One"


# -- publish -----------------------------------------------------------------------------------------


def test_publish_archives_the_previous_version(api: Api) -> None:
    info = published_folder(api, "First")
    number = new_draft(api, info["_id"])
    update_version(api, info["_id"], number, [field("name", "Second")])
    publish(api, info["_id"], number)
    assert statuses(api, info["_id"]) == {1: "ARCHIVED", 2: "PUBLISHED"}
    after = content_info(api, info["_id"])
    assert (after["currentVersionNo"], after["Name"]) == (2, "Second")
    assert after["publishedDate"] == info["publishedDate"]
    assert main_location_path(after) == main_location_path(info)
    error_message(
        api.request("PUBLISH", f"/content/objects/{info['_id']}/versions/{number}", accept=media("Version")),
        403,
    )


def test_publish_through_method_override(api: Api) -> None:
    draft = create_folder(api, "Override")
    response = api.post(
        f"/content/objects/{draft['_id']}/versions/1", headers={"X-HTTP-Method-Override": "PUBLISH"}
    )
    assert response.status_code == 204
    assert content_info(api, draft["_id"])["status"] == "PUBLISHED"


def test_failed_publish_leaves_everything_as_it_was(api: Api) -> None:
    parent = published_folder(api, "Parent")
    draft = create_folder(api, "Orphan", parent=main_location_path(parent))
    assert api.delete(f"/content/objects/{parent['_id']}").status_code == 204
    response = api.request("PUBLISH", f"/content/objects/{draft['_id']}/versions/1", accept=media("Version"))
    error_message(response, 404)
    assert statuses(api, draft["_id"]) == {1: "DRAFT"}
    info = content_info(api, draft["_id"])
    assert info["status"] == "DRAFT" and "MainLocation" not in info
    assert (
        api.get(f"/content/objects/{draft['_id']}/locations", accept=media("LocationList")).json()[
            "LocationList"
        ]["Location"]
        == []
    )


def test_a_required_field_cannot_be_emptied_in_a_draft(api: Api) -> None:
    data = content_create([field("title", "Story"), field("intro", {"xml": INTRO})], type_id=ARTICLE)
    article = post_content(api, data).json()["Content"]
    assert update_version(api, article["_id"], 1, [field("intro", {"xml": ""})]).status_code == 400
    publish(api, article["_id"])


# -- delete and copy ---------------------------------------------------------------------------------


def test_delete_versions_by_status(api: Api) -> None:
    info = published_folder(api, "Many")
    second = new_draft(api, info["_id"])
    publish(api, info["_id"], second)
    third = new_draft(api, info["_id"])
    error_message(
        api.delete(f"/content/objects/{info['_id']}/versions/{second}", accept=media("Version")), 403
    )
    assert api.delete(f"/content/objects/{info['_id']}/versions/1").status_code == 204
    assert api.delete(f"/content/objects/{info['_id']}/versions/{third}").status_code == 204
    assert statuses(api, info["_id"]) == {second: "PUBLISHED"}
    error_message(
        api.delete(f"/content/objects/{info['_id']}/versions/{third}", accept=media("Version")), 404
    )


def test_copy_a_version_into_a_new_draft(api: Api) -> None:
    info = published_folder(api, "Old name")
    second = new_draft(api, info["_id"])
    update_version(api, info["_id"], second, [field("name", "New name")])
    publish(api, info["_id"], second)
    response = api.request("COPY", f"/content/objects/{info['_id']}/versions/1", accept=media("Version"))
    assert response.status_code == 201
    assert response.headers["location"] == f"{PREFIX}/content/objects/{info['_id']}/versions/3"
    assert field_values(version(api, info["_id"], 3))[("name", "eng-GB")] == "Old name"
    assert statuses(api, info["_id"]) == {1: "ARCHIVED", 2: "PUBLISHED", 3: "DRAFT"}


def test_anonymous_cannot_read_or_edit_versions(client: TestClient, api: Api) -> None:
    draft = create_folder(api, "Closed")
    anonymous = Api(client, auth=None)
    error_message(anonymous.get(f"/content/objects/{draft['_id']}/versions/1", accept=media("Version")), 401)
    error_message(update_version(anonymous, draft["_id"], 1, [field("name", "x")]), 401)
    error_message(
        anonymous.request("PUBLISH", f"/content/objects/{draft['_id']}/versions/1", accept=media("Version")),
        401,
    )


def test_publish_and_copy_over_a_real_socket(live_server: str) -> None:
    with httpx.Client(base_url=live_server, timeout=10) as http:
        api = Api(http)
        draft = create_folder(api, "Socket")
        assert api.request("PUBLISH", f"/content/objects/{draft['_id']}/versions/1").status_code == 204
        path = f"/content/objects/{draft['_id']}"
        copied = api.request("COPY", f"{path}/currentversion", accept=media("Version"))
        assert copied.status_code == 201
        assert copied.headers["location"] == f"{PREFIX}/content/objects/{draft['_id']}/versions/2"
        allow = api.request("OPTIONS", f"/content/objects/{draft['_id']}/versions/1").headers["allow"]
        assert allow == "GET,PATCH,DELETE,COPY,PUBLISH"
