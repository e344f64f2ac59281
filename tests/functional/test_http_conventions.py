"""HTTP conventions every resource inherits (spec/README.md "Cross-cutting rules", service-description.md).

Dialects, exact Content-Type, Accept negotiation, OPTIONS/HEAD, 404/405, input media types, body limit,
ETag with If-None-Match/If-Match, 201 Location, and custom methods through X-HTTP-Method-Override.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.rest.errors import HIDDEN
from tests.conftest import make_settings
from tests.functional.support import create_section, error_message, section_identifiers, section_input, unique
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

DIALECTS = [pytest.param(PREFIX, "ibexa", id="ibexa"), pytest.param(EZ_PREFIX, "ez", id="ez")]
CLEAN_SECTIONS = ["standard", "users", "media"]


def section(api: Api, section_id: int = 1) -> dict[str, Any]:
    response = api.get(f"/content/sections/{section_id}", accept=media("Section"))
    assert response.status_code == 200
    body: dict[str, Any] = response.json()["Section"]
    return body


# -- dialects ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_each_dialect_answers_with_its_prefix_and_vendor(
    client: TestClient, prefix: str, vendor: str
) -> None:
    response = Api(client, prefix).get("/content/sections/1", accept=media("Section", vendor=vendor))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("Section", vendor=vendor)
    assert response.headers["accept-patch"] == media("SectionInput", vendor=vendor)
    assert response.json() == {
        "Section": {
            "_media-type": media("Section", vendor=vendor),
            "_href": f"{prefix}/content/sections/1",
            "sectionId": 1,
            "identifier": "standard",
            "name": "Standard",
        }
    }


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_root_links_carry_the_request_prefix_in_xml(client: TestClient, prefix: str, vendor: str) -> None:
    response = Api(client, prefix).get("/", accept=media("Root", "xml", vendor))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("Root", "xml", vendor)
    root = xml(response)
    assert root.tag == "Root"
    assert root.get("media-type") == media("Root", "xml", vendor)
    links = {child.tag: child for child in root}
    assert links["sections"].get("href") == f"{prefix}/content/sections"
    assert links["sections"].get("media-type") == media("SectionList", "xml", vendor)
    assert links["content"].get("media-type") == ""
    assert all(child.get("href").startswith(prefix + "/") for child in root)


def test_the_prefix_decides_the_vendor_whatever_vendor_the_client_names(client: TestClient) -> None:
    api = Api(client, PREFIX)
    response = api.get("/content/sections/2", accept=media("Section", vendor="ez"))
    assert response.headers["content-type"] == media("Section")
    assert response.json()["Section"]["_href"] == f"{PREFIX}/content/sections/2"
    identifier = unique()
    created = create_section(api, identifier, vendor="ez")
    assert created.status_code == 201
    assert created.headers["content-type"] == media("Section")
    assert created.headers["location"].startswith(PREFIX + "/content/sections/")


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/", "Root"),
        ("/content/sections", "SectionList"),
        ("/content/sections/1", "Section"),
        ("/languages", "LanguageList"),
        ("/languages/eng-GB", "Language"),
        ("/services/countries", "CountryList"),
        ("/content/sections/999", "ErrorMessage"),
    ],
)
@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_content_type_is_exact_without_parameters(api: Api, path: str, name: str, fmt: str) -> None:
    response = api.get(path, accept=media(name, fmt))
    assert response.headers["content-type"] == media(name, fmt)
    assert response.headers["vary"] in ("Accept", "Accept, X-User-Context-Hash")  # the latter: cacheable


# -- Accept negotiation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "fmt"),
    [
        (media("Section"), "json"),
        (media("Section", "xml"), "xml"),
        (media("Section") + "; version=1.1", "json"),
        ("application/json", "json"),
        ("application/xml", "xml"),
        (None, "xml"),
        ("*/*", "xml"),
        ("application/vnd.ibexa.api.", "xml"),
    ],
)
def test_accept_picks_the_format(api: Api, accept: str | None, fmt: str) -> None:
    response = api.get("/content/sections/1", accept=accept)
    assert response.status_code == 200
    assert response.headers["content-type"] == media("Section", fmt)
    if fmt == "json":
        assert response.json()["Section"]["identifier"] == "standard"
    else:
        document = xml(response)
        assert document.tag == "Section"
        assert document.get("href") == f"{PREFIX}/content/sections/1"
        assert document.findtext("sectionId") == "1"
        assert document.findtext("identifier") == "standard"


# -- OPTIONS and HEAD --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prefix", "path", "allow"),
    [
        (PREFIX, "/content/sections/1", "GET,PATCH,DELETE"),
        (PREFIX, "/content/sections", "GET,POST"),
        (PREFIX, "/", "GET"),
        (PREFIX, "/user/sessions", "POST"),
        (EZ_PREFIX, "/content/sections/1", "GET,PATCH,DELETE"),
    ],
)
def test_options_lists_the_allowed_methods(client: TestClient, prefix: str, path: str, allow: str) -> None:
    # no credentials needed to ask
    response = Api(client, prefix, auth=None).request("OPTIONS", path)
    assert response.status_code == 200
    assert response.content == b""
    assert response.headers["content-length"] == "0"
    assert response.headers["allow"] == allow
    assert " " not in response.headers["allow"]


def test_options_on_an_unknown_resource_is_404(api: Api) -> None:
    error_message(api.request("OPTIONS", "/content/nothing", accept=media("ErrorMessage")), 404)


@pytest.mark.parametrize("path", ["/", "/content/sections/1", "/content/sections", "/languages/eng-GB"])
def test_head_has_the_headers_of_get_and_no_body(api: Api, path: str) -> None:
    get = api.get(path)
    head = api.request("HEAD", path)
    assert head.status_code == 200
    assert head.content == b""
    for header in ("content-type", "content-length", "etag", "accept-patch"):
        assert head.headers.get(header) == get.headers.get(header)
    assert int(head.headers["content-length"]) == len(get.content)


def test_head_on_an_unknown_resource_is_404_without_body(api: Api) -> None:
    response = api.request("HEAD", "/content/sections/999")
    assert response.status_code == 404
    assert response.content == b""


# -- 404 and 405 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_unknown_route_is_404_error_message_in_the_negotiated_format(api: Api, fmt: str) -> None:
    body = error_message(api.get("/content/nothing", accept=media("Section", fmt)), 404, fmt)
    assert body["errorMessage"] == "Not Found"
    assert body["errorDescription"] == "No resource at '/content/nothing'"


def test_path_outside_every_prefix_is_404(api: Api) -> None:
    body = error_message(api.get("/elsewhere/thing", accept="application/json"), 404)
    assert "/elsewhere/thing" in body["errorDescription"]


def test_errors_speak_the_dialect_of_the_request(client: TestClient) -> None:
    response = Api(client, EZ_PREFIX).get("/content/sections/999", accept="application/json")
    body = error_message(response, 404, vendor="ez")
    assert body["errorDescription"] == "Could not find 'Section' with identifier '999'"


def test_wrong_method_is_405_with_allow(api: Api) -> None:
    response = api.post("/content/sections/1", accept=media("Section"))
    body = error_message(response, 405)
    assert body["errorMessage"] == "Method Not Allowed"
    assert response.headers["allow"] == "GET,PATCH,DELETE"
    assert section(api)["name"] == "Standard"


TOO_BIG = "9" * 25  # no 64-bit id column can hold it


@pytest.mark.parametrize(
    "path",
    [f"/content/sections/{TOO_BIG}", f"/content/objects/{TOO_BIG}", f"/content/locations/1/2/{TOO_BIG}"],
)
@pytest.mark.parametrize("method", ["GET", "DELETE", "OPTIONS"])
def test_an_id_too_large_for_any_resource_is_404_not_500(api: Api, path: str, method: str) -> None:
    """service-description.md Errors: 404 resource missing; an id no database column can hold names no
    resource (it once reached the driver and overflowed into a 500)."""
    body = error_message(api.request(method, path, accept="application/json"), 404)
    assert body["errorDescription"] == f"No resource at '{path}'"


@pytest.mark.parametrize("parameter", ["limit", "offset"])
def test_an_integer_query_parameter_out_of_range_is_400_not_500(api: Api, parameter: str) -> None:
    """service-description.md Errors: 400 for input that does not match; never a 5xx for client input."""
    response = api.get(f"/content/types?{parameter}={TOO_BIG}", accept=media("ContentTypeInfoList"))
    body = error_message(response, 400)
    assert body["errorDescription"].startswith(f"Query parameter '{parameter}' is out of range")


def test_text_xml_cannot_carry_is_replaced_so_the_document_stays_well_formed(api: Api) -> None:
    """service-description.md Media types: a JSON client may store control characters XML 1.0 cannot
    carry (not even as &#1;); an XML client must still get a parsable document."""
    identifier = unique()
    created = create_section(api, identifier, "tab\there\u0001bell\u001f")
    assert created.status_code == 201
    section_id = created.json()["Section"]["sectionId"]
    assert section(api, section_id)["name"] == "tab\there\u0001bell\u001f"  # JSON keeps them as they are
    response = api.get(f"/content/sections/{section_id}", accept=media("Section", "xml"))
    assert response.status_code == 200
    assert xml(response).findtext("name") == "tab\there\ufffdbell\ufffd"


def test_server_errors_hide_their_details(
    client: TestClient, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any) -> None:
        raise RuntimeError("connection to db-secret.internal:5432 refused")

    monkeypatch.setattr(client.app.services.sections, "load", broken)  # type: ignore[attr-defined]
    response = api.get("/content/sections/1", accept=media("Section"))
    body = error_message(response, 500)
    assert body == {
        "_media-type": media("ErrorMessage"),
        "errorCode": 500,
        "errorMessage": "Internal Server Error",
        "errorDescription": HIDDEN,
    }
    assert b"db-secret" not in response.content


# -- input media types and bodies --------------------------------------------------------------------


def test_missing_content_type_is_400(api: Api) -> None:
    response = api.post("/content/sections", body=section_input(unique(), "X"), accept=media("Section"))
    body = error_message(response, 400)
    assert body["errorDescription"] == f"Missing Content-Type header; expected {media('SectionInput')}"
    assert section_identifiers(api) == CLEAN_SECTIONS


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        media("SessionInput"),
        "application/vnd.ibexa.api.SectionInput+yaml",
        "application/x-www-form-urlencoded",
    ],
)
def test_wrong_input_media_type_is_415_naming_it(api: Api, content_type: str) -> None:
    response = api.post(
        "/content/sections",
        body=section_input(unique(), "X"),
        content_type=content_type,
        accept=media("Section"),
    )
    body = error_message(response, 415)
    assert body["errorMessage"] == "Unsupported Media Type"
    assert f"'{content_type}'" in body["errorDescription"]
    assert section_identifiers(api) == CLEAN_SECTIONS


@pytest.mark.parametrize(
    ("content_type", "fmt"),
    [
        (media("SectionInput") + "; charset=utf-8", "json"),
        (media("SectionInput", "xml") + "; version=1.1", "xml"),
        ("application/json", "json"),
        ("application/xml", "xml"),
        ("application/vnd.ibexa.api.SectionInput", "xml"),  # no suffix: XML
    ],
)
def test_input_media_types_with_parameters_or_generic_are_accepted(
    api: Api, content_type: str, fmt: str
) -> None:
    identifier = unique()
    response = api.post(
        "/content/sections",
        body=section_input(identifier, "X", fmt),
        content_type=content_type,
        accept=media("Section"),
    )
    assert response.status_code == 201, response.text
    assert identifier in section_identifiers(api)


def test_bare_vendor_content_type_is_tolerated_on_bodiless_requests(api: Api) -> None:
    bare = "application/vnd.ibexa.api."
    assert api.get("/content/sections/1", content_type=bare, accept=bare).status_code == 200
    created = create_section(api, unique()).json()["Section"]
    assert api.delete(created["_href"], content_type=bare).status_code == 204
    assert created["identifier"] not in section_identifiers(api)


@pytest.mark.parametrize(
    ("fmt", "body", "description"),
    [
        ("json", '{"SectionInput": {"identifier": "a",', "Invalid JSON in the request body"),
        ("xml", "<SectionInput><identifier>a</SectionInput>", "Invalid XML in the request body"),
        ("json", "", "The request body is empty"),
    ],
)
def test_malformed_bodies_are_400(api: Api, fmt: str, body: str, description: str) -> None:
    response = api.post(
        "/content/sections", body=body, content_type=media("SectionInput", fmt), accept=media("Section")
    )
    assert error_message(response, 400)["errorDescription"].startswith(description)
    assert section_identifiers(api) == CLEAN_SECTIONS


@pytest.fixture
def small_api(sqlite_url: str, tmp_path: Path) -> Iterator[Api]:
    """An application that accepts request bodies of at most 64 bytes."""
    app = create_app(make_settings(sqlite_url, tmp_path, max_body_bytes=64))
    with TestClient(app) as client:
        yield Api(client)


def test_body_over_the_limit_is_413(small_api: Api) -> None:
    body = section_input("a" * 40, "b" * 40)
    assert len(body) > 64
    response = small_api.post(
        "/content/sections", body=body, content_type=media("SectionInput"), accept="application/json"
    )
    described = error_message(response, 413)
    assert described["errorMessage"] == "Payload Too Large"
    assert described["errorDescription"] == "The request body exceeds 64 bytes"
    assert section_identifiers(small_api) == CLEAN_SECTIONS


def test_streamed_body_over_the_limit_is_413(small_api: Api) -> None:
    chunks = iter([b'{"SectionInput": {"identifier": "streamed", ', b'"name": "' + b"x" * 40 + b'"}}'])
    response = small_api.post(
        "/content/sections", body=chunks, content_type=media("SectionInput"), accept="application/json"
    )
    error_message(response, 413)
    assert section_identifiers(small_api) == CLEAN_SECTIONS


def test_body_within_the_limit_passes(small_api: Api) -> None:
    body = section_input("small", "S")
    assert len(body) <= 64
    response = small_api.post(
        "/content/sections", body=body, content_type=media("SectionInput"), accept="application/json"
    )
    assert response.status_code == 201
    assert "small" in section_identifiers(small_api)


# -- ETag, If-None-Match, If-Match -------------------------------------------------------------------

SINGLE_RESOURCES = ["/", "/content/sections/1", "/languages/eng-GB"]


@pytest.mark.parametrize("path", SINGLE_RESOURCES)
def test_single_resources_carry_a_strong_etag(api: Api, path: str) -> None:
    etag = api.get(path).headers["etag"]
    assert etag.startswith('"')
    assert etag.endswith('"')
    assert len(etag) > 2
    assert api.get(path).headers["etag"] == etag


@pytest.mark.parametrize("path", SINGLE_RESOURCES)
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_if_none_match_with_the_current_etag_is_304_without_body(api: Api, path: str, method: str) -> None:
    etag = api.get(path).headers["etag"]
    for condition in (etag, f"W/{etag}", f'"stale", {etag}', "*"):
        response = api.request(method, path, headers={"If-None-Match": condition})
        assert response.status_code == 304
        assert response.content == b""
        assert response.headers["etag"] == etag


def test_not_modified_keeps_the_vary_header(api: Api) -> None:
    first = api.get("/content/sections/1")
    response = api.get("/content/sections/1", headers={"If-None-Match": first.headers["etag"]})
    assert response.status_code == 304
    assert response.headers.get("vary") == first.headers["vary"] == "Accept"  # logged in, no hash: private
    anonymous = Api(api.client, auth=None)
    folder = anonymous.get("/content/objects/1")  # anonymous reads are shared: they vary on the hash too
    again = anonymous.get("/content/objects/1", headers={"If-None-Match": folder.headers["etag"]})
    assert again.status_code == 304
    assert again.headers.get("vary") == folder.headers["vary"] == "Accept, X-User-Context-Hash"


def test_if_none_match_with_a_stale_etag_is_200(api: Api) -> None:
    response = api.get("/content/sections/1", headers={"If-None-Match": '"stale"'}, accept=media("Section"))
    assert response.status_code == 200
    assert response.json()["Section"]["identifier"] == "standard"


def patch_section(api: Api, section_id: int, name: str, **kwargs: Any) -> Any:
    return api.patch(
        f"/content/sections/{section_id}",
        body={"SectionInput": {"name": name}},
        content_type=media("SectionInput"),
        accept=media("Section"),
        **kwargs,
    )


def test_if_match_with_a_stale_etag_is_412_and_changes_nothing(api: Api) -> None:
    etag = api.get("/content/sections/1").headers["etag"]
    assert patch_section(api, 1, "First").status_code == 200  # the ETag is now stale
    response = patch_section(api, 1, "Second", headers={"If-Match": etag})
    body = error_message(response, 412)
    assert body["errorMessage"] == "Precondition Failed"
    assert section(api)["name"] == "First"


def test_if_match_with_the_current_etag_updates(api: Api) -> None:
    etag = api.get("/content/sections/1").headers["etag"]
    response = patch_section(api, 1, "Renamed", headers={"If-Match": etag})
    assert response.status_code == 200
    assert response.json()["Section"]["name"] == "Renamed"
    assert response.headers["etag"] != etag
    assert response.headers["etag"] == api.get("/content/sections/1").headers["etag"]
    assert section(api)["name"] == "Renamed"


def test_if_match_star_updates(api: Api) -> None:
    assert patch_section(api, 2, "Any", headers={"If-Match": "*"}).status_code == 200
    assert section(api, 2)["name"] == "Any"


# -- 201 Created -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_created_location_is_server_relative_and_equals_the_href(
    client: TestClient, prefix: str, vendor: str
) -> None:
    api = Api(client, prefix)
    response = create_section(api, unique(), vendor=vendor)
    assert response.status_code == 201
    location = response.headers["location"]
    body = response.json()["Section"]
    assert location == body["_href"] == f"{prefix}/content/sections/{body['sectionId']}"
    assert api.get(location, accept=media("Section", vendor=vendor)).json() == response.json()


# -- custom methods through POST + X-HTTP-Method-Override --------------------------------------------


@pytest.mark.parametrize("override", ["PATCH", "patch", " PATCH "])
def test_override_patch_updates(api: Api, override: str) -> None:
    response = api.post(
        "/content/sections/3",
        body={"SectionInput": {"name": "Overridden"}},
        content_type=media("SectionInput"),
        accept=media("Section"),
        headers={"X-HTTP-Method-Override": override},
    )
    assert response.status_code == 200
    assert response.json()["Section"]["name"] == "Overridden"
    assert section(api, 3)["name"] == "Overridden"


def test_override_delete_deletes(api: Api) -> None:
    created = create_section(api, unique()).json()["Section"]
    response = api.post(
        f"/content/sections/{created['sectionId']}", headers={"X-HTTP-Method-Override": "DELETE"}
    )
    assert response.status_code == 204
    assert response.content == b""
    error_message(api.get(created["_href"], accept="application/json"), 404)


@pytest.mark.parametrize("method", ["PUBLISH", "COPY", "MOVE", "SWAP"])
def test_override_custom_methods_reach_the_router(api: Api, method: str) -> None:
    response = api.post(
        "/content/sections/1", headers={"X-HTTP-Method-Override": method}, accept="application/json"
    )
    body = error_message(response, 405)
    assert body["errorDescription"] == f"Method {method} is not allowed on '/content/sections/1'"
    assert response.headers["allow"] == "GET,PATCH,DELETE"


def test_override_is_only_honoured_on_post(api: Api) -> None:
    response = api.get(
        "/content/sections/1", headers={"X-HTTP-Method-Override": "DELETE"}, accept=media("Section")
    )
    assert response.status_code == 200
    assert section(api)["identifier"] == "standard"


def test_override_that_is_not_a_method_token_is_ignored(api: Api) -> None:
    response = api.post(
        "/content/sections",
        body=section_input(unique(), "X"),
        content_type=media("SectionInput"),
        headers={"X-HTTP-Method-Override": "PATCH; DROP"},
        accept=media("Section"),
    )
    assert response.status_code == 201
