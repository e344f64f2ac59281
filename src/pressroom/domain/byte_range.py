"""Range requests on stored files (RFC 9110 §14): one byte range, answered 206; the rest answered whole.

The server honours a ``Range`` header of the ``bytes`` unit with exactly one range: ``bytes=a-b``,
``bytes=a-`` or ``bytes=-n`` (the last n bytes). A range that starts past the end of the file (or a
suffix of length 0, or any range of an empty file) cannot be satisfied: 416 with ``Content-Range:
bytes */size``. Anything else (another unit, a malformed header, several ranges) is ignored and the
whole file is sent with 200, as RFC 9110 §14.2 allows: multipart/byteranges answers are not made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pressroom.domain.errors import RangeNotSatisfiable

_ONE_RANGE = re.compile(r"bytes=([0-9]*)-([0-9]*)", re.IGNORECASE)
_MAX_DIGITS = 18  # a longer number is past any file size: read as 10**18, never handed to int() whole


@dataclass(frozen=True, slots=True)
class ByteRange:
    """``first``-``last`` as asked (``last`` None: to the end); ``first`` None: the last ``last`` bytes."""

    first: int | None
    last: int | None

    def resolve(self, size: int) -> tuple[int, int]:
        """The first and last byte (both included) of a file of ``size`` bytes this range covers;
        raises RangeNotSatisfiable."""
        if self.first is None:
            length = self.last or 0
            if length == 0 or size == 0:
                raise RangeNotSatisfiable(size)
            return max(size - length, 0), size - 1
        if self.first >= size:
            raise RangeNotSatisfiable(size)
        last = size - 1 if self.last is None else min(self.last, size - 1)
        return self.first, last


def parse_range(header: str | None) -> ByteRange | None:
    """The one byte range a ``Range`` header asks for, or None when it must be ignored (absent, another
    unit, several ranges, malformed, or ``a-b`` with ``b < a``)."""
    if not header:
        return None
    match = _ONE_RANGE.fullmatch(header.strip())
    if match is None:
        return None
    first_text, last_text = match.groups()
    if not first_text and not last_text:
        return None
    first, last = _position(first_text), _position(last_text)
    if first is not None and last is not None and last < first:
        return None
    return ByteRange(first, last)


def _position(digits: str) -> int | None:
    if not digits:
        return None
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= _MAX_DIGITS else 10**_MAX_DIGITS
