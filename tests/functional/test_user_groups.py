"""User groups: the root group, load by path, create, update, delete, subgroups, users of a group, find
by id and remote id (spec/endpoints-users.tsv /user/groups*, shapes-users.md §3, §4, §9; install.md §9)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from tests.functional.content_support import encode, field, field_values
from tests.functional.support import error_message
from tests.functional.users_support import (
    ADMINS,
    EDITORS,
    create_group,
    create_user,
    group_create,
    group_href,
    group_path,
    new_login,
    post_group,
    post_user,
    ref_hrefs,
    user_create,
)
from tests.helpers import EZ_PREFIX, PREFIX, Api, StatementCounter, media, xml

CLEAN_SUBGROUPS = ["1/5/12", "1/5/13", "1/5/14", "1/5/44"]
REFS = media("UserGroupRefList")


def patch_group(
    api: Api, path: str, data: dict[str, Any], fmt: str = "json", **kwargs: Any
) -> httpx.Response:
    return api.patch(
        f"/user/groups/{path}",
        body=encode("UserGroupUpdate", data, fmt),
        content_type=media("UserGroupUpdate", fmt),
        accept=media("UserGroup", fmt),
        **kwargs,
    )


def test_root_group_redirects_permanently(api: Api) -> None:
    response = api.get("/user/groups/root", follow_redirects=False)
    assert response.status_code == 301
    assert response.headers["location"] == f"{PREFIX}/user/groups/1/5"
    assert response.content == b""


def test_load_administrator_users(api: Api) -> None:
    response = api.get(f"/user/groups/{ADMINS}", accept=media("UserGroup"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("UserGroup")
    assert response.headers["accept-patch"] == media("UserGroupUpdate")
    group = response.json()["UserGroup"]
    assert list(group)[:4] == ["_media-type", "_href", "_id", "_remoteId"]
    assert (group["_href"], group["_id"]) == (group_href(ADMINS), 12)
    assert group["_remoteId"] == "9b47a45624b023b1a76c73b74d704acf"
    assert group["name"] == "Administrator users"
    assert group["ContentType"]["_href"] == f"{PREFIX}/content/types/3"
    assert group["MainLocation"]["_href"] == f"{PREFIX}/content/locations/1/5/13"
    assert group["ParentUserGroup"] == {"_media-type": media("UserGroup"), "_href": group_href("1/5")}
    assert group["Subgroups"] == {
        "_media-type": media("UserGroupList"),
        "_href": group_href(ADMINS) + "/subgroups",
    }
    assert group["Users"] == {"_media-type": media("UserList"), "_href": group_href(ADMINS) + "/users"}
    assert group["Roles"]["_href"] == group_href(ADMINS) + "/roles"
    assert field_values(group["Version"])[("name", "eng-GB")] == "Administrator users"


def test_load_the_users_group_in_xml_and_the_ez_dialect(client: TestClient) -> None:
    response = Api(client, EZ_PREFIX).get("/user/groups/1/5", accept=media("UserGroup", "xml", "ez"))
    assert response.status_code == 200
    root = xml(response)
    assert root.tag == "UserGroup"
    assert root.get("href") == f"{EZ_PREFIX}/user/groups/1/5"
    assert root.findtext("name") == "Users"
    assert root.find("ParentUserGroup").get("href") == f"{EZ_PREFIX}/user/groups/1"


@pytest.mark.parametrize("path", ["5", "13", "1/13", "1/2", "1/5/13/15", "1/5/99999"])
def test_a_path_that_is_not_a_group_is_404(api: Api, path: str) -> None:
    error_message(api.get(f"/user/groups/{path}", accept=media("UserGroup")), 404)


def test_anonymous_cannot_read_groups(client: TestClient) -> None:
    error_message(Api(client, auth=None).get(f"/user/groups/{ADMINS}", accept=media("UserGroup")), 401)


# -- create --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "vendor", "prefix"), [("json", "ibexa", PREFIX), ("xml", "ez", EZ_PREFIX)])
def test_create_subgroup(client: TestClient, fmt: str, vendor: str, prefix: str) -> None:
    api = Api(client, prefix)
    response = post_group(api, EDITORS, group_create("Proofreaders", remoteId="proof"), fmt, vendor)
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == media("UserGroup", fmt, vendor)
    assert response.headers["accept-patch"] == media("UserGroupUpdate", fmt, vendor)
    location = response.headers["location"]
    assert location.startswith(f"{prefix}/user/groups/{EDITORS}/")
    loaded = api.get(location, accept=media("UserGroup", "json", vendor)).json()["UserGroup"]
    assert (loaded["_href"], loaded["name"], loaded["_remoteId"]) == (location, "Proofreaders", "proof")
    assert loaded["ParentUserGroup"]["_href"] == f"{prefix}/user/groups/{EDITORS}"
    assert loaded["Section"]["_href"] == f"{prefix}/content/sections/2"
    assert field_values(loaded["Version"])[("description", "eng-GB")] == "About Proofreaders"
    below = api.get(f"/user/groups/{EDITORS}/subgroups", accept=media("UserGroupRefList", "json", vendor))
    assert ref_hrefs(below, "UserGroupRefList", "UserGroup") == [location]


def test_create_below_the_root_group(api: Api) -> None:
    response = post_group(api, None, group_create("Partners"))
    assert response.status_code == 201, response.text
    assert response.headers["location"].startswith(f"{PREFIX}/user/groups/1/5/")
    below = api.get("/user/groups/1/5/subgroups", accept=REFS)
    assert [h.split("/groups/")[1] for h in ref_hrefs(below, "UserGroupRefList", "UserGroup")] == [
        *CLEAN_SUBGROUPS,
        group_path(response.json()["UserGroup"]),
    ]


def test_create_errors(client: TestClient, api: Api) -> None:
    error_message(post_group(api, "1/2", group_create("Nowhere")), 404)
    data = group_create("No language")
    del data["mainLanguageCode"]
    error_message(post_group(api, EDITORS, data), 400)
    unknown = {"mainLanguageCode": "eng-GB", "fields": {"field": [field("colour", "red")]}}
    error_message(post_group(api, EDITORS, unknown), 400)
    error_message(post_group(Api(client, auth=None), EDITORS, group_create("Anonymous")), 401)
    assert (
        ref_hrefs(api.get(f"/user/groups/{EDITORS}/subgroups", accept=REFS), "UserGroupRefList", "UserGroup")
        == []
    )


# -- update and delete ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_update_group(api: Api, fmt: str) -> None:
    path = group_path(create_group(api, EDITORS, "Old name"))
    data = {"remoteId": f"renamed-{fmt}", "fields": {"field": [field("name", "New name")]}}
    response = patch_group(api, path, data, fmt)
    assert response.status_code == 200, response.text
    loaded = api.get(f"/user/groups/{path}", accept=media("UserGroup")).json()["UserGroup"]
    assert (loaded["name"], loaded["_remoteId"]) == ("New name", f"renamed-{fmt}")
    assert loaded["Version"]["VersionInfo"]["versionNo"] == 2
    assert field_values(loaded["Version"])[("description", "eng-GB")] == "About Old name"


def test_update_errors(api: Api) -> None:
    path = group_path(create_group(api, EDITORS))
    etag = api.get(f"/user/groups/{path}", accept=media("UserGroup")).headers["etag"]
    assert patch_group(api, path, {"remoteId": "first"}, headers={"If-Match": etag}).status_code == 200
    error_message(patch_group(api, path, {"remoteId": "second"}, headers={"If-Match": etag}), 412)
    error_message(patch_group(api, "1/2", {"remoteId": "x"}), 404)
    error_message(patch_group(api, path, {"Section": {"_href": "/content/sections/1"}}), 400)


def test_delete_an_empty_group_with_its_subgroups(api: Api) -> None:
    outer = group_path(create_group(api, EDITORS, "Outer"))
    inner = group_path(create_group(api, outer, "Inner"))
    assert api.delete(f"/user/groups/{outer}").status_code == 204
    for path in (outer, inner):
        error_message(api.get(f"/user/groups/{path}", accept=media("UserGroup")), 404)
    assert (
        ref_hrefs(api.get(f"/user/groups/{EDITORS}/subgroups", accept=REFS), "UserGroupRefList", "UserGroup")
        == []
    )


def test_deleting_a_group_deletes_users_only_in_its_subgroups(api: Api) -> None:
    outer = group_path(create_group(api, EDITORS, "Outer"))
    inner = group_path(create_group(api, outer, "Inner"))
    user = create_user(api, inner)
    assert api.delete(f"/user/groups/{outer}").status_code == 204
    error_message(api.get(user["_href"], accept=media("User")), 404)
    assert api.request("HEAD", f"/user/users?login={user['login']}").status_code == 404


def test_delete_a_group_with_users_is_403(api: Api) -> None:
    path = group_path(create_group(api, EDITORS))
    create_user(api, path)
    body = error_message(api.delete(f"/user/groups/{path}", accept=media("UserGroup")), 403)
    assert body["errorDescription"] == "Cannot delete non-empty User Groups"
    assert api.get(f"/user/groups/{path}", accept=media("UserGroup")).status_code == 200
    error_message(api.delete("/user/groups/1/2", accept=media("UserGroup")), 404)


@pytest.mark.parametrize("override", [False, True])
def test_move_a_group_with_its_users(api: Api, override: bool) -> None:
    moving = group_path(create_group(api, EDITORS, "Moving"))
    inner = group_path(create_group(api, moving, "Inner"))
    user = create_user(api, inner)
    headers = {"Destination": group_href(ADMINS)}
    if override:
        response = api.post(f"/user/groups/{moving}", headers={**headers, "X-HTTP-Method-Override": "MOVE"})
    else:
        response = api.request("MOVE", f"/user/groups/{moving}", headers=headers)
    assert response.status_code == 201, response.text
    moved_id = moving.rsplit("/", 1)[1]
    assert response.headers["location"] == group_href(f"{ADMINS}/{moved_id}")
    assert response.content == b""
    error_message(api.get(f"/user/groups/{moving}", accept=media("UserGroup")), 404)
    inner_id = inner.rsplit("/", 1)[1]
    moved_inner = api.get(f"/user/groups/{ADMINS}/{moved_id}/{inner_id}", accept=media("UserGroup"))
    assert moved_inner.status_code == 200
    groups = ref_hrefs(api.get(f"{user['_href']}/groups", accept=REFS), "UserGroupRefList", "UserGroup")
    assert groups == [group_href(f"{ADMINS}/{moved_id}/{inner_id}")]


def test_move_errors(api: Api) -> None:
    path = group_path(create_group(api, EDITORS, "Staying"))

    def move(source: str, target: str | None) -> httpx.Response:
        headers = {"Destination": target} if target else {}
        return api.request("MOVE", f"/user/groups/{source}", headers=headers, accept=media("UserGroup"))

    # A destination that is not a group (the content root) or does not exist: 403, as the reference.
    error_message(move(path, f"{PREFIX}/user/groups/1/2"), 403)
    error_message(move(path, f"{PREFIX}/user/groups/1/5/999999"), 403)
    error_message(move(path, None), 400)
    error_message(move(path, group_href(path)), 403)  # into itself
    error_message(move("1/5/999999", group_href(ADMINS)), 404)
    assert api.get(f"/user/groups/{path}", accept=media("UserGroup")).status_code == 200


# -- lists ---------------------------------------------------------------------------------------------


def test_subgroups_of_the_users_group(api: Api) -> None:
    response = api.get("/user/groups/1/5/subgroups", accept=REFS)
    assert response.headers["content-type"] == REFS
    body = response.json()["UserGroupRefList"]
    assert body["_href"] == group_href("1/5") + "/subgroups"
    assert [r["_href"] for r in body["UserGroup"]] == [group_href(p) for p in CLEAN_SUBGROUPS]
    assert all("unassign" not in r for r in body["UserGroup"])
    paged = api.get("/user/groups/1/5/subgroups?offset=1&limit=2", accept=REFS)
    assert ref_hrefs(paged, "UserGroupRefList", "UserGroup") == [group_href(p) for p in CLEAN_SUBGROUPS[1:3]]


def test_subgroups_as_full_groups(api: Api) -> None:
    response = api.get("/user/groups/1/5/subgroups?limit=2", accept=media("UserGroupList"))
    assert response.headers["content-type"] == media("UserGroupList")
    groups = response.json()["UserGroupList"]["UserGroup"]
    assert [g["name"] for g in groups] == ["Guest accounts", "Administrator users"]


def test_a_full_group_list_costs_the_same_statements_however_many_groups(api: Api) -> None:
    def listed() -> tuple[int, int]:
        with StatementCounter() as counter:
            response = api.get(f"/user/groups/{EDITORS}/subgroups", accept=media("UserGroupList"))
        assert response.status_code == 200
        return len(response.json()["UserGroupList"]["UserGroup"]), counter.count

    create_group(api, EDITORS)
    few = listed()
    for _ in range(3):
        create_group(api, EDITORS)
    many = listed()
    assert (few[0], many[0]) == (1, 4)
    assert few[1] == many[1]


def test_users_of_a_group(api: Api) -> None:
    response = api.get(f"/user/groups/{ADMINS}/users", accept=media("UserRefList"))
    assert response.status_code == 200
    body = response.json()["UserRefList"]
    assert body["_href"] == group_href(ADMINS) + "/users"
    assert [u["_href"] for u in body["User"]] == [f"{PREFIX}/user/users/14"]
    full = api.get(f"/user/groups/{ADMINS}/users", accept=media("UserList")).json()["UserList"]["User"]
    assert [u["login"] for u in full] == ["admin"]
    empty = api.get(f"/user/groups/{EDITORS}/users", accept=media("UserRefList"))
    assert ref_hrefs(empty, "UserRefList", "User") == []
    error_message(api.get("/user/groups/1/2/users", accept=media("UserRefList")), 404)


def test_create_user_in_a_new_group_lists_it(api: Api) -> None:
    path = group_path(create_group(api, EDITORS))
    response = post_user(api, path, user_create(new_login()))
    assert response.status_code == 201
    users = api.get(f"/user/groups/{path}/users", accept=media("UserRefList"))
    assert ref_hrefs(users, "UserRefList", "User") == [response.headers["location"]]


@pytest.mark.parametrize("query", ["id=12", "remoteId=9b47a45624b023b1a76c73b74d704acf"])
def test_find_group(api: Api, query: str) -> None:
    response = api.get(f"/user/groups?{query}", accept=REFS)
    assert response.status_code == 200
    body = response.json()["UserGroupRefList"]
    assert body["_href"] == f"{PREFIX}/user/groups"
    assert body["UserGroup"] == [{"_media-type": media("UserGroup"), "_href": group_href(ADMINS)}]
    full = api.get(f"/user/groups?{query}", accept=media("UserGroupList")).json()["UserGroupList"]
    assert [g["_id"] for g in full["UserGroup"]] == [12]


def test_find_group_without_filter_is_an_empty_list(api: Api) -> None:
    assert ref_hrefs(api.get("/user/groups", accept=REFS), "UserGroupRefList", "UserGroup") == []


@pytest.mark.parametrize("query", ["id=14", "id=99999", "remoteId=nothing"])
def test_find_no_group_is_404(api: Api, query: str) -> None:
    error_message(api.get(f"/user/groups?{query}", accept=REFS), 404)


@pytest.mark.parametrize("bad", ["twelve", "\u00b2", "9" * 5000, str(2**31)])
def test_find_group_by_a_bad_id_is_400(api: Api, bad: str) -> None:
    """Not an id, or one past the id columns (5,000 digits once reached int(): a 500)."""
    body = error_message(api.get(f"/user/groups?id={bad}", accept=REFS), 400)
    assert "'id'" in body["errorDescription"]
