"""Content items over HTTP: the clean install, create, load, update metadata, delete, copy, hide
(spec/endpoints-content.tsv content/objects rows, shapes-content.md §1, §3, §8, §9; install.md §6-§7)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.functional import content_types_support as types
from tests.functional.content_support import (
    ROOT,
    USER,
    content_create,
    content_info,
    create_folder,
    field,
    main_location_path,
    post_content,
    publish,
    version,
)
from tests.functional.file_support import png, upload
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

# -- the clean install ---------------------------------------------------------------------------------

CLEAN_CONTENT = [
    # id, name, type, section, remote id, current version, main location path
    (1, "Ibexa Platform", 1, 1, "9459d3c29e15006e45197295722c7ade", 9, "1/2"),
    (4, "Users", 3, 2, "f5c88a2209584891056f987fd965b0ba", 1, "1/5"),
    (10, "Anonymous User", 4, 2, "faaeb9be3bd98ed09f606fc16d144eca", 2, "1/5/44/45"),
    (11, "Guest accounts", 3, 2, "5f7f0bdb3381d6a461d8c29ff53d908f", 1, "1/5/12"),
    (12, "Administrator users", 3, 2, "9b47a45624b023b1a76c73b74d704acf", 1, "1/5/13"),
    (13, "Editors", 3, 2, "3c160cca19fb135f83bd02d911f04db2", 1, "1/5/14"),
    (14, "Administrator User", 4, 2, "1bb4fe25487f05527efa8bfd394cecc7", 3, "1/5/13/15"),
    (41, "Media", 1, 3, "a6e35cbcb7cd6ae4b691f3eee30cd262", 1, "1/43"),
    (42, "Anonymous users", 3, 2, "15b256dbea2ae72418ff5facc999e8f9", 1, "1/5/44"),
    (49, "Images", 1, 3, "e7ff633c6b8e0fd3531e74c6e712bead", 1, "1/43/51"),
    (50, "Files", 1, 3, "732a5acd01b51a6fe6eab448ad4138a9", 1, "1/43/52"),
    (51, "Multimedia", 1, 3, "09082deb98662a104f325aaa8c4933d3", 1, "1/43/53"),
]


@pytest.mark.parametrize(
    ("content_id", "name", "type_id", "section", "remote_id", "version_no", "path"), CLEAN_CONTENT
)
def test_clean_install_content_items(
    api: Api,
    content_id: int,
    name: str,
    type_id: int,
    section: int,
    remote_id: str,
    version_no: int,
    path: str,
) -> None:
    info = content_info(api, content_id)
    assert (info["_id"], info["Name"], info["_remoteId"]) == (content_id, name, remote_id)
    assert info["ContentType"]["_href"] == f"{PREFIX}/content/types/{type_id}"
    assert info["Section"]["_href"] == f"{PREFIX}/content/sections/{section}"
    assert info["currentVersionNo"] == version_no
    assert main_location_path(info) == path
    assert info["Owner"]["_href"] == f"{PREFIX}/user/users/14"
    assert info["status"] == "PUBLISHED"
    assert info["mainLanguageCode"] == "eng-GB"


def test_clean_install_root_content_shape(api: Api) -> None:
    info = content_info(api, 1)
    assert info == {
        "_media-type": media("ContentInfo"),
        "_href": f"{PREFIX}/content/objects/1",
        "_remoteId": "9459d3c29e15006e45197295722c7ade",
        "_id": 1,
        "ContentType": {"_media-type": media("ContentType"), "_href": f"{PREFIX}/content/types/1"},
        "Name": "Ibexa Platform",
        "TranslatedName": "Ibexa Platform",
        "Versions": {"_media-type": media("VersionList"), "_href": f"{PREFIX}/content/objects/1/versions"},
        "CurrentVersion": {
            "_media-type": media("Version"),
            "_href": f"{PREFIX}/content/objects/1/currentversion",
        },
        "Section": {"_media-type": media("Section"), "_href": f"{PREFIX}/content/sections/1"},
        "MainLocation": {"_media-type": media("Location"), "_href": f"{PREFIX}/content/locations/1/2"},
        "Locations": {"_media-type": media("LocationList"), "_href": f"{PREFIX}/content/objects/1/locations"},
        "Owner": {"_media-type": media("User"), "_href": f"{PREFIX}/user/users/14"},
        "lastModificationDate": "2015-11-30T13:10:46+00:00",
        "publishedDate": "2015-11-30T13:10:46+00:00",
        "mainLanguageCode": "eng-GB",
        "currentVersionNo": 9,
        "alwaysAvailable": True,
        "isHidden": False,
        "status": "PUBLISHED",
        "ObjectStates": {
            "_media-type": media("ContentObjectStates"),
            "_href": f"{PREFIX}/content/objects/1/objectstates",
        },
    }


def test_clean_install_user_fields(api: Api) -> None:
    values = {f["fieldDefinitionIdentifier"]: f for f in version(api, 14, 3)["Fields"]["field"]}
    assert values["first_name"]["fieldValue"] == "Administrator"
    assert values["last_name"]["fieldValue"] == "User"
    assert (values["first_name"]["id"], values["user_account"]["id"], values["image"]["id"]) == (28, 30, 180)
    account = values["user_account"]["fieldValue"]
    assert (account["login"], account["email"], account["contentId"]) == ("admin", "admin@link.invalid", 14)
    assert "password" not in account and "passwordHash" not in account
    users = {f["fieldDefinitionIdentifier"]: f["id"] for f in version(api, 4, 1)["Fields"]["field"]}
    assert users == {"name": 8, "description": 7}


# -- create ------------------------------------------------------------------------------------------


def test_create_returns_a_draft_content_info(api: Api) -> None:
    response = post_content(api, content_create([field("name", "Projects")], remoteId="projects-folder"))
    assert response.status_code == 201
    assert response.headers["content-type"] == media("ContentInfo")
    info = response.json()["Content"]
    assert response.headers["location"] == info["_href"] == f"{PREFIX}/content/objects/{info['_id']}"
    assert info["_id"] >= 52
    assert info["_remoteId"] == "projects-folder"
    assert (info["status"], info["currentVersionNo"], info["Name"]) == ("DRAFT", 1, "Projects")
    assert "MainLocation" not in info and "publishedDate" not in info
    assert "CurrentVersion" in info and "Version" not in info["CurrentVersion"]
    # read back: version 1 is a draft of the caller, with the field values, and no real location yet
    draft = version(api, info["_id"], 1)
    assert draft["VersionInfo"]["status"] == "DRAFT"
    assert draft["VersionInfo"]["Creator"]["_href"] == f"{PREFIX}/user/users/14"
    assert {f["fieldDefinitionIdentifier"]: f["fieldValue"] for f in draft["Fields"]["field"]}[
        "name"
    ] == "Projects"
    locations = api.get(f"/content/objects/{info['_id']}/locations", accept=media("LocationList"))
    assert locations.json()["LocationList"]["Location"] == []


def test_first_publish_places_the_pending_location(api: Api) -> None:
    created = create_folder(api, "Placed")
    publish(api, created["_id"])
    info = content_info(api, created["_id"])
    assert info["status"] == "PUBLISHED"
    assert "publishedDate" in info
    path = main_location_path(info)
    assert path.startswith(ROOT + "/")
    location = api.get(f"/content/locations/{path}", accept=media("Location")).json()["Location"]
    assert location["pathString"] == f"/{path}/"
    assert (location["depth"], location["sortField"], location["sortOrder"]) == (2, "PATH", "ASC")
    assert location["ContentInfo"]["Content"]["_id"] == created["_id"]


def test_location_of_a_new_item_takes_the_sort_of_its_type(api: Api) -> None:
    """shapes-content.md §8 / endpoints-content.tsv: sortField and sortOrder of the LocationCreate in a
    ContentCreate are overwritten with the content type defaults (folder: PATH, ASC)."""
    data = content_create([field("name", "Sorted by type")])
    data["LocationCreate"].update(sortField="NAME", sortOrder="DESC")
    response = post_content(api, data, fmt="xml")
    assert response.status_code == 201, response.text
    content_id = int(xml(response).get("id"))
    publish(api, content_id)
    path = main_location_path(content_info(api, content_id))
    location = api.get(f"/content/locations/{path}", accept=media("Location")).json()["Location"]
    assert (location["sortField"], location["sortOrder"]) == ("PATH", "ASC")


def test_create_with_accept_content_embeds_the_version(api: Api) -> None:
    response = post_content(api, content_create([field("name", "Embedded")]), accept="Content")
    assert response.status_code == 201
    assert response.headers["content-type"] == media("Content")
    current = response.json()["Content"]["CurrentVersion"]
    assert current["_href"].endswith("/currentversion")
    fields = current["Version"]["Fields"]["field"]
    assert [f["fieldDefinitionIdentifier"] for f in fields] == [
        "name",
        "short_name",
        "short_description",
        "description",
    ]
    assert fields[0]["fieldValue"] == "Embedded" and fields[0]["fieldTypeIdentifier"] == "ezstring"


def test_create_in_xml_answers_in_xml(api: Api) -> None:
    data = content_create([field("name", "Xml folder"), field("short_name", "Xml")])
    response = post_content(api, data, fmt="xml", accept="Content")
    assert response.status_code == 201
    assert response.headers["content-type"] == media("Content", "xml")
    root = xml(response)
    assert root.tag == "Content" and root.get("media-type") == media("Content", "xml")
    assert root.findtext("Name") == "Xml"  # <short_name|name>: the short name wins
    assert root.findtext("status") == "DRAFT"
    values = {f.findtext("fieldDefinitionIdentifier"): f.findtext("fieldValue") for f in root.iter("field")}
    assert values["name"] == "Xml folder"


def test_create_in_the_ez_dialect(client: TestClient) -> None:
    api = Api(client, EZ_PREFIX)
    data = content_create([field("name", "Old client")], prefix=EZ_PREFIX)
    response = post_content(api, data, vendor="ez")
    assert response.status_code == 201
    assert response.headers["content-type"] == media("ContentInfo", vendor="ez")
    assert response.headers["location"].startswith(f"{EZ_PREFIX}/content/objects/")
    assert response.json()["Content"]["Section"]["_href"] == f"{EZ_PREFIX}/content/sections/1"


def test_create_with_section_owner_and_always_available(api: Api) -> None:
    data = content_create(
        [field("name", "Metadata")],
        parent="1/43",
        Section={"_href": f"{PREFIX}/content/sections/3"},
        User={"_href": f"{PREFIX}/user/users/10"},
        alwaysAvailable="false",
    )
    info = post_content(api, data).json()["Content"]
    assert info["Section"]["_href"] == f"{PREFIX}/content/sections/3"
    assert info["Owner"]["_href"] == f"{PREFIX}/user/users/10"
    assert info["alwaysAvailable"] is False


def test_section_defaults_to_the_parent_content_section(api: Api) -> None:
    info = create_folder(api, "Under media", parent="1/43")
    assert info["Section"]["_href"] == f"{PREFIX}/content/sections/3"


def test_name_comes_from_the_name_schema_of_the_type(api: Api) -> None:
    account = {"login": "jdoe", "email": "jdoe@example.com", "password": "Secret123456", "enabled": True}
    data = content_create(
        [field("first_name", "John"), field("last_name", "Doe"), field("user_account", account)],
        type_id=USER,
        parent="1/5/12",
    )
    response = post_content(api, data, accept="Content")
    assert response.status_code == 201, response.text
    body = response.json()["Content"]
    assert body["Name"] == "John Doe"
    values = {
        f["fieldDefinitionIdentifier"]: f["fieldValue"]
        for f in body["CurrentVersion"]["Version"]["Fields"]["field"]
    }
    assert values["user_account"]["login"] == "jdoe"
    assert values["user_account"]["plainPassword"] is None
    assert "Secret123456" not in response.text


def test_remote_id_taken_is_403(api: Api) -> None:
    response = post_content(
        api, content_create([field("name", "Dup")], remoteId="9459d3c29e15006e45197295722c7ade")
    )
    error_message(response, 403)


def test_missing_parent_location_is_404(api: Api) -> None:
    error_message(post_content(api, content_create([field("name", "Lost")], parent="1/2/9999")), 404)


def test_missing_content_type_is_404(api: Api) -> None:
    error_message(post_content(api, content_create([field("name", "No type")], type_id=999)), 404)


def test_anonymous_cannot_create(client: TestClient) -> None:
    error_message(post_content(Api(client, auth=None), content_create([field("name", "Nope")])), 401)


def test_input_errors_are_400(api: Api) -> None:
    data = content_create([field("name", "x")])
    del data["mainLanguageCode"]
    assert "mainLanguageCode" in error_message(post_content(api, data), 400)["errorDescription"]
    bad_type = content_create([field("name", "x")], ContentType={"_href": "/content/types/1"})
    error_message(post_content(api, bad_type), 400)
    unknown_language = content_create([field("name", "x")], language="xxx-XX")
    error_message(post_content(api, unknown_language), 400)


def details(response: Any) -> list[dict[str, Any]]:
    fields: list[dict[str, Any]] = response.json()["ErrorMessage"]["errorDetails"]["fields"]
    return fields


def test_field_validation_errors_carry_error_details(api: Api) -> None:
    data = content_create(
        [
            field("name", ""),
            field("short_name", "x" * 101),
            field("colour", "blue"),
            field("short_description", None, "fre-FR"),
        ]
    )
    response = post_content(api, data)
    error_message(response, 400)
    found = {(d["_fieldIdentifier"], d["_languageCode"]): d for d in details(response)}
    assert found[("name", "eng-GB")]["_fieldTypeId"] == 4
    assert found[("name", "eng-GB")]["errors"][0]["type"] == "empty"
    assert found[("short_name", "eng-GB")]["errors"][0]["type"] == "StringLengthValidator"
    assert found[("colour", "eng-GB")]["errors"][0]["type"] == "UnknownField"
    assert found[("short_description", "fre-FR")]["errors"][0]["type"] == "LanguageNotInstalled"
    assert api.get("/content/objects?remoteId=none").status_code == 404  # nothing was stored


def test_field_validation_errors_in_xml(api: Api) -> None:
    response = post_content(api, content_create([field("name", None)]), fmt="xml")
    error_message(response, 400, "xml")
    root = xml(response)
    errors = root.find("errorDetails")
    assert errors is not None
    # XML lists are repeated items without a wrapper: <field> per field, <error> per error
    # (shapes-content.md §0 "list", §1 field validation)
    assert [child.tag for child in errors] == ["field"]
    assert errors.find("field").get("fieldTypeId") == "4"
    assert [child.tag for child in errors.find("field")] == ["error"]
    assert errors.findtext("field/error/type") == "empty"


# -- load --------------------------------------------------------------------------------------------


def test_content_info_carries_etag_and_accept_patch(api: Api) -> None:
    response = api.get("/content/objects/1", accept=media("ContentInfo"))
    assert response.headers["accept-patch"] == media("ContentUpdate")
    etag = response.headers["etag"]
    again = api.get("/content/objects/1", accept=media("ContentInfo"), headers={"If-None-Match": etag})
    assert again.status_code == 304
    full = api.get("/content/objects/1", accept=media("Content"), headers={"If-None-Match": etag})
    assert full.status_code == 304  # Content and ContentInfo share the ETag of the item


def test_default_representation_is_content_info_in_xml(api: Api) -> None:
    response = api.get("/content/objects/41")
    assert response.headers["content-type"] == media("ContentInfo", "xml")
    root = xml(response)
    assert root.tag == "Content" and root.get("id") == "41" and root.findtext("Name") == "Media"
    assert root.find("CurrentVersion/Version") is None


def test_unknown_content_is_404(api: Api) -> None:
    error_message(api.get("/content/objects/9999", accept=media("ContentInfo")), 404)


def test_find_by_remote_id_redirects(api: Api) -> None:
    response = api.get("/content/objects?remoteId=a6e35cbcb7cd6ae4b691f3eee30cd262", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"{PREFIX}/content/objects/41"
    assert response.content == b""
    error_message(api.get("/content/objects?remoteId=nothing", accept=media("ContentInfo")), 404)
    error_message(api.get("/content/objects", accept=media("ContentInfo")), 400)


def test_a_draft_is_401_to_others(client: TestClient, api: Api) -> None:
    draft = create_folder(api, "Private")
    anonymous = Api(client, auth=None)
    error_message(anonymous.get(f"/content/objects/{draft['_id']}", accept=media("ContentInfo")), 401)
    assert anonymous.get("/content/objects/1", accept=media("ContentInfo")).status_code == 200


def test_anonymous_reads_standard_section_content_but_not_users(client: TestClient) -> None:
    """The clean install's Anonymous role reads content of section 1 only (spec/auth.md §2)."""
    anonymous = Api(client, auth=None)
    assert anonymous.get("/content/objects/1", accept=media("ContentInfo")).status_code == 200
    refused = anonymous.get("/content/objects/14", accept=media("ContentInfo"))
    assert refused.status_code == 401
    assert refused.json()["ErrorMessage"]["errorCode"] == 401
    assert anonymous.get("/content/locations/1/5/13/15", accept=media("Location")).status_code == 401


@pytest.mark.parametrize("related", [False, True])
@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_the_created_item_is_answered_as_a_read_returns_it(api: Api, fmt: str, related: bool) -> None:
    """Create answers with what it wrote, without reading it back: the answer must be the bytes and the
    ETag a read of the new draft returns, for field types whose stored form differs from their input
    (rich text, images, relations, numbers, keywords) and fields given out of definition order."""
    target = int(create_folder(api, "Related")["_id"])
    publish(api, target)
    created_type = types.new_type(
        api,
        fields=[
            types.field("title"),
            types.field("body", "ezrichtext"),
            types.field("count", "ezinteger"),
            types.field("ratio", "ezfloat"),
            types.field("flag", "ezboolean"),
            types.field("tags", "ezkeyword"),
            types.field("photo", "ezimage"),
            types.field("links", "ezobjectrelationlist"),
            types.field("empty"),
        ],
    )
    image = upload("dot.png", png(3, 2), alternativeText="A dot")
    rich = (
        '<?xml version="1.0" encoding="UTF-8"?><section xmlns="http://docbook.org/ns/docbook" '
        'version="5.0-variant ezpublish-1.0"><para>Some <emphasis>rich</emphasis> text.</para></section>'
    )
    links = [field("links", {"destinationContentIds": [target]})] if related else []
    data = content_create(
        [
            *links,
            field("photo", image),
            field("tags", ["b", "a"]),
            field("flag", True),
            field("ratio", 2.5),
            field("count", 42),
            field("body", {"xml": rich}),
            field("title", "Answered as read"),
        ],
        type_id=created_type["id"],
    )
    response = post_content(api, data, fmt=fmt, accept="Content")
    assert response.status_code == 201, response.text
    content_id = int(response.json()["Content"]["_id"] if fmt == "json" else xml(response).get("id"))
    read = api.get(f"/content/objects/{content_id}", accept=media("Content", fmt))
    assert read.status_code == 200
    assert response.content == read.content
    assert response.headers["etag"] == read.headers["etag"]
