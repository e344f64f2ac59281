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


def _ref_list(out: Out, root: str, item: str, hrefs: list[str], path: str) -> Representation:
    media = out.media(item)
    body = {
        "_media-type": out.media(root),
        "_href": out.href(path),
        item: [{"_media-type": media, "_href": out.href(href)} for href in hrefs],
    }
    return Representation(root, root, body)


@visits(UserRefList)
def visit_user_ref_list(out: Out, value: UserRefList) -> Representation:
    hrefs = [f"/user/users/{user_id}" for user_id in value.user_ids]
    return _ref_list(out, "UserRefList", "User", hrefs, value.path)


@visits(UserGroupRefList)
def visit_user_group_ref_list(out: Out, value: UserGroupRefList) -> Representation:
    hrefs = [f"/user/groups/{path}" for path in value.group_paths]
    return _ref_list(out, "UserGroupRefList", "UserGroup", hrefs, value.path)
