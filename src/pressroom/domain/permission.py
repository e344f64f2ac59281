"""The permission rules: does a grant allow an operation on a target, and what may a user read.

Pure functions over loaded values. ``services/permissions.py`` loads a user's grants and asks these
functions; the facts a limitation needs beyond the target (the locations of an item, the groups of its
owner) come through :class:`Facts`, loaded only when a limitation asks for them.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from pressroom.domain import query as q
from pressroom.domain.location import Location
from pressroom.domain.role import Grant, Limitation

SELF_VALUES = frozenset({"1", "2"})  # Owner / ParentOwner: 1 self, 2 "session" (legacy, the same)


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
    assignee_group_ids: tuple[int, ...] | None = None  # role/assign: the groups of the assignee

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


def _ints(values: Iterable[str]) -> frozenset[int]:
    return frozenset(int(v) for v in values if v.lstrip("-").isdigit())


def _in(value: int | None, values: tuple[str, ...]) -> bool:
    return value is not None and value in _ints(values)


def _locations(target: Target, facts: Facts) -> tuple[Location, ...] | None:
    if target.locations is not None:
        return target.locations
    if target.content_id is None:
        return None
    return facts.locations_of(target.content_id)


def _under(locations: tuple[Location, ...] | None, paths: tuple[str, ...]) -> bool:
    return bool(locations) and any(
        location.path_string.startswith(path) for location in locations or () for path in paths
    )


def _shares_group(subject: Subject, owner_id: int | None, facts: Facts) -> bool:
    if owner_id is None:
        return False
    return bool(subject.group_location_ids() & facts.group_locations_of(owner_id))


def siteaccess_value(name: str) -> str:
    """The SiteAccess limitation stores crc32 of the siteaccess name as a decimal string."""
    return str(zlib.crc32(name.encode()))


def limitation_holds(limitation: Limitation, subject: Subject, target: Target, facts: Facts) -> bool:
    """True when ``limitation`` allows ``target``; unknown identifiers and missing facts refuse."""
    values = limitation.values
    match limitation.identifier:
        case "Class":
            return _in(target.content_type_id, values)
        case "Section":
            return _in(target.section_id, values)
        case "NewSection":
            return _in(target.new_section_id, values)
        case "Node":
            if target.main_location is not None and target.main_location[0] in _ints(values):
                return True
            found = _locations(target, facts)
            return bool(found) and any(location.id in _ints(values) for location in found or ())
        case "Subtree":
            main = target.main_location
            if main is not None and any(main[1].startswith(path) for path in values):
                return True
            return _under(_locations(target, facts), values)
        case "Owner":
            return bool(SELF_VALUES & set(values)) and target.owner_id == subject.user_id
        case "ParentOwner":
            return bool(SELF_VALUES & set(values)) and target.parent_owner_id == subject.user_id
        case "Group":
            return _shares_group(subject, target.owner_id, facts)
        case "ParentGroup":
            return _shares_group(subject, target.parent_owner_id, facts)
        case "ParentClass":
            return _in(target.parent_content_type_id, values)
        case "ParentDepth":
            return _in(target.parent_depth, values)
        case "Language":
            codes = target.language_codes
            return codes is not None and set(codes) <= set(values)
        case "State":
            states: Iterable[int] | None = target.state_ids
            if states is None and target.content_id is not None:
                states = facts.state_ids_of(target.content_id)
            return states is not None and bool(set(states) & _ints(values))
        case "NewState":
            return _in(target.new_state_id, values)
        case "SiteAccess":
            return target.siteaccess is not None and siteaccess_value(target.siteaccess) in values
        case "Status":
            return _in(target.version_status, values)
        case "ChangeOwner":
            return target.new_owner_id is None or target.new_owner_id == subject.user_id
        case "MemberOf":
            groups = target.assignee_group_ids
            wanted = _ints(values)
            return groups is not None and bool(set(groups) & wanted)
        case "Role":
            return _in(target.role_id, values)
    return False


def grant_allows(grant: Grant, subject: Subject, target: Target | None, facts: Facts) -> bool:
    """Without a target a grant allows its function somewhere; with one, every limitation must hold.
    An assignment's Section/Subtree limitation judges content only: it does not narrow a policy on
    something else (user/login of an editor whose role is assigned on a subtree, permissions.md §4)."""
    if target is None:
        return True
    limitations = grant.policy.limitations
    if grant.assignment_limitation is not None and target.is_about_content:
        limitations = (*limitations, grant.assignment_limitation)
    return all(limitation_holds(lim, subject, target, facts) for lim in limitations)


def _limitation_criterion(limitation: Limitation, subject: Subject) -> q.Criterion:
    """The condition a content/read limitation puts on the items a user may read."""
    values = limitation.values
    match limitation.identifier:
        case "Class":
            return q.ContentTypeId(tuple(sorted(_ints(values))))
        case "Section":
            return q.SectionId(tuple(sorted(_ints(values))))
        case "Node":
            return q.LocationId(tuple(sorted(_ints(values))))
        case "Subtree":
            return q.Subtree(tuple(sorted(values)))
        case "Owner":
            return q.OwnerId((subject.user_id,)) if SELF_VALUES & set(values) else q.MatchNone()
        case "Group":
            return q.OwnerInGroups(tuple(sorted(subject.group_location_ids())))
    # State has no stored object states to compare yet; anything else cannot limit reading.
    return q.MatchNone()


def read_criterion(grants: Iterable[Grant], subject: Subject) -> q.Criterion:
    """What the holder of ``grants`` may read: the OR over its content/read grants of the AND of each
    grant's limitations (and its assignment's). MatchAll for an unlimited grant, MatchNone for none."""
    per_grant = []
    for grant in grants:
        if not grant.policy.grants("content", "read"):
            continue
        limitations = grant.policy.limitations
        if grant.assignment_limitation is not None:
            limitations = (*limitations, grant.assignment_limitation)
        per_grant.append(q.all_of(_limitation_criterion(lim, subject) for lim in limitations))
    return q.any_of(per_grant)
