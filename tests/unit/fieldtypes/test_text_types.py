"""ezstring, eztext, ezemail, ezisbn."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.base import JsonDict, JsonValue
from pressroom.domain.fieldtypes.registry import get_field_type

from .conftest import FakeContext


def _definition(type_id: str, validators: dict[str, JsonValue] | None = None) -> tuple[JsonDict, JsonDict]:
    return get_field_type(type_id).normalize_definition(None, validators)


@pytest.mark.parametrize(
    ("raw", "stored"), [("Hello", "Hello"), (123, "123"), (1.5, "1.5"), (True, "1"), (None, "")]
)
def test_string_casts_scalars(raw: object, stored: str) -> None:
    assert get_field_type("ezstring").from_wire(raw) == stored  # type: ignore[arg-type]


def test_string_rejects_structures() -> None:
    with pytest.raises(InvalidArgument, match="fieldValue must be a string"):
        get_field_type("ezstring").from_wire(["a"])


def test_string_round_trip_and_empty(ctx: FakeContext) -> None:
    string = get_field_type("ezstring")
    assert string.to_wire(string.from_wire("Folder"), ctx) == "Folder"
    empty = string.from_wire(None)
    assert string.is_empty(empty)
    assert string.to_wire(empty, ctx) is None
    assert string.empty_value() == ""


def test_string_length_validation() -> None:
    string = get_field_type("ezstring")
    settings, validators = _definition(
        "ezstring", {"StringLengthValidator": {"minStringLength": 2, "maxStringLength": 5}}
    )
    too_long = string.validate("abcdef", settings, validators)
    assert [(e.type, e.message) for e in too_long] == [
        ("StringLengthValidator", "The string cannot be longer than 5 characters.")
    ]
    assert (
        string.validate("a", settings, validators)[0].message
        == "The string cannot be shorter than 2 characters."
    )
    assert string.validate("abc", settings, validators) == []


def test_string_name_and_sort_key() -> None:
    string = get_field_type("ezstring")
    assert string.name("Hello World") == "Hello World"
    assert string.sort_key("Hello World") == "hello world"
    assert string.searchable_text("Hello") == "Hello"


def test_text_block(ctx: FakeContext) -> None:
    text = get_field_type("eztext")
    value = text.from_wire("line 1\nline 2")
    assert text.to_wire(value, ctx) == "line 1\nline 2"
    assert text.default_settings() == {"textRows": 10}
    assert text.to_wire(text.from_wire(""), ctx) is None
    with pytest.raises(InvalidArgument):
        text.from_wire({"text": "x"})


def test_email(ctx: FakeContext) -> None:
    email = get_field_type("ezemail")
    settings, validators = _definition("ezemail")
    value = email.from_wire("  a@b.c ")
    assert value == "a@b.c"
    assert email.to_wire(value, ctx) == "a@b.c"
    assert email.validate(value, settings, validators) == []
    errors = email.validate(email.from_wire("not an address"), settings, validators)
    assert [e.type for e in errors] == ["EmailAddressValidator"]
    assert email.to_wire(email.from_wire(None), ctx) is None


@pytest.mark.parametrize("isbn", ["978-3-16-148410-0", "0-306-40615-2", "080442957X"])
def test_isbn_valid(isbn: str, ctx: FakeContext) -> None:
    field_type = get_field_type("ezisbn")
    settings, validators = _definition("ezisbn")
    value = field_type.from_wire(isbn)
    assert field_type.validate(value, settings, validators) == []
    assert field_type.to_wire(value, ctx) == isbn


@pytest.mark.parametrize("isbn", ["978-3-16-148410-1", "0-306-40615-3", "12345"])
def test_isbn_invalid(isbn: str) -> None:
    field_type = get_field_type("ezisbn")
    settings, validators = _definition("ezisbn")
    assert [e.type for e in field_type.validate(field_type.from_wire(isbn), settings, validators)] == [
        "IsbnValidator"
    ]


def test_isbn13_refused_when_only_isbn10_allowed() -> None:
    field_type = get_field_type("ezisbn")
    settings, validators = field_type.normalize_definition({"isISBN13": False}, None)
    errors = field_type.validate("9783161484100", settings, validators)
    assert errors and "ISBN-10" in errors[0].message


def test_isbn_from_xml_digits() -> None:
    assert get_field_type("ezisbn").from_wire(9783161484100) == "9783161484100"
