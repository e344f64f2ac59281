"""The registry, and properties every field type shares."""

from __future__ import annotations

import json

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.base import FieldType
from pressroom.domain.fieldtypes.registry import all_field_types, get_field_type

from .conftest import FakeContext

SPEC_TYPES = {
    "ezstring", "eztext", "ezrichtext", "ezinteger", "ezfloat", "ezboolean", "ezdate", "ezdatetime", "eztime",
    "ezemail", "ezurl", "ezisbn", "ezkeyword", "ezselection", "ezcountry", "ezauthor", "ezobjectrelation",
    "ezobjectrelationlist", "ezimage", "ezbinaryfile", "ezmedia", "ezuser", "ezgmaplocation", "ezimageasset",
}  # fmt: skip


def test_every_spec_type_is_registered_once() -> None:
    identifiers = [field_type.identifier for field_type in all_field_types()]
    assert set(identifiers) == SPEC_TYPES
    assert len(identifiers) == len(set(identifiers))


def test_aliases_resolve_to_the_same_type() -> None:
    assert get_field_type("ibexa_string") is get_field_type("ezstring")
    assert get_field_type("ibexa_object_relation_list").identifier == "ezobjectrelationlist"


def test_unknown_type() -> None:
    with pytest.raises(InvalidArgument, match="Unknown field type 'ezmatrix'"):
        get_field_type("ezmatrix")


@pytest.mark.parametrize("field_type", all_field_types(), ids=lambda t: t.identifier)
def test_defaults_normalize_to_themselves(field_type: FieldType) -> None:
    settings, validators = field_type.normalize_definition(None, None)
    assert settings == field_type.default_settings()
    assert validators == field_type.default_validators()
    assert field_type.normalize_definition(settings, validators) == (settings, validators)


@pytest.mark.parametrize("field_type", all_field_types(), ids=lambda t: t.identifier)
def test_null_input_is_the_empty_value_and_json_able(field_type: FieldType, ctx: FakeContext) -> None:
    value = field_type.from_wire(None)
    assert value == field_type.empty_value()
    if field_type.identifier != "ezboolean":
        assert field_type.is_empty(value)
    json.dumps(value)
    json.dumps(field_type.to_wire(value, ctx))
    assert isinstance(field_type.name(value), str)
    assert field_type.relation_ids(value) == []
