"""Media types: parsing, Accept negotiation, dialect rendering (spec/README.md, shapes-content.md §0)."""

from __future__ import annotations

import pytest

from pressroom.config import Dialect
from pressroom.rest.media import (
    JSON,
    XML,
    Accept,
    MediaType,
    Rendering,
    negotiate,
    parse_media_type,
    strip_prefix,
)

IBEXA = Dialect("/api/ibexa/v2", "ibexa")
EZ = Dialect("/api/ezp/v2", "ez")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("application/vnd.ibexa.api.Section+json", MediaType("Section", JSON)),
        ("application/vnd.ibexa.api.Section+xml", MediaType("Section", XML)),
        ("application/vnd.ez.api.SectionInput+json", MediaType("SectionInput", JSON)),
        # parameters are accepted; only version is kept
        ("application/vnd.ibexa.api.ViewInput+json; version=1.1", MediaType("ViewInput", JSON, "1.1")),
        ('application/vnd.ibexa.api.ViewInput+xml;version="1.1"', MediaType("ViewInput", XML, "1.1")),
        ("application/vnd.ibexa.api.SectionInput+json; charset=utf-8", MediaType("SectionInput", JSON)),
        (
            "application/vnd.ibexa.api.SectionInput+json; charset=utf-8; version=1.1",
            MediaType("SectionInput", JSON, "1.1"),
        ),
        # no suffix: the type says nothing about the format (input falls back to XML)
        ("application/vnd.ibexa.api.SectionInput", MediaType("SectionInput", None)),
        # the bare prefix clients send on bodiless requests
        ("application/vnd.ibexa.api.", MediaType("", None)),
        ("application/vnd.ez.api.", MediaType("", None)),
        # generic types
        ("application/json", MediaType("", JSON)),
        ("application/json; charset=utf-8", MediaType("", JSON)),
        ("Application/JSON", MediaType("", JSON)),
        ("application/xml", MediaType("", XML)),
        ("text/xml", MediaType("", XML)),
        ("  application/vnd.ibexa.api.Section+json  ", MediaType("Section", JSON)),
    ],
)
def test_parse_media_type_accepts_api_types(header: str, expected: MediaType) -> None:
    assert parse_media_type(header) == expected


@pytest.mark.parametrize(
    "header",
    [
        "text/plain",
        "*/*",
        "",
        "application/vnd.ibexa.api.Section+yaml",
        "application/vnd.ibexa.Section+json",  # no ".api." segment
        "application/octet-stream",
        "multipart/form-data; boundary=x",
    ],
)
def test_parse_media_type_rejects_other_types(header: str) -> None:
    assert parse_media_type(header) is None


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, Accept(XML, "")),
        ("", Accept(XML, "")),
        ("*/*", Accept(XML, "")),
        ("application/*", Accept(XML, "")),
        ("application/json", Accept(JSON, "")),
        ("application/xml", Accept(XML, "")),
        ("application/vnd.ibexa.api.Section+json", Accept(JSON, "section")),
        ("application/vnd.ibexa.api.Section+xml", Accept(XML, "section")),
        ("application/vnd.ez.api.Section+json", Accept(JSON, "section")),
        ("application/vnd.ibexa.api.View+json; version=1.1", Accept(JSON, "view")),
        # the bare prefix names nothing and picks no format
        ("application/vnd.ibexa.api.", Accept(XML, "")),
        # something we cannot produce: XML, as the reference falls back
        ("text/html", Accept(XML, "")),
        # a browser's Accept
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", Accept(XML, "")),
    ],
)
def test_negotiate(header: str | None, expected: Accept) -> None:
    assert negotiate(header) == expected


def test_negotiate_takes_the_representation_from_the_first_vendor_entry() -> None:
    accept = negotiate("application/vnd.ibexa.api.ContentInfo+json, application/vnd.ibexa.api.Content+json")
    assert accept == Accept(JSON, "contentinfo")


def test_negotiate_walks_entries_in_order_for_the_format() -> None:
    # the first usable entry decides the format; a later vendor entry still names the representation
    assert negotiate("application/json, application/vnd.ibexa.api.Content+xml") == Accept(JSON, "content")
    assert negotiate("*/*, application/json") == Accept(XML, "")
    assert negotiate("text/html, application/vnd.ibexa.api.Location+json") == Accept(JSON, "location")


def test_negotiate_ignores_empty_entries_and_quality_parameters() -> None:
    assert negotiate(" , application/vnd.ibexa.api.Section+json;q=0.5,") == Accept(JSON, "section")


@pytest.mark.parametrize(
    ("dialect", "fmt", "expected"),
    [
        (IBEXA, JSON, "application/vnd.ibexa.api.Section+json"),
        (IBEXA, XML, "application/vnd.ibexa.api.Section+xml"),
        (EZ, JSON, "application/vnd.ez.api.Section+json"),
        (EZ, XML, "application/vnd.ez.api.Section+xml"),
    ],
)
def test_rendering_media_uses_the_dialect_vendor(dialect: Dialect, fmt: str, expected: str) -> None:
    assert Rendering(dialect, fmt).media("Section") == expected


def test_rendering_media_of_an_unnamed_type_is_empty() -> None:
    # Root entries such as `content` carry `_media-type: ""`
    assert Rendering(IBEXA, JSON).media("") == ""


def test_rendering_href_carries_the_dialect_prefix() -> None:
    assert Rendering(IBEXA, JSON).href("/content/sections/1") == "/api/ibexa/v2/content/sections/1"
    assert Rendering(EZ, XML).href("/content/sections/1") == "/api/ezp/v2/content/sections/1"


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("/api/ibexa/v2/content/sections/1", "/content/sections/1"),
        ("/api/ezp/v2/content/locations/1/2", "/content/locations/1/2"),
        ("/api/ibexa/v2", "/"),
        ("/api/ibexa/v2/", "/"),
        ("/api/some-vendor/v2.1/languages", "/languages"),
        ("/content/sections/1", None),
        ("content/sections/1", None),
        ("http://example.com/api/ibexa/v2/content/sections/1", None),
        ("/api/ibexa/content/sections/1", None),
    ],
)
def test_strip_prefix(href: str, expected: str | None) -> None:
    assert strip_prefix(href) == expected
