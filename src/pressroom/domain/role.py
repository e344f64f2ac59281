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

# spec/permissions.md §1: the core policy map, module -> its functions. The limitations each function
# accepts are said by the limitation types (domain/limitations.py).
FUNCTIONS: dict[str, tuple[str, ...]] = {
    "content": (
        "read", "diff", "view_embed", "create", "edit", "publish", "manage_locations", "hide",
        "reverserelatedlist", "translate", "remove", "versionread", "versionremove", "translations",
        "urltranslator", "pendinglist", "restore", "cleantrash",
    ),
    "class": ("update", "create", "delete"),
    "state": ("assign", "administrate"),
    "role": ("assign", "update", "create", "delete", "read"),
    "section": ("assign", "edit", "view"),
    "setup": ("administrate", "install", "setup", "system_info"),
    "user": ("login", "password", "preferences", "register", "selfedit", "activation"),
    "url": ("view", "update"),
    "setting": ("update", "create", "remove"),
}  # fmt: skip


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
    functions = FUNCTIONS.get(module)
    return functions is not None and (function == "*" or function in functions)
