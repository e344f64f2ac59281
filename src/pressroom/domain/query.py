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


# --- Search criteria (POST /views; spec/search.md). Parsers in rest/input resolve what they can (an
# AncestorCriterion becomes LocationId of the path's ids); what needs the database stays a node.

Operator = str  # one of OPERATORS
OPERATORS = frozenset({"EQ", "IN", "LT", "LTE", "GT", "GTE", "BETWEEN", "LIKE", "CONTAINS"})
FieldScalar = str | int | float | bool


@dataclass(frozen=True, slots=True)
class ContentRemoteId(Criterion):
    remote_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ContentTypeIdentifier(Criterion):
    """Items of the defined content types with these identifiers (404 from the service for an unknown one)."""

    identifiers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ContentTypeGroupId(Criterion):
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SectionIdentifier(Criterion):
    identifiers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LocationRemoteId(Criterion):
    remote_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ParentLocationRemoteId(Criterion):
    """Children of the locations with these remote ids (the service answers 404 for an unknown one)."""

    remote_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Depth(Criterion):
    """Location depth compared with ``operator`` (EQ, IN, LT, LTE, GT, GTE, BETWEEN) to ``values``."""

    operator: Operator
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Priority(Criterion):
    """Location priority compared like ``Depth``."""

    operator: Operator
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Visibility(Criterion):
    """Visible (``visible=True``) or hidden locations; for items: visible in at least one location."""

    visible: bool


@dataclass(frozen=True, slots=True)
class Sibling(Criterion):
    """Locations sharing the parent of ``location_id``, that location excluded."""

    location_id: int


@dataclass(frozen=True, slots=True)
class LanguageCode(Criterion):
    """Items with a translation in one of ``codes`` (or always available, when ``match_always_available``)."""

    codes: tuple[str, ...]
    match_always_available: bool = True


@dataclass(frozen=True, slots=True)
class FullText(Criterion):
    """Words of ``text`` found in the searchable text of an item's fields or its name."""

    text: str


@dataclass(frozen=True, slots=True)
class ContentName(Criterion):
    """The item's name in any of its languages matches ``pattern``; ``*`` stands for any characters."""

    pattern: str


@dataclass(frozen=True, slots=True)
class ObjectStateId(Criterion):
    """Items in one of these states. An item without a row for a group is in its group's default state
    (the state with the lowest priority)."""

    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ObjectStateIdentifier(Criterion):
    """States by identifier, within the group ``group_identifier`` (any group when None)."""

    identifiers: tuple[str, ...]
    group_identifier: str | None = None


@dataclass(frozen=True, slots=True)
class UserId(Criterion):
    """Items that are these user accounts."""

    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class UserLogin(Criterion):
    """User accounts by login: ``operator`` IN (exact values) or LIKE (one value, ``*`` wildcard)."""

    values: tuple[str, ...]
    operator: Operator = "IN"


@dataclass(frozen=True, slots=True)
class UserEmail(Criterion):
    """User accounts by email, like ``UserLogin``."""

    values: tuple[str, ...]
    operator: Operator = "IN"


@dataclass(frozen=True, slots=True)
class IsUserBased(Criterion):
    """Items that are (``value=True``) or are not user accounts."""

    value: bool


@dataclass(frozen=True, slots=True)
class IsUserEnabled(Criterion):
    """User accounts that are enabled (``value=True``) or disabled."""

    value: bool


@dataclass(frozen=True, slots=True)
class IsContainer(Criterion):
    """Items whose content type is (not) a container."""

    value: bool


@dataclass(frozen=True, slots=True)
class IsBookmarked(Criterion):
    """Locations the user ``user_id`` has (not) bookmarked; the search service fills in the caller."""

    value: bool
    user_id: int | None = None


@dataclass(frozen=True, slots=True)
class UserMetadata(Criterion):
    """``target`` owner: the owner is one of ``ids``; group: the owner is directly in one of the user groups
    with content ids ``ids``; modifier: the current version's creator is one of ``ids``."""

    target: str  # owner | group | modifier
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DateMetadata(Criterion):
    """``target`` (modified | created | published) compared with ``operator`` to Unix timestamps."""

    target: str
    operator: Operator
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Field(Criterion):
    """The field ``identifier`` (of any content type that has it) compared with ``operator``.

    ``values`` holds one value for EQ/LT/LTE/GT/GTE/LIKE/CONTAINS, two for BETWEEN, any number for IN.
    LIKE uses ``*`` as wildcard; CONTAINS matches a whole keyword of a keyword field, elsewhere a
    substring of a match value (text, selections, authors) or an equal number (relations).
    """

    identifier: str
    operator: Operator
    values: tuple[FieldScalar, ...]


@dataclass(frozen=True, slots=True)
class ImageMimeType(Criterion):
    field_identifier: str
    mime_types: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ImageFileSize(Criterion):
    """Image file size in bytes within [minimum, maximum] (None: unbounded). REST gives megabytes."""

    field_identifier: str
    minimum: int | None
    maximum: int | None


@dataclass(frozen=True, slots=True)
class ImageDimensions(Criterion):
    """Width and height within their [min, max] bounds (None: unbounded)."""

    field_identifier: str
    width: tuple[int | None, int | None]
    height: tuple[int | None, int | None]


@dataclass(frozen=True, slots=True)
class ImageOrientation(Criterion):
    field_identifier: str
    orientation: str  # landscape | portrait | square


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
