"""ezinteger, ezfloat, ezboolean."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.registry import get_field_type

from .conftest import FakeContext


@pytest.mark.parametrize(("raw", "stored"), [(42, 42), ("-5", -5), (7.0, 7), (None, None)])
def test_integer_from_wire(raw: object, stored: object) -> None:
    assert get_field_type("ezinteger").from_wire(raw) == stored  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", ["abc", 1.5, True, [1], {"value": 1}])
def test_integer_rejects(raw: object) -> None:
    with pytest.raises(InvalidArgument, match="fieldValue must be an integer"):
        get_field_type("ezinteger").from_wire(raw)  # type: ignore[arg-type]


def test_integer_round_trip_empty_and_range(ctx: FakeContext) -> None:
    integer = get_field_type("ezinteger")
    assert integer.to_wire(integer.from_wire(123), ctx) == 123
    assert integer.is_empty(integer.from_wire(None))
    assert integer.to_wire(None, ctx) is None
    settings, validators = integer.normalize_definition(
        None, {"IntegerValueValidator": {"minIntegerValue": 1, "maxIntegerValue": 10}}
    )
    assert integer.validate(0, settings, validators)[0].message == "The value cannot be lower than 1."
    assert integer.validate(11, settings, validators)[0].message == "The value cannot be higher than 10."
    assert integer.validate(10, settings, validators) == []
    assert integer.sort_key(5) == 5
    assert integer.name(5) == "5"


def test_float(ctx: FakeContext) -> None:
    number = get_field_type("ezfloat")
    assert number.from_wire("1.5") == 1.5
    assert number.from_wire(2) == 2.0
    assert number.to_wire(number.from_wire(-0.25), ctx) == -0.25
    with pytest.raises(InvalidArgument, match="fieldValue must be a finite number"):
        number.from_wire("one")
    settings, validators = number.normalize_definition(
        None, {"FloatValueValidator": {"maxFloatValue": "2.5"}}
    )
    assert validators == {"FloatValueValidator": {"minFloatValue": None, "maxFloatValue": 2.5}}
    assert [e.type for e in number.validate(3.0, settings, validators)] == ["FloatValueValidator"]


def test_out_of_range_numbers_are_refused() -> None:
    with pytest.raises(InvalidArgument, match="finite number"):
        get_field_type("ezfloat").from_wire("1e999")
    with pytest.raises(InvalidArgument, match="fieldValue is out of range"):
        get_field_type("ezinteger").from_wire(2**63)
    assert get_field_type("ezinteger").from_wire(2**63 - 1) == 2**63 - 1


def test_boolean(ctx: FakeContext) -> None:
    boolean = get_field_type("ezboolean")
    assert boolean.from_wire(True) is True
    assert boolean.from_wire("false") is False
    assert boolean.from_wire(1) is True
    assert boolean.from_wire(None) is False
    assert boolean.to_wire(boolean.from_wire(None), ctx) is False
    assert not boolean.is_empty(False)
    with pytest.raises(InvalidArgument, match="must be a boolean"):
        boolean.from_wire("maybe")
    assert boolean.sort_key(True) == 1
