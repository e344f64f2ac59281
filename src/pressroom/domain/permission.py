"""The permission rules: does a grant allow an operation on a target, and on which items may a user do it.

Pure functions over loaded values; each limitation is judged by its type in ``domain/limitations.py``.
``services/permissions.py`` loads a user's grants and asks these functions; the facts a limitation needs
beyond the target (the locations of an item, the groups of its owner) come through :class:`Facts`, loaded
only when a limitation asks for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from pressroom.domain import query as q
from pressroom.domain.limitations import LIMITATIONS
from pressroom.domain.location import Location
from pressroom.domain.role import Grant, Limitation


@dataclass(frozen=True, slots=True)
class Target:
    """What an operation is about. A limitation that needs a fact the target does not carry refuses."""

    content_id: int | None = None
    content_type_id: int | None = None
    section_id: int | None = None
    owner_id: int | None = None
    # The locations the check is about; None: every location of ``content_id`` (loaded on demand).
    # On create, the parent location of the new item.
    locations: tuple[Location, ...] | None = None
    # The item's main location (id, path string), when ``locations`` is None: most Subtree and Node
    # checks are decided by it without loading every location of the item.
    main_location: tuple[int, str] | None = None
    parent_owner_id: int | None = None
    parent_content_type_id: int | None = None
    parent_depth: int | None = None
    language_codes: tuple[str, ...] | None = None
    version_status: int | None = None  # 0 draft, 1 published, 3 archived
    state_ids: tuple[int, ...] | None = None
    new_section_id: int | None = None
    new_state_id: int | None = None
    new_owner_id: int | None = None
    siteaccess: str | None = None
    role_id: int | None = None
    # role/assign: the groups the assignee is directly in, as (content id, location id)
    assignee_groups: tuple[tuple[int, int], ...] | None = None

    @property
    def is_about_content(self) -> bool:
        return self.content_id is not None or self.locations is not None or self.section_id is not None

    def describe(self) -> str:
        """``contentId '14', sectionId '2'``: the properties named in a refusal."""
        parts = [
            (name, value)
            for name, value in (
                ("contentId", self.content_id),
                ("sectionId", self.section_id),
                ("newSectionId", self.new_section_id),
                ("roleId", self.role_id),
            )
            if value is not None
        ]
        return ", ".join(f"{name} '{value}'" for name, value in parts)


class Facts(Protocol):
    def locations_of(self, content_id: int) -> tuple[Location, ...]: ...
    def group_locations_of(self, user_id: int) -> frozenset[int]:
        """The location ids of the groups ``user_id`` is directly in (parents of its locations)."""
        ...

    def state_ids_of(self, content_id: int) -> frozenset[int]:
        """The object states the item is in (one per state group)."""
        ...


@dataclass(frozen=True, slots=True)
class Subject:
    """The user a check is for, with the direct groups the Group limitations compare."""

    user_id: int
    group_location_ids: Callable[[], frozenset[int]] = field(compare=False)


def grant_allows(grant: Grant, subject: Subject, target: Target | None, facts: Facts) -> bool:
    """Without a target a grant allows its function somewhere; with one, every limitation must hold.
    An assignment's Section/Subtree limitation judges content only: it does not narrow a policy on
    something else (user/login of an editor whose role is assigned on a subtree, permissions.md §4)."""
    if target is None:
        return True
    limitations = _limitations(grant) if target.is_about_content else grant.policy.limitations
    return all(limitation_holds(lim, subject, target, facts) for lim in limitations)


def _limitations(grant: Grant) -> tuple[Limitation, ...]:
    if grant.assignment_limitation is None:
        return grant.policy.limitations
    return (*grant.policy.limitations, grant.assignment_limitation)


def limitation_holds(limitation: Limitation, subject: Subject, target: Target, facts: Facts) -> bool:
    """True when ``limitation`` allows ``target``; unknown identifiers and missing facts refuse."""
    kind = LIMITATIONS.get(limitation.identifier)
    return kind is not None and kind.holds(limitation.values, subject, target, facts)


def limitation_criterion(limitation: Limitation, subject: Subject) -> q.Criterion:
    """The items ``limitation`` lets through (MatchNone for an unknown identifier)."""
    kind = LIMITATIONS.get(limitation.identifier)
    return q.MatchNone() if kind is None else kind.criterion(limitation.values, subject)


def permission_criterion(
    grants: Iterable[Grant], subject: Subject, module: str, function: str
) -> q.Criterion:
    """The items on which the holder of ``grants`` may do ``module/function``: the OR over the grants of
    that function of the AND of each grant's limitations (and its assignment's). MatchAll for an unlimited
    grant, MatchNone for none. It agrees with ``grant_allows`` on every item (for the limitations that
    describe items; the others compile to MatchNone, a refusal)."""
    return q.any_of(
        q.all_of(limitation_criterion(lim, subject) for lim in _limitations(grant))
        for grant in grants
        if grant.policy.grants(module, function)
    )
