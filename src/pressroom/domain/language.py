"""Languages installed in the repository. Ids are bit flags (2, 4, 8, ...)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pressroom.domain.errors import Forbidden, InvalidArgument

# The clean install's language (install.md §1): always installed, the seeded content is written in it.
MAIN_LANGUAGE = "eng-GB"
FIRST_LANGUAGE_ID = 2  # bit 1; bit 0 is the "always available" flag of language masks
# 30 languages (bits 1..30) keep every language mask inside a signed 32-bit integer.
MAX_LANGUAGE_ID = 2**30
_CODE = re.compile(r"[a-z]{3}-[A-Z]{2}")


@dataclass(frozen=True, slots=True)
class Language:
    id: int
    language_code: str
    name: str
    enabled: bool


def check_language_code(code: str) -> str:
    """``code`` if it has the ``<lang>-<REGION>`` form (``pol-PL``), else InvalidArgument."""
    if not _CODE.fullmatch(code):
        raise InvalidArgument(f"Invalid language code '{code}': expected the form 'pol-PL'")
    return code


def next_language_id(existing: Iterable[int]) -> int:
    """The id a new language gets: the bit after the highest one in use, as the reference assigns them."""
    highest = max(existing, default=FIRST_LANGUAGE_ID // 2)
    if highest >= MAX_LANGUAGE_ID:
        raise Forbidden("Maximum number of languages reached")
    return highest * 2


def installation_order(codes: Iterable[str]) -> list[str]:
    """The languages an install creates: eng-GB first (id 2), then the others in the order given, once."""
    ordered = [MAIN_LANGUAGE]
    for code in codes:
        if check_language_code(code) not in ordered:
            ordered.append(code)
    return ordered
