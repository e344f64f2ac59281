"""Segment texts, REST ids and wildcard patterns (domain/url_alias.py)."""

from __future__ import annotations

import pytest

from pressroom.domain.url_alias import (
    UrlWildcard,
    clean_url,
    parse_rest_id,
    placeholders_fit,
    slugify,
    split_path,
    text_md5,
)


@pytest.mark.parametrize(
    ("name", "segment"),
    [
        ("Administrator users", "Administrator-users"),
        ("Anonymous Users", "Anonymous-Users"),
        ("  Rock & Roll / Live?  ", "Rock-Roll-Live"),
        ("Crème brûlée", "Crème-brûlée"),
        ("v1.2_final~draft", "v1.2_final~draft"),
        ("...", "_1"),
        ("", "_1"),
        ("a" * 300, "a" * 200),
    ],
)
def test_slugify(name: str, segment: str) -> None:
    assert slugify(name) == segment


def test_slugify_default() -> None:
    assert slugify("!!", "noname2") == "noname2"


def test_md5_ignores_case() -> None:
    assert text_md5("Users") == text_md5("users") == "9bc65c2abec141778ffaa729489f3e87"


@pytest.mark.parametrize(
    ("alias_id", "key"),
    [
        ("0-d41d8cd98f00b204e9800998ecf8427e", (0, "d41d8cd98f00b204e9800998ecf8427e")),
        ("10-ccb62ebca03a31272430bc414bd5cd5b", (10, "ccb62ebca03a31272430bc414bd5cd5b")),
        ("10-CCB62EBCA03A31272430BC414BD5CD5B", None),
        ("x-ccb62ebca03a31272430bc414bd5cd5b", None),
        ("9999999999-ccb62ebca03a31272430bc414bd5cd5b", None),
        ("1-abc", None),
    ],
)
def test_parse_rest_id(alias_id: str, key: tuple[int, str] | None) -> None:
    assert parse_rest_id(alias_id) == key


@pytest.mark.parametrize(
    ("source", "destination", "url", "result"),
    [
        ("/old/*", "/new/{1}", "/old/a/b", "/new/a/b"),
        ("/old/*", "/new/{1}", "old/x/", "/new/x"),
        ("/*/to/*", "/{2}/{1}", "/a/to/b", "/b/a"),
        ("/old/*", "/new", "/other/a", None),
        ("/exact", "/target", "/exact", "/target"),
        ("/a.b/*", "/c", "/aXb/d", None),  # pattern characters are literal
    ],
)
def test_wildcard_translate(source: str, destination: str, url: str, result: str | None) -> None:
    assert UrlWildcard(1, source, destination, False).translate(url) == result


def test_placeholders_and_cleaning() -> None:
    assert placeholders_fit("/a/*/*", "/{2}{1}")
    assert not placeholders_fit("/a/*", "/{2}")
    assert not placeholders_fit("/a", "/{0}")
    assert clean_url(" a/b/ ") == "/a/b"
    assert split_path("/a//b/") == ["a", "b"]
    assert split_path("/") == []
