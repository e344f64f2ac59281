"""Field definitions of content types and of their drafts over HTTP (shapes-content.md §14,
service-description.md "Content types", fieldtypes.md, install.md §5)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.config import Settings
from tests.content_rows import insert_content_of_type
from tests.functional.content_types_support import (
    field,
    get_json,
    names,
    new_draft,
    new_type,
)
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml


def add(api: Api, type_id: int, body: dict[str, Any]) -> Any:
    return api.post(
        f"/content/types/{type_id}/draft/fieldDefinitions",
        body={"FieldDefinitionCreate": body},
        content_type=media("FieldDefinitionCreate"),
        accept=media("FieldDefinition"),
    )


def update(api: Api, type_id: int, fd_id: int, body: dict[str, Any], **kwargs: Any) -> Any:
    return api.patch(
        f"/content/types/{type_id}/draft/fieldDefinitions/{fd_id}",
        body={"FieldDefinitionUpdate": body},
        content_type=media("FieldDefinitionUpdate"),
        accept=media("FieldDefinition"),
        **kwargs,
    )


def draft_identifiers(api: Api, type_id: int) -> list[str]:
    body = get_json(api, f"/content/types/{type_id}/draft/fieldDefinitions", "FieldDefinitionList")
    return [d["identifier"] for d in body["FieldDefinition"]]


# -- field definitions of defined types --------------------------------------------------------------


def test_list_of_a_defined_type(api: Api) -> None:
    response = api.get("/content/types/12/fieldDefinitions", accept=media("FieldDefinitionList"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("FieldDefinitionList")
    body = response.json()["FieldDefinitions"]
    assert body["_href"] == f"{PREFIX}/content/types/12/fieldDefinitions"
    assert [(d["id"], d["identifier"], d["position"]) for d in body["FieldDefinition"]] == [
        (146, "name", 1),
        (147, "description", 2),
        (148, "file", 3),
    ]


def test_load_one(api: Api) -> None:
    response = api.get("/content/types/2/fieldDefinitions/1", accept=media("FieldDefinition"))
    assert response.status_code == 200
    assert "accept-patch" not in response.headers
    assert response.json() == {
        "FieldDefinition": {
            "_media-type": media("FieldDefinition"),
            "_href": f"{PREFIX}/content/types/2/fieldDefinitions/1",
            "id": 1,
            "identifier": "title",
            "fieldType": "ezstring",
            "fieldGroup": "content",
            "position": 0,
            "isTranslatable": True,
            "isRequired": True,
            "isThumbnail": True,
            "isInfoCollector": False,
            "defaultValue": "New article",
            "isSearchable": True,
            "names": names("Title"),
            "descriptions": {"value": []},
            "fieldSettings": [],  # an empty PHP hash is a JSON array (shapes-content.md §0)
            "validatorConfiguration": {
                "StringLengthValidator": {"minStringLength": 0, "maxStringLength": 255}
            },
        }
    }


def test_definitions_without_a_default_show_the_empty_value_of_their_type(api: Api) -> None:
    """shapes-content.md §14 / fieldtypes.md: defaultValue is the field type's hash of its (empty) default,
    so an empty rich text is still {"xml": <empty section>}, a checkbox false, a list []; and an empty PHP
    hash goes out as a JSON array (§0), also nested (ezselection multilingualOptions)."""
    created = new_type(
        api,
        fields=[
            field("title"),
            field("flag", "ezboolean"),
            field("body", "ezrichtext"),
            field("choice", "ezselection", fieldSettings={"options": ["a", "b"]}),
            field("links", "ezobjectrelationlist"),
            field("authors", "ezauthor"),
        ],
    )
    found = {d["identifier"]: d for d in created["FieldDefinitions"]["FieldDefinition"]}
    assert found["title"]["defaultValue"] is None
    assert found["title"]["fieldSettings"] == []
    assert found["flag"]["defaultValue"] is False
    assert found["flag"]["validatorConfiguration"] == []
    assert found["body"]["defaultValue"]["xml"].rstrip().endswith('version="5.0-variant ezpublish-1.0"/>')
    assert found["choice"]["defaultValue"] == []
    assert found["choice"]["fieldSettings"]["multilingualOptions"] == []
    assert found["links"]["defaultValue"] == {"destinationContentIds": [], "destinationContentHrefs": []}
    assert found["authors"]["defaultValue"] == []
    # read back, in XML: the same values as <value> elements
    response = api.get(
        f"/content/types/{created['id']}/fieldDefinitions/{found['flag']['id']}",
        accept=media("FieldDefinition", "xml"),
    )
    assert xml(response).findtext("defaultValue") == "false"


def test_load_one_by_identifier(api: Api) -> None:
    body = get_json(api, "/content/types/2/fieldDefinition/enable_comments", "FieldDefinition")
    assert (body["id"], body["fieldType"], body["defaultValue"], body["isTranslatable"]) == (
        123, "ezboolean", False, False
    )  # fmt: skip
    # the reference answers with the URL asked, not the id form
    assert body["_href"] == f"{PREFIX}/content/types/2/fieldDefinition/enable_comments"


@pytest.mark.parametrize(("prefix", "vendor"), [(PREFIX, "ibexa"), (EZ_PREFIX, "ez")])
def test_load_one_by_identifier_in_xml(client: TestClient, prefix: str, vendor: str) -> None:
    response = Api(client, prefix).get(
        "/content/types/4/fieldDefinition/image", accept=media("FieldDefinition", "xml", vendor)
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == media("FieldDefinition", "xml", vendor)
    root = xml(response)
    assert (root.tag, root.get("href"), root.findtext("id")) == (
        "FieldDefinition",
        f"{prefix}/content/types/4/fieldDefinition/image",
        "180",
    )


def test_load_one_of_a_draft_by_identifier(api: Api) -> None:
    path = "/content/types/2/draft/fieldDefinition/enable_comments"
    error_message(api.get(path, accept=media("FieldDefinition")), 404)  # no draft yet
    new_draft(api, 2)
    response = api.get(path, accept=media("FieldDefinition"))
    assert response.status_code == 200
    assert response.headers["accept-patch"] == media("FieldDefinitionUpdate")
    body = response.json()["FieldDefinition"]
    assert (body["_href"], body["id"], body["fieldType"]) == (f"{PREFIX}{path}", 123, "ezboolean")
    added = add(api, 2, field("subtitle"))
    assert added.status_code == 201, added.text
    new = get_json(api, "/content/types/2/draft/fieldDefinition/subtitle", "FieldDefinition")
    assert new["id"] == added.json()["FieldDefinition"]["id"]
    # the defined type does not have it until the draft is published
    error_message(api.get("/content/types/2/fieldDefinition/subtitle", accept=media("FieldDefinition")), 404)


def test_load_one_in_xml_under_the_ez_prefix(client: TestClient) -> None:
    api = Api(client, EZ_PREFIX)
    response = api.get("/content/types/4/fieldDefinitions/180", accept=media("FieldDefinition", "xml", "ez"))
    assert response.headers["content-type"] == media("FieldDefinition", "xml", "ez")
    root = xml(response)
    assert (root.tag, root.get("href")) == (
        "FieldDefinition",
        f"{EZ_PREFIX}/content/types/4/fieldDefinitions/180",
    )
    assert (root.findtext("fieldType"), root.findtext("isSearchable"), root.findtext("isThumbnail")) == (
        "ezimage", "false", "true"
    )  # fmt: skip
    size = root.find("validatorConfiguration/value[@key='FileSizeValidator']/value[@key='maxFileSize']")
    assert size.text == "10"


def test_relation_settings_carry_location_hrefs(api: Api) -> None:
    new_draft(api, 2)
    response = update(api, 2, 154, {"fieldSettings": {"selectionRoot": 43, "selectionMethod": 1}})
    assert response.status_code == 200, response.text
    settings = response.json()["FieldDefinition"]["fieldSettings"]
    assert settings == {
        "selectionMethod": "SELECTION_DROPDOWN",
        "selectionRoot": 43,
        "selectionContentTypes": [],
        "selectionRootHref": f"{PREFIX}/content/locations/43",
    }


@pytest.mark.parametrize(
    "path",
    [
        "/content/types/2/fieldDefinitions/4",  # a field definition of another type
        "/content/types/2/fieldDefinition/nope",
        "/content/types/99/fieldDefinitions",
        "/content/types/99/fieldDefinitions/1",
    ],
)
def test_unknown_is_404(api: Api, path: str) -> None:
    assert api.get(path, accept=media("FieldDefinition")).status_code == 404


def test_load_answers_304_to_its_etag(api: Api) -> None:
    etag = api.get("/content/types/1/fieldDefinitions/4", accept=media("FieldDefinition")).headers["etag"]
    response = api.get(
        "/content/types/1/fieldDefinitions/4",
        accept=media("FieldDefinition"),
        headers={"If-None-Match": etag},
    )
    assert response.status_code == 304


# -- field definitions of drafts ---------------------------------------------------------------------


def test_draft_list_needs_a_draft(api: Api) -> None:
    assert api.get("/content/types/1/draft/fieldDefinitions").status_code == 404
    new_draft(api, 1)
    assert draft_identifiers(api, 1) == ["name", "short_name", "short_description", "description"]


def test_add(api: Api) -> None:
    new_draft(api, 1)
    response = add(
        api,
        1,
        field(
            "summary",
            "eztext",
            fieldGroup="meta",
            isRequired=True,
            isSearchable=False,
            descriptions=names("A short summary"),
            fieldSettings={"textRows": 4},
            defaultValue="Nothing yet",
        ),
    )
    assert response.status_code == 201, response.text
    created = response.json()["FieldDefinition"]
    assert created["id"] == 181
    assert (
        response.headers["location"]
        == created["_href"]
        == f"{PREFIX}/content/types/1/draft/fieldDefinitions/181"
    )
    assert response.headers["accept-patch"] == media("FieldDefinitionUpdate")
    assert (created["position"], created["fieldGroup"], created["isRequired"], created["isSearchable"]) == (
        5, "meta", True, False
    )  # fmt: skip
    assert (created["fieldSettings"], created["defaultValue"]) == ({"textRows": 4}, "Nothing yet")
    assert created["descriptions"] == names("A short summary")
    assert get_json(api, "/content/types/1/draft/fieldDefinitions/181", "FieldDefinition") == created
    # the defined type does not have it until the draft is published
    assert api.get("/content/types/1/fieldDefinitions/181").status_code == 404
    assert api.request("PUBLISH", "/content/types/1/draft").status_code == 200
    assert get_json(api, "/content/types/1/fieldDefinition/summary", "FieldDefinition")["id"] == 181


def test_add_in_xml(api: Api) -> None:
    new_draft(api, 5)
    body = """<FieldDefinitionCreate>
  <identifier>credit</identifier>
  <fieldType>ezstring</fieldType>
  <isTranslatable>false</isTranslatable>
  <names><value languageCode="eng-GB">Credit</value></names>
  <validatorConfiguration>
    <value key="StringLengthValidator"><value key="minStringLength">2</value></value>
  </validatorConfiguration>
</FieldDefinitionCreate>"""
    response = api.post(
        "/content/types/5/draft/fieldDefinitions",
        body=body,
        content_type=media("FieldDefinitionCreate", "xml"),
        accept=media("FieldDefinition", "xml"),
    )
    assert response.status_code == 201, response.text
    root = xml(response)
    assert (root.findtext("identifier"), root.findtext("isTranslatable")) == ("credit", "false")
    assert root.get("href") == response.headers["location"]
    stored = get_json(api, root.get("href"), "FieldDefinition")
    assert stored["validatorConfiguration"]["StringLengthValidator"] == {
        "minStringLength": 2,
        "maxStringLength": None,
    }


def test_add_without_a_draft_is_404(api: Api) -> None:
    assert add(api, 1, field("extra")).status_code == 404


def test_add_an_existing_identifier_is_403(api: Api) -> None:
    new_draft(api, 1)
    response = add(api, 1, field("name"))
    assert error_message(response, 403)["errorDescription"] == (
        "Field definition identifier 'name' already exists in the type"
    )


def test_add_a_second_singular_field_type_is_403(api: Api) -> None:
    new_draft(api, 4)
    response = add(api, 4, field("second_account", "ezuser"))
    assert (
        error_message(response, 403)["errorDescription"]
        == "Field type 'ezuser' is singular and already in the type"
    )
    assert "second_account" not in draft_identifiers(api, 4)


def test_add_a_field_type_not_addable_to_a_type_with_content_is_403(api: Api, settings: Settings) -> None:
    type_id = new_type(api)["id"]
    new_draft(api, type_id)
    assert add(api, type_id, field("account", "ezuser")).status_code == 201  # no content items yet
    api.delete(f"/content/types/{type_id}/draft")
    insert_content_of_type(settings.database_url, type_id)
    new_draft(api, type_id)
    response = add(api, type_id, field("account", "ezuser"))
    assert error_message(response, 403)["errorDescription"] == (
        "Field type 'ezuser' cannot be added to a type that has content items"
    )
    assert add(api, type_id, field("subtitle")).status_code == 201  # other types still can


@pytest.mark.parametrize(
    ("body", "description"),
    [
        (field("extra", "ezmatrix"), "Field definition 'extra': Unknown field type 'ezmatrix'"),
        (
            field("extra", validatorConfiguration={"StringLengthValidator": {"maxStringLength": "long"}}),
            "Field definition 'extra': validatorConfiguration 'StringLengthValidator' parameter "
            "'maxStringLength' must be an integer",
        ),
        (
            field("extra", validatorConfiguration={"StringLengthValidator": {"maxLength": 3}}),
            "Field definition 'extra': Unknown parameter 'maxLength' of validator 'StringLengthValidator'",
        ),
        (
            field("extra", "ezinteger", validatorConfiguration={"RangeValidator": {}}),
            "Field definition 'extra': Unknown validator 'RangeValidator'",
        ),
        (
            field("extra", "ezboolean", fieldSettings={"default": True}),
            "Field definition 'extra': Unknown fieldSettings key 'default'",
        ),
        (field("extra", fieldSettings=["a"]), "'fieldSettings' in FieldDefinitionCreate must be a hash"),
        ({"fieldType": "ezstring"}, "Missing 'identifier' element for FieldDefinitionCreate."),
        ({"identifier": "extra"}, "Missing 'fieldType' element for field definition 'extra'."),
    ],
)
def test_add_an_invalid_definition_is_400(api: Api, body: dict[str, Any], description: str) -> None:
    new_draft(api, 1)
    response = add(api, 1, body)
    assert error_message(response, 400)["errorDescription"] == description
    assert "extra" not in draft_identifiers(api, 1)


def test_update(api: Api) -> None:
    new_draft(api, 2)
    response = update(
        api,
        2,
        152,
        {
            "identifier": "subtitle",
            "position": 9,
            "names": names("Subtitle"),
            "validatorConfiguration": {"StringLengthValidator": {"maxStringLength": 60}},
        },
    )
    assert response.status_code == 200, response.text
    assert response.headers["accept-patch"] == media("FieldDefinitionUpdate")
    stored = get_json(api, "/content/types/2/draft/fieldDefinitions/152", "FieldDefinition")
    assert stored == response.json()["FieldDefinition"]
    assert (stored["identifier"], stored["position"], stored["names"]) == ("subtitle", 9, names("Subtitle"))
    # merged into the current configuration, not replacing it
    assert stored["validatorConfiguration"] == {
        "StringLengthValidator": {"minStringLength": 0, "maxStringLength": 60}
    }
    assert (stored["isRequired"], stored["fieldType"]) == (False, "ezstring")
    assert draft_identifiers(api, 2)[-1] == "subtitle"  # ordered by position
    # the defined type keeps the old definition
    assert (
        get_json(api, "/content/types/2/fieldDefinitions/152", "FieldDefinition")["identifier"]
        == "short_title"
    )


def test_update_to_an_existing_identifier_is_403(api: Api) -> None:
    new_draft(api, 2)
    response = update(api, 2, 152, {"identifier": "title"})
    assert error_message(response, 403)["errorDescription"] == (
        "Field definition identifier 'title' already exists in the type"
    )


def test_update_with_a_bad_setting_is_400(api: Api) -> None:
    new_draft(api, 4)
    response = update(api, 4, 179, {"fieldSettings": {"textRows": -1}})
    assert error_message(response, 400)["errorDescription"] == (
        "Field definition 'signature': fieldSettings 'textRows' cannot be lower than 0"
    )


def test_update_with_a_stale_etag_is_412(api: Api) -> None:
    new_draft(api, 2)
    path = "/content/types/2/draft/fieldDefinitions/121"
    etag = api.get(path, accept=media("FieldDefinition")).headers["etag"]
    assert update(api, 2, 121, {"position": 6}, headers={"If-Match": etag}).status_code == 200
    response = update(api, 2, 121, {"position": 7}, headers={"If-Match": etag})
    assert error_message(response, 412)["errorDescription"].startswith("Field definition 121 has changed")
    assert get_json(api, path, "FieldDefinition")["position"] == 6


def test_update_unknown_is_404(api: Api) -> None:
    new_draft(api, 2)
    assert update(api, 2, 4, {"position": 1}).status_code == 404


def test_delete(api: Api) -> None:
    new_draft(api, 2)
    response = api.delete("/content/types/2/draft/fieldDefinitions/123")
    assert response.status_code == 204
    assert "enable_comments" not in draft_identifiers(api, 2)
    assert api.get("/content/types/2/draft/fieldDefinitions/123").status_code == 404
    assert api.delete("/content/types/2/draft/fieldDefinitions/123").status_code == 404
    assert api.request("PUBLISH", "/content/types/2/draft").status_code == 200
    assert api.get("/content/types/2/fieldDefinition/enable_comments").status_code == 404


def test_publish_refuses_a_schema_naming_a_deleted_definition(api: Api) -> None:
    new_draft(api, 3)
    assert api.delete("/content/types/3/draft/fieldDefinitions/6").status_code == 204
    response = api.request("PUBLISH", "/content/types/3/draft", accept=media("ContentType"))
    assert error_message(response, 403)["errorDescription"] == (
        "Cannot publish the draft: nameSchema '<name>': placeholder '<name>' names an unknown "
        "field definition 'name'"
    )
