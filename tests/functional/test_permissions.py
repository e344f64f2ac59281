"""The permission matrix: a representative operation per module/function, run as the anonymous user, as an
editor limited to a subtree and a section, as a member, and as the administrator (permissions.md §3-§4).

The editor is in a group holding a role whose content policies are limited to Section 1 (Standard),
assigned with a Subtree limitation on folder A, plus the Anonymous role; the member is in a group holding
the Member and Anonymous roles (install.md §10). Each answer is checked."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.functional.content_support import (
    content_create,
    field,
    new_draft,
    post_content,
    published_folder,
)
from tests.functional.role_support import PASSWORD, assign, main_path, make_group, make_role, make_user
from tests.functional.support import login
from tests.helpers import PREFIX, Api, media, xml

EDITOR_FUNCTIONS = ("read", "create", "edit", "publish", "remove", "hide", "versionread", "manage_locations")


@dataclass
class World:
    admin: Api
    anonymous: Api
    editor: Api
    member: Api
    a: str  # folder A, the editor's subtree (section 1)
    b: str  # folder B, outside it (section 1)
    ids: dict[str, int]
    paths: dict[str, str]


@pytest.fixture
def world(api: Api) -> World:
    folder_a = published_folder(api, "A")
    a = main_path(api, folder_a["_id"])
    b = main_path(api, published_folder(api, "B")["_id"])
    media_in_a = post_content(
        api,
        content_create(
            [field("name", "Media in A")], parent=a, Section={"_href": f"{PREFIX}/content/sections/3"}
        ),
    ).json()["Content"]["_id"]
    ids = {
        "doc_a": published_folder(api, "Doc A", a)["_id"],
        "sub_a": published_folder(api, "Sub A", a)["_id"],
        "doomed_a": published_folder(api, "Doomed A", a)["_id"],
        "doomed_b": published_folder(api, "Doomed B", b)["_id"],
        "draft_a": published_folder(api, "Draft A", a)["_id"],
        "draft_b": published_folder(api, "Draft B", b)["_id"],
        "b": published_folder(api, "Doc B", b)["_id"],
        "media_in_a": media_in_a,
        "spare_role": make_role(api, "Spare"),
    }
    api.request("PUBLISH", f"/content/objects/{media_in_a}/versions/1")
    for name in ("draft_a", "draft_b"):
        ids[f"{name}_version"] = new_draft(api, ids[name])
    limited = make_role(
        api,
        "LimitedEditor",
        *(("content", f, {"Section": ["1"]}) for f in EDITOR_FUNCTIONS),
        ("user", "login", {}),
    )
    editors = make_group(api, "Limited editors")
    assign(api, f"/user/groups/{editors}", limited, ("Subtree", f"{PREFIX}/content/locations/{a}/"))
    assign(api, f"/user/groups/{editors}", 1)
    members = make_group(api, "Members")
    assign(api, f"/user/groups/{members}", 4)
    assign(api, f"/user/groups/{members}", 1)
    ids["editor"], editor = make_user(api, "editor", editors)
    ids["member"], member = make_user(api, "member", members)
    paths = {"sub_a": main_path(api, ids["sub_a"])}
    return World(api, Api(api.client, auth=None), editor, member, a, b, ids, paths)


def _folder_below(api: Api, parent: str) -> httpx.Response:
    return post_content(api, content_create([field("name", "New")], parent=parent))


OPERATIONS: dict[str, Callable[[Api, World], httpx.Response]] = {
    "content/read public": lambda c, w: c.get(
        f"/content/objects/{w.ids['doc_a']}", accept=media("ContentInfo")
    ),
    "content/read media": lambda c, w: c.get("/content/objects/41", accept=media("ContentInfo")),
    "content/read section 3 in subtree": lambda c, w: c.get(
        f"/content/objects/{w.ids['media_in_a']}", accept=media("ContentInfo")
    ),
    "content/read member's own user": lambda c, w: c.get(
        f"/content/objects/{w.ids['member']}", accept=media("ContentInfo")
    ),
    "content/read admin user": lambda c, w: c.get("/content/objects/14", accept=media("ContentInfo")),
    "content/read location": lambda c, w: c.get(f"/content/locations/{w.a}", accept=media("Location")),
    "content/create in subtree": lambda c, w: _folder_below(c, w.a),
    "content/create outside": lambda c, w: _folder_below(c, w.b),
    "content/edit in subtree": lambda c, w: c.request(
        "COPY", f"/content/objects/{w.ids['doc_a']}/currentversion", accept=media("Version")
    ),
    "content/edit outside": lambda c, w: c.request(
        "COPY", f"/content/objects/{w.ids['b']}/currentversion", accept=media("Version")
    ),
    "content/publish in subtree": lambda c, w: c.request(
        "PUBLISH", f"/content/objects/{w.ids['draft_a']}/versions/{w.ids['draft_a_version']}"
    ),
    "content/publish outside": lambda c, w: c.request(
        "PUBLISH", f"/content/objects/{w.ids['draft_b']}/versions/{w.ids['draft_b_version']}"
    ),
    "content/hide in subtree": lambda c, w: c.post(f"/content/objects/{w.ids['doc_a']}/hide"),
    "content/versionread": lambda c, w: c.get(
        f"/content/objects/{w.ids['doc_a']}/versions", accept=media("VersionList")
    ),
    "content/manage_locations": lambda c, w: c.post(
        f"/content/objects/{w.ids['doc_a']}/locations",
        body={
            "LocationCreate": {"ParentLocation": {"_href": f"{PREFIX}/content/locations/{w.paths['sub_a']}"}}
        },
        content_type=media("LocationCreate"),
        accept=media("Location"),
    ),
    "section/assign": lambda c, w: c.patch(
        f"/content/objects/{w.ids['doc_a']}",
        body={"ContentUpdate": {"Section": {"_href": f"{PREFIX}/content/sections/3"}}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
    ),
    "content/remove in subtree": lambda c, w: c.delete(f"/content/objects/{w.ids['doomed_a']}"),
    "content/remove outside": lambda c, w: c.delete(f"/content/objects/{w.ids['doomed_b']}"),
    "section/view": lambda c, w: c.get("/content/sections/1", accept=media("Section")),
    "section/edit": lambda c, w: c.post(
        "/content/sections",
        body={"SectionInput": {"identifier": "matrix", "name": "Matrix"}},
        content_type=media("SectionInput"),
        accept=media("Section"),
    ),
    "class/create": lambda c, w: c.post(
        "/content/typegroups",
        body={"ContentTypeGroupInput": {"identifier": "matrix"}},
        content_type=media("ContentTypeGroupInput"),
        accept=media("ContentTypeGroup"),
    ),
    "role/read": lambda c, w: c.get("/user/roles/1", accept=media("Role")),
    "role/create": lambda c, w: c.post(
        "/user/roles",
        body={"RoleInput": {"identifier": "Matrix"}},
        content_type=media("RoleInput"),
        accept=media("Role"),
    ),
    "role/update": lambda c, w: c.patch(
        f"/user/roles/{w.ids['spare_role']}",
        body={"RoleInput": {"identifier": "Spare2"}},
        content_type=media("RoleInput"),
        accept=media("Role"),
    ),
    "role/assign": lambda c, w: c.post(
        f"/user/users/{w.ids['member']}/roles",
        body={"RoleAssignInput": {"Role": {"_href": f"{PREFIX}/user/roles/{w.ids['spare_role']}"}}},
        content_type=media("RoleAssignInput"),
        accept=media("RoleAssignmentList"),
    ),
    "role/delete": lambda c, w: c.delete(f"/user/roles/{w.ids['spare_role']}", accept=media("Role")),
}

# Expected status per operation: anonymous, limited editor, member, administrator.
MATRIX: dict[str, tuple[int, int, int, int]] = {
    "content/read public": (200, 200, 200, 200),
    "content/read media": (401, 401, 401, 200),
    "content/read section 3 in subtree": (401, 401, 401, 200),
    "content/read member's own user": (401, 401, 200, 200),
    "content/read admin user": (401, 401, 401, 200),
    "content/read location": (200, 200, 200, 200),
    "content/create in subtree": (401, 201, 401, 201),
    "content/create outside": (401, 401, 401, 201),
    "content/edit in subtree": (401, 201, 401, 201),
    "content/edit outside": (401, 401, 401, 201),
    "content/publish in subtree": (401, 204, 401, 204),
    "content/publish outside": (401, 401, 401, 204),
    "content/hide in subtree": (401, 204, 401, 204),
    "content/versionread": (401, 200, 401, 200),
    "content/manage_locations": (401, 201, 401, 201),
    "section/assign": (401, 401, 401, 200),
    "content/remove in subtree": (401, 204, 401, 204),
    "content/remove outside": (401, 401, 401, 204),
    "section/view": (401, 401, 401, 200),
    "section/edit": (401, 401, 401, 201),
    "class/create": (401, 401, 401, 201),
    "role/read": (401, 401, 401, 200),
    "role/create": (401, 401, 401, 201),
    "role/update": (401, 401, 401, 200),
    "role/assign": (401, 401, 401, 200),
    "role/delete": (401, 401, 401, 204),
}
CALLERS = ("anonymous", "editor", "member", "admin")


@pytest.mark.parametrize("caller", CALLERS)
def test_permission_matrix(world: World, caller: str) -> None:
    client: Any = getattr(world, caller)
    column = CALLERS.index(caller)
    answers = {name: operation(client, world) for name, operation in OPERATIONS.items()}
    assert {name: r.status_code for name, r in answers.items()} == {
        name: row[column] for name, row in MATRIX.items()
    }
    for response in answers.values():
        if response.status_code == 401:  # a refusal names function and module (permissions.md §3)
            if response.headers["content-type"].endswith("+xml"):
                description = xml(response).findtext("errorDescription")
            else:
                description = response.json()["ErrorMessage"]["errorDescription"]
            assert re.match(r"The User does not have the '\w+' '\w+' permission", description), description


def test_refusal_names_module_function_and_target(world: World) -> None:
    response = world.editor.get(f"/content/objects/{world.ids['media_in_a']}", accept=media("ContentInfo"))
    body = response.json()["ErrorMessage"]
    assert body["errorCode"] == 401
    assert body["errorDescription"] == (
        f"The User does not have the 'read' 'content' permission with: "
        f"contentId '{world.ids['media_in_a']}', sectionId '3'"
    )


def test_users_log_in_through_their_groups_roles(world: World) -> None:
    for name in ("editor", "member"):
        assert login(world.admin.client, name, PASSWORD).status_code == 201
    # Anonymous holds user/login on the 'site' siteaccess only (policy 331); Member adds nothing,
    # so the member cannot log in on 'admin', while the editor's unlimited user/login can.
    assert login(world.admin.client, "member", PASSWORD, headers={"X-Siteaccess": "admin"}).status_code == 401
    assert login(world.admin.client, "editor", PASSWORD, headers={"X-Siteaccess": "admin"}).status_code == 201


def test_an_editor_in_the_clean_install_editors_group(api: Api) -> None:
    """Editors (install.md §9): Editor on /1/2/ and /1/43/, and Member; no role administration."""
    user_id, editor = make_user(api, "clean_editor", "1/5/14")
    media_folder = published_folder(api, "Pictures", "1/43")
    assert (
        editor.get(f"/content/objects/{media_folder['_id']}", accept=media("ContentInfo")).status_code == 200
    )
    assert _folder_below(editor, main_path(api, media_folder["_id"])).status_code == 201
    assert editor.get(f"/content/objects/{user_id}", accept=media("ContentInfo")).status_code == 200
    assert editor.get("/content/objects/14", accept=media("ContentInfo")).status_code == 401
    assert editor.get("/user/roles/3", accept=media("Role")).status_code == 401
