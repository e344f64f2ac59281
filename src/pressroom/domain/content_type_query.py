"""A search for content types (``POST /content/types/view``): conditions that must all hold, an order
and a page."""

from __future__ import annotations

from dataclasses import dataclass

# What a condition compares: the type's id or identifier, or the id, identifier or name of one of its
# groups. A group's name is its identifier compared without regard to case, as the reference's collation
# compares names; identifiers stay case-sensitive, deliberately.
TYPE_ID = "id"
TYPE_IDENTIFIER = "identifier"
GROUP_ID = "group_id"
GROUP_IDENTIFIER = "group_identifier"
GROUP_NAME = "group_name"
INTEGER_FIELDS = (TYPE_ID, GROUP_ID)
SORT_FIELDS = (TYPE_ID, TYPE_IDENTIFIER)
DEFAULT_LIMIT = 25


@dataclass(frozen=True, slots=True)
class TypeCondition:
    """``field`` equals one of ``values``."""

    field: str
    values: tuple[int, ...] | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ContentTypeQuery:
    conditions: tuple[TypeCondition, ...] = ()
    sort: tuple[tuple[str, bool], ...] = ()  # (field of SORT_FIELDS, descending); by id when empty
    offset: int = 0
    limit: int = DEFAULT_LIMIT
