"""Integers from client input: the one place their text is parsed and their range is checked.

Python refuses ``int()`` of strings over 4,300 digits (ValueError), orjson refuses to write integers past
64 bits, and the database columns take signed 64-bit values (ids: 32-bit). Every client integer (href ids,
query parameters, body elements, field values and settings) is read through :func:`parse_int` and
:func:`check_range`, so none of those limits is ever met by accident: the client gets a 400 naming the
value instead of a 500.
"""

from __future__ import annotations

import re

from pressroom.domain.errors import InvalidArgument

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
MAX_ID = INT32_MAX
"""Ids are stored in 32-bit columns: a larger one names nothing that can exist."""

_DIGITS = 19  # 2**63 has 19 digits: a longer (zero-stripped) number is out of range whatever it says
_INTEGER = re.compile(r"([+-]?)0*([0-9]*)")  # ASCII only: str.isdigit() also takes "²", int() "٣"


def parse_int(text: str) -> int | None:
    """The integer ``text`` spells in ASCII digits (optional sign, surrounding blanks), else None.

    Numbers of more than 19 significant digits come back as :data:`TOO_LARGE` (a value outside the
    64-bit range) without ever handing the digits to ``int()``.
    """
    stripped = text.strip()
    match = _INTEGER.fullmatch(stripped)
    if match is None or not stripped.lstrip("+-"):
        return None
    sign, digits = match.groups()
    if len(digits) > _DIGITS:
        return -TOO_LARGE if sign == "-" else TOO_LARGE
    number = int(digits or "0")
    return -number if sign == "-" else number


TOO_LARGE = 2**64
"""What :func:`parse_int` returns for a number too long to read: outside every range we accept."""


def check_range(number: int, what: str, low: int = INT64_MIN, high: int = INT64_MAX) -> int:
    """``number`` when ``low <= number <= high``; raises InvalidArgument naming ``what`` otherwise."""
    if not low <= number <= high:
        raise InvalidArgument(f"{what} is out of range: it must be between {low} and {high}")
    return number
