"""Roles, their policies and limitations, and the assignment of roles to users and user groups.

A role is a named set of policies; a policy grants one ``module/function`` (``*`` is a wildcard), narrowed
by limitations that all must hold. A role assignment gives a role to a user or a user group (a content id),
optionally narrowed by one Section or Subtree limitation that then holds for every policy of the role.
Roles have drafts: a draft has its own id and replaces its role's identifier and policies when published.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFINED = "DEFINED"
DRAFT = "DRAFT"

# spec/permissions.md §1: the core policy map, module -> function -> limitations it accepts.
_CONTENT_READ = ("Class", "Section", "Owner", "Group", "Node", "Subtree", "State")
_NARROW = ("Class", "Section", "Owner", "Node", "Subtree")
POLICY_MAP: dict[str, dict[str, tuple[str, ...]]] = {
    "content": {
        "read": _CONTENT_READ,
        "diff": _NARROW,
        "view_embed": _NARROW,
        "create": (
            "Class",
            "Section",
            "ParentOwner",
            "ParentGroup",
            "ParentClass",
            "ParentDepth",
            "Node",
            "Subtree",
            "Language",
            "ChangeOwner",
        ),
        "edit": (*_CONTENT_READ, "Language", "ChangeOwner"),
        "publish": (*_CONTENT_READ, "Language"),
        "manage_locations": ("Class", "Section", "Owner", "Subtree", "State"),
        "hide": ("Class", "Section", "Owner", "Group", "Node", "Subtree", "Language"),
        "reverserelatedlist": (),
        "translate": (*_NARROW, "Language"),
        "remove": (*_NARROW, "Language", "State"),
        "versionread": (*_NARROW, "Status", "State"),
        "versionremove": (*_NARROW, "Status", "State"),
        "translations": (),
        "urltranslator": (),
        "pendinglist": (),
        "restore": (),
        "cleantrash": (),
    },
    "class": {"update": (), "create": (), "delete": ()},
    "state": {"assign": ("Class", "Section", "Owner", "Group", "State", "NewState"), "administrate": ()},
    "role": {"assign": ("MemberOf", "Role"), "update": (), "create": (), "delete": (), "read": ()},
    "section": {"assign": ("Class", "Section", "Owner", "NewSection"), "edit": (), "view": ()},
    "setup": {"administrate": (), "install": (), "setup": (), "system_info": ()},
    "user": {
        "login": ("SiteAccess",),
        "password": (),
        "preferences": (),
        "register": (),
        "selfedit": (),
        "activation": (),
    },
    "url": {"view": (), "update": ()},
    "setting": {"update": (), "create": (), "remove": ()},
}

# The limitations a PolicyCreate / PolicyUpdate can carry (spec/shapes-users.md §6); others are 404.
POLICY_INPUT_LIMITATIONS = frozenset(
    {
        "Class", "Language", "Node", "Owner", "ParentOwner", "ParentClass", "ParentDepth", "Section",
        "SiteAccess", "State", "Subtree", "Group", "ParentGroup",
    }
)  # fmt: skip
# The limitations a role assignment can carry (spec/permissions.md §2).
ASSIGNMENT_LIMITATIONS = frozenset({"Section", "Subtree"})


@dataclass(frozen=True, slots=True)
class Limitation:
    identifier: str
    values: tuple[str, ...]  # as stored and shown: ids, path strings, crc32 numbers, all strings


@dataclass(frozen=True, slots=True)
class Policy:
    id: int
    role_id: int
    module: str
    function: str
    limitations: tuple[Limitation, ...] = ()
    original_id: int | None = None  # set on the policies of a role draft

    def grants(self, module: str, function: str) -> bool:
        return self.module in ("*", module) and self.function in ("*", function)


@dataclass(frozen=True, slots=True)
class Role:
    id: int
    identifier: str
    status: str = DEFINED
    original_id: int | None = None  # the role a draft was made from
    policies: tuple[Policy, ...] = ()

    @property
    def is_draft(self) -> bool:
        return self.status == DRAFT


@dataclass(frozen=True, slots=True)
class RoleAssignment:
    id: int
    role_id: int
    assignee_id: int  # content id of the user or user group
    limitation: Limitation | None = None


@dataclass(frozen=True, slots=True)
class Assignee:
    """A user (by content id) or a user group (by location path such as ``1/5/14``)."""

    user_id: int | None = None
    group_path: str | None = None


@dataclass(frozen=True, slots=True)
class PolicyCreate:
    module: str
    function: str
    limitations: tuple[Limitation, ...] = ()


@dataclass(frozen=True, slots=True)
class Grant:
    """One policy as it reaches a user: through an assignment that may narrow it further."""

    policy: Policy
    assignment_limitation: Limitation | None = None


def known_function(module: str, function: str) -> bool:
    if module == "*":
        return function == "*"
    functions = POLICY_MAP.get(module)
    return functions is not None and (function == "*" or function in functions)


def allowed_limitations(module: str, function: str) -> tuple[str, ...]:
    """The limitations a policy on ``module/function`` may carry (none for wildcards)."""
    return POLICY_MAP.get(module, {}).get(function, ())
