"""Locations: the places of content items in the tree.

A location's ``path_string`` lists the ids from the root down to itself (``/1/2/59/``). A content item
that was never published has *pending* locations: where it will appear when its first version is
published.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pressroom.domain.content import ContentInfo

ROOT_LOCATION_ID = 1


@dataclass(frozen=True, slots=True)
class Location:
    id: int
    parent_id: int
    content_id: int | None  # None only for the virtual root (location 1)
    path_string: str
    depth: int
    priority: int
    hidden: bool  # explicitly hidden
    invisible: bool  # hidden by itself, an ancestor, or its content
    remote_id: str
    sort_field: str  # a key of content_type.SORT_FIELDS
    sort_order: str  # ASC | DESC
    child_count: int | None = 0  # None: not counted (a parent read only for its path and sort)
    content_info: ContentInfo | None = None

    @property
    def path(self) -> str:
        """``"1/2/59"``: the path as it appears in a location href."""
        return self.path_string.strip("/")

    @property
    def path_ids(self) -> list[int]:
        return [int(part) for part in self.path.split("/") if part]


@dataclass(frozen=True, slots=True)
class LocationCreate:
    parent_id: int
    priority: int = 0
    hidden: bool = False
    remote_id: str | None = None
    sort_field: str | None = None  # None: the content type default
    sort_order: str | None = None


@dataclass(frozen=True, slots=True)
class PendingLocation:
    """A location that becomes real under ``parent_id`` when the content is first published."""

    id: int
    content_id: int
    parent_id: int
    priority: int
    hidden: bool
    remote_id: str
    sort_field: str
    sort_order: str


@dataclass(frozen=True, slots=True)
class Parent:
    """What placing a location below a parent needs of the parent."""

    id: int
    path_string: str
    depth: int
    shadowed: bool  # hidden or invisible: what is placed below it is invisible


@dataclass(frozen=True, slots=True)
class Placing:
    """A pending location taken for publishing, with its parent (None: gone meanwhile) and whether a
    location took its remote id meanwhile."""

    pending: PendingLocation
    parent: Parent | None
    remote_id_taken: bool


@dataclass(frozen=True, slots=True)
class LocationUpdate:
    """PATCH of a location; ``None`` leaves a property as it is. ``hidden`` hides or reveals."""

    priority: int | None = None
    hidden: bool | None = None
    remote_id: str | None = None
    sort_field: str | None = None
    sort_order: str | None = None


@dataclass(frozen=True, slots=True)
class TrashItem:
    """A trashed location as it was in the tree (same id, parent and path), and when it was trashed.
    ``location.child_count`` counts the trash items that were its children."""

    location: Location
    trashed: datetime


def is_below(path_string: str, ancestor_path: str) -> bool:
    """True when ``path_string`` is ``ancestor_path`` or lies in its subtree."""
    return path_string.startswith(ancestor_path)
