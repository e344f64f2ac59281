"""LINK and EMBED relations read from rich text (the ezrichtext field type's relations hook)."""

from __future__ import annotations

from pressroom.domain.content import EMBED, LINK
from pressroom.domain.fieldtypes.base import RelationTarget
from pressroom.domain.fieldtypes.registry import get_field_type

RICH_TEXT = get_field_type("ezrichtext")


def docbook(inner: str) -> str:
    return (
        '<section xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'version="5.0-variant ezpublish-1.0">{inner}</section>'
    )


def relations_of(xml: str) -> list[RelationTarget]:
    return RICH_TEXT.relations(RICH_TEXT.from_wire({"xml": xml}))


def test_links_and_embeds_by_content_and_location() -> None:
    found = relations_of(
        docbook(
            '<para><link xlink:href="ezcontent://52">a</link><link xlink:href="ezlocation://60#part">b</link>'
            '<ezembedinline xlink:href="ezcontent://53"/></para>'
            '<ezembed xlink:href="ezlocation://61" view="embed"/>'
        )
    )
    assert found == [
        RelationTarget(LINK, 52),
        RelationTarget(LINK, 60, by_location=True),
        RelationTarget(EMBED, 53),
        RelationTarget(EMBED, 61, by_location=True),
    ]


def test_other_hrefs_and_repeats_are_not_relations() -> None:
    found = relations_of(
        docbook(
            '<para><link xlink:href="https://example.com/ezcontent://5">a</link>'
            '<link xlink:href="ezcontent://">b</link><link xlink:href="ezcontent://x1">c</link>'
            '<link xlink:href="ezcontent://99999999999">d</link>'
            '<link xlink:href="ezcontent://7">e</link><link xlink:href="ezcontent://7">f</link></para>'
        )
    )
    assert found == [RelationTarget(LINK, 7)]


def test_empty_and_missing_values_have_none() -> None:
    assert RICH_TEXT.relations(RICH_TEXT.empty_value()) == []
    assert RICH_TEXT.relations(None) == []


def test_xhtml5edit_input_links_become_relations() -> None:
    xhtml = (
        '<section xmlns="http://ibexa.co/namespaces/ezpublish5/xhtml5/edit">'
        '<p><a href="ezcontent://52">a</a></p></section>'
    )
    assert relations_of(xhtml) == [RelationTarget(LINK, 52)]
