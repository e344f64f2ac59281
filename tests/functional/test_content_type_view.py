"""POST /content/types/view: a ContentTypeViewInput selects content types, answered as ContentTypeList
(endpoints-content.tsv; the input form follows the reference's documented ContentTypeViewInput)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.functional.content_support import encode
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, StatementCounter, media, xml

DIALECTS = [pytest.param(PREFIX, "ibexa", id="ibexa"), pytest.param(EZ_PREFIX, "ez", id="ez")]


def view(api: Api, query: dict[str, Any], fmt: str = "json", vendor: str = "ibexa") -> Any:
    body = encode("ContentTypeViewInput", {"identifier": "types", "ContentTypeQuery": query}, fmt)
    return api.post(
        "/content/types/view",
        body=body,
        content_type=media("ContentTypeViewInput", fmt, vendor),
        accept=media("ContentTypeList", fmt, vendor),
    )


def identifiers(api: Api, query: dict[str, Any]) -> list[str]:
    response = view(api, query)
    assert response.status_code == 200, response.text
    return [t["identifier"] for t in response.json()["ContentTypeList"]["ContentType"]]


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_by_identifier_in_json(client: TestClient, prefix: str, vendor: str) -> None:
    response = view(
        Api(client, prefix), {"Query": {"ContentTypeIdentifierCriterion": "folder"}}, vendor=vendor
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == media("ContentTypeList", "json", vendor)
    body = response.json()["ContentTypeList"]
    assert body["_media-type"] == media("ContentTypeList", "json", vendor)
    assert body["_href"] == f"{prefix}/content/types/view"
    [folder] = body["ContentType"]
    assert (folder["_href"], folder["id"], folder["identifier"]) == (f"{prefix}/content/types/1", 1, "folder")
    # full types: the field definitions are included
    assert [d["identifier"] for d in folder["FieldDefinitions"]["FieldDefinition"]][:2] == [
        "name",
        "short_name",
    ]


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_by_group_name_in_xml(client: TestClient, prefix: str, vendor: str) -> None:
    query = {
        "Query": {"ContentTypeGroupIdentifierCriterion": "Media"},
        "SortClauses": {"Identifier": "ascending"},
    }
    response = view(Api(client, prefix), query, fmt="xml", vendor=vendor)
    assert response.status_code == 200
    assert response.headers["content-type"] == media("ContentTypeList", "xml", vendor)
    root = xml(response)
    assert (root.tag, root.get("href")) == ("ContentTypeList", f"{prefix}/content/types/view")
    assert [(t.tag, t.findtext("identifier")) for t in root.findall("ContentType")] == [
        ("ContentType", "file"),
        ("ContentType", "image"),
    ]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"Query": {"ContentTypeIdentifierCriterion": ["user", "folder"]}}, ["folder", "user"]),
        ({"Query": {"ContentTypeIdentifierCriterion": "user,folder,nothing"}}, ["folder", "user"]),
        ({"Filter": {"ContentTypeGroupNameCriterion": "Users"}}, ["user_group", "user"]),
        ({"Query": {"ContentTypeGroupIdCriterion": 1}}, ["folder", "article"]),
        ({"Query": {"ContentTypeIdCriterion": "12,5"}}, ["image", "file"]),
        (
            {
                "Query": {
                    "ContentTypeGroupIdentifier": "Content",
                    "ContentTypeIdentifier": ["article", "user"],
                }
            },
            ["article"],
        ),
        ({"Query": {"AND": {"ContentTypeGroupIdCriterion": "2", "ContentTypeIdCriterion": "4"}}}, ["user"]),
        ({"Query": {"ContentTypeGroupIdentifierCriterion": "Nowhere"}}, []),
        ({}, ["folder", "article", "user_group", "user", "image", "file"]),
        ({"SortClauses": {"Identifier": "descending"}, "limit": 2}, ["user_group", "user"]),
        ({"SortClauses": {"Id": "desc"}, "offset": 1, "limit": "2"}, ["image", "user"]),
    ],
)
def test_criteria_order_and_page(api: Api, query: dict[str, Any], expected: list[str]) -> None:
    assert identifiers(api, query) == expected


def test_drafts_and_new_types_follow_what_is_defined(api: Api) -> None:
    draft = api.post(
        "/content/types/1",
        body={"ContentTypeUpdate": {"identifier": "binder"}},
        content_type=media("ContentTypeUpdate"),
        accept=media("ContentType"),
    )
    assert draft.status_code == 201
    # a draft is not what is defined: the view still finds the folder under its defined identifier
    assert identifiers(api, {"Query": {"ContentTypeIdentifierCriterion": "folder,binder"}}) == ["folder"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"Query": {"ContentTypeNameCriterion": "Folder"}}, "Unknown criterion 'ContentTypeNameCriterion'"),
        ({"Query": {"ContentTypeIdCriterion": "one"}}, "must list ids, got 'one'"),
        ({"Query": {"ContentTypeIdentifierCriterion": ""}}, "needs at least one value"),
        ({"Query": {"ContentTypeIdentifierCriterion": {"a": 1}}}, "must be a value or a list of values"),
        ({"SortClauses": {"Name": "ascending"}}, "Unknown sort clause 'Name'"),
        ({"SortClauses": {"Id": "upwards"}}, "must be ascending or descending"),
        ({"limit": -1}, "must not be negative"),
        ({"offset": "x"}, "'offset' in ContentTypeViewInput.ContentTypeQuery must be an integer"),
    ],
)
def test_bad_input_is_400_naming_the_part(api: Api, query: dict[str, Any], message: str) -> None:
    assert message in error_message(view(api, query), 400)["errorDescription"]


def test_wrong_media_type_is_415_and_only_post_is_allowed(api: Api) -> None:
    response = api.post(
        "/content/types/view",
        body={"ViewInput": {}},
        content_type=media("ViewInput"),
        accept=media("ContentTypeList"),
    )
    error_message(response, 415)
    assert api.request("OPTIONS", "/content/types/view").headers["allow"] == "POST"


def test_statements_do_not_grow_with_the_page(api: Api) -> None:
    def count(limit: int) -> int:
        with StatementCounter() as counter:
            assert len(identifiers(api, {"limit": limit})) == limit
        return counter.count

    identifiers(api, {"limit": 1})  # the first request of a client also verifies its password
    # Basic re-reads the caller's account (one query), then one query per table (types, groups, fields)
    assert count(1) == count(6) == 4


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_group_names_match_in_any_case_and_identifiers_exactly(api: Api, fmt: str) -> None:
    """ContentTypeGroupNameCriterion compares as the reference's collation does: ``media`` is the group
    Media. Identifiers stay case-sensitive, deliberately."""

    def found(criteria: dict[str, Any]) -> list[str]:
        response = view(api, {"Query": criteria, "SortClauses": {"Identifier": "ascending"}}, fmt=fmt)
        assert response.status_code == 200, response.text
        if fmt == "json":
            return [t["identifier"] for t in response.json()["ContentTypeList"]["ContentType"]]
        return [t.findtext("identifier") for t in xml(response).findall("ContentType")]

    assert found({"ContentTypeGroupNameCriterion": "media"}) == ["file", "image"]
    assert found({"ContentTypeGroupNameCriterion": "USERS,nowhere"}) == ["user", "user_group"]
    assert found({"ContentTypeGroupNameCriterion": "Media"}) == ["file", "image"]
    assert found({"ContentTypeGroupIdentifierCriterion": "media"}) == []
    assert found({"ContentTypeIdentifierCriterion": "Folder"}) == []
