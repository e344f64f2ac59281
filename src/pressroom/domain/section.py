"""Sections: named partitions of content, used by permissions."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Section:
    id: int
    identifier: str
    name: str


@dataclass(frozen=True, slots=True)
class SectionCreate:
    identifier: str
    name: str


@dataclass(frozen=True, slots=True)
class SectionUpdate:
    identifier: str | None = None
    name: str | None = None
