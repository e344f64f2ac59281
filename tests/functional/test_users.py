"""Users: load, find, create in a group, update, delete, groups of a user, drafts, /user/current
(spec/endpoints-users.tsv /user/users*, shapes-users.md §1, §2, §4, §9; install.md §8)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.functional.content_support import create_folder, encode, field, field_values
from tests.functional.content_types_support import new_draft
from tests.functional.content_types_support import publish as publish_type
from tests.functional.support import error_message
from tests.functional.users_support import (
    ADMINS,
    EDITORS,
    GUESTS,
    PASSWORD,
    basic,
    create_user,
    group_href,
    new_login,
    post_user,
    ref_hrefs,
    user_create,
    user_href,
)
from tests.helpers import EZ_PREFIX, PREFIX, Api, StatementCounter, media, xml

JSON = media("UserGroupRefList")


def anonymous(client: TestClient) -> Api:
    return Api(client, auth=None)


def require_unique_emails(api: Api) -> None:
    """Turn on RequireUniqueEmail of the user type's account field (definition 12) through a type draft."""
    assert new_draft(api, 4).status_code == 201
    response = api.patch(
        "/content/types/4/draft/fieldDefinitions/12",
        body={"FieldDefinitionUpdate": {"fieldSettings": {"RequireUniqueEmail": True}}},
        content_type=media("FieldDefinitionUpdate"),
        accept=media("FieldDefinition"),
    )
    assert response.status_code == 200, response.text
    assert publish_type(api, 4).status_code == 200


# -- load ----------------------------------------------------------------------------------------------


def test_load_admin_of_the_clean_install(api: Api) -> None:
    response = api.get("/user/users/14", accept=media("User"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("User")
    assert response.headers["accept-patch"] == media("UserUpdate")
    assert response.headers["etag"]
    user = response.json()["User"]
    assert list(user)[:6] == ["_media-type", "_href", "_id", "_remoteId", "ContentType", "name"]
    assert user["_href"] == user_href(14)
    assert (user["_id"], user["_remoteId"]) == (14, "1bb4fe25487f05527efa8bfd394cecc7")
    assert user["name"] == "Administrator User"
    assert user["ContentType"]["_href"] == f"{PREFIX}/content/types/4"
    assert user["Section"]["_href"] == f"{PREFIX}/content/sections/2"
    assert user["MainLocation"]["_href"] == f"{PREFIX}/content/locations/1/5/13/15"
    assert user["Groups"] == {
        "_media-type": media("UserGroupRefList"),
        "_href": f"{PREFIX}/user/users/14/groups",
    }
    assert user["UserGroups"] == {
        "_media-type": media("UserGroupList"),
        "_href": f"{PREFIX}/user/users/14/groups",
    }
    assert user["Roles"]["_href"] == f"{PREFIX}/user/users/14/roles"
    assert (user["login"], user["email"], user["enabled"]) == ("admin", "admin@link.invalid", True)
    assert user["Version"]["VersionInfo"]["versionNo"] == 3
    account = field_values(user["Version"])[("user_account", "eng-GB")]
    assert account["login"] == "admin" and account["contentId"] == 14 and account["maxLogin"] == 10
    assert "passwordHash" not in account and "CurrentVersion" not in user


def test_load_anonymous_user_in_xml_and_the_ez_dialect(client: TestClient) -> None:
    api = Api(client, EZ_PREFIX)
    response = api.get("/user/users/10", accept=media("User", "xml", "ez"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("User", "xml", "ez")
    root = xml(response)
    assert root.tag == "User"
    assert root.get("href") == f"{EZ_PREFIX}/user/users/10"
    assert root.get("media-type") == media("User", "xml", "ez")
    assert root.findtext("login") == "anonymous"
    assert root.findtext("enabled") == "true"
    assert root.find("MainLocation").get("href") == f"{EZ_PREFIX}/content/locations/1/5/44/45"


def test_load_unknown_user_is_404(api: Api) -> None:
    body = error_message(api.get("/user/users/2", accept=media("User")), 404)  # a folder, not a user
    assert body["errorDescription"] == "Could not find 'User' with identifier '2'"
    error_message(api.get("/user/users/99999", accept=media("User")), 404)


def test_anonymous_cannot_read_users_but_may_load_itself(client: TestClient) -> None:
    error_message(anonymous(client).get("/user/users/14", accept=media("User")), 401)
    assert anonymous(client).get("/user/users/10", accept=media("User")).status_code == 200


def test_if_none_match_gives_304(api: Api) -> None:
    etag = api.get("/user/users/14", accept=media("User")).headers["etag"]
    response = api.get("/user/users/14", accept=media("User"), headers={"If-None-Match": etag})
    assert response.status_code == 304


# -- find ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    ["login=admin", "login=ADMIN", "email=admin@link.invalid", "remoteId=1bb4fe25487f05527efa8bfd394cecc7"],
)
def test_find_users_by_filter(api: Api, query: str) -> None:
    response = api.get(f"/user/users?{query}", accept=media("UserRefList"))
    assert response.headers["content-type"] == media("UserRefList")
    assert "accept-patch" not in response.headers
    body = response.json()["UserRefList"]
    assert body["_href"] == f"{PREFIX}/user/users"
    assert body["User"] == [{"_media-type": media("User"), "_href": user_href(14)}]


def test_find_users_by_email_may_return_several(api: Api) -> None:
    # The seeded account field does not require unique e-mails (RequireUniqueEmail false, install.md).
    first = create_user(api)
    second = create_user(api, email=first["email"].upper())
    response = api.get(f"/user/users?email={first['email']}", accept=media("UserRefList"))
    assert ref_hrefs(response, "UserRefList", "User") == [first["_href"], second["_href"]]


@pytest.mark.parametrize("fmt", ["json", "xml"])
@pytest.mark.parametrize(("prefix", "vendor"), [(PREFIX, "ibexa"), (EZ_PREFIX, "ez")])
def test_find_without_filter_is_404_as_the_reference_answers(
    client: TestClient, fmt: str, prefix: str, vendor: str
) -> None:
    """endpoints-users.tsv: 404 when no filter is given (issue 25 item 4; it listed every user)."""
    api = Api(client, prefix)
    for query in ("", "?offset=1&limit=1"):
        response = api.get("/user/users" + query, accept=media("UserList", fmt, vendor))
        body = error_message(response, 404, fmt, vendor=vendor)
        assert body["errorDescription"].startswith("Could not find Users with the given filter")
        head = api.request("HEAD", "/user/users" + query)
        assert (head.status_code, head.content) == (404, b"")


def test_find_by_group_id_answers_as_before_every_user(api: Api) -> None:
    """``groupId`` is no filter (the reference has none) but keeps the list it always answered."""
    user = create_user(api)
    hrefs = ref_hrefs(api.get("/user/users?groupId=14", accept=media("UserRefList")), "UserRefList", "User")
    assert hrefs == [user_href(10), user_href(14), user["_href"]]
    paged = api.get("/user/users?groupId=14&offset=1&limit=1", accept=media("UserRefList"))
    assert ref_hrefs(paged, "UserRefList", "User") == [user_href(14)]


def test_find_with_user_list_accept_gives_full_users(api: Api) -> None:
    response = api.get("/user/users?login=admin", accept=media("UserList"))
    assert response.headers["content-type"] == media("UserList")
    users = response.json()["UserList"]["User"]
    assert [(u["_id"], u["login"]) for u in users] == [(14, "admin")]
    assert users[0]["Version"]["VersionInfo"]["status"] == "PUBLISHED"


def test_a_full_user_list_costs_the_same_statements_however_many_users(api: Api) -> None:
    shared = f"{new_login()}@example.com"  # e-mails need not be unique: one filter finds them all

    def listed() -> tuple[int, int]:
        with StatementCounter() as counter:
            response = api.get(f"/user/users?email={shared}", accept=media("UserList"))
        assert response.status_code == 200
        return len(response.json()["UserList"]["User"]), counter.count

    create_user(api, email=shared)
    few = listed()
    for _ in range(3):
        create_user(api, email=shared)
    many = listed()
    assert (few[0], many[0]) == (1, 4)
    # the caller's account, the query, the load: 3 transactions, one statement for all versions, one for
    # all fields, one for all relations, and one for the caller's grants
    assert few[1] == many[1] <= 11


def test_find_with_plain_json_accept_gives_references(api: Api) -> None:
    response = api.get("/user/users?login=admin", accept="application/json")
    assert list(response.json()) == ["UserRefList"]


def test_find_nothing_is_404(api: Api) -> None:
    error_message(api.get("/user/users?login=nobody", accept=media("UserRefList")), 404)
    error_message(api.get("/user/users?remoteId=nothing", accept=media("UserRefList")), 404)
    error_message(
        api.get("/user/users?remoteId=f5c88a2209584891056f987fd965b0ba", accept=media("UserRefList")), 404
    )


def test_find_filter_priority_is_remote_id_then_login_then_email(api: Api) -> None:
    response = api.get(
        "/user/users?login=anonymous&remoteId=1bb4fe25487f05527efa8bfd394cecc7&email=x@y.z",
        accept=media("UserRefList"),
    )
    assert ref_hrefs(response, "UserRefList", "User") == [user_href(14)]


def test_find_hides_users_the_caller_cannot_read(client: TestClient) -> None:
    error_message(anonymous(client).get("/user/users?login=admin", accept=media("UserRefList")), 404)


def test_head_tells_whether_a_login_is_taken(api: Api) -> None:
    taken = api.request("HEAD", "/user/users?login=admin")
    assert taken.status_code == 200 and taken.content == b""
    free = api.request("HEAD", f"/user/users?login={new_login()}")
    assert free.status_code == 404 and free.content == b""


def test_negative_paging_is_400(api: Api) -> None:
    body = error_message(
        api.get("/user/users?email=admin@link.invalid&limit=-1", accept=media("UserRefList")), 400
    )
    assert "limit" in body["errorDescription"]


# -- create --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "vendor", "prefix"),
    [
        ("json", "ibexa", PREFIX),
        ("xml", "ibexa", PREFIX),
        ("json", "ez", EZ_PREFIX),
        ("xml", "ez", EZ_PREFIX),
    ],
)
def test_create_user_in_a_group(client: TestClient, fmt: str, vendor: str, prefix: str) -> None:
    api = Api(client, prefix)
    login = new_login()
    response = post_user(api, EDITORS, user_create(login, maxLogin=3), fmt, vendor)
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == media("User", fmt, vendor)
    assert response.headers["accept-patch"] == media("UserUpdate", fmt, vendor)
    location = response.headers["location"]
    assert location.startswith(f"{prefix}/user/users/")
    user_id = int(location.rsplit("/", 1)[1])
    if fmt == "xml":
        assert xml(response).get("href") == location
    loaded = api.get(location, accept=media("User", "json", vendor)).json()["User"]
    assert (loaded["login"], loaded["email"], loaded["enabled"]) == (login, f"{login}@example.com", True)
    assert loaded["name"] == f"Jane {login}"
    assert loaded["Section"]["_href"] == f"{prefix}/content/sections/2"  # the section of the group
    assert loaded["MainLocation"]["_href"].startswith(f"{prefix}/content/locations/1/5/14/")
    account = field_values(loaded["Version"])[("user_account", "eng-GB")]
    assert account == {
        "hasStoredLogin": True,
        "contentId": user_id,
        "login": login,
        "email": f"{login}@example.com",
        "passwordUpdatedAt": account["passwordUpdatedAt"],
        "enabled": True,
        "maxLogin": 3,
        "plainPassword": None,
    }
    assert isinstance(account["passwordUpdatedAt"], int)
    assert PASSWORD not in response.text
    groups = api.get(f"/user/users/{user_id}/groups", accept=media("UserGroupRefList", "json", vendor))
    assert ref_hrefs(groups, "UserGroupRefList", "UserGroup") == [f"{prefix}/user/groups/{EDITORS}"]
    me = Api(client, prefix, auth=basic(login)).get("/user/current", follow_redirects=False)
    assert me.status_code == 307 and me.headers["location"] == location


def test_create_disabled_user_with_remote_id_and_section(api: Api) -> None:
    login = new_login()
    data = user_create(
        login, enabled=False, remoteId=f"remote-{login}", Section={"_href": f"{PREFIX}/content/sections/1"}
    )
    response = post_user(api, GUESTS, data)
    assert response.status_code == 201, response.text
    user = response.json()["User"]
    assert (user["enabled"], user["_remoteId"]) == (False, f"remote-{login}")
    assert user["Section"]["_href"] == f"{PREFIX}/content/sections/1"
    found = api.get(f"/user/users?remoteId=remote-{login}", accept=media("UserRefList"))
    assert ref_hrefs(found, "UserRefList", "User") == [user["_href"]]


def test_create_with_a_taken_login_is_403(api: Api) -> None:
    first = create_user(api)
    body = error_message(post_user(api, EDITORS, user_create(first["login"].upper())), 403)
    assert body["errorDescription"] == f"A user with login '{first['login'].upper()}' already exists"
    users = ref_hrefs(
        api.get(f"/user/groups/{EDITORS}/users", accept=media("UserRefList")), "UserRefList", "User"
    )
    assert users == [first["_href"]]  # nothing half-written


def test_create_with_a_taken_email_is_403_when_the_field_requires_unique_emails(api: Api) -> None:
    require_unique_emails(api)
    first = create_user(api)
    body = error_message(post_user(api, EDITORS, user_create(new_login(), email=first["email"].upper())), 403)
    assert body["errorDescription"] == f"A user with e-mail address '{first['email'].upper()}' already exists"
    users = ref_hrefs(
        api.get(f"/user/groups/{EDITORS}/users", accept=media("UserRefList")), "UserRefList", "User"
    )
    assert users == [first["_href"]]


def test_create_with_a_weak_password_is_400_with_field_details(api: Api) -> None:
    login = new_login()
    response = post_user(api, EDITORS, user_create(login, password="short"))
    body = error_message(response, 400)
    errors = body["errorDetails"]["fields"][0]["errors"]
    messages = {e["message"] for e in errors}
    assert "User password must be at least 10 characters long" in messages
    assert "User password must include at least one number" in messages
    assert api.request("HEAD", f"/user/users?login={login}").status_code == 404


@pytest.mark.parametrize("missing", ["login", "email", "password", "mainLanguageCode", "fields"])
def test_create_without_a_required_element_is_400(api: Api, missing: str) -> None:
    data = user_create(new_login())
    del data[missing]
    body = error_message(post_user(api, EDITORS, data), 400)
    assert missing in body["errorDescription"]


def test_create_below_something_that_is_not_a_group_is_404(api: Api) -> None:
    error_message(post_user(api, "1/2", user_create(new_login())), 404)
    error_message(post_user(api, "1/5/999999", user_create(new_login())), 404)


def test_create_below_a_group_path_that_is_not_the_full_one_reaches_the_group_by_its_last_id(
    api: Api,
) -> None:
    """A write reaches its group by the path's last id, as the reference (issue 25 item 1; this was 404)."""
    response = post_user(api, "5", user_create(new_login()))
    assert response.status_code == 201, response.text
    assert response.json()["User"]["MainLocation"]["_href"].startswith(f"{PREFIX}/content/locations/1/5/")


def test_create_needs_permission(client: TestClient) -> None:
    error_message(post_user(anonymous(client), EDITORS, user_create(new_login())), 401)


# -- update --------------------------------------------------------------------------------------------


def patch_user(
    api: Api, user_id: int, data: dict[str, object], fmt: str = "json", **kwargs: object
) -> object:
    return api.patch(
        f"/user/users/{user_id}",
        body=encode("UserUpdate", data, fmt),
        content_type=media("UserUpdate", fmt),
        accept=media("User", fmt),
        **kwargs,
    )


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_update_email_fields_and_remote_id(api: Api, fmt: str) -> None:
    user = create_user(api)
    data = {
        "email": f"new-{user['login']}@example.com",
        "remoteId": f"moved-{user['login']}",
        "fields": {"field": [field("first_name", "Janet")]},
    }
    response = patch_user(api, user["_id"], data, fmt)
    assert response.status_code == 200, response.text
    loaded = api.get(user["_href"], accept=media("User")).json()["User"]
    assert loaded["email"] == f"new-{user['login']}@example.com"
    assert loaded["_remoteId"] == f"moved-{user['login']}"
    assert loaded["name"] == f"Janet {user['login']}"
    assert loaded["Version"]["VersionInfo"]["versionNo"] == 2
    account = field_values(loaded["Version"])[("user_account", "eng-GB")]
    assert (account["login"], account["email"], account["contentId"]) == (
        user["login"],
        data["email"],
        user["_id"],
    )
    assert api.request("HEAD", f"/user/users?email={data['email']}").status_code == 200


def test_update_password_changes_the_login_credentials(client: TestClient, api: Api) -> None:
    user = create_user(api)
    assert (
        Api(client, auth=basic(user["login"])).get("/user/current", follow_redirects=False).status_code == 307
    )
    response = patch_user(api, user["_id"], {"password": "Another12345"})
    assert response.status_code == 200
    old = Api(client, auth=basic(user["login"])).get("/user/current", accept=media("User"))
    error_message(old, 401)
    new = Api(client, auth=basic(user["login"], "Another12345")).get("/user/current", follow_redirects=False)
    assert new.status_code == 307


def test_update_with_a_weak_password_is_400_and_keeps_the_old_one(client: TestClient, api: Api) -> None:
    user = create_user(api)
    error_message(patch_user(api, user["_id"], {"password": "weak"}), 400)
    assert (
        Api(client, auth=basic(user["login"])).get("/user/current", follow_redirects=False).status_code == 307
    )


def test_update_the_seeded_admin_keeps_its_password(client: TestClient, api: Api) -> None:
    response = patch_user(api, 14, {"email": "root@example.com"})
    assert response.status_code == 200, response.text
    assert response.json()["User"]["email"] == "root@example.com"
    assert Api(client).get("/user/current", follow_redirects=False).status_code == 307


def test_update_to_a_taken_email_is_403(api: Api) -> None:
    require_unique_emails(api)
    first, second = create_user(api), create_user(api)
    body = error_message(patch_user(api, second["_id"], {"email": first["email"]}), 403)
    assert first["email"] in body["errorDescription"]
    assert api.get(second["_href"], accept=media("User")).json()["User"]["email"] == second["email"]


def test_update_with_a_stale_if_match_is_412(api: Api) -> None:
    user = create_user(api)
    etag = api.get(user["_href"], accept=media("User")).headers["etag"]
    assert patch_user(api, user["_id"], {"enabled": False}, headers={"If-Match": etag}).status_code == 200
    error_message(patch_user(api, user["_id"], {"enabled": True}, headers={"If-Match": etag}), 412)


def test_update_through_method_override(api: Api) -> None:
    user = create_user(api)
    response = api.post(
        user["_href"],
        body=encode("UserUpdate", {"enabled": "false"}, "json"),
        content_type=media("UserUpdate"),
        accept=media("User"),
        headers={"X-HTTP-Method-Override": "PATCH"},
    )
    assert response.status_code == 200
    assert response.json()["User"]["enabled"] is False


def test_update_unknown_user_is_404_and_bad_body_400(api: Api) -> None:
    error_message(patch_user(api, 99999, {"enabled": False}), 404)
    error_message(patch_user(api, 14, {"enabled": "maybe"}), 400)


# -- delete --------------------------------------------------------------------------------------------


def test_delete_user(client: TestClient, api: Api) -> None:
    user = create_user(api)
    assert api.delete(user["_href"]).status_code == 204
    error_message(api.get(user["_href"], accept=media("User")), 404)
    error_message(api.get(f"/content/objects/{user['_id']}", accept=media("ContentInfo")), 404)
    assert api.request("HEAD", f"/user/users?login={user['login']}").status_code == 404
    refused = Api(client, auth=basic(user["login"])).get("/user/current", accept=media("User"))
    error_message(refused, 401)
    error_message(api.delete(user["_href"], accept=media("User")), 404)


def test_deleting_oneself_is_403(client: TestClient, api: Api) -> None:
    user = create_user(api, ADMINS)
    body = error_message(
        Api(client, auth=basic(user["login"])).delete(user["_href"], accept=media("User")), 403
    )
    assert body["errorDescription"] == "Cannot delete the currently authenticated User"


def test_delete_needs_permission(client: TestClient, api: Api) -> None:
    user = create_user(api)
    error_message(anonymous(client).delete(user["_href"], accept=media("User")), 401)


# -- groups of a user ----------------------------------------------------------------------------------


def test_groups_of_admin(api: Api) -> None:
    response = api.get("/user/users/14/groups", accept=media("UserGroupRefList"))
    assert response.headers["content-type"] == media("UserGroupRefList")
    body = response.json()["UserGroupRefList"]
    assert body["_href"] == f"{PREFIX}/user/users/14/groups"
    assert body["UserGroup"] == [
        {"_media-type": media("UserGroup"), "_href": group_href(ADMINS)}
    ]  # no unassign


@pytest.mark.parametrize("group", [group_href(GUESTS), "/1/5/12", group_href(GUESTS, EZ_PREFIX)])
def test_assign_and_unassign_a_group(api: Api, group: str) -> None:
    user = create_user(api)
    response = api.post(f"/user/users/{user['_id']}/groups?group={group}", accept=media("UserGroupRefList"))
    assert response.status_code == 200, response.text
    refs = response.json()["UserGroupRefList"]["UserGroup"]
    assert [r["_href"] for r in refs] == [group_href(EDITORS), group_href(GUESTS)]
    assert refs[1]["unassign"] == {
        "_href": f"{PREFIX}/user/users/{user['_id']}/groups/12",
        "_method": "DELETE",
    }
    assert (
        len(
            api.get(f"/content/objects/{user['_id']}/locations", accept=media("LocationList")).json()[
                "LocationList"
            ]["Location"]
        )
        == 2
    )
    found = api.get(f"/user/groups/{GUESTS}/users", accept=media("UserRefList"))
    assert user["_href"] in ref_hrefs(found, "UserRefList", "User")
    removed = api.delete(f"/user/users/{user['_id']}/groups/14", accept=media("UserGroupRefList"))
    assert removed.status_code == 200
    assert removed.json()["UserGroupRefList"]["UserGroup"] == [
        {"_media-type": media("UserGroup"), "_href": group_href(GUESTS)}
    ]
    loaded = api.get(user["_href"], accept=media("User")).json()["User"]
    assert loaded["MainLocation"]["_href"].startswith(f"{PREFIX}/content/locations/1/5/12/")


def test_groups_of_a_user_in_xml(api: Api) -> None:
    user = create_user(api)
    api.post(f"/user/users/{user['_id']}/groups?group=/1/5/12", accept=JSON)
    response = api.get(f"/user/users/{user['_id']}/groups", accept=media("UserGroupRefList", "xml"))
    assert response.headers["content-type"] == media("UserGroupRefList", "xml")
    root = xml(response)
    assert root.tag == "UserGroupRefList"
    groups = root.findall("UserGroup")
    assert [g.get("href") for g in groups] == [group_href(EDITORS), group_href(GUESTS)]
    unassign = groups[0].find("unassign")
    assert (unassign.get("href"), unassign.get("method")) == (
        f"{PREFIX}/user/users/{user['_id']}/groups/14",
        "DELETE",
    )


def test_user_list_in_xml(api: Api) -> None:
    response = api.get("/user/users?login=admin", accept=media("UserList", "xml"))
    root = xml(response)
    assert (root.tag, root.get("href")) == ("UserList", f"{PREFIX}/user/users")
    assert [u.findtext("login") for u in root.findall("User")] == ["admin"]


def test_assign_errors(api: Api) -> None:
    user = create_user(api)
    base = f"/user/users/{user['_id']}/groups"
    body = error_message(api.post(f"{base}?group={group_href(EDITORS)}", accept=JSON), 403)
    assert "already" in body["errorDescription"]
    error_message(api.post(f"{base}?group={PREFIX}/user/groups/1/2", accept=JSON), 403)  # not a group
    error_message(api.post(f"{base}?group={PREFIX}/user/groups/1/5/99999", accept=JSON), 403)
    error_message(api.post(base, accept=JSON), 400)
    error_message(api.post(f"/user/users/99999/groups?group={group_href(GUESTS)}", accept=JSON), 404)


def test_unassign_errors(api: Api) -> None:
    user = create_user(api)
    base = f"/user/users/{user['_id']}/groups"
    body = error_message(api.delete(f"{base}/14", accept=JSON), 403)
    assert "last group" in body["errorDescription"]
    error_message(api.delete(f"{base}/12", accept=JSON), 403)  # not in it
    assert ref_hrefs(api.get(base, accept=media("UserGroupRefList")), "UserGroupRefList", "UserGroup") == [
        group_href(EDITORS)
    ]


# -- drafts and the current user -----------------------------------------------------------------------


def test_drafts_of_a_user(client: TestClient, api: Api) -> None:
    user = create_user(api, ADMINS)
    as_user = Api(client, auth=basic(user["login"]))
    folder = create_folder(as_user, "Draft by a new user")
    response = api.get(f"/user/users/{user['_id']}/drafts", accept=media("VersionList"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("VersionList")
    body = response.json()["VersionList"]
    assert body["_href"] == f"{PREFIX}/user/users/{user['_id']}/drafts"
    assert [item["Version"]["_href"] for item in body["VersionItem"]] == [
        f"{PREFIX}/content/objects/{folder['_id']}/versions/1"
    ]
    info = body["VersionItem"][0]["VersionInfo"]
    assert info["status"] == "DRAFT" and info["Creator"]["_href"] == user["_href"]
    assert (
        api.get("/user/users/10/drafts", accept=media("VersionList")).json()["VersionList"]["VersionItem"]
        == []
    )
    error_message(api.get("/user/users/99999/drafts", accept=media("VersionList")), 404)


def test_current_user_redirects_to_the_caller(client: TestClient) -> None:
    response = Api(client, EZ_PREFIX).get("/user/current", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"{EZ_PREFIX}/user/users/14"
    assert response.content == b""
    error_message(anonymous(client).get("/user/current", accept=media("User")), 401)
