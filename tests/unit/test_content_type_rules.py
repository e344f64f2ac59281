"""Schema placeholders and field definition rules of the content model (domain/content_type_rules.py)."""

from __future__ import annotations

import pytest

from pressroom.domain.content_type import FieldDefinition, FieldDefinitionInput
from pressroom.domain.content_type_rules import (
    build_field_definition,
    schema_placeholders,
    update_field_definition,
)
from pressroom.domain.errors import BadRequest, InvalidArgument


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ("", []),
        ("<name>", [("<name>", "name")]),
        ("<short_name|name>", [("<short_name|name>", "short_name"), ("<short_name|name>", "name")]),
        ("<first_name> <last_name>", [("<first_name>", "first_name"), ("<last_name>", "last_name")]),
        (
            "<nickname|(<first_name> <last_name>)>",
            [("<first_name>", "first_name"), ("<last_name>", "last_name"), ("<nickname|(...)>", "nickname")],
        ),
        ("Plain text (no placeholders)", []),
        ("<>", [("<>", "")]),
    ],
)
def test_schema_placeholders(schema: str, expected: list[tuple[str, str]]) -> None:
    assert schema_placeholders(schema) == expected


def test_build_merges_the_field_type_defaults() -> None:
    definition = build_field_definition(
        7, FieldDefinitionInput(identifier="body", field_type="eztext", field_settings={"textRows": 3}), 2
    )
    assert definition == FieldDefinition(
        id=7, identifier="body", field_type="eztext", position=2, field_settings={"textRows": 3}
    )


def test_build_resolves_field_type_aliases() -> None:
    definition = build_field_definition(7, FieldDefinitionInput(identifier="t", field_type="ibexa_string"), 1)
    assert definition.field_type == "ezstring"


def test_build_turns_off_searchable_for_types_that_cannot_be_searched() -> None:
    struct = FieldDefinitionInput(identifier="account", field_type="ezuser", is_searchable=True)
    assert build_field_definition(7, struct, 1).is_searchable is False


@pytest.mark.parametrize(
    ("struct", "error", "message"),
    [
        (FieldDefinitionInput(field_type="ezstring"), BadRequest, "Missing 'identifier' element"),
        (FieldDefinitionInput(identifier="x"), BadRequest, "Missing 'fieldType' element"),
        (FieldDefinitionInput(identifier="a-b", field_type="ezstring"), InvalidArgument, "Invalid field"),
        (
            FieldDefinitionInput(
                identifier="x", field_type="ezinteger", default_value="ten", has_default_value=True
            ),
            InvalidArgument,
            "Field definition 'x': ",
        ),
    ],
)
def test_build_rejects(struct: FieldDefinitionInput, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        build_field_definition(7, struct, 1)


def test_update_cannot_change_the_field_type() -> None:
    current = build_field_definition(7, FieldDefinitionInput(identifier="x", field_type="ezstring"), 1)
    assert update_field_definition(current, FieldDefinitionInput(field_type="ibexa_string")) == current
    with pytest.raises(BadRequest, match="cannot be changed"):
        update_field_definition(current, FieldDefinitionInput(field_type="eztext"))


def test_update_keeps_an_explicit_null_default() -> None:
    current = build_field_definition(
        7,
        FieldDefinitionInput(
            identifier="x", field_type="ezstring", default_value="a", has_default_value=True
        ),
        1,
    )
    assert current.default_value == "a"
    updated = update_field_definition(
        current, FieldDefinitionInput(default_value=None, has_default_value=True)
    )
    assert updated.default_value is None
    assert update_field_definition(updated, FieldDefinitionInput(position=4)).default_value is None
