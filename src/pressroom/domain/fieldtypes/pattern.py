"""Regular expressions that clients store (the ezuser ``UsernamePattern``), run by RE2.

Python's ``re`` backtracks: ``^(a+)+$`` takes time doubling with each character of the login it checks,
and a deeply nested pattern raises RecursionError or OverflowError instead of ``re.error``. A pattern a
client stores is therefore compiled and matched by RE2, which runs in time linear in the text with bounded
memory and refuses at compile time what it cannot do that way (backreferences, lookaround). So no stored
pattern can stall a worker, and the refusal is a 400 naming the setting when the pattern is stored.

The syntax is RE2's (close to Perl's; ``\\w`` and ``\\d`` are ASCII, ``\\pL`` is any letter).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import re2

from pressroom.domain.errors import InvalidArgument

MAX_LENGTH = 1000
"""Longer patterns are refused: no login rule needs one, and RE2's compile cost grows with the length."""

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # a refused pattern is the client's error, not a line on the server's stderr


def check_pattern(pattern: str, what: str) -> str:
    """``pattern`` when RE2 compiles it; raises InvalidArgument naming ``what`` otherwise."""
    if len(pattern) > MAX_LENGTH:
        raise InvalidArgument(f"{what} is longer than {MAX_LENGTH} characters")
    try:
        _compiled(pattern)
    except re2.error as exc:
        detail = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else exc
        raise InvalidArgument(f"{what} is not a valid regular expression: {detail}") from None
    return pattern


def search(pattern: str, text: str) -> bool:
    """True when ``pattern`` matches somewhere in ``text``; a pattern RE2 refuses matches nothing."""
    if len(pattern) > MAX_LENGTH:
        return False
    try:
        return _compiled(pattern).search(text) is not None
    except re2.error:
        return False


@lru_cache(maxsize=64)
def _compiled(pattern: str) -> Any:
    return re2.compile(pattern, _OPTIONS)
