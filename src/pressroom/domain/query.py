"""Criteria: one tree of conditions on content items and their locations.

The same values describe what a search asks for (search views), what a list shows (children, trash,
relations) and what a user may read (the permission resolver turns a user's read policies into a
criterion). ``storage/sql/criteria.py`` compiles a criterion into one SQL condition, so a list is filtered
inside its query, never row by row in Python.

Location criteria (``LocationId``, ``ParentLocationId``, ``Subtree``, ``Depth``) mean "this location" in a
query over locations and "any location of the item" in a query over content items.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class Criterion:
    """Base of every criterion; instances are frozen dataclasses, comparable and hashable."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class MatchAll(Criterion):
    pass


@dataclass(frozen=True, slots=True)
class MatchNone(Criterion):
    pass


@dataclass(frozen=True, slots=True)
class LogicalAnd(Criterion):
    criteria: tuple[Criterion, ...]


@dataclass(frozen=True, slots=True)
class LogicalOr(Criterion):
    criteria: tuple[Criterion, ...]


@dataclass(frozen=True, slots=True)
class LogicalNot(Criterion):
    criterion: Criterion


@dataclass(frozen=True, slots=True)
class ContentId(Criterion):
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ContentTypeId(Criterion):
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SectionId(Criterion):
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class OwnerId(Criterion):
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LocationId(Criterion):
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ParentLocationId(Criterion):
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Subtree(Criterion):
    """Locations whose path starts with one of ``path_strings`` (``"/1/2/"``: the location 2 and below)."""

    path_strings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OwnerInGroups(Criterion):
    """Items whose owner is directly in one of the user groups at ``location_ids`` (the Group limitation)."""

    location_ids: tuple[int, ...]


def all_of(criteria: Iterable[Criterion]) -> Criterion:
    """The conjunction, simplified: MatchAll parts dropped, any MatchNone wins, one part stands alone."""
    parts: list[Criterion] = []
    for criterion in criteria:
        if isinstance(criterion, MatchNone):
            return criterion
        if not isinstance(criterion, MatchAll):
            parts.append(criterion)
    if not parts:
        return MatchAll()
    return parts[0] if len(parts) == 1 else LogicalAnd(tuple(parts))


def any_of(criteria: Iterable[Criterion]) -> Criterion:
    """The disjunction, simplified: MatchNone parts dropped, any MatchAll wins, one part stands alone."""
    parts: list[Criterion] = []
    for criterion in criteria:
        if isinstance(criterion, MatchAll):
            return criterion
        if not isinstance(criterion, MatchNone):
            parts.append(criterion)
    if not parts:
        return MatchNone()
    return parts[0] if len(parts) == 1 else LogicalOr(tuple(parts))
