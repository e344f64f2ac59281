"""The OpenAPI document made from the route table, and the table's declarations held to what handlers do."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate
from starlette.testclient import TestClient

from pressroom.config import Dialect, Settings
from pressroom.domain.section import Section
from pressroom.rest.app import RestApp
from pressroom.rest.declared import UndeclaredResponse, success_responses
from pressroom.rest.input.registry import plain
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Empty
from pressroom.rest.route_texts import TEXTS
from pressroom.rest.routes import ROUTES
from pressroom.rest.routing import Router, make_route
from tests.conftest import make_settings
from tests.helpers import Api, media

DIALECTS = (("/api/ibexa/v2", "ibexa"), ("/api/ezp/v2", "ez"))


def described(spec: dict[str, Any]) -> set[tuple[str, str]]:
    """(method, path) of every operation the document describes, custom methods by their own name."""
    found = set()
    for path, item in spec["paths"].items():
        for key, operation in item.items():
            if "x-http-methods" in operation:
                found.update((entry["method"], path) for entry in operation["x-http-methods"])
            else:
                found.add((operation.get("x-http-method", key.upper()), path))
    return found


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_each_dialect_serves_a_valid_document_without_login(
    client: TestClient, prefix: str, vendor: str
) -> None:
    response = client.get(prefix + "/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    spec = response.json()
    validate(spec)  # raises on any violation of OpenAPI 3.1
    assert spec["openapi"] == "3.1.0"
    assert spec["servers"] == [{"url": prefix}]
    sections = spec["paths"]["/content/sections"]
    assert set(sections["post"]["requestBody"]["content"]) == {
        f"application/vnd.{vendor}.api.SectionInput+json",
        f"application/vnd.{vendor}.api.SectionInput+xml",
    }
    assert f"application/vnd.{vendor}.api.SectionList+json" in sections["get"]["responses"]["200"]["content"]
    assert sections["get"]["parameters"] == [
        {"name": "identifier", "in": "query", "required": False, "schema": {"type": "string"}},
        {"name": "identifer", "in": "query", "required": False, "schema": {"type": "string"}},
    ]
    other = "ez" if vendor == "ibexa" else "ibexa"
    assert f"vnd.{other}.api" not in response.text


def test_every_route_is_described_and_nothing_else(client: TestClient) -> None:
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    expected = {
        (method, re.sub(r"\{([A-Za-z_]+):[a-z]+\}", r"{\1}", route.template))
        for route in ROUTES
        for method in route.methods
    }
    assert len(expected) == len([method for route in ROUTES for method in route.methods])
    heads = {("HEAD", path) for method, path in expected if method == "GET"}  # every GET route serves HEAD
    assert described(spec) == expected | heads


def test_custom_methods_are_posts_naming_the_verb(client: TestClient) -> None:
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    trash_item = spec["paths"]["/content/trash/{trashItemId}"]["post"]
    assert trash_item["x-http-method"] == "MOVE"
    override = next(p for p in trash_item["parameters"] if p["name"] == "X-HTTP-Method-Override")
    assert (override["in"], override["required"], override["schema"]["enum"]) == ("header", True, ["MOVE"])
    # a real POST and COPY share one path: one POST operation lists both, the override optional
    content_type = spec["paths"]["/content/types/{typeId}"]["post"]
    assert [entry["method"] for entry in content_type["x-http-methods"]] == ["COPY", "POST"]
    override = next(p for p in content_type["parameters"] if p["name"] == "X-HTTP-Method-Override")
    assert (override["required"], override["schema"]["enum"]) == (False, ["COPY"])


def test_responses_and_errors_follow_the_handlers(client: TestClient) -> None:
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    create = spec["paths"]["/content/sections"]["post"]["responses"]
    assert set(create) == {"201", "400", "401", "403", "408", "413", "415", "429", "503"}
    assert create["201"]["content"]["application/vnd.ibexa.api.Section+json"]["schema"] == {
        "$ref": "#/components/schemas/Section"
    }
    assert create["415"] == {"$ref": "#/components/responses/Error415"}
    error = spec["components"]["responses"]["Error415"]["content"]
    assert error["application/vnd.ibexa.api.ErrorMessage+json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorMessage"
    }
    delete = spec["paths"]["/content/sections/{sectionId}"]["delete"]["responses"]
    assert "content" not in delete["204"]
    assert "404" in delete
    translation = spec["paths"]["/content/objects/{contentId}/translations/{languageCode}"]["delete"]
    assert {"406", "409"} <= set(translation["responses"])
    schema = spec["components"]["schemas"]["Section"]
    assert schema["required"] == ["Section"]
    assert schema["properties"]["Section"]["required"] == ["_media-type"]


def _page_urls(html: str) -> list[str]:
    urls: list[str] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            urls.extend(value for name, value in attrs if name in ("src", "href") and value)

    Collect().feed(html)
    return urls


def test_docs_page_loads_only_local_assets(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    urls = _page_urls(page.text)
    assert urls
    assert all(url.startswith("/docs/") for url in urls), urls
    for url in urls:
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert asset.content
    init = client.get("/docs/pressroom-docs.js").text
    assert '"url":"/api/ibexa/v2/openapi.json"' in init
    assert '"url":"/api/ezp/v2/openapi.json"' in init
    assert "validatorUrl: null" in init
    assert client.get("/docs/LICENSE").status_code == 404
    assert client.get("/docs/../pressroom/app.py").status_code == 404


def test_configured_prefixes_are_the_documents(tmp_path: Path, sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, tmp_path, dialects=(Dialect("/rest/v2", "ibexa"),))
    app = RestApp(settings, _services(settings), Router(ROUTES))
    with TestClient(app) as client:
        spec = client.get("/rest/v2/openapi.json").json()
        assert spec["servers"] == [{"url": "/rest/v2"}]
        assert client.get("/api/ibexa/v2/openapi.json").status_code == 404


# -- the declarations hold: handlers cannot read or answer what their route does not declare ---------------


def _services(settings: Settings) -> Any:
    from pressroom.app import create_app

    return create_app(settings).services


def _reads_query(req: RestRequest) -> Section:
    req.query.get("secret")
    return Section(1, "standard", "Standard")


def _reads_input(req: RestRequest) -> Section:
    req.input(plain)
    return Section(1, "standard", "Standard")


def _answers_empty(req: RestRequest) -> Empty:
    return Empty(202)


def _answers_section(req: RestRequest) -> Section:
    return Section(1, "standard", "Standard")


@pytest.fixture
def strict_client(settings: Settings) -> TestClient:
    routes = [
        make_route("GET", "/query", _reads_query, "t.query"),
        make_route("POST", "/input", _reads_input, "t.input"),
        make_route("GET", "/empty", _answers_empty, "t.empty", responses={204: ""}),
        make_route("GET", "/section", _answers_section, "t.section", responses={200: "SectionList"}),
        make_route("GET", "/declared", _reads_query, "t.declared", query="secret"),
    ]
    app = RestApp(settings, _services(settings), Router([*ROUTES, *routes]))
    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize(
    ("method", "path"), [("GET", "/query"), ("POST", "/input"), ("GET", "/empty"), ("GET", "/section")]
)
def test_an_undeclared_read_or_answer_is_a_bug(
    strict_client: TestClient, caplog: pytest.LogCaptureFixture, method: str, path: str
) -> None:
    response = strict_client.request(
        method,
        "/api/ibexa/v2" + path,
        content=b'{"SectionInput": {}}',
        headers={"content-type": "application/vnd.ibexa.api.SectionInput+json", "accept": "application/json"},
    )
    assert response.status_code == 500
    assert "undeclared" in caplog.records[-1].exc_text  # type: ignore[operator]


def test_a_declared_read_is_served(strict_client: TestClient) -> None:
    response = strict_client.get("/api/ibexa/v2/declared?secret=1", headers={"accept": "application/json"})
    assert response.status_code == 200
    assert response.json()["Section"]["identifier"] == "standard"


def test_a_return_type_that_says_nothing_needs_declared_responses() -> None:
    with pytest.raises(UndeclaredResponse, match=r"t\.empty"):
        success_responses(make_route("GET", "/empty", _answers_empty, "t.empty"))


# -- what schemathesis found, kept ---------------------------------------------------------------------------


def test_a_role_draft_answers_as_declared(client: TestClient) -> None:
    """The Role visitor writes RoleDraft for a draft: both are declared (was a 500 once declared as Role)."""
    response = client.post("/api/ibexa/v2/user/roles/1", auth=("admin", "publish"))
    assert response.status_code == 201
    assert response.headers["content-type"] == "application/vnd.ibexa.api.RoleDraft+xml"
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    created = spec["paths"]["/user/roles/{roleId}"]["post"]["responses"]["201"]["content"]
    assert "application/vnd.ibexa.api.RoleDraft+xml" in created


def test_unknown_query_values_and_override_methods_answer_declared_errors(client: TestClient) -> None:
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    auth = ("admin", "publish")
    assert client.get("/api/ibexa/v2/content/sections?identifier=nope", auth=auth).status_code == 404
    assert "404" in spec["paths"]["/content/sections"]["get"]["responses"]
    publish = client.post(
        "/api/ibexa/v2/user/roles/1/draft", auth=auth, headers={"x-http-method-override": "FROB"}
    )
    assert publish.status_code == 405
    assert "405" in spec["paths"]["/user/roles/{roleId}/draft"]["post"]["responses"]


def test_a_status_shared_with_and_without_a_body_declares_none(client: TestClient) -> None:
    """COPY of a content type is 201 without a body, POST (create draft) 201 with one: one POST describes
    both, so its 201 cannot promise a body."""
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    created = spec["paths"]["/content/types/{typeId}"]["post"]["responses"]["201"]
    assert "content" not in created
    copy = client.post(
        "/api/ibexa/v2/content/types/1", auth=("admin", "publish"), headers={"x-http-method-override": "COPY"}
    )
    assert (copy.status_code, copy.content) == (201, b"")


def test_every_operation_reads_like_documentation(client: TestClient) -> None:
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    for path, item in spec["paths"].items():
        for key, operation in item.items():
            names = operation["operationId"].removesuffix(".head").split("+")
            summary, description = operation["summary"], operation["description"]
            assert not any(name in summary for name in names), (path, key, summary)  # words, not route names
            assert summary[0].isupper() and len(summary.split()) >= 2, (path, key, summary)
            for status in (status for status in operation["responses"] if int(status) >= 400):
                assert f"\n- {status} " in description, (path, key, status)  # each error explained
    assert set(TEXTS) == {route.name for route in ROUTES}  # a text for every route, none left stale
    create = spec["paths"]["/content/objects"]["post"]
    assert create["summary"] == "Create content"
    assert "content/create" in create["description"]  # who may call it
    shared = spec["paths"]["/content/types/{typeId}"]["post"]
    assert shared["summary"] == "Copy a content type; Start a content type draft"
    assert "**COPY**:" in shared["description"] and "**POST**:" in shared["description"]


def test_head_is_described_where_it_works(client: TestClient) -> None:
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    head = spec["paths"]["/content/sections/{sectionId}"]["head"]
    assert head["operationId"] == "section.load.head"
    assert "content" not in head["responses"]["200"]
    assert head["responses"]["404"]["description"].startswith("Not Found")
    answer = client.head("/api/ibexa/v2/content/sections/1", auth=("admin", "publish"))
    assert (answer.status_code, answer.content) == (200, b"")
    assert all("head" not in item for item in spec["paths"].values() if "get" not in item)


MISSING_LOCATION = "/api/ibexa/v2/content/locations/1/999999"
BODIES_NAMING_NOTHING = (
    (
        "/content/objects",
        "ContentCreate",
        {
            "ContentType": {"_href": "/api/ibexa/v2/content/types/1"},
            "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": MISSING_LOCATION}},
            "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "x"}]},
        },
    ),
    (
        "/content/urlaliases",
        "UrlAliasCreate",
        {
            "_type": "LOCATION",
            "location": {"_href": MISSING_LOCATION},
            "path": "/x",
            "languageCode": "eng-GB",
        },
    ),
    (
        "/user/groups/subgroups",
        "UserGroupCreate",
        {
            "ContentType": {"_href": "/api/ibexa/v2/content/types/999999"},
            "mainLanguageCode": "eng-GB",
            "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "x"}]},
        },
    ),
)


@pytest.mark.parametrize(("path", "name", "body"), BODIES_NAMING_NOTHING)
def test_a_body_naming_what_does_not_exist_answers_a_declared_404(
    api: Api, path: str, name: str, body: dict[str, Any]
) -> None:
    # schemathesis found it: a POST without path parameters whose body names a missing item answers 404
    answer = api.post(path, body={name: body}, content_type=media(name))
    assert answer.status_code == 404, answer.text
    spec = api.get("/openapi.json").json()
    assert "404" in spec["paths"][path]["post"]["responses"]


def test_reads_with_a_session_need_no_csrf_token(client: TestClient) -> None:
    spec = client.get("/api/ibexa/v2/openapi.json").json()
    assert {"session": [], "csrf": []} in spec["security"]  # what writes need
    sections = spec["paths"]["/content/sections"]
    for read in (sections["get"], sections["head"]):
        assert {"session": []} in read["security"] and {"basic": []} in read["security"]
        assert all("csrf" not in requirement for requirement in read["security"])
    assert "security" not in sections["post"]
    # a session's cookie alone reads; it writes only with its CSRF token
    login = client.post(
        "/api/ibexa/v2/user/sessions",
        content=b'{"SessionInput": {"login": "admin", "password": "publish"}}',
        headers={"Content-Type": media("SessionInput"), "Accept": media("Session")},
    )
    assert login.status_code == 201, login.text
    assert (
        client.get("/api/ibexa/v2/content/sections/1", headers={"Accept": media("Section")}).status_code
        == 200
    )
    write = {"Content-Type": media("SectionInput")}
    body = b'{"SectionInput": {"identifier": "csrf_probe", "name": "Probe"}}'
    assert client.post("/api/ibexa/v2/content/sections", content=body, headers=write).status_code == 401
