"""The generic list representation: one visitor writes every list kind that only wraps its items."""

from __future__ import annotations

import pytest

from pressroom.config import Dialect
from pressroom.domain.section import Section
from pressroom.domain.tags import value_tag
from pressroom.rest.declared import success_responses
from pressroom.rest.media import JSON, XML, Rendering
from pressroom.rest.output import lists
from pressroom.rest.output.basics import SectionList
from pressroom.rest.output.content_types import ContentTypeInfoList, ContentTypeList
from pressroom.rest.output.lists import ItemList, list_kind
from pressroom.rest.output.visitor import Out, registered_outputs, visit
from pressroom.rest.output.writers import writer_for
from pressroom.rest.routes import build_router
from pressroom.rest.routing import make_route

SECTIONS = [Section(1, "standard", "Standard"), Section(3, "media", "Media")]


def _out(fmt: str) -> Out:
    return Out(Rendering(Dialect("/api/ibexa/v2", "ibexa"), fmt), build_router())


def test_a_list_writes_its_items_under_the_declared_element() -> None:
    out = _out(JSON)
    representation = visit(out, ItemList("SectionList", "/api/ibexa/v2/content/sections", SECTIONS))
    assert (representation.root, representation.media) == ("SectionList", "SectionList")
    assert list(representation.body) == ["_media-type", "_href", "Section"]
    assert [item["sectionId"] for item in representation.body["Section"]] == [1, 3]
    assert representation.etag == value_tag(SECTIONS)  # SectionList is declared with an ETag


def test_xml_items_may_be_named_otherwise_than_the_json_key(monkeypatch: pytest.MonkeyPatch) -> None:
    kind = lists._Kind("Thing", lambda _out, name: {"name": name}, False, "ThingInfo")
    monkeypatch.setitem(lists._KINDS, "ThingList", kind)
    out = _out(XML)
    representation = lists.visit_item_list(out, ItemList("ThingList", "/things", ["a", "b"]))
    assert writer_for(XML)(representation.root, representation.body).endswith(
        b'<ThingList media-type="application/vnd.ibexa.api.ThingList+xml" href="/things">'
        b"<ThingInfo><name>a</name></ThingInfo><ThingInfo><name>b</name></ThingInfo></ThingList>"
    )
    json = lists.visit_item_list(_out(JSON), ItemList("ThingList", "/things", ["a"])).body
    assert writer_for(JSON)("ThingList", json) == (
        b'{"ThingList":{"_media-type":"application/vnd.ibexa.api.ThingList+json","_href":"/things",'
        b'"Thing":[{"name":"a"}]}}'
    )
    assert representation.etag is None


def test_a_list_kind_is_declared_once() -> None:
    with pytest.raises(ValueError, match="SectionList"):
        list_kind("SectionList", "Section", lambda out, section: {})


def test_the_route_table_reads_the_list_media_type_from_the_return_type() -> None:
    def sections(req: object) -> SectionList:
        raise AssertionError

    def types(req: object) -> ContentTypeList | ContentTypeInfoList:
        raise AssertionError

    assert success_responses(make_route("GET", "/s", sections, "t.s")) == {200: ("SectionList",)}
    assert success_responses(make_route("GET", "/t", types, "t.t")) == {
        200: ("ContentTypeList", "ContentTypeInfoList")
    }
    assert ("ContentTypeInfoList", "ContentTypeInfoList") in registered_outputs()
