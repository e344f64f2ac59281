"""The parser registry: every input type the route table declares resolves to a parser, once."""

from __future__ import annotations

import pytest

from pressroom.rest.input.node import Node
from pressroom.rest.input.registry import Refs, parser_of, parses, read_input
from pressroom.rest.routes import ROUTES
from pressroom.rest.routing import Router


def test_every_declared_input_type_has_a_parser() -> None:
    declared = {name for route in ROUTES for name in route.accepts}
    assert declared
    assert sorted(name for name in declared if parser_of(name) is None) == []


def test_an_input_type_has_one_parser() -> None:
    with pytest.raises(ValueError, match="SectionInput"):
        parses("SectionInput")(lambda node, _refs: node)


def test_the_body_is_parsed_by_the_parser_of_the_type_sent() -> None:
    router = Router(ROUTES)
    parser, value = read_input(
        b'{"RoleAssignInput": {"Role": {"_href": "/api/ibexa/v2/user/roles/7"}}}',
        "application/vnd.ibexa.api.RoleAssignInput+json",
        ("RoleAssignInput",),
        str,
        router,
    )
    assert parser is parser_of("RoleAssignInput")
    assert value == (7, None)


def test_refs_resolve_hrefs_through_the_routes() -> None:
    refs = Refs(Router(ROUTES), "1.1")
    assert refs.parse_href("/api/ibexa/v2/content/sections/3", "section.load") == {"sectionId": 3}
    plain = parser_of("SectionInput")
    assert plain is not None
    assert isinstance(plain(Node({}, "SectionInput"), refs), Node)
