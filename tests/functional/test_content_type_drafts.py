"""Drafts of content types over HTTP: create from a defined type, update, publish, delete
(service-description.md "Content types" and the content-type state table, shapes-content.md §14)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.functional.content_types_support import (
    get_json,
    names,
    new_draft,
    new_type,
    publish,
    status_of,
    type_ids,
)
from tests.functional.support import error_message
from tests.helpers import PREFIX, Api, media, xml

# -- drafts of defined types -------------------------------------------------------------------------


def test_create_a_draft_of_a_defined_type(api: Api) -> None:
    response = new_draft(api, 2, {"names": names("Story"), "isContainer": False})
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"{PREFIX}/content/types/2/draft"
    draft = response.json()["ContentType"]
    assert (draft["status"], draft["names"], draft["isContainer"]) == ("DRAFT", names("Story"), False)
    first = draft["FieldDefinitions"]["FieldDefinition"][0]
    assert first["_href"] == f"{PREFIX}/content/types/2/draft/fieldDefinitions/1"
    # the defined type is unchanged until the draft is published
    assert get_json(api, "/content/types/2", "ContentType")["names"] == names("Article")
    assert get_json(api, "/content/types/2/draft", "ContentType") == draft


def test_create_a_draft_answers_content_type_info_when_asked(api: Api) -> None:
    response = api.post(
        "/content/types/3",
        body="<ContentTypeUpdate><names><value languageCode='eng-GB'>Team</value></names>"
        "</ContentTypeUpdate>",
        content_type=media("ContentTypeUpdate", "xml"),
        accept=media("ContentTypeInfo", "xml"),
    )
    assert response.status_code == 201
    root = xml(response)
    assert (root.tag, root.findtext("names/value"), root.find("FieldDefinitions")) == (
        "ContentTypeInfo",
        "Team",
        None,
    )


def test_create_a_second_draft_is_403(api: Api) -> None:
    assert new_draft(api, 1).status_code == 201
    response = new_draft(api, 1)
    assert error_message(response, 403)["errorDescription"] == "Content type 1 already has a draft"


def test_create_a_draft_with_a_taken_identifier_is_403(api: Api) -> None:
    response = new_draft(api, 1, {"identifier": "article"})
    assert (
        error_message(response, 403)["errorDescription"]
        == "A content type with identifier 'article' already exists"
    )
    assert status_of(api, "/content/types/1/draft") == 404


@pytest.mark.parametrize(
    "path", ["/content/types/{id}/draft", "/content/types/{id}/draft/fieldDefinitions", "{field}"]
)
def test_anonymous_users_cannot_read_a_type_draft(api: Api, path: str) -> None:
    """A draft is work in progress: reading it needs class/update (spec/permissions.md), as making it
    does; the defined type stays readable."""
    response = new_draft(api, 2, {"names": names("Secret plan")})
    assert response.status_code == 201, response.text
    field_href = response.json()["ContentType"]["FieldDefinitions"]["FieldDefinition"][0]["_href"]
    url = path.format(id=2, field=field_href)
    anonymous = Api(api.client, auth=None)
    body = error_message(anonymous.get(url, accept=media("ContentType")), 401)
    assert body["errorDescription"] == "The User does not have the 'update' 'class' permission"
    assert api.get(url, accept=media("ContentType")).status_code == 200
    assert anonymous.get("/content/types/2", accept=media("ContentType")).status_code == 200


def test_load_a_missing_draft_is_404(api: Api) -> None:
    response = api.get("/content/types/1/draft", accept=media("ContentType"))
    assert (
        error_message(response, 404)["errorDescription"]
        == "Could not find 'ContentTypeDraft' with identifier '1'"
    )


def update_draft(api: Api, type_id: int, values: dict[str, Any], **kwargs: Any) -> Any:
    return api.patch(
        f"/content/types/{type_id}/draft",
        body={"ContentTypeUpdate": values},
        content_type=media("ContentTypeUpdate"),
        accept=media("ContentType"),
        **kwargs,
    )


def test_update_a_draft(api: Api) -> None:
    new_draft(api, 5)
    response = update_draft(
        api, 5, {"names": names("Picture"), "descriptions": names("A photo"), "urlAliasSchema": "<name>"}
    )
    assert response.status_code == 200, response.text
    assert response.headers["accept-patch"] == media("ContentTypeUpdate")
    draft = get_json(api, "/content/types/5/draft", "ContentType")
    assert (draft["names"], draft["descriptions"], draft["urlAliasSchema"]) == (
        names("Picture"), names("A photo"), "<name>"
    )  # fmt: skip
    assert draft["nameSchema"] == "<name>"  # left alone
    assert len(draft["FieldDefinitions"]["FieldDefinition"]) == 3  # metadata only


def test_update_a_draft_with_a_bad_schema_is_400(api: Api) -> None:
    new_draft(api, 5)
    response = update_draft(api, 5, {"nameSchema": "<title>"})
    assert error_message(response, 400)["errorDescription"] == (
        "nameSchema '<title>': placeholder '<title>' names an unknown field definition 'title'"
    )


def test_update_a_draft_with_a_taken_identifier_is_403(api: Api) -> None:
    new_draft(api, 5)
    assert update_draft(api, 5, {"identifier": "file"}).status_code == 403
    assert get_json(api, "/content/types/5/draft", "ContentType")["identifier"] == "image"


def test_update_a_draft_with_a_stale_etag_is_412(api: Api) -> None:
    etag = new_draft(api, 5).headers["etag"]
    assert api.get("/content/types/5/draft", accept=media("ContentType")).headers["etag"] == etag
    assert update_draft(api, 5, {"names": names("One")}, headers={"If-Match": etag}).status_code == 200
    response = update_draft(api, 5, {"names": names("Two")}, headers={"If-Match": etag})
    assert error_message(response, 412)["errorDescription"].startswith(
        "The draft of content type 5 has changed"
    )
    assert get_json(api, "/content/types/5/draft", "ContentType")["names"] == names("One")


def test_update_without_a_draft_is_404(api: Api) -> None:
    assert update_draft(api, 5, {"names": names("X")}).status_code == 404


@pytest.mark.parametrize("override", [False, True])
def test_publish_a_draft(api: Api, override: bool) -> None:
    new_draft(api, 12, {"names": names("Document"), "identifier": "document"})
    if override:
        response = api.post(
            "/content/types/12/draft",
            headers={"X-HTTP-Method-Override": "PUBLISH"},
            accept=media("ContentType"),
        )
    else:
        response = publish(api, 12)
    assert response.status_code == 200, response.text
    published = response.json()["ContentType"]
    assert (published["status"], published["identifier"], published["_href"]) == (
        "DEFINED", "document", f"{PREFIX}/content/types/12"
    )  # fmt: skip
    assert get_json(api, "/content/types/12", "ContentType") == published
    assert status_of(api, "/content/types/12/draft") == 404
    assert type_ids(api, "?identifier=document") == [12]


def test_publish_a_new_type(api: Api) -> None:
    draft = new_type(api, publish=False)
    response = publish(api, draft["id"])
    assert response.status_code == 200
    assert type_ids(api)[-1] == draft["id"]


def test_publish_an_incomplete_draft_is_403(api: Api) -> None:
    draft = new_type(api, publish=False, fields=[], nameSchema="")
    response = publish(api, draft["id"])
    assert error_message(response, 403)["errorDescription"] == (
        f"Cannot publish the draft: Content type '{draft['identifier']}' has no field definitions"
    )
    assert status_of(api, f"/content/types/{draft['id']}") == 404


def test_publish_without_a_draft_is_404(api: Api) -> None:
    assert publish(api, 1).status_code == 404


def test_delete_a_draft(api: Api) -> None:
    new_draft(api, 1)
    response = api.delete("/content/types/1/draft")
    assert response.status_code == 204
    assert status_of(api, "/content/types/1/draft") == 404
    assert status_of(api, "/content/types/1") == 200
    assert api.delete("/content/types/1/draft").status_code == 404
