"""The permission matrix: a representative operation per module/function, run as the anonymous user, as an
editor limited to a subtree and a section, as a member, and as the administrator (permissions.md §3-§4).

The editor is in a group holding a role whose content policies are limited to Section 1 (Standard),
assigned with a Subtree limitation on folder A, plus the Anonymous role; the member is in a group holding
the Member and Anonymous roles (install.md §10). Each answer is checked, and each refusal must name the
row's module/function (or a check the operation makes before it, CHECKED_BEFORE).

The matrix covers every module/function the services enforce: content read, create, edit, publish, hide,
versionread, versionremove, manage_locations, remove (deleting and trashing), urltranslator, restore and
cleantrash; section assign, view and edit; class create, update and delete; state administrate and assign;
role read, create, update, assign and delete; and user/login, which is checked on every login, Basic
credentials included: the member's roles grant it on the 'site' siteaccess only, so its Basic request on
'admin' is refused, while an anonymous request logs nobody in. An operation that needs an object of its
own (a trash item, a type group, a draft, a role) gets it from the `world` fixture, so that no row depends
on the order the others ran in.

Left out, deliberately: the module/functions of the policy map (permissions.md §1) that no service checks,
so that no request's answer depends on them: content/diff, view_embed, reverserelatedlist, translate,
translations and pendinglist (a translation is judged by content/edit and content/publish with their
Language limitation); user/password, preferences, register, selfedit and activation (a user's password
changes through content/edit on the user); url/view and url/update (no URL management endpoint); and the
setup/* and setting/* functions (no endpoint either)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from pressroom.config import Settings
from tests.conftest import make_settings
from tests.functional.content_support import (
    content_create,
    field,
    new_draft,
    post_content,
    published_folder,
)
from tests.functional.role_support import PASSWORD, assign, main_path, make_group, make_role, make_user
from tests.functional.support import login
from tests.functional.users_support import basic
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
def settings(database_url: str, tmp_path: Path) -> Settings:
    """On each database: what a caller may read is judged in SQL (read criteria)."""
    return make_settings(database_url, tmp_path)


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
        "stated_a": published_folder(api, "Stated A", a)["_id"],
        "versions_a": published_folder(api, "Versions A", a)["_id"],
        "spare_role": make_role(api, "Spare"),
        "spare_type_group": _type_group(api, "spare"),
        "doomed_type_group": _type_group(api, "doomed"),
        "restorable": _trash_item(api, a, "Restorable A"),
        "binned": _trash_item(api, a, "Binned A"),
    }
    api.request("PUBLISH", f"/content/objects/{media_in_a}/versions/1")
    for name in ("draft_a", "draft_b", "versions_a"):
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
    paths = {
        "sub_a": main_path(api, ids["sub_a"]),
        "trash_a": main_path(api, published_folder(api, "Trash A", a)["_id"]),
        "trash_b": main_path(api, published_folder(api, "Trash B", b)["_id"]),
    }
    return World(api, Api(api.client, auth=None), editor, member, a, b, ids, paths)


def _type_group(api: Api, identifier: str) -> int:
    response = api.post(
        "/content/typegroups",
        body={"ContentTypeGroupInput": {"identifier": identifier}},
        content_type=media("ContentTypeGroupInput"),
        accept=media("ContentTypeGroup"),
    )
    assert response.status_code == 201, response.text
    group_id: int = response.json()["ContentTypeGroup"]["id"]
    return group_id


def _trash_item(api: Api, parent: str, name: str) -> int:
    """A published folder below ``parent`` moved to the trash; returns the trash item id."""
    response = _to_trash(api, main_path(api, published_folder(api, name, parent)["_id"]))
    assert response.status_code == 201, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def _to_trash(api: Api, path: str) -> httpx.Response:
    return api.request(
        "MOVE", f"/content/locations/{path}", headers={"Destination": f"{PREFIX}/content/trash"}
    )


def _names(text: str) -> dict[str, Any]:
    return {"value": [{"_languageCode": "eng-GB", "#text": text}]}


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
    "content/remove: trash in subtree": lambda c, w: _to_trash(c, w.paths["trash_a"]),
    "content/remove: trash outside": lambda c, w: _to_trash(c, w.paths["trash_b"]),
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
    "class/update": lambda c, w: c.patch(
        f"/content/typegroups/{w.ids['spare_type_group']}",
        body={"ContentTypeGroupInput": {"identifier": "spare2"}},
        content_type=media("ContentTypeGroupInput"),
        accept=media("ContentTypeGroup"),
    ),
    "class/delete": lambda c, w: c.delete(f"/content/typegroups/{w.ids['doomed_type_group']}"),
    "state/administrate": lambda c, w: c.post(
        "/content/objectstategroups",
        body={
            "ObjectStateGroupCreate": {
                "identifier": "matrix",
                "defaultLanguageCode": "eng-GB",
                "names": _names("Matrix"),
            }
        },
        content_type=media("ObjectStateGroupCreate"),
        accept=media("ObjectStateGroup"),
    ),
    "state/assign": lambda c, w: c.patch(
        f"/content/objects/{w.ids['stated_a']}/objectstates",
        body={
            "ContentObjectStates": {
                "ObjectState": [{"_href": f"{PREFIX}/content/objectstategroups/2/objectstates/2"}]
            }
        },
        content_type=media("ContentObjectStates"),
        accept=media("ContentObjectStates"),
    ),
    "content/versionremove": lambda c, w: c.delete(
        f"/content/objects/{w.ids['versions_a']}/versions/{w.ids['versions_a_version']}"
    ),
    "content/urltranslator": lambda c, w: c.post(
        "/content/urlaliases",
        body={
            "UrlAliasCreate": {
                "_type": "LOCATION",
                "location": {"_href": f"{PREFIX}/content/locations/{w.a}"},
                "path": "/matrix-alias",
                "languageCode": "eng-GB",
            }
        },
        content_type=media("UrlAliasCreate"),
        accept=media("UrlAlias"),
    ),
    "content/restore": lambda c, w: c.request(
        "MOVE", f"/content/trash/{w.ids['restorable']}", accept=media("Location")
    ),
    "content/cleantrash": lambda c, w: c.delete(f"/content/trash/{w.ids['binned']}"),
    "user/login on 'admin'": lambda c, w: c.get(
        f"/content/objects/{w.ids['doc_a']}", accept=media("ContentInfo"), headers={"X-Siteaccess": "admin"}
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
    "content/remove: trash in subtree": (401, 201, 401, 201),
    "content/remove: trash outside": (401, 401, 401, 201),  # trashing was checked without a target
    "section/view": (401, 401, 401, 200),
    "section/edit": (401, 401, 401, 201),
    "class/create": (401, 401, 401, 201),
    "class/update": (401, 401, 401, 200),
    "class/delete": (401, 401, 401, 204),
    "state/administrate": (401, 401, 401, 201),
    "state/assign": (401, 401, 401, 200),
    "content/versionremove": (401, 401, 401, 204),
    "content/urltranslator": (401, 401, 401, 201),
    "content/restore": (401, 401, 401, 201),
    "content/cleantrash": (401, 401, 401, 204),
    "user/login on 'admin'": (200, 200, 401, 200),
    "role/read": (401, 401, 401, 200),
    "role/create": (401, 401, 401, 201),
    "role/update": (401, 401, 401, 200),
    "role/assign": (401, 401, 401, 200),
    "role/delete": (401, 401, 401, 204),
}
CALLERS = ("anonymous", "editor", "member", "admin")
# Checks an operation makes before its own: publishing loads the draft (versionread), a ContentUpdate
# naming a section updates the content's metadata (edit) before assigning the section.
CHECKED_BEFORE = {
    "content/publish in subtree": ("content/versionread",),
    "content/publish outside": ("content/versionread",),
    "section/assign": ("content/edit",),
}


@pytest.mark.parametrize("caller", CALLERS)
def test_permission_matrix(world: World, caller: str) -> None:
    client: Any = getattr(world, caller)
    column = CALLERS.index(caller)
    answers = {name: operation(client, world) for name, operation in OPERATIONS.items()}
    assert {name: r.status_code for name, r in answers.items()} == {
        name: row[column] for name, row in MATRIX.items()
    }
    for name, response in answers.items():
        if response.status_code == 401:  # a refusal names function and module (permissions.md §3)
            if response.headers["content-type"].endswith("+xml"):
                description = xml(response).findtext("errorDescription")
            else:
                description = response.json()["ErrorMessage"]["errorDescription"]
            found = re.match(r"The User does not have the '(\w+)' '(\w+)' permission", description or "")
            assert found, description
            # the row's own module/function, or one the operation needs before it
            row_function = name.split(" ")[0].rstrip(":")
            assert f"{found[2]}/{found[1]}" in {row_function, *CHECKED_BEFORE.get(name, ())}, (
                name,
                description,
            )


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


def test_restoring_from_the_trash_is_judged_as_creating_below_the_parent(world: World) -> None:
    """content/restore alone is not enough: the item must be one the caller may create below the parent
    it returns to (a create limited to a subtree keeps restores in that subtree)."""
    api = world.admin
    role = make_role(
        api, "Restorer", ("content", "read", {}), ("content", "restore", {}), ("content", "create", {})
    )
    group = make_group(api, "Restorers")
    assign(api, f"/user/groups/{group}", role, ("Subtree", f"{PREFIX}/content/locations/{world.a}/"))
    assign(api, f"/user/groups/{group}", 1)
    _, restorer = make_user(api, "restorer", group)
    from_b = _trash_item(api, world.b, "Restorable B")

    def restore(destination: str | None) -> httpx.Response:
        headers = {"Destination": f"{PREFIX}/content/locations/{destination}"} if destination else {}
        return restorer.request("MOVE", f"/content/trash/{from_b}", accept=media("Location"), headers=headers)

    refused = restore(None)  # back to its parent in B, outside the restorer's subtree
    assert refused.status_code == 401, refused.text
    assert "'create' 'content'" in refused.text
    assert restore(world.a).status_code == 201  # into A, where it may create


def _update_user(api: Api, user_id: int, **values: Any) -> httpx.Response:
    return api.patch(
        f"/user/users/{user_id}",
        body={"UserUpdate": values},
        content_type=media("UserUpdate"),
        accept=media("User"),
    )


def test_user_password_lets_a_user_change_its_own_password_and_nothing_else(world: World) -> None:
    """user/password allows a password-only update of the caller's own account without content/edit
    (permissions.md §3); anything more, or someone else's account, still needs content/edit."""
    api = world.admin
    role = make_role(api, "Self service", ("content", "read", {}), ("user", "password", {}))
    group = make_group(api, "Self servers")
    assign(api, f"/user/groups/{group}", role)
    assign(api, f"/user/groups/{group}", 1)
    own_id, own = make_user(api, "selfservice", group)
    for refused in (
        _update_user(own, own_id, email="other@example.com"),
        _update_user(own, own_id, password="Changed5678", enabled=True),
        _update_user(own, world.ids["member"], password="Changed5678"),
        _update_user(world.member, world.ids["member"], password="Changed5678"),  # no user/password
    ):
        assert refused.status_code == 401, refused.text
        assert "'edit' 'content'" in refused.text
    changed = _update_user(own, own_id, password="Changed5678")
    assert changed.status_code == 200, changed.text
    relogged = Api(api.client, auth=basic("selfservice", "Changed5678"))
    assert relogged.get(f"/user/users/{own_id}", accept=media("User")).status_code == 200
    assert own.get(f"/user/users/{own_id}", accept=media("User")).status_code == 401  # the old one
