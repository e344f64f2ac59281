"""Roles, role drafts, policies, role assignments of users and groups, and the policies of a user."""

from __future__ import annotations

from pressroom.domain.role import Assignee, Role
from pressroom.rest.handlers.locations import write_at
from pressroom.rest.input.registry import plain
from pressroom.rest.input.roles import parse_policy_create, parse_policy_update, parse_role_assign
from pressroom.rest.output.lists import ItemList
from pressroom.rest.output.roles import (
    PolicyList,
    PolicyView,
    RoleAssignmentList,
    RoleAssignmentView,
    RoleList,
)
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent


def _identifier(req: RestRequest) -> str | None:
    return req.input(plain).opt_string("identifier")


# -- roles -----------------------------------------------------------------------------------------------
def list_roles(req: RestRequest) -> RoleList:
    identifier = req.query.get("identifier")
    limit = req.query_int("limit", -1)
    offset = req.query_int("offset", 0)
    roles = req.services.roles.list(req.user, identifier, offset, None if limit < 0 else limit)
    return ItemList("RoleList", req.url("role.list"), roles)


def create_role(req: RestRequest) -> Created[Role]:
    identifier = req.input(plain).string("identifier")
    # The reference publishes unless ``publish`` is present and not "true".
    publish = req.query.get("publish", "true").strip().lower() in ("true", "1")
    role = req.services.roles.create(req.user, identifier, publish=publish)
    return Created(req.url("role.load", roleId=role.id), role)


def load_role(req: RestRequest, roleId: int) -> Role:
    return req.services.roles.load(req.user, roleId)


def update_role(req: RestRequest, roleId: int) -> Role:
    return req.services.roles.update(req.user, roleId, _identifier(req))


def delete_role(req: RestRequest, roleId: int) -> NoContent:
    req.services.roles.delete(req.user, roleId)
    return NoContent()


# -- drafts ----------------------------------------------------------------------------------------------
def create_role_draft(req: RestRequest, roleId: int) -> Created[Role]:
    draft = req.services.roles.create_draft(req.user, roleId)
    return Created(req.url("role.load", roleId=draft.id), draft)


def load_role_draft(req: RestRequest, roleId: int) -> Role:
    return req.services.roles.load_draft(req.user, roleId)


def update_role_draft(req: RestRequest, roleId: int) -> Role:
    return req.services.roles.update_draft(req.user, roleId, _identifier(req))


def publish_role_draft(req: RestRequest, roleId: int) -> NoContent:
    role_id = req.services.roles.publish_draft(req.user, roleId)
    return NoContent({"location": req.url("role.load", roleId=role_id)})


def delete_role_draft(req: RestRequest, roleId: int) -> NoContent:
    req.services.roles.delete_draft(req.user, roleId)
    return NoContent()


# -- policies --------------------------------------------------------------------------------------------
def list_policies(req: RestRequest, roleId: int) -> PolicyList:
    return ItemList("PolicyList", req.out.href(req.path), req.services.roles.policies(req.user, roleId))


def add_policy(req: RestRequest, roleId: int) -> Created[PolicyView]:
    struct = req.input(parse_policy_create)
    role, policy = req.services.roles.add_policy(req.user, roleId, struct)
    location = req.url("policy.load", roleId=role.id, policyId=policy.id)
    return Created(location, PolicyView(policy, role.is_draft))


def load_policy(req: RestRequest, roleId: int, policyId: int) -> PolicyView:
    role, policy = req.services.roles.load_policy(req.user, roleId, policyId, req.path)
    return PolicyView(policy, role.is_draft)


def update_policy(req: RestRequest, roleId: int, policyId: int) -> PolicyView:
    limitations = req.input(parse_policy_update)
    role, policy = req.services.roles.update_policy(req.user, roleId, policyId, limitations, req.path)
    return PolicyView(policy, role.is_draft)


def delete_policy(req: RestRequest, roleId: int, policyId: int) -> NoContent:
    req.services.roles.delete_policy(req.user, roleId, policyId, req.path)
    return NoContent()


def delete_policies(req: RestRequest, roleId: int) -> NoContent:
    req.services.roles.delete_policies(req.user, roleId)
    return NoContent()


def policies_of_user(req: RestRequest) -> PolicyList:
    # Without userId the reference looks up user 0: 404.
    user_id = req.query_int("userId", 0)
    policies = req.services.role_assignments.policies_of_user(req.user, user_id)
    return ItemList("PolicyList", req.out.href(req.path), policies)


# -- role assignments --------------------------------------------------------------------------------------
def _list(req: RestRequest, assignee: Assignee) -> RoleAssignmentList:
    return RoleAssignmentList(req.services.role_assignments.list(req.user, assignee), assignee)


def _assign(req: RestRequest, assignee: Assignee) -> RoleAssignmentList:
    role_id, limitation = req.input(parse_role_assign)
    assignments = req.services.role_assignments.assign(req.user, assignee, role_id, limitation)
    return RoleAssignmentList(assignments, assignee)


def _load(req: RestRequest, assignee: Assignee, role_id: int) -> RoleAssignmentView:
    assignment = req.services.role_assignments.load(req.user, assignee, role_id, req.path)
    return RoleAssignmentView(assignment, assignee)


def _unassign(req: RestRequest, assignee: Assignee, role_id: int) -> RoleAssignmentList:
    remaining = req.services.role_assignments.unassign(req.user, assignee, role_id)
    return RoleAssignmentList(remaining, assignee)


def user_assignments(req: RestRequest, userId: int) -> RoleAssignmentList:
    return _list(req, Assignee(user_id=userId))


def assign_role_to_user(req: RestRequest, userId: int) -> RoleAssignmentList:
    return _assign(req, Assignee(user_id=userId))


def user_assignment(req: RestRequest, userId: int, roleId: int) -> RoleAssignmentView:
    return _load(req, Assignee(user_id=userId), roleId)


def unassign_role_from_user(req: RestRequest, userId: int, roleId: int) -> RoleAssignmentList:
    return _unassign(req, Assignee(user_id=userId), roleId)


def group_assignments(req: RestRequest, path: str) -> RoleAssignmentList:
    return _list(req, Assignee(group_path=path))


def assign_role_to_group(req: RestRequest, path: str) -> RoleAssignmentList:
    return write_at(req, path, lambda at: _assign(req, Assignee(group_path=at)))


def group_assignment(req: RestRequest, path: str, roleId: int) -> RoleAssignmentView:
    return _load(req, Assignee(group_path=path), roleId)


def unassign_role_from_group(req: RestRequest, path: str, roleId: int) -> RoleAssignmentList:
    return write_at(req, path, lambda at: _unassign(req, Assignee(group_path=at), roleId))
