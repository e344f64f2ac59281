"""Content type groups over HTTP (shapes-content.md §14, service-description.md "Content type groups",
install.md §4)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.functional.content_types_support import create_type, get_json, type_create
from tests.functional.support import error_message, unique
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

CLEAN_GROUPS = [
    (1, "Content", "2002-09-05T09:08:48+00:00", "2002-10-06T16:35:06+00:00"),
    (2, "Users", "2002-09-05T09:09:01+00:00", "2002-10-06T16:35:13+00:00"),
    (3, "Media", "2002-09-14T13:22:23+00:00", "2002-10-06T16:35:20+00:00"),
]


def group_json(
    group_id: int, identifier: str, created: str, modified: str, prefix: str = PREFIX, vendor: str = "ibexa"
) -> dict[str, Any]:
    user = {"_media-type": media("User", vendor=vendor), "_href": f"{prefix}/user/users/14"}
    return {
        "_media-type": media("ContentTypeGroup", vendor=vendor),
        "_href": f"{prefix}/content/typegroups/{group_id}",
        "id": group_id,
        "identifier": identifier,
        "created": created,
        "modified": modified,
        "Creator": user,
        "Modifier": user,
        "ContentTypes": {
            "_media-type": media("ContentTypeInfoList", vendor=vendor),
            "_href": f"{prefix}/content/typegroups/{group_id}/types",
        },
    }


def group_input(identifier: str, fmt: str = "json") -> str:
    if fmt == "json":
        return f'{{"ContentTypeGroupInput": {{"identifier": "{identifier}"}}}}'
    return f"<ContentTypeGroupInput><identifier>{identifier}</identifier></ContentTypeGroupInput>"


def create_group(api: Api, identifier: str, fmt: str = "json", vendor: str = "ibexa") -> Any:
    return api.post(
        "/content/typegroups",
        body=group_input(identifier, fmt),
        content_type=media("ContentTypeGroupInput", fmt, vendor),
        accept=media("ContentTypeGroup", vendor=vendor),
    )


def update_group(api: Api, group_id: int, identifier: str, **kwargs: Any) -> Any:
    return api.patch(
        f"/content/typegroups/{group_id}",
        body=group_input(identifier),
        content_type=media("ContentTypeGroupInput"),
        accept=media("ContentTypeGroup"),
        **kwargs,
    )


def identifiers(api: Api) -> list[str]:
    return [
        g["identifier"]
        for g in get_json(api, "/content/typegroups", "ContentTypeGroupList")["ContentTypeGroup"]
    ]


# -- list and load -----------------------------------------------------------------------------------


def test_list_holds_the_clean_install_groups(api: Api) -> None:
    response = api.get("/content/typegroups", accept=media("ContentTypeGroupList"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("ContentTypeGroupList")
    assert response.json() == {
        "ContentTypeGroupList": {
            "_media-type": media("ContentTypeGroupList"),
            "_href": f"{PREFIX}/content/typegroups",
            "ContentTypeGroup": [group_json(*g) for g in CLEAN_GROUPS],
        }
    }


def test_list_in_xml_under_the_ez_prefix(client: TestClient) -> None:
    api = Api(client, EZ_PREFIX)
    response = api.get("/content/typegroups", accept=media("ContentTypeGroupList", "xml", "ez"))
    assert response.headers["content-type"] == media("ContentTypeGroupList", "xml", "ez")
    root = xml(response)
    assert root.tag == "ContentTypeGroupList"
    groups = root.findall("ContentTypeGroup")
    assert [(g.get("href"), g.findtext("identifier"), g.findtext("created")) for g in groups] == [
        (f"{EZ_PREFIX}/content/typegroups/{i}", ident, created) for i, ident, created, _ in CLEAN_GROUPS
    ]
    assert groups[0].find("Creator").get("href") == f"{EZ_PREFIX}/user/users/14"


def test_list_by_identifier_redirects_to_the_group(api: Api) -> None:
    response = api.get("/content/typegroups?identifier=Media", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"{PREFIX}/content/typegroups/3"
    assert response.content == b""


def test_list_by_an_unknown_identifier_is_404(api: Api) -> None:
    response = api.get("/content/typegroups?identifier=nope", accept=media("ContentTypeGroupList"))
    assert error_message(response, 404)["errorDescription"] == (
        "Could not find 'ContentTypeGroup' with identifier 'nope'"
    )


@pytest.mark.parametrize("group", CLEAN_GROUPS)
def test_load(api: Api, group: tuple[int, str, str, str]) -> None:
    response = api.get(f"/content/typegroups/{group[0]}", accept=media("ContentTypeGroup"))
    assert response.status_code == 200
    assert response.headers["accept-patch"] == media("ContentTypeGroupInput")
    assert response.json() == {"ContentTypeGroup": group_json(*group)}


def test_load_in_xml(api: Api) -> None:
    root = xml(api.get("/content/typegroups/2", accept=media("ContentTypeGroup", "xml")))
    assert (root.tag, root.get("media-type"), root.get("href")) == (
        "ContentTypeGroup",
        media("ContentTypeGroup", "xml"),
        f"{PREFIX}/content/typegroups/2",
    )
    assert [child.tag for child in root] == [
        "id", "identifier", "created", "modified", "Creator", "Modifier", "ContentTypes"
    ]  # fmt: skip
    assert root.findtext("identifier") == "Users"
    assert root.find("ContentTypes").get("media-type") == media("ContentTypeInfoList", "xml")


def test_load_unknown_is_404(api: Api) -> None:
    response = api.get("/content/typegroups/99", accept=media("ContentTypeGroup"))
    assert error_message(response, 404)["errorDescription"] == (
        "Could not find 'ContentTypeGroup' with identifier '99'"
    )


def test_load_answers_304_to_its_etag(api: Api) -> None:
    first = api.get("/content/typegroups/1", accept=media("ContentTypeGroup"))
    again = api.get(
        "/content/typegroups/1",
        accept=media("ContentTypeGroup"),
        headers={"If-None-Match": first.headers["etag"]},
    )
    assert again.status_code == 304


# -- create ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "xml"])
@pytest.mark.parametrize(("prefix", "vendor"), [(PREFIX, "ibexa"), (EZ_PREFIX, "ez")])
def test_create(client: TestClient, fmt: str, prefix: str, vendor: str) -> None:
    api = Api(client, prefix)
    identifier = unique("group")
    response = create_group(api, identifier, fmt, vendor)
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == media("ContentTypeGroup", vendor=vendor)
    created = response.json()["ContentTypeGroup"]
    assert created["id"] == 4
    assert response.headers["location"] == created["_href"] == f"{prefix}/content/typegroups/4"
    assert created == group_json(4, identifier, created["created"], created["created"], prefix, vendor)
    assert created["created"].endswith("+00:00")
    # read back, in the other dialect
    assert get_json(Api(client), "/content/typegroups/4", "ContentTypeGroup")["identifier"] == identifier
    assert identifiers(Api(client)) == ["Content", "Users", "Media", identifier]


def test_create_answers_in_xml(api: Api) -> None:
    identifier = unique("group")
    response = api.post(
        "/content/typegroups",
        body=group_input(identifier, "xml"),
        content_type=media("ContentTypeGroupInput", "xml"),
        accept=media("ContentTypeGroup", "xml"),
    )
    assert response.status_code == 201
    root = xml(response)
    assert root.findtext("identifier") == identifier
    assert root.get("href") == response.headers["location"]


def test_create_with_an_existing_identifier_is_403(api: Api) -> None:
    response = create_group(api, "Media")
    assert error_message(response, 403)["errorDescription"] == (
        "A content type group with identifier 'Media' already exists"
    )
    assert identifiers(api) == ["Content", "Users", "Media"]


def test_create_without_identifier_is_400(api: Api) -> None:
    response = api.post(
        "/content/typegroups",
        body={"ContentTypeGroupInput": {}},
        content_type=media("ContentTypeGroupInput"),
        accept=media("ContentTypeGroup"),
    )
    assert error_message(response, 400)["errorDescription"] == (
        "Missing 'identifier' element for ContentTypeGroupInput."
    )


def test_create_needs_a_user(client: TestClient) -> None:
    response = create_group(Api(client, auth=None), unique("group"))
    assert (
        error_message(response, 401)["errorDescription"]
        == "The User does not have the 'create' 'class' permission"
    )
    assert identifiers(Api(client)) == ["Content", "Users", "Media"]


# -- update ------------------------------------------------------------------------------------------


def test_update(api: Api) -> None:
    identifier = unique("group")
    response = update_group(api, 3, identifier)
    assert response.status_code == 200, response.text
    updated = response.json()["ContentTypeGroup"]
    assert updated["identifier"] == identifier
    assert updated["created"] == "2002-09-14T13:22:23+00:00"
    assert updated["modified"] > "2020"
    assert get_json(api, "/content/typegroups/3", "ContentTypeGroup") == updated


def test_update_to_an_existing_identifier_is_403(api: Api) -> None:
    response = update_group(api, 3, "Users")
    assert error_message(response, 403)["errorDescription"] == (
        "A content type group with identifier 'Users' already exists"
    )
    assert identifiers(api) == ["Content", "Users", "Media"]


def test_update_with_a_stale_etag_is_412(api: Api) -> None:
    etag = api.get("/content/typegroups/3", accept=media("ContentTypeGroup")).headers["etag"]
    assert update_group(api, 3, unique("group"), headers={"If-Match": etag}).status_code == 200
    response = update_group(api, 3, "never", headers={"If-Match": etag})
    assert error_message(response, 412)["errorDescription"].startswith("Content type group 3 has changed")
    assert get_json(api, "/content/typegroups/3", "ContentTypeGroup")["identifier"] != "never"


def test_update_unknown_is_404(api: Api) -> None:
    assert update_group(api, 99, unique("group")).status_code == 404


# -- delete ------------------------------------------------------------------------------------------


def test_delete_an_empty_group(api: Api) -> None:
    group_id = create_group(api, unique("group")).json()["ContentTypeGroup"]["id"]
    response = api.delete(f"/content/typegroups/{group_id}")
    assert response.status_code == 204
    assert response.content == b""
    assert api.get(f"/content/typegroups/{group_id}").status_code == 404
    assert api.delete(f"/content/typegroups/{group_id}").status_code == 404


def test_delete_a_group_with_types_is_403(api: Api) -> None:
    response = api.delete("/content/typegroups/1", accept=media("ErrorMessage"))
    assert (
        error_message(response, 403)["errorDescription"] == "Content type group 1 still holds content types"
    )
    assert api.get("/content/typegroups/1").status_code == 200


def test_delete_a_group_holding_only_a_draft_is_403(api: Api) -> None:
    group_id = create_group(api, unique("group")).json()["ContentTypeGroup"]["id"]
    assert create_type(api, type_create(), group_id).status_code == 201
    assert api.delete(f"/content/typegroups/{group_id}").status_code == 403


# -- the types of a group ----------------------------------------------------------------------------


def test_types_of_a_group_as_info_list(api: Api) -> None:
    response = api.get("/content/typegroups/3/types", accept=media("ContentTypeInfoList"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("ContentTypeInfoList")
    body = response.json()["ContentTypeInfoList"]
    assert body["_href"] == f"{PREFIX}/content/typegroups/3/types"
    assert [(t["id"], t["identifier"], t["_media-type"]) for t in body["ContentType"]] == [
        (5, "image", media("ContentTypeInfo")),
        (12, "file", media("ContentTypeInfo")),
    ]
    assert all("FieldDefinitions" not in t for t in body["ContentType"])


def test_types_of_a_group_default_to_the_info_list(api: Api) -> None:
    response = api.get("/content/typegroups/2/types", accept="application/json")
    assert response.headers["content-type"] == media("ContentTypeInfoList")


def test_types_of_a_group_as_full_list(api: Api) -> None:
    body = get_json(api, "/content/typegroups/2/types", "ContentTypeList")
    assert [(t["identifier"], t["_media-type"]) for t in body["ContentType"]] == [
        ("user_group", media("ContentType")),
        ("user", media("ContentType")),
    ]
    user = body["ContentType"][1]
    assert [d["identifier"] for d in user["FieldDefinitions"]["FieldDefinition"]] == [
        "first_name", "last_name", "user_account", "signature", "image"
    ]  # fmt: skip


def test_types_of_a_group_in_xml_are_content_type_info_elements(api: Api) -> None:
    root = xml(api.get("/content/typegroups/1/types", accept=media("ContentTypeInfoList", "xml")))
    assert root.tag == "ContentTypeInfoList"
    assert [child.tag for child in root] == ["ContentTypeInfo", "ContentTypeInfo"]
    assert [t.findtext("identifier") for t in root] == ["folder", "article"]
    assert root[0].get("media-type") == media("ContentTypeInfo", "xml")


def test_types_of_a_group_leave_out_drafts(api: Api) -> None:
    assert create_type(api, type_create(), 3).status_code == 201
    body = get_json(api, "/content/typegroups/3/types", "ContentTypeInfoList")
    assert [t["identifier"] for t in body["ContentType"]] == ["image", "file"]


def test_types_of_an_unknown_group_is_404(api: Api) -> None:
    assert api.get("/content/typegroups/99/types", accept=media("ContentTypeInfoList")).status_code == 404
