"""Per-process caches (content types, languages, sections, versions, rendered Content) are exact across
processes: two application instances over one database stand for two server processes, and every change
made through one is seen by the next request to the other, on SQLite and PostgreSQL. The statement counts
of the hot paths are asserted here, so that a change adding a round trip fails."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from tests.conftest import make_settings
from tests.functional import content_types_support as types
from tests.functional.content_support import (
    content_create,
    field,
    install_language,
    new_draft,
    post_content,
    publish,
    published_folder,
    update_version,
)
from tests.functional.test_relations import relate
from tests.helpers import Api, StatementCounter, media


@pytest.fixture
def two(database_url: str, tmp_path: Path) -> Iterator[tuple[Api, Api]]:
    """Two application instances (as two server processes would be) over one database."""
    settings = make_settings(database_url, tmp_path)
    with (
        TestClient(create_app(settings)) as first,
        TestClient(create_app(settings)) as second,
    ):
        yield Api(first), Api(second)


def content(api: Api, content_id: int, fmt: str = "json") -> Any:
    response = api.get(f"/content/objects/{content_id}", accept=media("Content", fmt))
    assert response.status_code == 200, response.text
    return response.json()["Content"] if fmt == "json" else response.content


def patch(api: Api, path: str, input_name: str, output_name: str, **values: Any) -> None:
    """PATCH ``{input_name: values}`` (JSON), expecting 200."""
    response = api.patch(
        path, body={input_name: values}, content_type=media(input_name), accept=media(output_name)
    )
    assert response.status_code == 200, response.text


def shown_fields(api: Api, content_id: int) -> dict[str, Any]:
    fields = content(api, content_id)["CurrentVersion"]["Version"]["Fields"]["field"]
    return {f["fieldDefinitionIdentifier"]: f["fieldValue"] for f in fields}


def test_a_content_type_change_through_one_process_is_seen_by_the_other(two: tuple[Api, Api]) -> None:
    writer, reader = two
    created = types.new_type(writer, fields=[types.field("title")])
    type_id = created["id"]
    item = post_content(writer, content_create([field("title", "Kept")], type_id=type_id)).json()["Content"]
    publish(writer, item["_id"])
    assert shown_fields(reader, item["_id"]) == {"title": "Kept"}  # the reader caches type and item

    assert types.new_draft(writer, type_id).status_code == 201
    definitions = types.get_json(
        writer, f"/content/types/{type_id}/draft/fieldDefinitions", "FieldDefinitionList"
    )["FieldDefinition"]
    field_definition = f"/content/types/{type_id}/draft/fieldDefinitions/{definitions[0]['id']}"
    patch(writer, field_definition, "FieldDefinitionUpdate", "FieldDefinition", identifier="headline")
    patch(
        writer, f"/content/types/{type_id}/draft", "ContentTypeUpdate", "ContentType", nameSchema="<headline>"
    )
    assert types.publish(writer, type_id).status_code == 200

    assert shown_fields(reader, item["_id"]) == {"headline": "Kept"}
    again = post_content(reader, content_create([field("headline", "New")], type_id=type_id))
    assert again.status_code == 201, again.text


def test_a_section_change_through_one_process_is_seen_by_the_other(two: tuple[Api, Api]) -> None:
    writer, reader = two
    assert reader.json("GET", "/content/sections/1", "Section")["Section"]["name"] == "Standard"
    patch(writer, "/content/sections/1", "SectionInput", "Section", name="Renamed")
    assert reader.json("GET", "/content/sections/1", "Section")["Section"]["name"] == "Renamed"


def test_a_language_installed_by_another_process_is_usable(two: tuple[Api, Api], database_url: str) -> None:
    _, reader = two
    data = content_create([field("name", "Ordner", "ger-DE")], language="ger-DE")
    assert post_content(reader, data).status_code == 400  # not installed: the reader caches languages
    install_language(database_url, "ger-DE")  # the way `pressroom add-language` does, from elsewhere
    assert post_content(reader, data).status_code == 201


def test_every_write_to_an_item_is_seen_by_the_other_process(two: tuple[Api, Api]) -> None:
    writer, reader = two
    item = published_folder(writer, "First")
    content_id = item["_id"]
    assert shown_fields(reader, content_id)["name"] == "First"
    before_xml = content(reader, content_id, "xml")

    draft = new_draft(writer, content_id)
    assert update_version(writer, content_id, draft, [field("name", "Second")]).status_code == 200
    assert shown_fields(reader, content_id)["name"] == "First"  # a draft does not show
    publish(writer, content_id, draft)
    assert shown_fields(reader, content_id)["name"] == "Second"
    assert content(reader, content_id, "xml") != before_xml

    section = {"_href": "/api/ibexa/v2/content/sections/2"}
    patch(writer, f"/content/objects/{content_id}", "ContentUpdate", "ContentInfo", Section=section)
    assert content(reader, content_id)["Section"]["_href"].endswith("/content/sections/2")

    assert writer.post(f"/content/objects/{content_id}/hide").status_code == 204
    assert content(reader, content_id)["isHidden"] is True

    target = published_folder(writer, "Target")
    third = new_draft(writer, content_id)
    assert relate(writer, content_id, third, target["_id"]).status_code == 201
    publish(writer, content_id, third)
    relations = content(reader, content_id)["CurrentVersion"]["Version"]["Relations"]["Relation"]
    assert [r["DestinationContent"]["_href"].rsplit("/", 1)[1] for r in relations] == [str(target["_id"])]
    assert writer.delete(f"/content/objects/{target['_id']}").status_code == 204
    assert content(reader, content_id)["CurrentVersion"]["Version"]["Relations"]["Relation"] == []


def test_a_never_published_item_shows_each_saved_draft(two: tuple[Api, Api]) -> None:
    writer, reader = two
    created = post_content(writer, content_create([field("name", "Draft one")])).json()["Content"]
    assert shown_fields(reader, created["_id"])["name"] == "Draft one"
    assert update_version(writer, created["_id"], 1, [field("name", "Draft two")]).status_code == 200
    assert shown_fields(reader, created["_id"])["name"] == "Draft two"


def test_statements_of_the_hot_paths(two: tuple[Api, Api]) -> None:
    """A warm content GET is one statement (besides authentication); create and publish stay at today's
    counts."""
    api = two[0]
    published_folder(api, "Warm-up")  # loads the user, the type and the languages into the caches
    with StatementCounter() as creating:
        created = post_content(api, content_create([field("name", "Counted")]))
    assert created.status_code == 201
    content_id = created.json()["Content"]["_id"]
    with StatementCounter() as publishing:
        publish(api, content_id)
    content(api, content_id)
    for fmt in ("json", "xml"):
        with StatementCounter() as reading:
            content(api, content_id, fmt)
        # Basic re-reads the caller's account on every request (a disabled account is refused at
        # once) and the resolver reads the caller's role assignments; the content read is one statement
        own = [s for s in reading.statements if "FROM users" not in s and "role_assignments" not in s]
        assert len(own) == 1 and own[0].startswith("SELECT content."), reading.statements
        assert reading.count == 3, reading.statements
    # SQLite's BEGIN IMMEDIATE is a statement of its own, PostgreSQL's BEGIN is not counted; both
    # include Basic's account read and the caller's role assignments
    assert sent(creating) == 14, creating.statements  # and the parent's content for content/create
    assert sent(publishing) == 26, publishing.statements


def sent(counter: StatementCounter) -> int:
    return len([statement for statement in counter.statements if not statement.startswith("BEGIN")])
