"""Writes through a stale path (issue 25 item 1): a write addressed by a location path or a user group path
reaches its target by the path's last id, as the reference does (it loads the location by that id), so a
client holding a path from before a move still reaches what it names. Reads keep checking the whole path.
"""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.functional.content_support import encode
from tests.functional.role_support import make_group
from tests.functional.support import error_message
from tests.functional.tree_support import child_paths, folder_at, location, path_of, relocate, status_of
from tests.functional.users_support import (
    GUESTS,
    group_create,
    group_href,
    new_login,
    post_group,
    post_user,
    user_create,
)
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

DIALECTS = [pytest.param(PREFIX, "ibexa", id="ibexa"), pytest.param(EZ_PREFIX, "ez", id="ez")]


def moved_folder(api: Api, name: str) -> tuple[str, str]:
    """A folder made below the media folder (1/43) and moved below the content root: (stale, current)."""
    stale = folder_at(api, name, "1/43")
    moved = relocate(api, "MOVE", stale, "locations/1/2")
    assert moved.status_code == 201, moved.text
    return stale, path_of(moved.headers["location"])


def moved_group(api: Api, name: str) -> tuple[str, str]:
    """A group made below the users group (1/5) and moved below Guests (1/5/12): (stale, current)."""
    stale = make_group(api, name)
    moved = api.request("MOVE", f"/user/groups/{stale}", headers={"Destination": group_href(GUESTS)})
    assert moved.status_code == 201, moved.text
    return stale, moved.headers["location"].split("/user/groups/", 1)[1]


# -- locations ------------------------------------------------------------------------------------------


def test_delete_through_a_stale_location_path(db_api: Api) -> None:
    api = db_api
    stale, current = moved_folder(api, "Stale delete")
    assert (stale.rsplit("/", 1)[1], current) == (
        current.rsplit("/", 1)[1],
        f"1/2/{current.rsplit('/', 1)[1]}",
    )
    error_message(api.get(f"/content/locations/{stale}", accept=media("Location")), 404)  # reads: whole path
    assert api.request("HEAD", f"/content/locations/{stale}").status_code == 404
    deleted = api.delete(f"/content/locations/{stale}")
    assert (deleted.status_code, deleted.content) == (204, b"")
    assert status_of(api, current) == 404
    error_message(api.delete(f"/content/locations/{stale}", accept=media("Location")), 404)  # gone: 404


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_patch_through_a_stale_location_path(client: TestClient, prefix: str, vendor: str, fmt: str) -> None:
    stale, current = moved_folder(Api(client), f"Stale patch {vendor} {fmt}")
    api = Api(client, prefix)
    response = api.patch(
        f"/content/locations/{stale}",
        body=encode("LocationUpdate", {"priority": 7}, fmt),
        content_type=media("LocationUpdate", fmt, vendor),
        accept=media("Location", fmt, vendor),
    )
    assert response.status_code == 200, response.text
    href = response.json()["Location"]["_href"] if fmt == "json" else xml(response).get("href")
    assert href == f"{prefix}/content/locations/{current}"
    assert location(Api(client), current)["priority"] == 7


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_copy_move_and_swap_through_a_stale_location_path(
    client: TestClient, prefix: str, vendor: str
) -> None:
    admin = Api(client)
    api = Api(client, prefix)
    stale, current = moved_folder(admin, f"Stale source {vendor}")
    copied = relocate(api, "COPY", stale, "locations/1/43", prefix=prefix)
    assert copied.status_code == 201, copied.text
    assert copied.headers["location"].startswith(f"{prefix}/content/locations/1/43/")
    other = folder_at(admin, f"Stale other {vendor}", "1/43")
    swapped = relocate(api, "SWAP", stale, f"locations/{other}", prefix=prefix)
    assert swapped.status_code == 204, swapped.text
    assert location(admin, other)["ContentInfo"]["Content"]["Name"] == f"Stale source {vendor}"
    moved = relocate(api, "MOVE", stale, f"locations/{other}", prefix=prefix)
    assert moved.status_code == 201, moved.text
    current_id = current.rsplit("/", 1)[1]
    assert moved.headers["location"] == f"{prefix}/content/locations/{other}/{current_id}"
    assert child_paths(admin, other) == [f"{other}/{current_id}"]


def test_move_to_the_trash_through_a_stale_location_path(api: Api) -> None:
    stale, current = moved_folder(api, "Stale trash")
    trashed = relocate(api, "MOVE", stale, "trash")
    assert trashed.status_code == 201, trashed.text
    assert trashed.headers["location"] == f"{PREFIX}/content/trash/{current.rsplit('/', 1)[1]}"
    assert status_of(api, current) == 404


def test_a_path_whose_last_id_names_nothing_is_still_404(api: Api) -> None:
    error = error_message(api.delete("/content/locations/1/43/999999", accept=media("Location")), 404)
    assert error["errorDescription"] == "Could not find 'Location' with path '1/43/999999'"


# -- user groups ----------------------------------------------------------------------------------------


def test_delete_through_a_stale_user_group_path(db_api: Api) -> None:
    api = db_api
    stale, current = moved_group(api, "Stale group")
    assert current == f"{GUESTS}/{stale.rsplit('/', 1)[1]}"
    error_message(api.get(f"/user/groups/{stale}", accept=media("UserGroup")), 404)  # reads: whole path
    deleted = api.delete(f"/user/groups/{stale}")
    assert (deleted.status_code, deleted.content) == (204, b"")
    error_message(api.get(f"/user/groups/{current}", accept=media("UserGroup")), 404)


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_writes_below_a_stale_user_group_path(client: TestClient, prefix: str, vendor: str, fmt: str) -> None:
    stale, current = moved_group(Api(client), f"Stale writes {vendor} {fmt}")
    api = Api(client, prefix)
    patched = api.patch(
        f"/user/groups/{stale}",
        body=encode("UserGroupUpdate", {"fields": group_create("Renamed")["fields"]}, fmt),
        content_type=media("UserGroupUpdate", fmt, vendor),
        accept=media("UserGroup", fmt, vendor),
    )
    assert patched.status_code == 200, patched.text
    href = patched.json()["UserGroup"]["_href"] if fmt == "json" else xml(patched).get("href")
    assert href == group_href(current, prefix)
    subgroup = post_group(api, stale, group_create("Below stale"), fmt, vendor)
    assert subgroup.status_code == 201, subgroup.text
    assert subgroup.headers["location"].startswith(group_href(current, prefix) + "/")
    user = post_user(api, stale, user_create(new_login()), fmt, vendor)
    assert user.status_code == 201, user.text
    users = api.get(f"/user/groups/{current}/users", accept=media("UserRefList", "json", vendor))
    assert [ref["_href"] for ref in users.json()["UserRefList"]["User"]] == [user.headers["location"]]
    assigned = api.post(
        f"/user/groups/{stale}/roles",
        body=encode("RoleAssignInput", {"Role": {"_href": f"{prefix}/user/roles/1"}}, fmt),
        content_type=media("RoleAssignInput", fmt, vendor),
        accept=media("RoleAssignmentList", fmt, vendor),
    )
    assert assigned.status_code == 200, assigned.text
    unassigned = api.delete(
        f"/user/groups/{stale}/roles/1", accept=media("RoleAssignmentList", "json", vendor)
    )
    assert unassigned.status_code == 200, unassigned.text
    assert unassigned.json()["RoleAssignmentList"]["_href"] == group_href(current, prefix) + "/roles"
    moved = api.request("MOVE", f"/user/groups/{stale}", headers={"Destination": group_href("1/5", prefix)})
    assert moved.status_code == 201, moved.text
    assert moved.headers["location"] == group_href(stale, prefix)  # back where it was made
