"""Visitors for roles, role drafts, policies and role assignments (spec/shapes-users.md §5-§7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pressroom.domain.role import Assignee, Limitation, Policy, Role, RoleAssignment
from pressroom.rest.output.lists import ItemList, list_kind
from pressroom.rest.output.visitor import Out, Representation, visits


@dataclass(frozen=True, slots=True)
class PolicyView:
    policy: Policy
    draft: bool  # the policy of a role draft: Content-Type PolicyDraft


@dataclass(frozen=True, slots=True)
class RoleAssignmentView:
    assignment: RoleAssignment
    assignee: Assignee


@dataclass(frozen=True, slots=True)
class RoleAssignmentList:
    assignments: list[RoleAssignment]
    assignee: Assignee


def role_body(out: Out, role: Role) -> dict[str, Any]:
    return {
        "_media-type": out.media("Role"),
        "_href": out.url("role.load", roleId=role.id),
        "identifier": role.identifier,
        "Policies": out.ref("PolicyList", "policy.list", roleId=role.id),
    }


@visits(Role, "Role RoleDraft")
def visit_role(out: Out, role: Role) -> Representation:
    # A draft has the body of a role; only the Content-Type says RoleDraft.
    name = "RoleDraft" if role.is_draft else "Role"
    single = Representation.single("Role", role_body(out, role), role, patch="RoleInput")
    return Representation("Role", name, single.body, single.accept_patch, single.etag)


RoleList = ItemList[Literal["RoleList"], Role]
list_kind("RoleList", "Role", role_body)


def limitation_body(out: Out, limitation: Limitation) -> dict[str, Any]:
    media = out.media("ref")
    return {
        "_identifier": limitation.identifier,
        "values": {"ref": [{"_media-type": media, "_href": value} for value in limitation.values]},
    }


def policy_body(out: Out, policy: Policy) -> dict[str, Any]:
    body: dict[str, Any] = {
        "_media-type": out.media("Policy"),
        "_href": out.url("policy.load", roleId=policy.role_id, policyId=policy.id),
        "id": policy.id,
    }
    if policy.original_id is not None:
        body["originalId"] = policy.original_id
    body["module"] = policy.module
    body["function"] = policy.function
    if policy.limitations:
        body["limitations"] = {"limitation": [limitation_body(out, lim) for lim in policy.limitations]}
    return body


@visits(PolicyView, "Policy PolicyDraft")
def visit_policy(out: Out, value: PolicyView) -> Representation:
    single = Representation.single(
        "Policy", policy_body(out, value.policy), value.policy, patch="PolicyUpdate"
    )
    name = "PolicyDraft" if value.draft else "Policy"
    return Representation("Policy", name, single.body, single.accept_patch, single.etag)


PolicyList = ItemList[Literal["PolicyList"], Policy]
list_kind("PolicyList", "Policy", policy_body)


def _assignments_href(out: Out, assignee: Assignee) -> str:
    if assignee.user_id is not None:
        return out.url("role_assignment.user_list", userId=assignee.user_id)
    return out.url("role_assignment.group_list", path=assignee.group_path)


def assignment_body(out: Out, assignment: RoleAssignment, assignee: Assignee) -> dict[str, Any]:
    body: dict[str, Any] = {
        "_media-type": out.media("RoleAssignment"),
        "_href": f"{_assignments_href(out, assignee)}/{assignment.role_id}",
    }
    if assignment.limitation is not None:
        body["limitation"] = limitation_body(out, assignment.limitation)
    body["Role"] = out.ref("Role", "role.load", roleId=assignment.role_id)
    return body


@visits(RoleAssignmentView, "RoleAssignment")
def visit_role_assignment(out: Out, value: RoleAssignmentView) -> Representation:
    body = assignment_body(out, value.assignment, value.assignee)
    return Representation.single("RoleAssignment", body, value.assignment)


def assignments_body(out: Out, assignments: Sequence[RoleAssignment], assignee: Assignee) -> dict[str, Any]:
    return {
        "_media-type": out.media("RoleAssignmentList"),
        "_href": _assignments_href(out, assignee),
        "RoleAssignment": [assignment_body(out, a, assignee) for a in assignments],
    }


@visits(RoleAssignmentList, "RoleAssignmentList")
def visit_role_assignment_list(out: Out, value: RoleAssignmentList) -> Representation:
    body = assignments_body(out, value.assignments, value.assignee)
    return Representation("RoleAssignmentList", "RoleAssignmentList", body)
