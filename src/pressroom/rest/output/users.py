"""Visitors for users, user groups and their lists (spec/shapes-users.md §1-§4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pressroom.domain.content import ContentInfo, Version, VersionInfo
from pressroom.domain.location import Location
from pressroom.domain.user import User, UserContent, UserGroup
from pressroom.rest.output.content import iso, user_ref, version_body
from pressroom.rest.output.lists import ItemList, list_kind
from pressroom.rest.output.visitor import Out, Representation, visits


@dataclass(frozen=True, slots=True)
class UserGroupRefList:
    href: str
    groups: list[Location]
    member_id: int | None = None  # a user's groups: each carries an unassign link when there are several


def group_ref(out: Out, path: str, media: str = "UserGroup") -> dict[str, Any]:
    return out.ref(media, "user_group.load", path=path)


def _content_part(out: Out, version: Version, media: str, href: str) -> dict[str, Any]:
    """The keys users and groups share with content, up to the embedded current version."""
    info = version.content
    body: dict[str, Any] = {
        "_media-type": out.media(media),
        "_href": href,
        "_id": info.id,
        "_remoteId": info.remote_id,
        "ContentType": out.ref("ContentType", "content_type.load", typeId=info.content_type_id),
        "name": info.name,
        "Versions": out.ref("VersionList", "version.list", contentId=info.id),
        "Section": out.ref("Section", "section.load", sectionId=info.section_id),
    }
    if info.main_location_path:
        body["MainLocation"] = out.ref("Location", "location.load", path=info.main_location_path)
    body["Locations"] = out.ref("LocationList", "content.locations", contentId=info.id)
    return body


def _dates_and_version(out: Out, version: Version) -> dict[str, Any]:
    info = version.content
    body: dict[str, Any] = {}
    if info.published_date is not None:
        body["publishDate"] = iso(info.published_date)
    body["lastModificationDate"] = iso(info.modification_date)
    body["mainLanguageCode"] = info.main_language_code
    body["alwaysAvailable"] = info.always_available
    body["Version"] = version_body(out, version)
    return body


def user_body(out: Out, user: UserContent) -> dict[str, Any]:
    user_id = user.account.id
    groups = out.url("user.groups", userId=user_id)
    body = _content_part(out, user.version, "User", out.url("user.load", userId=user_id))
    body["Groups"] = {"_media-type": out.media("UserGroupRefList"), "_href": groups}
    body["Owner"] = user_ref(out, user.version.content.owner_id)
    body.update(_dates_and_version(out, user.version))
    body["login"] = user.account.login
    body["email"] = user.account.email
    body["enabled"] = user.account.enabled
    body["UserGroups"] = {"_media-type": out.media("UserGroupList"), "_href": groups}
    body["Roles"] = {
        "_media-type": out.media("RoleAssignmentList"),
        "_href": out.href(f"/user/users/{user_id}/roles"),
    }
    return body


def group_body(out: Out, group: UserGroup) -> dict[str, Any]:
    path = group.location.path
    href = out.url("user_group.load", path=path)
    body = _content_part(out, group.version, "UserGroup", href)
    body["Owner"] = user_ref(out, group.version.content.owner_id)
    body.update(_dates_and_version(out, group.version))
    parent = path.rsplit("/", 1)[0] if "/" in path else path
    body["ParentUserGroup"] = group_ref(out, parent)
    body["Subgroups"] = out.ref("UserGroupList", "user_group.subgroups", path=path)
    body["Users"] = out.ref("UserList", "user_group.users", path=path)
    body["Roles"] = {"_media-type": out.media("RoleAssignmentList"), "_href": href + "/roles"}
    return body


@visits(UserContent, "User")
def visit_user(out: Out, value: UserContent) -> Representation:
    return Representation.single("User", user_body(out, value), value, patch="UserUpdate")


@visits(UserGroup, "UserGroup")
def visit_user_group(out: Out, value: UserGroup) -> Representation:
    return Representation.single("UserGroup", group_body(out, value), value, patch="UserGroupUpdate")


def _user_ref(out: Out, user: User) -> dict[str, Any]:
    return user_ref(out, user.id)


UserRefList = ItemList[Literal["UserRefList"], User]
UserList = ItemList[Literal["UserList"], UserContent]
UserGroupList = ItemList[Literal["UserGroupList"], UserGroup]
UserDrafts = ItemList[Literal["VersionList"], tuple[ContentInfo, VersionInfo]]  # listed by version_item_body
list_kind("UserRefList", "User", _user_ref)
list_kind("UserList", "User", user_body)
list_kind("UserGroupList", "UserGroup", group_body)


@visits(UserGroupRefList, "UserGroupRefList")
def visit_group_refs(out: Out, value: UserGroupRefList) -> Representation:
    refs = []
    for location in value.groups:
        ref = group_ref(out, location.path)
        if value.member_id is not None and len(value.groups) > 1:
            ref["unassign"] = {
                "_href": out.url("user.unassign_group", userId=value.member_id, groupId=location.id),
                "_method": "DELETE",
            }
        refs.append(ref)
    body = {"_media-type": out.media("UserGroupRefList"), "_href": value.href, "UserGroup": refs}
    return Representation("UserGroupRefList", "UserGroupRefList", body)
