"""The one parser of client integers (domain/integers.py)."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.integers import INT64_MAX, INT64_MIN, TOO_LARGE, check_range, parse_int


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12", 12),
        (" -3 ", -3),
        ("+7", 7),
        ("0" * 6000 + "42", 42),  # leading zeros do not count towards the digit limit
        (str(INT64_MAX), INT64_MAX),
        (str(INT64_MIN), INT64_MIN),
        ("9" * 5000, TOO_LARGE),  # never handed to int(), which refuses more than 4,300 digits
        ("-" + "9" * 5000, -TOO_LARGE),
    ],
)
def test_parse_int_reads_ascii_integers(text: str, expected: int) -> None:
    assert parse_int(text) == expected


@pytest.mark.parametrize(
    "text", ["", " ", "+", "-", "1_000", "1.0", "0x10", "\u0663", "\u00b2", "--1", "1 2"]
)
def test_parse_int_refuses_anything_else(text: str) -> None:
    assert parse_int(text) is None


def test_too_large_is_outside_the_64_bit_range() -> None:
    with pytest.raises(InvalidArgument, match=r"^count is out of range"):
        check_range(TOO_LARGE, "count")
    with pytest.raises(InvalidArgument):
        check_range(-TOO_LARGE, "count")
    assert check_range(5, "count", 0, 5) == 5
