"""Reference lists of users and user groups (shapes-users.md §2, §4), as the role filters answer them."""

from __future__ import annotations

from dataclasses import dataclass

from pressroom.rest.output.visitor import Out, Representation, visits


@dataclass(frozen=True, slots=True)
class UserRefList:
    user_ids: list[int]
    path: str  # the request path, without the prefix


@dataclass(frozen=True, slots=True)
class UserGroupRefList:
    group_paths: list[str]  # location paths such as "1/5/13"
    path: str


@visits(UserRefList)
def visit_user_ref_list(out: Out, value: UserRefList) -> Representation:
    media = out.media("User")
    body = {
        "_media-type": out.media("UserRefList"),
        "_href": out.href(value.path),
        "User": [{"_media-type": media, "_href": out.href(f"/user/users/{i}")} for i in value.user_ids],
    }
    return Representation("UserRefList", "UserRefList", body)


@visits(UserGroupRefList)
def visit_user_group_ref_list(out: Out, value: UserGroupRefList) -> Representation:
    media = out.media("UserGroup")
    body = {
        "_media-type": out.media("UserGroupRefList"),
        "_href": out.href(value.path),
        "UserGroup": [
            {"_media-type": media, "_href": out.href(f"/user/groups/{p}")} for p in value.group_paths
        ],
    }
    return Representation("UserGroupRefList", "UserGroupRefList", body)
