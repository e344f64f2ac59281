"""ezobjectrelation, ezobjectrelationlist, ezimageasset."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.registry import get_field_type

from .conftest import FakeContext


def test_relation_round_trip(ctx: FakeContext) -> None:
    relation = get_field_type("ezobjectrelation")
    value = relation.from_wire({"destinationContentId": "59"})
    assert value == 59
    assert relation.to_wire(value, ctx) == {
        "destinationContentId": 59,
        "destinationContentHref": "/api/ibexa/v2/content/objects/59",
    }
    assert relation.from_wire(relation.to_wire(value, ctx)) == 59
    assert relation.relation_ids(value) == [59]


def test_relation_empty_and_invalid(ctx: FakeContext) -> None:
    relation = get_field_type("ezobjectrelation")
    for raw in (None, {"destinationContentId": None}, {}):
        assert relation.is_empty(relation.from_wire(raw))  # type: ignore[arg-type]
    assert relation.to_wire(None, ctx) == {"destinationContentId": None}
    assert relation.relation_ids(None) == []
    with pytest.raises(InvalidArgument, match="fieldValue 'destinationContentId' must be an integer"):
        relation.from_wire({"destinationContentId": "abc"})
    with pytest.raises(InvalidArgument, match="positive content id"):
        relation.from_wire({"destinationContentId": -4})


def test_relation_list_round_trip(ctx: FakeContext) -> None:
    relation_list = get_field_type("ezobjectrelationlist")
    value = relation_list.from_wire({"destinationContentIds": [59, "60", 59]})
    assert value == [59, 60]
    assert relation_list.to_wire(value, ctx) == {
        "destinationContentIds": [59, 60],
        "destinationContentHrefs": ["/api/ibexa/v2/content/objects/59", "/api/ibexa/v2/content/objects/60"],
    }
    assert relation_list.relation_ids(value) == [59, 60]
    empty = relation_list.from_wire({"destinationContentIds": []})
    assert relation_list.is_empty(empty)
    assert relation_list.to_wire(empty, ctx) == {"destinationContentIds": [], "destinationContentHrefs": []}


def test_relation_list_key_required_and_limit() -> None:
    relation_list = get_field_type("ezobjectrelationlist")
    with pytest.raises(InvalidArgument, match="'destinationContentIds' is required"):
        relation_list.from_wire({"destinationContentId": 59})
    with pytest.raises(InvalidArgument, match="must be a content id"):
        relation_list.from_wire({"destinationContentIds": [None]})
    settings, validators = relation_list.normalize_definition(
        {"selectionMethod": "SELECTION_DROPDOWN"}, {"RelationListValueValidator": {"selectionLimit": 1}}
    )
    errors = relation_list.validate([1, 2], settings, validators)
    assert [e.message for e in errors] == ["The selected content items number cannot be higher than 1."]
    assert relation_list.validate([1], settings, validators) == []


def test_image_asset(ctx: FakeContext) -> None:
    asset = get_field_type("ezimageasset")
    value = asset.from_wire({"destinationContentId": 57, "alternativeText": "A cat"})
    assert asset.to_wire(value, ctx) == {"destinationContentId": 57, "alternativeText": "A cat"}
    assert asset.relation_ids(value) == [57]
    assert asset.from_wire({}) is None
    assert asset.from_wire(None) is None
    with pytest.raises(InvalidArgument):
        asset.from_wire({"destinationContentId": "cat"})
