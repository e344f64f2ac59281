"""Content types over HTTP: list, load, create, copy, delete (shapes-content.md §14, service-description.md
"Content types" and the content-type state table, install.md §5). Drafts: test_content_type_drafts.py;
groups of a type: test_content_type_links.py."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.config import Settings
from tests.content_rows import insert_content_of_type
from tests.functional.content_types_support import (
    create_type,
    field,
    get_json,
    names,
    new_draft,
    new_type,
    status_of,
    type_create,
    type_ids,
)
from tests.functional.support import error_message, unique
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

CLEAN_TYPES = [(1, "folder"), (2, "article"), (3, "user_group"), (4, "user"), (5, "image"), (12, "file")]
USER = {"_media-type": media("User"), "_href": f"{PREFIX}/user/users/14"}


# -- list --------------------------------------------------------------------------------------------


def test_list_is_an_info_list_of_the_clean_install(api: Api) -> None:
    response = api.get("/content/types", accept=media("ContentTypeInfoList"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("ContentTypeInfoList")
    body = response.json()["ContentTypeInfoList"]
    assert body["_href"] == f"{PREFIX}/content/types"
    assert [(t["id"], t["identifier"]) for t in body["ContentType"]] == CLEAN_TYPES
    assert {t["_media-type"] for t in body["ContentType"]} == {media("ContentTypeInfo")}


def test_list_as_content_type_list_has_field_definitions(api: Api) -> None:
    body = get_json(api, "/content/types", "ContentTypeList")
    assert body["_media-type"] == media("ContentTypeList")
    assert [len(t["FieldDefinitions"]["FieldDefinition"]) for t in body["ContentType"]] == [4, 7, 2, 5, 3, 3]


def test_list_in_xml(api: Api) -> None:
    root = xml(api.get("/content/types", accept=media("ContentTypeInfoList", "xml")))
    assert [(t.tag, t.findtext("identifier")) for t in root] == [
        ("ContentTypeInfo", i) for _, i in CLEAN_TYPES
    ]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("?orderby=name", [2, 12, 1, 5, 4, 3]),
        ("?orderby=name&sort=desc", [3, 4, 5, 1, 12, 2]),
        ("?orderby=lastmodified", [3, 5, 12, 4, 2, 1]),
        ("?orderby=lastmodified&sort=DESC", [1, 2, 4, 12, 5, 3]),
        ("?limit=2", [1, 2]),
        ("?offset=4", [5, 12]),
        ("?offset=1&limit=2", [2, 3]),
        ("?orderby=name&offset=1&limit=3", [12, 1, 5]),
    ],
)
def test_list_order_and_paging(api: Api, query: str, expected: list[int]) -> None:
    assert type_ids(api, query) == expected


@pytest.mark.parametrize(
    ("query", "description"),
    [
        ("?orderby=size", "Invalid orderby 'size': expected name or lastmodified"),
        ("?orderby=name&sort=up", "Invalid sort 'up': expected asc or desc"),
        ("?limit=0", "limit must be a positive integer"),
        ("?limit=ten", "Query parameter 'limit' must be an integer, got 'ten'"),
        ("?offset=-1", "offset must not be negative"),
    ],
)
def test_list_with_bad_parameters_is_400(api: Api, query: str, description: str) -> None:
    response = api.get(f"/content/types{query}", accept=media("ContentTypeInfoList"))
    assert error_message(response, 400)["errorDescription"] == description


def test_list_by_identifier_and_remote_id(api: Api) -> None:
    assert type_ids(api, "?identifier=article") == [2]
    assert type_ids(api, "?remoteId=637d58bfddf164627bdfd265733280a0") == [12]
    body = get_json(api, "/content/types?identifier=user", "ContentTypeList")
    assert body["ContentType"][0]["FieldDefinitions"]["FieldDefinition"][2]["identifier"] == "user_account"


@pytest.mark.parametrize("query", ["?identifier=nope", "?remoteId=nope"])
def test_list_by_an_unknown_identifier_is_404(api: Api, query: str) -> None:
    response = api.get(f"/content/types{query}", accept=media("ContentTypeInfoList"))
    assert (
        error_message(response, 404)["errorDescription"]
        == "Could not find 'ContentType' with identifier 'nope'"
    )


# -- load --------------------------------------------------------------------------------------------


def test_load_folder(api: Api) -> None:
    response = api.get("/content/types/1", accept=media("ContentType"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("ContentType")
    assert "accept-patch" not in response.headers  # only drafts are patched
    body = response.json()["ContentType"]
    definitions = body.pop("FieldDefinitions")
    assert body == {
        "_media-type": media("ContentType"),
        "_href": f"{PREFIX}/content/types/1",
        "id": 1,
        "status": "DEFINED",
        "identifier": "folder",
        "names": names("Folder"),
        "descriptions": {"value": []},
        "creationDate": "2002-06-18T09:21:38+00:00",
        "modificationDate": "2015-11-29T21:14:32+00:00",
        "Creator": USER,
        "Modifier": USER,
        "Groups": {
            "_media-type": media("ContentTypeGroupRefList"),
            "_href": f"{PREFIX}/content/types/1/groups",
        },
        "Draft": {"_media-type": media("ContentType"), "_href": f"{PREFIX}/content/types/1/draft"},
        "remoteId": "a3d405b81be900468eb153d774f4f0d2",
        "urlAliasSchema": "",
        "nameSchema": "<short_name|name>",
        "isContainer": True,
        "mainLanguageCode": "eng-GB",
        "defaultAlwaysAvailable": True,
        "defaultSortField": "PATH",
        "defaultSortOrder": "ASC",
    }
    assert definitions["_href"] == f"{PREFIX}/content/types/1/fieldDefinitions"
    assert [(d["id"], d["identifier"], d["fieldType"]) for d in definitions["FieldDefinition"]] == [
        (4, "name", "ezstring"),
        (155, "short_name", "ezstring"),
        (119, "short_description", "ezrichtext"),
        (156, "description", "ezrichtext"),
    ]


def test_load_in_xml_under_the_ez_prefix(client: TestClient) -> None:
    api = Api(client, EZ_PREFIX)
    response = api.get("/content/types/4", accept=media("ContentType", "xml", "ez"))
    assert response.headers["content-type"] == media("ContentType", "xml", "ez")
    root = xml(response)
    assert (root.tag, root.get("href")) == ("ContentType", f"{EZ_PREFIX}/content/types/4")
    assert root.findtext("nameSchema") == "<first_name> <last_name>"
    assert root.find("names/value").get("languageCode") == "eng-GB"
    assert root.findtext("isContainer") == "false"
    account = root.findall("FieldDefinitions/FieldDefinition")[2]
    assert account.findtext("identifier") == "user_account"
    assert account.find("fieldSettings/value[@key='UsernamePattern']").text == "^[^@]+$"
    password = account.find("validatorConfiguration/value[@key='PasswordValueValidator']")
    assert password.find("value[@key='minLength']").text == "10"


def test_load_unknown_is_404(api: Api) -> None:
    response = api.get("/content/types/6", accept=media("ContentType"))
    assert (
        error_message(response, 404)["errorDescription"] == "Could not find 'ContentType' with identifier '6'"
    )


def test_load_answers_304_to_its_etag(api: Api) -> None:
    etag = api.get("/content/types/2", accept=media("ContentType")).headers["etag"]
    again = api.get("/content/types/2", accept=media("ContentType"), headers={"If-None-Match": etag})
    assert again.status_code == 304


# -- create ------------------------------------------------------------------------------------------


def test_create_makes_a_draft(api: Api) -> None:
    identifier = unique("blog")
    body = type_create(
        identifier,
        [
            field(
                "title",
                isRequired=True,
                validatorConfiguration={"StringLengthValidator": {"maxStringLength": 80}},
            )
        ],
        descriptions=names("Posts"),
        urlAliasSchema="<title>",
        isContainer=True,
        defaultSortField="PUBLISHED",
        defaultSortOrder="DESC",
        defaultAlwaysAvailable=False,
    )
    response = create_type(api, body)
    assert response.status_code == 201, response.text
    created = response.json()["ContentType"]
    assert created["id"] == 13  # the first type id after the clean install
    assert response.headers["location"] == created["_href"] == f"{PREFIX}/content/types/13/draft"
    assert response.headers["accept-patch"] == media("ContentTypeUpdate")
    assert (created["status"], created["identifier"], created["isContainer"]) == ("DRAFT", identifier, True)
    assert (created["defaultSortField"], created["defaultSortOrder"]) == ("PUBLISHED", "DESC")
    assert created["defaultAlwaysAvailable"] is False
    assert created["descriptions"] == names("Posts")
    assert (created["nameSchema"], created["urlAliasSchema"]) == ("<title>", "<title>")
    assert len(created["remoteId"]) == 32
    (title,) = created["FieldDefinitions"]["FieldDefinition"]
    assert title["_href"] == f"{PREFIX}/content/types/13/draft/fieldDefinitions/181"
    assert title["validatorConfiguration"] == {
        "StringLengthValidator": {"minStringLength": 0, "maxStringLength": 80}
    }
    # a draft is not a defined type yet
    assert status_of(api, "/content/types/13") == 404
    assert get_json(api, "/content/types/13/draft", "ContentType") == created
    assert 13 not in type_ids(api)


def test_create_in_xml_under_the_ez_prefix(client: TestClient) -> None:
    api = Api(client, EZ_PREFIX)
    identifier = unique("event")
    body = f"""<?xml version="1.0" encoding="UTF-8"?>
<ContentTypeCreate>
  <identifier>{identifier}</identifier>
  <names><value languageCode="eng-GB">Event</value></names>
  <remoteId>event-remote-id</remoteId>
  <nameSchema>&lt;title&gt;</nameSchema>
  <isContainer>false</isContainer>
  <mainLanguageCode>eng-GB</mainLanguageCode>
  <defaultAlwaysAvailable>true</defaultAlwaysAvailable>
  <FieldDefinitions>
    <FieldDefinition>
      <identifier>title</identifier>
      <fieldType>ezstring</fieldType>
      <position>1</position>
      <isRequired>true</isRequired>
      <defaultValue>Untitled</defaultValue>
      <names><value languageCode="eng-GB">Title</value></names>
      <validatorConfiguration>
        <value key="StringLengthValidator"><value key="maxStringLength">40</value></value>
      </validatorConfiguration>
    </FieldDefinition>
    <FieldDefinition>
      <identifier>body</identifier>
      <fieldType>eztext</fieldType>
      <position>2</position>
      <fieldSettings><value key="textRows">7</value></fieldSettings>
    </FieldDefinition>
  </FieldDefinitions>
</ContentTypeCreate>"""
    response = api.post(
        "/content/typegroups/1/types?publish=true",
        body=body,
        content_type=media("ContentTypeCreate", "xml", "ez"),
        accept=media("ContentType", "xml", "ez"),
    )
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == media("ContentType", "xml", "ez")
    root = xml(response)
    type_id = int(root.findtext("id"))
    assert response.headers["location"] == root.get("href") == f"{EZ_PREFIX}/content/types/{type_id}"
    assert (root.findtext("status"), root.findtext("remoteId")) == ("DEFINED", "event-remote-id")
    # read back in JSON under the other prefix
    stored = get_json(Api(client), f"/content/types/{type_id}", "ContentType")
    title, text = stored["FieldDefinitions"]["FieldDefinition"]
    assert (title["defaultValue"], title["isRequired"], title["names"]) == ("Untitled", True, names("Title"))
    assert title["validatorConfiguration"]["StringLengthValidator"]["maxStringLength"] == 40
    assert (text["fieldType"], text["fieldSettings"]) == ("eztext", {"textRows": 7})


def test_create_published(api: Api) -> None:
    response = create_type(api, type_create(), 2, publish="true")
    assert response.status_code == 201
    created = response.json()["ContentType"]
    assert created["status"] == "DEFINED"
    assert response.headers["location"] == f"{PREFIX}/content/types/{created['id']}"
    assert "accept-patch" not in response.headers
    assert get_json(api, f"/content/types/{created['id']}", "ContentType") == created
    assert status_of(api, f"/content/types/{created['id']}/draft") == 404
    groups = get_json(api, "/content/typegroups/2/types", "ContentTypeInfoList")["ContentType"]
    assert [t["id"] for t in groups] == [3, 4, created["id"]]


def test_create_a_draft_without_field_definitions(api: Api) -> None:
    response = create_type(api, type_create(fields=[], nameSchema=""))
    assert response.status_code == 201
    assert response.json()["ContentType"]["FieldDefinitions"]["FieldDefinition"] == []


def test_create_published_without_field_definitions_is_400(api: Api) -> None:
    identifier = unique("empty")
    response = create_type(api, type_create(identifier, fields=[], nameSchema=""), publish="true")
    assert error_message(response, 400)["errorDescription"] == (
        f"Cannot publish: Content type '{identifier}' has no field definitions"
    )
    assert type_ids(api) == [i for i, _ in CLEAN_TYPES]


def test_create_with_an_existing_identifier_is_403(api: Api) -> None:
    response = create_type(api, type_create("folder"))
    assert (
        error_message(response, 403)["errorDescription"]
        == "A content type with identifier 'folder' already exists"
    )


def test_create_with_the_identifier_of_a_draft_is_403(api: Api) -> None:
    identifier = unique("twin")
    assert create_type(api, type_create(identifier)).status_code == 201
    assert create_type(api, type_create(identifier)).status_code == 403


def test_create_with_an_existing_remote_id_is_403(api: Api) -> None:
    response = create_type(api, type_create(remoteId="a3d405b81be900468eb153d774f4f0d2"))
    assert error_message(response, 403)["errorDescription"] == (
        "A content type with remote id 'a3d405b81be900468eb153d774f4f0d2' already exists"
    )


@pytest.mark.parametrize(
    ("fields", "extra", "description"),
    [
        ([field("title", "ezfoo")], {}, "Field definition 'title': Unknown field type 'ezfoo'"),
        (
            [field("title", validatorConfiguration={"LengthValidator": {}})],
            {},
            "Field definition 'title': Unknown validator 'LengthValidator'",
        ),
        (
            [field("title"), field("body", "eztext", fieldSettings={"textRows": "many"})],
            {},
            "Field definition 'body': fieldSettings 'textRows' must be an integer",
        ),
        (
            [field("title"), field("body", "eztext", fieldSettings={"rows": 3})],
            {},
            "Field definition 'body': Unknown fieldSettings key 'rows'",
        ),
        (
            [field("title")],
            {"nameSchema": "<title> (<subtitle|title>)"},
            "nameSchema '<title> (<subtitle|title>)': placeholder '<subtitle|title>' names an unknown "
            "field definition 'subtitle'",
        ),
        (
            [field("title")],
            {"urlAliasSchema": "<slug>"},
            "urlAliasSchema '<slug>': placeholder '<slug>' names an unknown field definition 'slug'",
        ),
        (
            [field("title"), field("title", "eztext")],
            {},
            "Field definition identifier 'title' is used more than once",
        ),
        (
            [field("title"), field("account", "ezuser"), field("login", "ezuser")],
            {},
            "Field type 'ezuser' is singular: a content type may have only one",
        ),
        ([field("9lives")], {"nameSchema": ""},
         "Invalid field definition identifier '9lives': use letters, digits and '_' (at most 50 characters), "
         "not starting with a digit"),
        ([field("title")], {"defaultSortField": "SIZE"},
         "Invalid defaultSortField 'SIZE': expected one of PATH, PUBLISHED, MODIFIED, SECTION, DEPTH, "
         "CLASS_IDENTIFIER, CLASS_NAME, PRIORITY, NAME, MODIFIED_SUBNODE, NODE_ID, CONTENTOBJECT_ID"),
        ([field("title")], {"mainLanguageCode": "xxx-XX"}, "Unknown mainLanguageCode 'xxx-XX'"),
    ],
)  # fmt: skip
def test_create_with_an_invalid_definition_is_400(
    api: Api, fields: list[dict[str, Any]], extra: dict[str, Any], description: str
) -> None:
    response = create_type(api, type_create(fields=fields, **extra))
    assert error_message(response, 400)["errorDescription"] == description
    assert status_of(api, "/content/types/13/draft") == 404


def test_create_without_identifier_is_400(api: Api) -> None:
    body = type_create()
    del body["ContentTypeCreate"]["identifier"]
    response = create_type(api, body)
    assert (
        error_message(response, 400)["errorDescription"]
        == "Missing 'identifier' element for ContentTypeCreate."
    )


def test_create_with_a_bad_publish_parameter_is_400(api: Api) -> None:
    assert create_type(api, type_create(), publish="maybe").status_code == 400


def test_create_in_an_unknown_group_is_404(api: Api) -> None:
    assert create_type(api, type_create(), 99).status_code == 404


# -- copy --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("override", [False, True])
def test_copy(api: Api, override: bool) -> None:
    if override:
        response = api.post("/content/types/1", headers={"X-HTTP-Method-Override": "COPY"})
    else:
        response = api.request("COPY", "/content/types/1")
    assert response.status_code == 201
    assert response.content == b""
    assert response.headers["location"] == f"{PREFIX}/content/types/13"
    copy = get_json(api, "/content/types/13", "ContentType")
    folder = get_json(api, "/content/types/1", "ContentType")
    assert copy["identifier"] == "copy_of_folder_13"
    assert copy["remoteId"] != folder["remoteId"]
    assert (copy["status"], copy["names"], copy["nameSchema"]) == (
        "DEFINED",
        names("Folder"),
        "<short_name|name>",
    )
    copied = copy["FieldDefinitions"]["FieldDefinition"]
    original = folder["FieldDefinitions"]["FieldDefinition"]
    assert [d["identifier"] for d in copied] == [d["identifier"] for d in original]
    assert [d["id"] for d in copied] == [181, 182, 183, 184]
    assert get_json(api, "/content/types/13/groups", "ContentTypeGroupRefList")["ContentTypeGroupRef"] == [
        {"_media-type": media("ContentTypeGroup"), "_href": f"{PREFIX}/content/typegroups/1"}
    ]


def test_copy_unknown_is_404(api: Api) -> None:
    assert api.request("COPY", "/content/types/99").status_code == 404


# -- delete ------------------------------------------------------------------------------------------


def test_delete_a_type_and_its_draft(api: Api) -> None:
    created = new_type(api)
    type_id = created["id"]
    assert new_draft(api, type_id).status_code == 201
    response = api.delete(f"/content/types/{type_id}")
    assert response.status_code == 204
    assert status_of(api, f"/content/types/{type_id}") == 404
    assert status_of(api, f"/content/types/{type_id}/draft") == 404
    assert type_id not in type_ids(api)
    assert api.delete(f"/content/types/{type_id}").status_code == 404


def test_delete_a_type_with_content_items_is_403(api: Api, settings: Settings) -> None:
    type_id = new_type(api)["id"]
    insert_content_of_type(settings.database_url, type_id)
    response = api.delete(f"/content/types/{type_id}", accept=media("ErrorMessage"))
    assert (
        error_message(response, 403)["errorDescription"] == f"Content type {type_id} still has content items"
    )
    assert status_of(api, f"/content/types/{type_id}") == 200
