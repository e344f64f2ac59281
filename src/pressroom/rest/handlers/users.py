"""Users: list and find, load, update, delete, their groups and drafts (spec/endpoints-users.tsv)."""

from __future__ import annotations

from pressroom.domain.errors import BadRequest, NotFound
from pressroom.domain.location import Location
from pressroom.domain.user import User, UserContent
from pressroom.rest.input.users import parse_group_reference, parse_user_update
from pressroom.rest.output.lists import ItemList
from pressroom.rest.output.users import UserDrafts, UserGroupRefList, UserList, UserRefList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import NoContent
from pressroom.services.user import UserFilter

DEFAULT_PAGE = 25


def page(req: RestRequest) -> tuple[int, int]:
    """``offset`` (default 0) and ``limit`` (default 25) of a list."""
    offset, limit = req.query_int("offset", 0), req.query_int("limit", DEFAULT_PAGE)
    if offset < 0 or limit < 0:
        raise BadRequest("Query parameters 'offset' and 'limit' cannot be negative")
    return offset, limit


def listed_here(req: RestRequest) -> str:
    """The ``_href`` of a list: the request path with prefix, without the query."""
    return req.out.href(req.path)


def user_list(req: RestRequest, users: list[User]) -> UserList | UserRefList:
    """Full users when Accept asks for UserList, references otherwise."""
    if req.wants("UserList"):
        return UserList("UserList", listed_here(req), req.services.users.load_many(req.user, users))
    return UserRefList("UserRefList", listed_here(req), users)


def list_users(req: RestRequest) -> UserList | UserRefList:
    """404 without a filter, as the reference answers (endpoints-users.tsv). ``groupId`` filters nothing
    (the reference has no such filter) but keeps the answer it always had: every user."""
    if all(req.query.get(name) is None for name in ("roleId", "remoteId", "login", "email", "groupId")):
        raise NotFound("Could not find Users with the given filter: give roleId, remoteId, login or email")
    role = req.query.get("roleId")  # the first filter looked at; a role href (endpoints-users.tsv)
    if role is not None:
        role_id: int = req.parse_href(role, "role.load", what="roleId")["roleId"]
        return user_list(req, req.services.role_assignments.users_with_role(req.user, role_id))
    query = UserFilter(
        remote_id=req.query.get("remoteId"), login=req.query.get("login"), email=req.query.get("email")
    )
    return user_list(req, req.services.users.find(req.user, query, *page(req)))


def load_user(req: RestRequest, userId: int) -> UserContent:
    return req.services.users.load(req.user, userId)


def update_user(req: RestRequest, userId: int) -> UserContent:
    return req.services.users.update(req.user, userId, req.input(parse_user_update), req.if_match)


def delete_user(req: RestRequest, userId: int) -> NoContent:
    req.services.users.delete(req.user, userId)
    return NoContent()


def _groups(req: RestRequest, userId: int, groups: list[Location]) -> UserGroupRefList:
    return UserGroupRefList(req.url("user.groups", userId=userId), groups, member_id=userId)


def list_user_groups(req: RestRequest, userId: int) -> UserGroupRefList:
    return _groups(req, userId, req.services.users.groups_of(req.user, userId, *page(req)))


def assign_group(req: RestRequest, userId: int) -> UserGroupRefList:
    group_id = parse_group_reference(req.query.get("group"), "Query parameter 'group'")
    return _groups(req, userId, req.services.users.assign_group(req.user, userId, group_id))


def unassign_group(req: RestRequest, userId: int, groupId: int) -> UserGroupRefList:
    return _groups(req, userId, req.services.users.unassign_group(req.user, userId, groupId))


def list_drafts(req: RestRequest, userId: int) -> UserDrafts:
    return ItemList(
        "VersionList", req.url("user.drafts", userId=userId), req.services.users.drafts(req.user, userId)
    )
