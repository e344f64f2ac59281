"""Hostile input, case by case, on both databases: each is a 4xx ErrorMessage naming the problem (or, for
values the repository may hold, a success) and a refused request writes nothing. XXE, parameter entities,
entity bombs, UTF-16 DOCTYPEs and deep nesting are in tests/unit/test_codecs.py; numbers past the columns,
NUL characters in text and huge ``limit`` values in tests/functional/test_input_limits.py."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from tests.functional.content_support import content_create, field, post_content
from tests.helpers import Api, media

BIG = "x" * 100_000
SECTION = media("SectionInput")
FILE_TYPE = 12  # the clean install's "file": name, description, file (ezbinaryfile)


def section_identifiers(api: Api) -> list[str]:
    body = api.json("GET", "/content/sections", "SectionList")
    return [section["identifier"] for section in body["SectionList"]["Section"]]


@pytest.mark.parametrize(
    ("body", "content_type", "named"),
    [
        (b'{"SectionInput": {"identifier": NaN, "name": "n"}}', SECTION, "JSON"),
        (b'{"SectionInput": {"identifier": "a", "name": Infinity}}', SECTION, "JSON"),
        (b'{"SectionInput": {"identifier": "\xff\xfe", "name": "n"}}', SECTION, "JSON"),
        (
            b"<SectionInput><identifier>\xff\xfe</identifier></SectionInput>",
            media("SectionInput", "xml"),
            "XML",
        ),
        (
            b"<SectionInput><identifier>a\x00b</identifier></SectionInput>",
            media("SectionInput", "xml"),
            "XML",
        ),
        (b'{"SectionInput": {"identifier": "a\\u0000b"', SECTION, "JSON"),
        (b"\x00" * 64, SECTION, "JSON"),
    ],
    ids=["nan", "infinity", "invalid-utf8-json", "invalid-utf8-xml", "nul-xml", "truncated", "nul-bytes"],
)
def test_malformed_bodies_are_400_naming_the_format_and_write_nothing(
    db_api: Api, body: bytes, content_type: str, named: str
) -> None:
    before = section_identifiers(db_api)
    response = db_api.post(
        "/content/sections", body=body, content_type=content_type, accept=media("ErrorMessage")
    )
    assert response.status_code == 400, response.text
    assert named in response.json()["ErrorMessage"]["errorDescription"]
    assert section_identifiers(db_api) == before


@pytest.mark.parametrize("spot", ["identifier", "name"])
def test_oversized_strings_never_reach_a_500_and_a_refusal_writes_nothing(db_api: Api, spot: str) -> None:
    before = section_identifiers(db_api)
    values = {"identifier": "oversized", "name": "Oversized", spot: BIG}
    response = db_api.post(
        "/content/sections", body={"SectionInput": values}, content_type=SECTION, accept=media("ErrorMessage")
    )
    assert response.status_code in (201, 400), response.text
    if response.status_code == 400:
        assert response.json()["ErrorMessage"]["errorDescription"] == (
            "A text in the request is longer than the repository stores"
        )
        assert section_identifiers(db_api) == before
    else:  # SQLite holds any length
        assert len(section_identifiers(db_api)) == len(before) + 1


def test_a_file_name_with_dot_dots_is_400_and_never_reaches_the_store(db_api: Api, tmp_path: Path) -> None:
    """More such names, per file field type: tests/functional/test_file_input.py."""
    value = {"fileName": "../../../etc/passwd", "data": base64.b64encode(b"root:x:0:0").decode()}
    response = post_content(
        db_api,
        content_create([field("name", "Escape"), field("file", value)], type_id=FILE_TYPE, parent="1/43"),
    )
    assert response.status_code == 400, response.text
    assert response.json()["ErrorMessage"]["errorDetails"]["fields"][0]["_fieldIdentifier"] == "file"
    assert not [path for path in tmp_path.rglob("*") if path.is_file() and "passwd" in path.name]


@pytest.mark.parametrize("query", ["offset=99999999999999999999", "offset=-5", "limit=-1", "limit=abc"])
def test_odd_paging_parameters_are_answered_without_a_500(db_api: Api, query: str) -> None:
    response = db_api.get(f"/content/objects/1/versions?{query}", accept=media("VersionList"))
    assert response.status_code < 500, response.text
