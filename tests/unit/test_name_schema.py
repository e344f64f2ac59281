"""Content names from name schemas (domain/name_schema.py)."""

from __future__ import annotations

import pytest

from pressroom.domain.name_schema import resolve_name_schema


@pytest.mark.parametrize(
    ("schema", "texts", "name"),
    [
        ("<short_name|name>", {"short_name": "", "name": "Long"}, "Long"),
        ("<nick|(<first> <last>)>", {"nick": "", "first": "Ann", "last": "Lee"}, "Ann Lee"),
        ("<title> \x005\x00", {"title": "Hi"}, "Hi 5"),  # NUL (the group marker) is dropped, never an index
        ("<a|\x009\x00>", {"a": ""}, ""),
        ("\x00" + "9" * 5000 + "\x00", {}, "9" * 150),
        ("<a> (<b>)", {"a": "x\x007\x00", "b": "y"}, "x7 y"),
    ],
)
def test_resolve_name_schema(schema: str, texts: dict[str, str], name: str) -> None:
    assert resolve_name_schema(schema, texts) == name
