"""ezkeyword, ezselection, ezcountry, ezauthor."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.registry import get_field_type

from .conftest import FakeContext


def test_keyword_list_and_comma_string(ctx: FakeContext) -> None:
    keyword = get_field_type("ezkeyword")
    assert keyword.from_wire(" a, b ,a,, c") == ["a", "b", "c"]
    value = keyword.from_wire(["tag1", " tag2 ", "tag1"])
    assert value == ["tag1", "tag2"]
    assert keyword.to_wire(value, ctx) == ["tag1", "tag2"]
    assert keyword.name(value) == "tag1, tag2"
    assert keyword.is_empty(keyword.from_wire(None))
    assert keyword.to_wire(keyword.from_wire(""), ctx) == []
    with pytest.raises(InvalidArgument):
        keyword.from_wire({"a": 1})


def test_selection_round_trip_and_name(ctx: FakeContext) -> None:
    selection = get_field_type("ezselection")
    settings, validators = selection.normalize_definition(
        {"isMultiple": True, "options": ["Red", "Green", "Blue"]}, None
    )
    value = selection.from_wire([0, 2, 2])
    assert value == [0, 2]
    assert selection.to_wire(value, ctx) == [0, 2]
    assert selection.validate(value, settings, validators) == []
    assert selection.name(value, settings) == "Red Blue"
    assert selection.from_wire(1) == [1]
    assert selection.is_empty(selection.from_wire(None))


def test_selection_validation() -> None:
    selection = get_field_type("ezselection")
    settings, validators = selection.normalize_definition({"options": ["Red", "Green"]}, None)
    messages = [e.message for e in selection.validate([0, 5], settings, validators)]
    assert messages == [
        "Field definition does not allow multiple options to be selected.",
        "Option with index 5 does not exist in the field definition.",
    ]
    with pytest.raises(InvalidArgument, match="fieldValue item must be an integer"):
        selection.from_wire(["red"])
    with pytest.raises(InvalidArgument, match="option index"):
        selection.from_wire([-1])


def test_selection_multilingual_options_count() -> None:
    selection = get_field_type("ezselection")
    settings, validators = selection.normalize_definition(
        {"multilingualOptions": {"eng-GB": ["A", "B"]}}, None
    )
    assert selection.validate([1], settings, validators) == []


def test_country_accepts_name_alpha2_alpha3(ctx: FakeContext) -> None:
    country = get_field_type("ezcountry")
    value = country.from_wire(["Norway", "pl", "DEU", "NO"])
    assert value == ["NO", "PL", "DE"]
    assert country.to_wire(value, ctx) == ["NO", "PL", "DE"]
    assert country.name(["NO"]) == "Norway"
    assert country.to_wire(country.from_wire(None), ctx) is None
    assert country.is_empty(country.from_wire([]))


def test_country_unknown_and_single_choice() -> None:
    country = get_field_type("ezcountry")
    with pytest.raises(InvalidArgument, match="'Atlantis' is not a known country"):
        country.from_wire(["Atlantis"])
    settings, validators = country.normalize_definition(None, None)
    assert [e.type for e in country.validate(["NO", "PL"], settings, validators)] == ["CountryValidator"]
    settings, validators = country.normalize_definition({"isMultiple": True}, None)
    assert country.validate(["NO", "PL"], settings, validators) == []


def test_author_ids_assigned_and_round_trip(ctx: FakeContext) -> None:
    author = get_field_type("ezauthor")
    value = author.from_wire(
        [{"id": 3, "name": "Ann", "email": "ann@x.org"}, {"name": "Bob", "email": "bob@x.org"}]
    )
    assert value == [
        {"id": 3, "name": "Ann", "email": "ann@x.org"},
        {"id": 4, "name": "Bob", "email": "bob@x.org"},
    ]
    assert author.to_wire(value, ctx) == value
    assert author.from_wire(author.to_wire(value, ctx)) == value
    assert author.name(value) == "Ann"
    settings, validators = author.normalize_definition(None, None)
    assert author.validate(value, settings, validators) == []
    assert author.is_empty(author.from_wire(None))
    assert author.to_wire(author.from_wire(None), ctx) == []


def test_author_invalid() -> None:
    author = get_field_type("ezauthor")
    with pytest.raises(InvalidArgument, match="fieldValue item 0 must be a hash"):
        author.from_wire(["Ann"])
    with pytest.raises(InvalidArgument, match="fieldValue must be a list"):
        author.from_wire("Ann")
    settings, validators = author.normalize_definition(None, None)
    errors = author.validate([{"id": 1, "name": "", "email": "nope"}], settings, validators)
    assert [e.message for e in errors] == [
        "An author must have a name.",
        "The e-mail address 'nope' is invalid.",
    ]
