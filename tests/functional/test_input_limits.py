"""Client integers and patterns past what Python, orjson or the database can take are a 400 naming the
value, never a 500 (issue 15): digit strings over Python's 4,300-digit int() limit, integers past 64 bits
(orjson refuses to write them), ids past the 32-bit id columns, and stored regular expressions that
backtrack or overflow Python's engine. Every test runs on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from tests.conftest import make_settings
from tests.functional.content_support import (
    ARTICLE,
    content_create,
    field,
    post_content,
    publish,
    update_version,
    version,
)
from tests.functional.content_types_support import create_type, type_create
from tests.functional.content_types_support import field as definition
from tests.functional.support import error_message
from tests.helpers import PREFIX, Api, media

HUGE = "9" * 5000  # past Python's int() limit of 4,300 digits
BEYOND_64_BITS = [2**64 - 1, 1e30, "18446744073709551616", HUGE]


@pytest.fixture
def api(database_url: str, tmp_path: Path) -> Iterator[Api]:
    with TestClient(create_app(make_settings(database_url, tmp_path))) as client:
        yield Api(client)


def _field_error(response: Any, identifier: str) -> str:
    """The message for field ``identifier`` of a ContentValidationError answer."""
    body = error_message(response, 400)
    assert body["errorDescription"] == "Content fields did not validate"
    [failed] = [f for f in body["errorDetails"]["fields"] if f["_fieldIdentifier"] == identifier]
    [error] = failed["errors"]
    assert error["type"] == "InvalidValue"
    message: str = error["message"]
    return message


def _type_with(api: Api, *definitions: dict[str, Any]) -> int:
    response = create_type(api, type_create(fields=[definition("title"), *definitions]), publish="true")
    assert response.status_code == 201, response.text
    type_id: int = response.json()["ContentType"]["id"]
    return type_id


@pytest.mark.parametrize("value", BEYOND_64_BITS)
def test_an_integer_field_value_past_64_bits_is_400(api: Api, value: Any) -> None:
    type_id = _type_with(api, definition("count", "ezinteger"))
    data = content_create([field("title", "Big"), field("count", value)], type_id=type_id)
    assert _field_error(post_content(api, data), "count").startswith("fieldValue is out of range")


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_a_string_field_keeps_digits_past_64_bits_in_xml_and_json(api: Api, fmt: str) -> None:
    """XML casts digit text to numbers; digits no 64-bit integer holds stay the text they were."""
    data = content_create([field("title", HUGE)], type_id=_type_with(api))
    response = post_content(api, data, fmt=fmt, accept="Content")
    assert response.status_code == 201, response.text
    content_id = int(response.headers["location"].rsplit("/", 1)[1])
    assert version(api, content_id, 1)["Fields"]["field"][0]["fieldValue"] == HUGE


@pytest.mark.parametrize("value", [*BEYOND_64_BITS, 2**63])
def test_an_author_id_past_64_bits_is_400(api: Api, value: Any) -> None:
    author = {"id": value, "name": "Ann", "email": "ann@example.com"}
    data = content_create([field("title", "By Ann"), field("author", [author])], type_id=ARTICLE)
    assert _field_error(post_content(api, data), "author").startswith(
        "fieldValue item 0 'id' is out of range"
    )


@pytest.mark.parametrize("value", [1e30, HUGE, -1e30])
def test_a_validator_setting_past_64_bits_is_400_and_nothing_is_stored(api: Api, value: Any) -> None:
    count = definition(
        "count", "ezinteger", validatorConfiguration={"IntegerValueValidator": {"minIntegerValue": value}}
    )
    body = type_create(fields=[definition("title"), count])
    identifier = body["ContentTypeCreate"]["identifier"]
    error = error_message(create_type(api, body), 400)
    assert (
        "validatorConfiguration 'IntegerValueValidator' parameter 'minIntegerValue' is out of range"
        in (error["errorDescription"])
    )
    listed = api.get(f"/content/types?identifier={identifier}", accept=media("ContentTypeInfoList"))
    error_message(listed, 404)


@pytest.mark.parametrize("value", [HUGE, 2**31, 2**40, -(2**31) - 1])
def test_a_field_definition_position_past_its_32_bit_column_is_400(api: Api, value: Any) -> None:
    body = type_create(fields=[definition("title", position=value)])
    error = error_message(create_type(api, body), 400)
    assert error["errorDescription"].startswith(
        "'position' in ContentTypeCreate.FieldDefinitions.FieldDefinition is out of range"
    )


@pytest.mark.parametrize("value", [HUGE, 2**31])
def test_a_location_priority_past_its_32_bit_column_is_400(api: Api, value: Any) -> None:
    data = content_create([field("name", "Prioritised")])
    data["LocationCreate"]["priority"] = value
    error = error_message(post_content(api, data), 400)
    assert error["errorDescription"].startswith("'priority' in ContentCreate.LocationCreate is out of range")


@pytest.mark.parametrize(
    "href",
    [f"{PREFIX}/user/users/{HUGE}", f"{PREFIX}/user/users/{2**31}", f"{PREFIX}/user/users/{2**64 - 1}"],
)
def test_an_owner_href_past_the_id_columns_is_400(api: Api, href: str) -> None:
    data = content_create([field("name", "Owned")], User={"_href": href})
    error = error_message(post_content(api, data), 400)
    assert error["errorDescription"].startswith("Invalid User")


@pytest.mark.parametrize("last", [HUGE, str(2**31), str(2**64 - 1)])
def test_a_copy_destination_past_the_id_columns_is_400(api: Api, last: str) -> None:
    response = api.request(
        "COPY",
        "/content/objects/1",
        headers={"Destination": f"{PREFIX}/content/locations/1/{last}"},
        accept=media("ContentInfo"),
    )
    error = error_message(response, 400)
    assert error["errorDescription"].startswith("The Destination header must be a parent location href")


@pytest.mark.parametrize("query", [f"id={HUGE}", "limit=" + HUGE])
def test_query_integers_over_the_digit_limit_are_answered_without_500(api: Api, query: str) -> None:
    path = "/content/locations" if query.startswith("id=") else "/content/types"
    response = api.get(f"{path}?{query}", accept=media("ContentTypeInfoList"))
    assert response.status_code in (400, 404)
    error_message(response, response.status_code)


def test_an_oversized_content_length_is_413_not_500(api: Api) -> None:
    response = api.post(
        "/content/sections", body=b"{}", content_type=media("SectionInput"), headers={"Content-Length": HUGE}
    )
    assert response.status_code in (400, 413)


@pytest.mark.parametrize("destination", [2**63 + 5, 2**64 - 1, 2**31, "18446744073709551615"])
def test_a_relation_id_past_the_id_columns_is_refused_and_publish_never_fails(
    api: Api, destination: Any
) -> None:
    """A destination id between 2**63 and 2**64-1 once reached the draft and made every PUBLISH a 500."""
    type_id = _type_with(api, definition("related", "ezobjectrelation"))
    data = content_create([field("title", "Related")], type_id=type_id)
    created = post_content(api, data)
    assert created.status_code == 201, created.text
    content_id = created.json()["Content"]["_id"]
    response = update_version(api, content_id, 1, [field("related", {"destinationContentId": destination})])
    assert _field_error(response, "related").startswith("fieldValue 'destinationContentId' is out of range")
    publish(api, content_id)
    related = version(api, content_id, 1)["Fields"]["field"]
    assert [f["fieldValue"] for f in related if f["fieldDefinitionIdentifier"] == "related"] == [
        {"destinationContentId": None}
    ]


def _account(login: str) -> dict[str, Any]:
    return {"login": login, "email": f"{login[:20]}@example.com", "password": "Secret123456", "enabled": True}


def test_a_backtracking_username_pattern_checks_logins_in_linear_time(api: Api) -> None:
    """``^(a+)+$`` doubles Python's time per character: a 64-character login would take centuries."""
    pattern = {"UsernamePattern": "^(a+)+$"}
    type_id = _type_with(api, definition("account", "ezuser", fieldSettings=pattern))
    refused = content_create(
        [field("title", "Bad"), field("account", _account("a" * 64 + "!"))], type_id=type_id
    )
    body = error_message(post_content(api, refused), 400)
    errors = body["errorDetails"]["fields"][0]["errors"]
    assert errors == [{"type": "UsernamePatternValidator", "message": "Invalid login format"}]
    accepted = content_create([field("title", "Good"), field("account", _account("a" * 64))], type_id=type_id)
    assert post_content(api, accepted).status_code == 201


@pytest.mark.parametrize(
    "pattern",
    ["(a)\\1", "(?=a)b", "(" * 2000 + ")" * 2000, "a{100000}", "[", "x" * 1001],
)
def test_a_username_pattern_the_bounded_engine_refuses_is_400(api: Api, pattern: str) -> None:
    """Backreferences and lookaround cannot run in linear time; deep nesting and huge repeats once raised
    RecursionError / OverflowError (a 500)."""
    body = type_create(
        fields=[
            definition("title"),
            definition("account", "ezuser", fieldSettings={"UsernamePattern": pattern}),
        ]
    )
    error = error_message(create_type(api, body), 400)
    assert "fieldSettings 'UsernamePattern'" in error["errorDescription"]


@pytest.mark.parametrize(
    ("title", "name"), [("a\x000\x00b", "a0b"), ("\x00" + "9" * 5000 + "\x00", "9" * 150)]
)
def test_nul_characters_in_field_text_are_plain_text_in_the_name(api: Api, title: str, name: str) -> None:
    """NUL once marked resolved groups inside the name resolver: a client's NUL and digits were read as
    a group index (IndexError, or int() past 4,300 digits: a 500)."""
    data = content_create([field("title", title)], type_id=_type_with(api))
    created = post_content(api, data)
    assert created.status_code == 201, created.text
    assert created.json()["Content"]["Name"] == name


def test_a_rich_text_link_to_an_id_past_the_digit_limit_is_no_relation(api: Api) -> None:
    """``ezcontent://<5,000 digits>`` names no item (like an id past the 32-bit columns): the text is
    stored and no relation made, where int() of the digits once raised (a 500)."""
    type_id = _type_with(api, definition("body", "ezrichtext"))
    docbook = (
        '<section xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink">'
        f'<para><link xlink:href="ezcontent://{HUGE}">far</link></para></section>'
    )
    created = post_content(
        api, content_create([field("title", "Far"), field("body", {"xml": docbook})], type_id=type_id)
    )
    assert created.status_code == 201, created.text
    content_id = created.json()["Content"]["_id"]
    relations = api.get(f"/content/objects/{content_id}/versions/1/relations", accept=media("RelationList"))
    assert relations.status_code == 200, relations.text
    assert relations.json()["Relations"]["Relation"] == []
