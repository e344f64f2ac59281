"""Sections over HTTP (spec/shapes-content.md §12, service-description.md "Sections", install.md §2)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.functional.support import create_section, error_message, section_identifiers, section_input, unique
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

CLEAN_INSTALL = [(1, "standard", "Standard"), (2, "users", "Users"), (3, "media", "Media")]


def section_json(
    section_id: int, identifier: str, name: str, prefix: str = PREFIX, vendor: str = "ibexa"
) -> Any:
    return {
        "_media-type": media("Section", vendor=vendor),
        "_href": f"{prefix}/content/sections/{section_id}",
        "sectionId": section_id,
        "identifier": identifier,
        "name": name,
    }


def load(api: Api, section_id: int) -> Any:
    response = api.get(f"/content/sections/{section_id}", accept=media("Section"))
    assert response.status_code == 200
    return response.json()["Section"]


def update(api: Api, section_id: int, fmt: str = "json", **values: str) -> Any:
    return api.patch(
        f"/content/sections/{section_id}",
        body=section_input(values.get("identifier"), values.get("name"), fmt),
        content_type=media("SectionInput", fmt),
        accept=media("Section"),
    )


# -- list --------------------------------------------------------------------------------------------


def test_list_holds_the_clean_install_sections(api: Api) -> None:
    response = api.get("/content/sections", accept=media("SectionList"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("SectionList")
    assert "accept-patch" not in response.headers
    assert response.json() == {
        "SectionList": {
            "_media-type": media("SectionList"),
            "_href": f"{PREFIX}/content/sections",
            "Section": [section_json(*s) for s in CLEAN_INSTALL],
        }
    }


def test_list_in_xml_repeats_section_elements(api: Api) -> None:
    root = xml(api.get("/content/sections", accept=media("SectionList", "xml")))
    assert root.tag == "SectionList"
    assert root.get("href") == f"{PREFIX}/content/sections"
    assert [(s.get("href"), s.findtext("identifier")) for s in root.findall("Section")] == [
        (f"{PREFIX}/content/sections/{i}", ident) for i, ident, _ in CLEAN_INSTALL
    ]


@pytest.mark.parametrize("parameter", ["identifier", "identifer"])
def test_list_filtered_by_identifier(api: Api, parameter: str) -> None:
    # the interface spells it "identifer"; both spellings work
    response = api.get(f"/content/sections?{parameter}=users", accept=media("SectionList"))
    assert response.status_code == 200
    assert response.json()["SectionList"]["Section"] == [section_json(2, "users", "Users")]


@pytest.mark.parametrize("parameter", ["identifier", "identifer"])
def test_list_filtered_by_an_unknown_identifier_is_404(api: Api, parameter: str) -> None:
    response = api.get(f"/content/sections?{parameter}=nope", accept=media("SectionList"))
    assert (
        error_message(response, 404)["errorDescription"] == "Could not find 'Section' with identifier 'nope'"
    )


def test_list_supports_conditional_reads(api: Api) -> None:
    etag = api.get("/content/sections", accept=media("SectionList")).headers.get("etag")
    assert etag
    again = api.get("/content/sections", accept=media("SectionList"), headers={"If-None-Match": etag})
    assert again.status_code == 304
    create_section(api, unique())
    changed = api.get("/content/sections", accept=media("SectionList"), headers={"If-None-Match": etag})
    assert changed.status_code == 200


# -- load --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("section_id", "identifier", "name"), CLEAN_INSTALL)
def test_load(api: Api, section_id: int, identifier: str, name: str) -> None:
    response = api.get(f"/content/sections/{section_id}", accept=media("Section"))
    assert response.status_code == 200
    assert response.headers["accept-patch"] == media("SectionInput")
    assert response.json() == {"Section": section_json(section_id, identifier, name)}


def test_load_in_xml(api: Api) -> None:
    response = api.get("/content/sections/3", accept=media("Section", "xml"))
    root = xml(response)
    assert (root.tag, root.get("media-type"), root.get("href")) == (
        "Section",
        media("Section", "xml"),
        f"{PREFIX}/content/sections/3",
    )
    assert [(child.tag, child.text) for child in root] == [
        ("sectionId", "3"),
        ("identifier", "media"),
        ("name", "Media"),
    ]


# -- create ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "xml"])
@pytest.mark.parametrize(("prefix", "vendor"), [(PREFIX, "ibexa"), (EZ_PREFIX, "ez")])
def test_create(client: TestClient, fmt: str, prefix: str, vendor: str) -> None:
    api = Api(client, prefix)
    identifier = unique()
    response = create_section(api, identifier, "Zoë & <Co>", fmt=fmt, vendor=vendor)
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == media("Section", vendor=vendor)
    created = response.json()["Section"]
    new_id = created["sectionId"]
    assert new_id == 4  # the first section after the clean install
    assert created == section_json(new_id, identifier, "Zoë & <Co>", prefix, vendor)
    assert response.headers["location"] == created["_href"]
    # read back, in the other dialect too
    assert Api(client).get(f"/content/sections/{new_id}", accept=media("Section")).json() == {
        "Section": section_json(new_id, identifier, "Zoë & <Co>")
    }
    assert section_identifiers(Api(client))[-1] == identifier


def test_create_answers_in_xml_when_asked(api: Api) -> None:
    identifier = unique()
    response = create_section(api, identifier, "X", fmt="xml", accept=media("Section", "xml"))
    assert response.status_code == 201
    root = xml(response)
    assert root.findtext("identifier") == identifier
    assert root.get("href") == response.headers["location"]


def test_create_with_an_existing_identifier_is_403_and_creates_nothing(api: Api) -> None:
    response = create_section(api, "standard", "Another")
    body = error_message(response, 403)
    assert body["errorDescription"] == "A section with identifier 'standard' already exists"
    assert section_identifiers(api) == ["standard", "users", "media"]
    assert load(api, 1)["name"] == "Standard"


@pytest.mark.parametrize(
    ("values", "description"),
    [
        ({"name": "No identifier"}, "Missing 'identifier' element for SectionInput."),
        ({"identifier": unique()}, "Missing 'name' element for SectionInput."),
        ({"identifier": "  ", "name": "Blank"}, "The section identifier must not be empty"),
    ],
)
def test_create_with_invalid_input_is_400(api: Api, values: dict[str, str], description: str) -> None:
    response = api.post(
        "/content/sections",
        body={"SectionInput": values},
        content_type=media("SectionInput"),
        accept=media("Section"),
    )
    assert error_message(response, 400)["errorDescription"] == description
    assert section_identifiers(api) == ["standard", "users", "media"]


# -- update ------------------------------------------------------------------------------------------


def test_update_name_and_identifier(api: Api) -> None:
    response = update(api, 3, identifier="media_library", name="Media library")
    assert response.status_code == 200
    assert response.headers["content-type"] == media("Section")
    assert response.json() == {"Section": section_json(3, "media_library", "Media library")}
    assert load(api, 3) == section_json(3, "media_library", "Media library")


def test_update_one_field_keeps_the_other(api: Api) -> None:
    assert update(api, 2, name="People").status_code == 200
    assert load(api, 2) == section_json(2, "users", "People")


def test_update_with_an_xml_body(api: Api) -> None:
    response = update(api, 2, "xml", identifier="people", name="People & Co")
    assert response.status_code == 200
    assert load(api, 2) == section_json(2, "people", "People & Co")


def test_update_to_its_own_identifier_is_allowed(api: Api) -> None:
    assert update(api, 1, identifier="standard", name="Standard!").status_code == 200
    assert load(api, 1) == section_json(1, "standard", "Standard!")


def test_update_to_an_existing_identifier_is_403_and_changes_nothing(api: Api) -> None:
    response = update(api, 3, identifier="users", name="Clash")
    assert (
        error_message(response, 403)["errorDescription"] == "A section with identifier 'users' already exists"
    )
    assert load(api, 3) == section_json(3, "media", "Media")


# -- delete ------------------------------------------------------------------------------------------


def test_delete(api: Api) -> None:
    identifier = unique()
    created = create_section(api, identifier).json()["Section"]
    response = api.delete(f"/content/sections/{created['sectionId']}")
    assert response.status_code == 204
    assert response.content == b""
    error_message(api.get(created["_href"], accept=media("Section")), 404)
    assert identifier not in section_identifiers(api)


# -- missing sections and anonymous callers ----------------------------------------------------------


@pytest.mark.parametrize("method", ["GET", "PATCH", "DELETE"])
def test_unknown_section_is_404(api: Api, method: str) -> None:
    response = api.request(
        method,
        "/content/sections/999",
        body=section_input("x", "y"),
        content_type=media("SectionInput"),
        accept=media("Section"),
    )
    assert (
        error_message(response, 404)["errorDescription"] == "Could not find 'Section' with identifier '999'"
    )


def test_anonymous_cannot_load_a_section(client: TestClient) -> None:
    response = Api(client, auth=None).get("/content/sections/1", accept=media("Section"))
    body = error_message(response, 401)
    assert body["errorDescription"] == "The User does not have the 'view' 'section' permission"


def test_anonymous_cannot_create_a_section(client: TestClient, api: Api) -> None:
    identifier = unique()
    response = create_section(Api(client, auth=None), identifier)
    assert (
        error_message(response, 401)["errorDescription"]
        == "The User does not have the 'edit' 'section' permission"
    )
    assert identifier not in section_identifiers(api)


@pytest.mark.parametrize("method", ["PATCH", "DELETE"])
def test_anonymous_cannot_change_a_section(client: TestClient, api: Api, method: str) -> None:
    response = Api(client, auth=None).request(
        method,
        "/content/sections/3",
        body=section_input("anon", "Anon"),
        content_type=media("SectionInput"),
        accept=media("Section"),
    )
    error_message(response, 401)
    assert load(api, 3) == section_json(3, "media", "Media")
