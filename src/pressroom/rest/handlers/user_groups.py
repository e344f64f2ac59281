"""User groups: find, load by path, create (below a group or the root group), update, delete, and the
subgroups and users of a group (spec/endpoints-users.tsv)."""

from __future__ import annotations

from pressroom.domain.errors import BadRequest
from pressroom.domain.integers import MAX_ID, parse_int
from pressroom.domain.location import Location
from pressroom.domain.user import UserContent, UserGroup
from pressroom.rest.handlers.locations import write_at
from pressroom.rest.handlers.users import listed_here, page, user_list
from pressroom.rest.input.location import destination
from pressroom.rest.input.users import parse_user_create, parse_user_group_create, parse_user_group_update
from pressroom.rest.output.lists import ItemList
from pressroom.rest.output.users import UserGroupList, UserGroupRefList, UserList, UserRefList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent, Redirect
from pressroom.services.user_content import ROOT_USER_GROUP_PATH


def _group_list(req: RestRequest, groups: list[Location]) -> UserGroupList | UserGroupRefList:
    """Full groups when Accept asks for UserGroupList, references otherwise."""
    if req.wants("UserGroupList"):
        return ItemList(
            "UserGroupList", listed_here(req), req.services.user_groups.load_many(req.user, groups)
        )
    return UserGroupRefList(listed_here(req), groups)


def list_groups(req: RestRequest) -> UserGroupList | UserGroupRefList:
    role = req.query.get("roleId", "").strip()  # a role id, or (as the service description asks) its href
    if role:
        role_id = (
            req.query_int("roleId", 0) if role.isdigit() else req.parse_href(role, "role.load")["roleId"]
        )
        return _group_list(req, req.services.role_assignments.groups_with_role(req.user, role_id))
    raw_id = req.query.get("id")
    content_id = parse_int(raw_id) if raw_id is not None else None
    if raw_id is not None and (content_id is None or not 0 <= content_id <= MAX_ID):
        raise BadRequest(f"Query parameter 'id' must be a content id, got '{raw_id}'")
    groups = req.services.user_groups.find(
        req.user, content_id=content_id, remote_id=req.query.get("remoteId")
    )
    return _group_list(req, groups)


def root_group(req: RestRequest) -> Redirect:
    return Redirect(req.url("user_group.load", path=ROOT_USER_GROUP_PATH), status=301)


def _created(req: RestRequest, group: UserGroup) -> Created[UserGroup]:
    return Created(req.url("user_group.load", path=group.location.path), group)


def create_root_subgroup(req: RestRequest) -> Created[UserGroup]:
    return _created(req, req.services.user_groups.create(req.user, None, req.input(parse_user_group_create)))


def create_subgroup(req: RestRequest, path: str) -> Created[UserGroup]:
    struct = req.input(parse_user_group_create)
    return _created(
        req, write_at(req, path, lambda at: req.services.user_groups.create(req.user, at, struct))
    )


def load_group(req: RestRequest, path: str) -> UserGroup:
    return req.services.user_groups.load(req.user, path)


def update_group(req: RestRequest, path: str) -> UserGroup:
    struct = req.input(parse_user_group_update)
    return write_at(req, path, lambda at: req.services.user_groups.update(req.user, at, struct, req.if_match))


def move_group(req: RestRequest, path: str) -> Created[None]:
    """MOVE below the group the ``Destination`` header names: 201 with the group's new href."""
    found = destination(req.headers.get("destination"), req.out.router, "user_group.load")
    if found is None:
        raise BadRequest("The Destination header is missing; it must be a user group href")
    moved = write_at(req, path, lambda at: req.services.user_groups.move(req.user, at, found[1]))
    return Created(req.url("user_group.load", path=moved.path))


def delete_group(req: RestRequest, path: str) -> NoContent:
    write_at(req, path, lambda at: req.services.user_groups.delete(req.user, at))
    return NoContent()


def list_subgroups(req: RestRequest, path: str) -> UserGroupList | UserGroupRefList:
    return _group_list(req, req.services.user_groups.subgroups(req.user, path, *page(req)))


def list_users(req: RestRequest, path: str) -> UserList | UserRefList:
    return user_list(req, req.services.user_groups.users(req.user, path, *page(req)))


def create_user(req: RestRequest, path: str) -> Created[UserContent]:
    struct = req.input(parse_user_create)
    user = write_at(req, path, lambda at: req.services.users.create(req.user, at, struct))
    return Created(req.url("user.load", userId=user.account.id), user)
