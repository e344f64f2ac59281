"""Languages installed in the repository. Ids are bit flags (2, 4, 8, ...)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Language:
    id: int
    language_code: str
    name: str
    enabled: bool
