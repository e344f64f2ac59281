"""The limitation types: one object per limitation identifier of spec/permissions.md §2.

Each type says, side by side, which ``module/function`` policies may carry it, which values it accepts,
whether it holds for one target (``holds``), and which items it lets through as a criterion that lists,
searches and subtree checks compile into their SQL (``criterion``). Keeping the two answers in one place is
what keeps them in agreement (tests/storage/test_limitation_agreement.py checks it for every type that can
limit reading). A type that says nothing about content items (``Role``, ``SiteAccess``, ``Status``...)
compiles to MatchNone: a policy narrowed by it lets no item through a criterion.

Missing facts refuse: a target that does not carry what a limitation judges (a parent, languages) fails it.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol

from pressroom.domain import query as q
from pressroom.domain.errors import BadRequest

if TYPE_CHECKING:
    from pressroom.domain.location import Location
    from pressroom.domain.permission import Facts, Subject, Target

SELF_VALUES = frozenset({"1", "2"})  # Owner / ParentOwner: 1 self, 2 "session" (legacy, the same)
OWN_GROUPS = -1  # MemberOf: the groups of the current user
VERSION_STATUSES = frozenset({"0", "1", "3"})  # draft, published, archived

# spec/permissions.md §1, by the functions that accept a limitation
_READ_LIKE = ("content/read", "content/diff", "content/view_embed")
_CHANGES = ("content/edit", "content/publish", "content/hide", "content/translate", "content/remove")
_VERSIONS = ("content/versionread", "content/versionremove")
_ALL_CONTENT = (*_READ_LIKE, *_CHANGES, *_VERSIONS, "content/create", "content/manage_locations")


class Known(Protocol):
    """What value validation looks up in the repository."""

    def section_exists(self, section_id: int) -> bool: ...
    def content_type_exists(self, type_id: int) -> bool: ...
    def location_path(self, location_id: int) -> str | None: ...
    def language_exists(self, code: str) -> bool: ...
    def siteaccesses(self) -> Sequence[str]: ...


def siteaccess_value(name: str) -> str:
    """The SiteAccess limitation stores crc32 of the siteaccess name as a decimal string."""
    return str(zlib.crc32(name.encode()))


def ints(values: Iterable[str]) -> frozenset[int]:
    return frozenset(int(v) for v in values if v.lstrip("-").isdigit())


def _in(value: int | None, values: tuple[str, ...]) -> bool:
    return value is not None and value in ints(values)


def _sorted_ints(values: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(sorted(ints(values)))


def _locations(target: Target, facts: Facts) -> tuple[Location, ...] | None:
    if target.locations is not None:
        return target.locations
    if target.content_id is None:
        return None
    return facts.locations_of(target.content_id)


def _shares_group(subject: Subject, owner_id: int | None, facts: Facts) -> bool:
    if owner_id is None:
        return False
    return bool(subject.group_location_ids() & facts.group_locations_of(owner_id))


class LimitationType:
    """One limitation identifier. Subclasses set the class attributes and override what differs."""

    identifier: ClassVar[str]
    functions: ClassVar[frozenset[str]]  # "module/function" policies that accept it
    policy_input: ClassVar[bool] = True  # a PolicyCreate/PolicyUpdate can carry it (else NotFound)
    assignment: ClassVar[bool] = False  # a role assignment can carry it

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        """BadRequest naming the limitation for values it does not accept (by default: integers)."""
        self.integers(values)

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        raise NotImplementedError

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        """The items the limitation lets through; MatchNone for a limitation not about items."""
        return q.MatchNone()

    # -- validation helpers
    def integers(self, values: tuple[str, ...]) -> list[int]:
        numbers = []
        for value in values:
            if not value.lstrip("-").isdigit():
                raise BadRequest(f"Limitation '{self.identifier}' takes integers, got '{value}'")
            numbers.append(int(value))
        return numbers

    def must_exist(self, missing: Iterable[object]) -> None:
        absent = list(missing)
        if absent:
            raise BadRequest(f"Limitation '{self.identifier}' names what does not exist: '{absent[0]}'")


# -- the item's own properties ---------------------------------------------------------------------------
class ClassLimitation(LimitationType):
    identifier = "Class"
    functions = frozenset((*_ALL_CONTENT, "state/assign", "section/assign"))

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        self.must_exist(i for i in self.integers(values) if not known.content_type_exists(i))

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _in(target.content_type_id, values)

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.ContentTypeId(_sorted_ints(values))


class SectionLimitation(LimitationType):
    identifier = "Section"
    functions = frozenset((*_ALL_CONTENT, "state/assign", "section/assign"))
    assignment = True

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        self.must_exist(i for i in self.integers(values) if not known.section_exists(i))

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _in(target.section_id, values)

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.SectionId(_sorted_ints(values))


class OwnerLimitation(LimitationType):
    identifier = "Owner"
    functions = frozenset(
        (*_READ_LIKE, *_CHANGES, *_VERSIONS, "content/manage_locations", "state/assign", "section/assign")
    )

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        if not set(values) <= SELF_VALUES:
            raise BadRequest(f"Limitation '{self.identifier}' takes only 1 (self) or 2 (session)")

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return bool(SELF_VALUES & set(values)) and target.owner_id == subject.user_id

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.OwnerId((subject.user_id,)) if SELF_VALUES & set(values) else q.MatchNone()


class GroupLimitation(LimitationType):
    """The item's owner is directly in one of the user groups the current user is directly in."""

    identifier = "Group"
    functions = frozenset(("content/read", "content/edit", "content/publish", "content/hide", "state/assign"))

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        if set(values) != {"1"}:
            raise BadRequest(f"Limitation '{self.identifier}' takes only 1")

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _shares_group(subject, target.owner_id, facts)

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.OwnerInGroups(tuple(sorted(subject.group_location_ids())))


class StateLimitation(LimitationType):
    """The item is in one of the object states; an item with no state of a group is in its default."""

    identifier = "State"
    functions = frozenset(
        ("content/read", "content/edit", "content/publish", "content/manage_locations", "content/remove",
         *_VERSIONS, "state/assign")
    )  # fmt: skip

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        states: Iterable[int] | None = target.state_ids
        if states is None and target.content_id is not None:
            states = facts.state_ids_of(target.content_id)
        return states is not None and bool(set(states) & ints(values))

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.ObjectStateId(_sorted_ints(values))


class LanguageLimitation(LimitationType):
    """Every language the operation touches is one of the values. Its criterion is MatchNone: an item's
    languages are not known before the operation says which it touches (a subtree delete removes all)."""

    identifier = "Language"
    functions = frozenset(("content/create", *_CHANGES))

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        self.must_exist(c for c in values if not known.language_exists(c))

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        codes = target.language_codes
        return codes is not None and set(codes) <= set(values)


# -- where the item is -----------------------------------------------------------------------------------
class NodeLimitation(LimitationType):
    """One of the item's locations (or the location the check is about) is one of the values."""

    identifier = "Node"
    functions = frozenset(_ALL_CONTENT) - {"content/manage_locations"}

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        self.must_exist(i for i in self.integers(values) if known.location_path(i) is None)

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        wanted = ints(values)
        if target.main_location is not None and target.main_location[0] in wanted:
            return True
        found = _locations(target, facts)
        return bool(found) and any(location.id in wanted for location in found or ())

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.LocationId(_sorted_ints(values))


class SubtreeLimitation(LimitationType):
    """One of the item's locations (or the location the check is about) lies below a value's path."""

    identifier = "Subtree"
    functions = frozenset(_ALL_CONTENT)
    assignment = True

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        for path in values:
            ids = path.strip("/").split("/")
            found = known.location_path(int(ids[-1])) if all(part.isdigit() for part in ids) else None
            if found != path:
                raise BadRequest(f"Limitation 'Subtree' names no location path: '{path}'")

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        main = target.main_location
        if main is not None and any(main[1].startswith(path) for path in values):
            return True
        found = _locations(target, facts)
        return bool(found) and any(
            location.path_string.startswith(path) for location in found or () for path in values
        )

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.Subtree(tuple(sorted(values)))


# -- the parent of a new item (content/create) -----------------------------------------------------------
class ParentOwnerLimitation(OwnerLimitation):
    identifier = "ParentOwner"
    functions = frozenset({"content/create"})

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return bool(SELF_VALUES & set(values)) and target.parent_owner_id == subject.user_id

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.MatchNone()


class ParentGroupLimitation(GroupLimitation):
    identifier = "ParentGroup"
    functions = frozenset({"content/create"})

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _shares_group(subject, target.parent_owner_id, facts)

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.MatchNone()


class ParentClassLimitation(ClassLimitation):
    identifier = "ParentClass"
    functions = frozenset({"content/create"})

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _in(target.parent_content_type_id, values)

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.MatchNone()


class ParentDepthLimitation(LimitationType):
    identifier = "ParentDepth"
    functions = frozenset({"content/create"})

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _in(target.parent_depth, values)


class ChangeOwnerLimitation(LimitationType):
    """-1: an item created or edited may be given no owner other than the current user."""

    identifier = "ChangeOwner"
    functions = frozenset({"content/create", "content/edit"})
    policy_input = False

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return target.new_owner_id is None or target.new_owner_id == subject.user_id


# -- what the operation changes to, and operations not on items ------------------------------------------
class NewSectionLimitation(SectionLimitation):
    identifier = "NewSection"
    functions = frozenset({"section/assign"})
    policy_input = False
    assignment = False

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _in(target.new_section_id, values)

    def criterion(self, values: tuple[str, ...], subject: Subject) -> q.Criterion:
        return q.MatchNone()


class NewStateLimitation(LimitationType):
    identifier = "NewState"
    functions = frozenset({"state/assign"})
    policy_input = False

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _in(target.new_state_id, values)


class StatusLimitation(LimitationType):
    identifier = "Status"
    functions = frozenset(_VERSIONS)
    policy_input = False

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        self.must_exist(v for v in values if v not in VERSION_STATUSES)

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _in(target.version_status, values)


class SiteAccessLimitation(LimitationType):
    identifier = "SiteAccess"
    functions = frozenset({"user/login"})

    def validate(self, values: tuple[str, ...], known: Known) -> None:
        configured = {siteaccess_value(name) for name in known.siteaccesses()}
        self.must_exist(v for v in values if v not in configured)

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return target.siteaccess is not None and siteaccess_value(target.siteaccess) in values


class MemberOfLimitation(LimitationType):
    """The user or group a role is assigned to is directly in one of the groups (content ids); -1 stands
    for the groups the current user is directly in."""

    identifier = "MemberOf"
    functions = frozenset({"role/assign"})
    policy_input = False

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        groups = target.assignee_groups
        if groups is None:
            return False
        wanted = ints(values)
        if any(content_id in wanted for content_id, _location_id in groups):
            return True
        return OWN_GROUPS in wanted and bool(
            {location_id for _content_id, location_id in groups} & subject.group_location_ids()
        )


class RoleLimitation(LimitationType):
    identifier = "Role"
    functions = frozenset({"role/assign"})
    policy_input = False

    def holds(self, values: tuple[str, ...], subject: Subject, target: Target, facts: Facts) -> bool:
        return _in(target.role_id, values)


LIMITATIONS: dict[str, LimitationType] = {
    kind.identifier: kind
    for kind in (
        ClassLimitation(), SectionLimitation(), OwnerLimitation(), GroupLimitation(), StateLimitation(),
        LanguageLimitation(), NodeLimitation(), SubtreeLimitation(), ParentOwnerLimitation(),
        ParentGroupLimitation(), ParentClassLimitation(), ParentDepthLimitation(), ChangeOwnerLimitation(),
        NewSectionLimitation(), NewStateLimitation(), StatusLimitation(), SiteAccessLimitation(),
        MemberOfLimitation(), RoleLimitation(),
    )
}  # fmt: skip


def allowed_limitations(module: str, function: str) -> frozenset[str]:
    """The limitations a policy on ``module/function`` may carry (none for wildcards)."""
    key = f"{module}/{function}"
    return frozenset(kind.identifier for kind in LIMITATIONS.values() if key in kind.functions)
