"""COPY, MOVE, DELETE and trashing of a location act on its whole subtree, so they are judged on the whole
subtree (issue 23 item 1), as the reference judges them: copy and move need content/read on every item
below the location, delete and trash content/remove, each checked with one query (``Subtree AND NOT <the
function's criterion>`` must find nothing), not item by item. A copy is owned by its copier (the reference's
copy is created by the caller) and keeps each original's section."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pressroom.config import Settings
from tests.conftest import make_settings
from tests.functional.content_support import content_info, main_location_path, published_folder
from tests.functional.role_support import assign, make_group, make_role, make_user
from tests.functional.tree_support import child_paths, relocate, status_of
from tests.helpers import PREFIX, Api, StatementCounter, media

MEDIA = {"Section": {"_href": f"{PREFIX}/content/sections/3"}}  # the section the callers may not touch
EDITOR_FUNCTIONS = ("read", "create", "edit", "publish", "remove", "hide", "versionread", "manage_locations")


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return make_settings(database_url, tmp_path)


@dataclass
class Editor:
    admin: Api
    editor: Api
    home: str  # a section-1 folder where the editor works


@pytest.fixture
def section_editor(api: Api) -> Editor:
    """An editor whose content policies are all limited to section 1."""
    role = make_role(
        api, "SectionOneEditor", *(("content", f, {"Section": ["1"]}) for f in EDITOR_FUNCTIONS),
        ("user", "login", {}),
    )  # fmt: skip
    group = make_group(api, "Section one editors")
    assign(api, f"/user/groups/{group}", role)
    _, editor = make_user(api, "sectioneditor", group)
    return Editor(api, editor, main_location_path(published_folder(api, "Workspace")))


def folder(api: Api, name: str, parent: str, **extra: object) -> str:
    return main_location_path(published_folder(api, name, parent, **extra))


def holding(editor: Editor, restricted: int) -> str:
    """A section-1 folder holding ``restricted`` media-section folders (one of them a level down)."""
    top = folder(editor.admin, "Top", editor.home)
    inner = folder(editor.admin, "Inner", top)
    for n in range(restricted):
        folder(editor.admin, f"Restricted {n}", inner if n == 0 else top, **MEDIA)
    return top


def subtree(api: Api, path: str) -> list[str]:
    below = child_paths(api, path)
    return [path, *(p for child in below for p in subtree(api, child))]


def test_a_section_editor_cannot_copy_move_trash_or_delete_a_subtree_holding_another_section(
    section_editor: Editor,
) -> None:
    admin, editor = section_editor.admin, section_editor.editor
    top = holding(section_editor, 1)
    target = folder(admin, "Target", section_editor.home)
    before = subtree(admin, top)
    assert status_of(editor, top) == 200  # the top itself is the editor's to read and remove
    for method, destination in (("COPY", f"locations/{target}"), ("MOVE", f"locations/{target}")):
        response = relocate(editor, method, top, destination)
        assert response.status_code == 401, response.text
        assert "'read' 'content'" in response.json()["ErrorMessage"]["errorDescription"]
    response = relocate(editor, "MOVE", top, "trash")
    assert response.status_code == 401, response.text
    response = editor.delete(f"/content/locations/{top}", accept=media("ErrorMessage"))
    assert response.status_code == 401, response.text
    assert "'remove' 'content'" in response.json()["ErrorMessage"]["errorDescription"]
    # nothing changed: no copy, nothing moved, trashed or deleted
    assert child_paths(admin, target) == []
    assert subtree(admin, top) == before
    assert admin.get("/content/trash", accept=media("Trash")).json()["Trash"]["TrashItem"] == []


def test_deleting_an_item_is_judged_on_the_subtrees_below_its_locations(section_editor: Editor) -> None:
    top = holding(section_editor, 1)
    item = main_location_id_to_content(section_editor.admin, top)
    response = section_editor.editor.delete(f"/content/objects/{item}")
    assert response.status_code == 401, response.text
    assert status_of(section_editor.admin, top) == 200
    # without the restricted item below, the delete goes through
    allowed = folder(section_editor.admin, "Allowed", section_editor.home)
    folder(section_editor.admin, "Allowed child", allowed)
    item = main_location_id_to_content(section_editor.admin, allowed)
    assert section_editor.editor.delete(f"/content/objects/{item}").status_code == 204
    assert status_of(section_editor.admin, allowed) == 404


def main_location_id_to_content(api: Api, path: str) -> int:
    response = api.get(f"/content/locations/{path}", accept=media("Location"))
    assert response.status_code == 200, response.text
    href: str = response.json()["Location"]["Content"]["_href"]
    return int(href.rsplit("/", 1)[1])


def test_a_section_editor_copies_moves_trashes_and_deletes_a_subtree_of_its_section(
    section_editor: Editor,
) -> None:
    admin, editor, home = section_editor.admin, section_editor.editor, section_editor.home
    target = folder(admin, "Target", home)
    copied = relocate(editor, "COPY", holding(section_editor, 0), f"locations/{target}")
    assert copied.status_code == 201, copied.text
    assert len(subtree(admin, child_paths(admin, target)[0])) == 2
    moved = relocate(editor, "MOVE", holding(section_editor, 0), f"locations/{target}")
    assert moved.status_code == 201, moved.text
    assert len(child_paths(admin, target)) == 2
    doomed = holding(section_editor, 0)
    assert relocate(editor, "MOVE", doomed, "trash").status_code == 201
    assert status_of(admin, doomed) == 404
    doomed = holding(section_editor, 0)
    assert editor.delete(f"/content/locations/{doomed}").status_code == 204
    assert status_of(admin, doomed) == 404


def test_the_subtree_check_is_one_query_whatever_the_subtree_holds(section_editor: Editor) -> None:
    target = folder(section_editor.admin, "Target", section_editor.home)
    counts = []
    for restricted in (1, 5):
        top = holding(section_editor, restricted)
        assert status_of(section_editor.editor, top) == 200  # the editor's grants are loaded and kept
        for method, destination in (("COPY", f"locations/{target}"), ("MOVE", "trash")):
            with StatementCounter() as counter:
                response = relocate(section_editor.editor, method, top, destination)
            assert response.status_code == 401, response.text
            counts.append((method, counter.count))
        with StatementCounter() as counter:
            assert section_editor.editor.delete(f"/content/locations/{top}").status_code == 401
        counts.append(("DELETE", counter.count))
    assert counts[:3] == counts[3:]


# -- a reader of its own content only ----------------------------------------------------------------------
@dataclass
class Owner:
    admin: Api
    user: Api
    user_id: int


@pytest.fixture
def own_reader(api: Api) -> Owner:
    """A user who may read only what it owns, and create anywhere."""
    role = make_role(
        api, "OwnReader", ("content", "read", {"Owner": ["1"]}), ("content", "create", {}),
        ("content", "publish", {}), ("content", "versionread", {}), ("user", "login", {}),
    )  # fmt: skip
    group = make_group(api, "Own readers")
    assign(api, f"/user/groups/{group}", role)
    user_id, user = make_user(api, "ownreader", group)
    return Owner(api, user, user_id)


def owned_folder(owner: Owner, name: str, parent: str = "1/2", **extra: object) -> str:
    path = folder(owner.admin, name, parent, **extra)
    content_id = main_location_id_to_content(owner.admin, path)
    response = owner.admin.patch(
        f"/content/objects/{content_id}",
        body={"ContentUpdate": {"Owner": {"_href": f"{PREFIX}/user/users/{owner.user_id}"}}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
    )
    assert response.status_code == 200, response.text
    return path


def test_an_own_content_reader_cannot_copy_its_item_holding_an_administrators_item(own_reader: Owner) -> None:
    mine = owned_folder(own_reader, "Mine")
    folder(own_reader.admin, "Confidential", mine, **MEDIA)  # the administrator's, in a restricted section
    target = owned_folder(own_reader, "My target")
    response = relocate(own_reader.user, "COPY", mine, f"locations/{target}")
    assert response.status_code == 401, response.text
    assert child_paths(own_reader.admin, target) == []


def test_an_own_content_reader_copies_its_own_subtree_and_owns_the_copies(own_reader: Owner) -> None:
    mine = owned_folder(own_reader, "Mine")
    owned_folder(own_reader, "My media", mine, **MEDIA)
    target = owned_folder(own_reader, "My target")
    response = relocate(own_reader.user, "COPY", mine, f"locations/{target}")
    assert response.status_code == 201, response.text
    (copy,) = child_paths(own_reader.admin, target)
    (child,) = child_paths(own_reader.admin, copy)
    for path, section in ((copy, 1), (child, 3)):
        info = content_info(own_reader.admin, main_location_id_to_content(own_reader.admin, path))
        assert info["Owner"]["_href"] == f"{PREFIX}/user/users/{own_reader.user_id}"
        assert info["Section"]["_href"] == f"{PREFIX}/content/sections/{section}"


def test_deleting_a_user_group_is_judged_on_its_subgroups_and_their_users(api: Api) -> None:
    role = make_role(
        api, "GroupRemover", ("content", "read", {}), ("content", "remove", {"Class": ["3"]}),
        ("user", "login", {}),
    )  # fmt: skip
    removers = make_group(api, "Group removers")
    assign(api, f"/user/groups/{removers}", role)
    _, remover = make_user(api, "groupremover", removers)
    outer = make_group(api, "Outer")
    inner = make_group(api, "Inner", outer)
    member_id, _ = make_user(api, "innermember", inner)  # a user, which the remover may not remove
    response = remover.delete(f"/user/groups/{outer}", accept=media("ErrorMessage"))
    assert response.status_code == 401, response.text
    assert api.get(f"/user/users/{member_id}", accept=media("User")).status_code == 200
    empty = make_group(api, "Empty")
    make_group(api, "Empty inner", empty)
    assert remover.delete(f"/user/groups/{empty}").status_code == 204
