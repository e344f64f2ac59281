"""Coercion of decoded wire values (JSON, or XML with scalars already type-cast) to Python types.

Every helper takes ``what``, the name of the value for the error message (``"fieldValue"``,
``"fieldSettings 'rows'"``...), and raises InvalidArgument when the value cannot be read. XML decoding
turns ``"12"`` into ``12`` but leaves ``"-12"`` and ``"-1.5"`` strings, so numeric strings are accepted.
"""

from __future__ import annotations

import math
import re
import sys

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.integers import INT64_MAX, INT64_MIN, check_range, parse_int

_FLOAT_RE = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_FLOAT_MAX = sys.float_info.max
_EMAIL_RE = re.compile(
    r"[\w!#$%&'*+/=?^`{|}~-]+(\.[\w!#$%&'*+/=?^`{|}~-]+)*@([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z-]+"
)


def as_int(raw: JsonValue, what: str, low: int = INT64_MIN, high: int = INT64_MAX) -> int:
    """An int from an int, an integral float, or an integer string; booleans are rejected.

    The result lies within ``low``..``high`` (by default the signed 64-bit range the database and the
    JSON writer hold); raises InvalidArgument naming ``what`` otherwise.
    """
    number: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        number = raw
    elif isinstance(raw, float) and raw.is_integer():
        number = int(raw)
    elif isinstance(raw, str):
        number = parse_int(raw)
    if number is None:
        raise InvalidArgument(f"{what} must be an integer")
    return check_range(number, what, low, high)


def as_float(raw: JsonValue, what: str) -> float:
    """A finite float from a number or a numeric string; booleans are rejected."""
    if isinstance(raw, bool):
        raise InvalidArgument(f"{what} must be a number")
    number: float | None = None
    if isinstance(raw, int | float):
        number = float(raw) if abs(raw) < _FLOAT_MAX else None  # float() of a huge int overflows
    elif isinstance(raw, str) and _FLOAT_RE.fullmatch(raw.strip()):
        number = float(raw.strip())
    if number is None or not math.isfinite(number):
        raise InvalidArgument(f"{what} must be a finite number")
    return number


def as_bool(raw: JsonValue, what: str) -> bool:
    """A bool from a bool, 0/1, or the strings "true"/"false"/"1"/"0"."""
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    if isinstance(raw, str) and raw.strip().lower() in ("true", "false", "1", "0"):
        return raw.strip().lower() in ("true", "1")
    raise InvalidArgument(f"{what} must be a boolean")


def as_str(raw: JsonValue, what: str) -> str:
    """A string from a string or a number (XML may have cast a digit-only string to a number)."""
    if isinstance(raw, str):
        return raw
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return str(raw)
    raise InvalidArgument(f"{what} must be a string")


def as_dict(raw: JsonValue, what: str) -> JsonDict:
    """A hash; an empty list counts as an empty hash (PHP encodes an empty array as ``[]``)."""
    if isinstance(raw, dict):
        return raw
    if raw == []:
        return {}
    raise InvalidArgument(f"{what} must be a hash")


def as_list(raw: JsonValue, what: str) -> list[JsonValue]:
    """A list; ``None`` counts as an empty list."""
    if raw is None:
        return []
    if isinstance(raw, list):
        return raw
    raise InvalidArgument(f"{what} must be a list")


def optional_str(raw: JsonValue, what: str, default: str = "") -> str:
    """:func:`as_str`, with ``None`` giving ``default``."""
    return default if raw is None else as_str(raw, what)


def is_email(text: str) -> bool:
    """A pragmatic e-mail address check: ``local@domain.tld`` without spaces."""
    return len(text) <= 254 and _EMAIL_RE.fullmatch(text) is not None


def dict_or_none(value: JsonValue) -> JsonDict | None:
    """``value`` when it is a hash, else ``None``: for reading stored values defensively."""
    return value if isinstance(value, dict) else None


def int_or_none(value: JsonValue) -> int | None:
    """``value`` when it is an int (not a bool), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def str_or_empty(value: JsonValue) -> str:
    """``value`` when it is a string, else ``""``."""
    return value if isinstance(value, str) else ""
