"""Hostile input, property-based: whatever bytes arrive, the decoders give a tree or a 4xx naming the
problem, and every input parser reached over HTTP answers a value or a 4xx ErrorMessage, never a 500.

Runs are bounded (``max_examples``, no deadline) so the suite stays fast; a failure prints the input that
broke it, to be added to the table tests."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.domain.errors import PressroomError
from pressroom.rest.errors import status_of
from pressroom.rest.input.decoders import decode
from pressroom.rest.media import JSON, XML
from tests.conftest import make_settings
from tests.functional.content_support import content_create, field
from tests.functional.content_types_support import type_create
from tests.helpers import Api, media

BOUNDED = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
    | st.sampled_from(["", "../../etc/passwd", "\x00", "/api/ibexa/v2/content/objects/1", "1" * 400, "<a>"])
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=16,
)

names = st.sampled_from(
    ["fields", "field", "value", "fieldValue", "_href", "identifier", "names", "a", "x:y"]
)
xml_text = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=30)


@st.composite
def xml_documents(draw: st.DrawFn, depth: int = 0) -> str:
    """Roughly XML: real elements and attributes mixed with entities, CDATA, DOCTYPEs and stray markup."""
    name = draw(names)
    attributes = "".join(f' {draw(names)}="{draw(xml_text)}"' for _ in range(draw(st.integers(0, 2))))
    children = "".join(
        draw(
            st.one_of(
                xml_text,
                st.sampled_from(
                    ["&amp;", "&lt;", "&xxe;", "&#0;", "&#x110000;", "<![CDATA[<x>]]>", "<?pi x?>", "<"]
                ),
                xml_documents(depth + 1) if depth < 3 else xml_text,
            )
        )
        for _ in range(draw(st.integers(0, 3)))
    )
    prolog = draw(
        st.sampled_from(
            [
                "",
                '<?xml version="1.0" encoding="UTF-8"?>',
                '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
                '<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x"> %p;]>',
            ]
        )
        if depth == 0
        else st.just("")
    )
    return f"{prolog}<{name}{attributes}>{children}</{name}>"


def assert_refused_as_client_error(error: PressroomError) -> None:
    assert 400 <= status_of(error) < 500, error
    assert error.message


@BOUNDED
@given(body=st.binary(max_size=600), fmt=st.sampled_from([JSON, XML, None]))
def test_any_bytes_decode_or_are_a_client_error(body: bytes, fmt: str | None) -> None:
    try:
        decode(body, fmt)
    except PressroomError as error:
        assert_refused_as_client_error(error)


@BOUNDED
@given(document=json_values)
def test_any_json_document_decodes_or_is_a_client_error(document: Any) -> None:
    try:
        decode(json.dumps(document).encode(), JSON)
    except PressroomError as error:
        assert_refused_as_client_error(error)


@BOUNDED
@given(document=xml_documents(), encoding=st.sampled_from(["utf-8", "utf-16", "latin-1"]))
def test_any_xml_like_document_decodes_or_is_a_client_error(document: str, encoding: str) -> None:
    try:
        decode(document.encode(encoding, errors="replace"), XML)
    except PressroomError as error:
        assert_refused_as_client_error(error)


# -- every input parser, over HTTP -------------------------------------------------------------------
# (method, path, input media type, a valid body): the fuzzer replaces parts of the valid body, so that
# the parsers behind the decoder see near-valid input as well as garbage.
ROOT_LOCATION = {"_href": "/api/ibexa/v2/content/locations/1/2"}
NAMES = {"value": [{"_languageCode": "eng-GB", "#text": "Fuzzed"}]}
INPUTS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("POST", "/content/sections", "SectionInput", {"identifier": "fuzzed", "name": "Fuzzed"}),
    ("PATCH", "/content/sections/1", "SectionInput", {"name": "Renamed"}),
    ("POST", "/content/objects", "ContentCreate", content_create([field("name", "Fuzzed")])),
    ("PATCH", "/content/objects/1", "ContentMetadataUpdate", {"mainLanguageCode": "eng-GB"}),
    ("POST", "/content/typegroups/1/types", "ContentTypeCreate", type_create("fuzzed")["ContentTypeCreate"]),
    ("POST", "/content/typegroups", "ContentTypeGroupInput", {"identifier": "fuzzed_group"}),
    ("POST", "/content/types/view", "ContentTypeViewInput", {"identifier": "fuzz", "ContentTypeQuery": {}}),
    ("POST", "/content/objects/1/locations", "LocationCreate", {"ParentLocation": ROOT_LOCATION}),
    (
        "POST",
        "/content/objectstategroups",
        "ObjectStateGroupCreate",
        {"identifier": "fz", "defaultLanguageCode": "eng-GB", "names": NAMES},
    ),
    (
        "POST",
        "/content/urlwildcards",
        "UrlWildcardCreate",
        {"sourceUrl": "/fz/*", "destinationUrl": "/a/{1}", "forward": False},
    ),
]


@pytest.fixture(scope="module")
def fuzz_api(tmp_path_factory: pytest.TempPathFactory, template_sqlite: Path) -> Iterator[Api]:
    root = tmp_path_factory.mktemp("fuzz")
    database = root / "fuzz.db"
    database.write_bytes(template_sqlite.read_bytes())
    with TestClient(
        create_app(make_settings(f"sqlite:///{database}", root)), base_url="http://testserver"
    ) as client:
        yield Api(client, check_schemas=False)  # what is fuzzed here is "never a 500", not the schemas


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths_of(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths_of(child, (*prefix, index))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    result = copy.deepcopy(value)
    target = result
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return result


def assert_answered(response: Any) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/vnd.ibexa.api.ErrorMessage")
        assert response.json()["ErrorMessage"]["errorDescription"]


@pytest.mark.parametrize(("method", "path", "name", "valid"), INPUTS, ids=[i[2] + i[0] for i in INPUTS])
@BOUNDED
@given(data=st.data())
def test_every_input_parser_answers_mutated_bodies_without_a_500(
    fuzz_api: Api, method: str, path: str, name: str, valid: dict[str, Any], data: st.DataObject
) -> None:
    spots = paths_of(valid)
    spot = data.draw(st.sampled_from(spots), label="where")
    body = {name: replaced(valid, spot, data.draw(json_values, label="what"))}
    response = fuzz_api.request(
        method, path, body=json.dumps(body).encode(), content_type=media(name), accept=media("ErrorMessage")
    )
    assert_answered(response)


@pytest.mark.parametrize(
    ("method", "path", "name"), [i[:3] for i in INPUTS], ids=[i[2] + i[0] for i in INPUTS]
)
@BOUNDED
@given(document=xml_documents())
def test_every_input_parser_answers_xml_garbage_without_a_500(
    fuzz_api: Api, method: str, path: str, name: str, document: str
) -> None:
    response = fuzz_api.request(
        method, path, body=document.encode(), content_type=media(name, "xml"), accept=media("ErrorMessage")
    )
    assert_answered(response)
