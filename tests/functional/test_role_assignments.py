"""Role assignments of users and user groups over HTTP (endpoints-users.tsv rows 13-16, 28-31;
shapes-users.md §7, §9), in JSON and XML, under both dialects."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.schema import role_assignments
from tests.functional.content_support import encode
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml


def assign_input(prefix: str, role_id: int, limitation: tuple[str, str] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"Role": {"_href": f"{prefix}/user/roles/{role_id}"}}
    if limitation:
        data["limitation"] = {"_identifier": limitation[0], "values": {"ref": [{"_href": limitation[1]}]}}
    return data


def post_assignment(
    api: Api, path: str, data: dict[str, Any], fmt: str = "json", vendor: str = "ibexa"
) -> Any:
    return api.post(
        path,
        body=encode("RoleAssignInput", data, fmt),
        content_type=media("RoleAssignInput", fmt, vendor),
        accept=media("RoleAssignmentList", fmt, vendor),
    )


@pytest.mark.parametrize(("prefix", "vendor"), [(PREFIX, "ibexa"), (EZ_PREFIX, "ez")])
def test_assignments_of_the_editors_group(client: Any, prefix: str, vendor: str) -> None:
    api = Api(client, prefix)
    response = api.get("/user/groups/1/5/14/roles", accept=media("RoleAssignmentList", "json", vendor))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("RoleAssignmentList", "json", vendor)
    body = response.json()["RoleAssignmentList"]
    assert body["_href"] == f"{prefix}/user/groups/1/5/14/roles"
    first = body["RoleAssignment"][0]
    assert first == {
        "_media-type": media("RoleAssignment", "json", vendor),
        "_href": f"{prefix}/user/groups/1/5/14/roles/3",
        "limitation": {
            "_identifier": "Subtree",
            "values": {"ref": [{"_media-type": media("ref", "json", vendor), "_href": "/1/2/"}]},
        },
        "Role": {"_media-type": media("Role", "json", vendor), "_href": f"{prefix}/user/roles/3"},
    }
    assert [
        a.get("limitation", {}).get("values", {}).get("ref", [{}])[0].get("_href")
        for a in body["RoleAssignment"]
    ] == [
        "/1/2/",
        "/1/43/",
        None,
    ]
    single = api.get("/user/groups/1/5/14/roles/3", accept=media("RoleAssignment", "json", vendor))
    assert single.status_code == 200
    assert single.json()["RoleAssignment"]["limitation"]["values"]["ref"][0]["_href"] == "/1/2/"  # the first


def test_assignments_xml(api: Api) -> None:
    response = api.get("/user/groups/1/5/13/roles", accept=media("RoleAssignmentList", "xml"))
    root = xml(response)
    assert root.tag == "RoleAssignmentList"
    assignments = root.findall("RoleAssignment")
    assert len(assignments) == 1
    assert assignments[0].get("href") == f"{PREFIX}/user/groups/1/5/13/roles/2"
    assert assignments[0].find("Role").get("href") == f"{PREFIX}/user/roles/2"
    assert assignments[0].find("limitation") is None


def test_no_role_is_assigned_to_a_user_directly(api: Api) -> None:
    body = api.json("GET", "/user/users/14/roles", "RoleAssignmentList")["RoleAssignmentList"]
    assert body == {
        "_media-type": media("RoleAssignmentList"),
        "_href": f"{PREFIX}/user/users/14/roles",
        "RoleAssignment": [],
    }
    message = error_message(api.get("/user/users/14/roles/2", accept=media("RoleAssignment")), 404)
    assert message["errorDescription"] == "Role assignment not found: '/user/users/14/roles/2'"


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_assign_and_unassign_a_role_to_a_user(api: Api, fmt: str) -> None:
    subtree = ("Subtree", f"{PREFIX}/content/locations/1/43/")
    response = post_assignment(api, "/user/users/10/roles", assign_input(PREFIX, 3, subtree), fmt)
    assert response.status_code == 200, response.text  # 200, not 201
    assert response.headers["content-type"] == media("RoleAssignmentList", fmt)
    section = ("Section", f"{PREFIX}/content/sections/3")
    assert post_assignment(api, "/user/users/10/roles", assign_input(PREFIX, 3, section)).status_code == 200
    assert post_assignment(api, "/user/users/10/roles", assign_input(PREFIX, 4)).status_code == 200
    listed = api.json("GET", "/user/users/10/roles", "RoleAssignmentList")["RoleAssignmentList"][
        "RoleAssignment"
    ]
    assert [
        (a["Role"]["_href"].rsplit("/", 1)[1], a.get("limitation", {}).get("_identifier")) for a in listed
    ] == [
        ("3", "Subtree"),
        ("3", "Section"),
        ("4", None),
    ]
    assert listed[0]["limitation"]["values"]["ref"][0]["_href"] == "/1/43/"  # stored as a path string
    assert listed[1]["limitation"]["values"]["ref"][0]["_href"] == "3"
    one = api.json("GET", "/user/users/10/roles/3", "RoleAssignment")["RoleAssignment"]
    assert one["_href"] == f"{PREFIX}/user/users/10/roles/3"
    # The anonymous user now also gets the Editor and Member policies.
    policies = api.json("GET", "/user/policies?userId=10", "PolicyList")["PolicyList"]["Policy"]
    assert [p["id"] for p in policies] == [317, 319, 328, 331, 333, 334, 340]
    removed = api.delete("/user/users/10/roles/3", accept=media("RoleAssignmentList"))
    assert removed.status_code == 200  # every assignment of role 3 goes
    assert [a["Role"]["_href"] for a in removed.json()["RoleAssignmentList"]["RoleAssignment"]] == [
        f"{PREFIX}/user/roles/4"
    ]
    unknown = api.delete("/user/users/10/roles/77", accept=media("RoleAssignmentList"))
    assert unknown.status_code == 200


def test_assignment_ids_follow_the_clean_install(api: Api, settings: Any) -> None:

    assert post_assignment(api, "/user/users/14/roles", assign_input(PREFIX, 4)).status_code == 200
    engine = make_engine(settings.database_url)
    with engine.connect() as connection:
        ids = connection.execute(
            select(role_assignments.c.id).where(role_assignments.c.assignee_id == 14)
        ).scalars()
        assert list(ids) == [36]  # install.md §12: next role assignment id 36
    engine.dispose()


def test_assign_and_unassign_a_role_to_a_group(api: Api) -> None:
    subtree = ("Subtree", f"{PREFIX}/content/locations/1/2/")
    response = post_assignment(api, "/user/groups/1/5/12/roles", assign_input(PREFIX, 3, subtree), "xml")
    assert response.status_code == 200, response.text
    root = xml(response)
    assert [a.find("Role").get("href") for a in root.findall("RoleAssignment")] == [
        f"{PREFIX}/user/roles/1",
        f"{PREFIX}/user/roles/3",
    ]
    removed = api.delete("/user/groups/1/5/12/roles/1", accept=media("RoleAssignmentList"))
    assert removed.status_code == 200
    remaining = removed.json()["RoleAssignmentList"]["RoleAssignment"]
    assert [a["_href"] for a in remaining] == [f"{PREFIX}/user/groups/1/5/12/roles/3"]
    groups = api.json("GET", "/user/groups/1/5/12/roles", "RoleAssignmentList")["RoleAssignmentList"]
    assert len(groups["RoleAssignment"]) == 1


@pytest.mark.parametrize(
    ("path", "data", "status"),
    [
        ("/user/users/999/roles", assign_input(PREFIX, 1), 404),
        ("/user/users/14/roles", assign_input(PREFIX, 99), 404),
        ("/user/groups/1/2/roles", assign_input(PREFIX, 1), 404),  # not a user group
        ("/user/groups/1/5/99/roles", assign_input(PREFIX, 1), 404),
        ("/user/users/14/roles", assign_input(PREFIX, 1, ("Class", "4")), 400),
        (
            "/user/users/14/roles",
            assign_input(PREFIX, 1, ("Subtree", f"{PREFIX}/content/locations/1/2")),
            400,
        ),
        (
            "/user/users/14/roles",
            assign_input(PREFIX, 1, ("Subtree", f"{PREFIX}/content/locations/1/77/")),
            400,
        ),
        ("/user/users/14/roles", assign_input(PREFIX, 1, ("Section", f"{PREFIX}/content/sections/77")), 400),
        ("/user/users/14/roles", {"Role": {"_href": "/not/a/role"}}, 400),
        ("/user/users/14/roles", {}, 400),
    ],
)
def test_assign_refuses_bad_input(api: Api, path: str, data: dict[str, Any], status: int) -> None:
    error_message(post_assignment(api, path, data), status)
    assert (
        api.json("GET", "/user/users/14/roles", "RoleAssignmentList")["RoleAssignmentList"]["RoleAssignment"]
        == []
    )


def test_anonymous_may_not_read_or_assign(client: Any) -> None:
    anonymous = Api(client, auth=None)
    error_message(anonymous.get("/user/users/14/roles", accept=media("RoleAssignmentList")), 401)
    # A group's list is filtered rather than refused (endpoints-users.tsv row 28).
    body = anonymous.json("GET", "/user/groups/1/5/14/roles", "RoleAssignmentList")["RoleAssignmentList"]
    assert body["RoleAssignment"] == []
    response = post_assignment(anonymous, "/user/users/10/roles", assign_input(PREFIX, 2))
    description = error_message(response, 401)["errorDescription"]
    assert description == "The User does not have the 'assign' 'role' permission with: roleId '2'"
    error_message(anonymous.get("/user/policies?userId=10", accept=media("PolicyList")), 401)


@pytest.mark.parametrize(("prefix", "vendor"), [(PREFIX, "ibexa"), (EZ_PREFIX, "ez")])
def test_users_by_role_are_those_assigned_directly(client: Any, prefix: str, vendor: str) -> None:
    api = Api(client, prefix)
    # install.md §10: no role is assigned to a user directly.
    error_message(
        api.get(f"/user/users?roleId={prefix}/user/roles/2", accept=media("UserRefList", "json", vendor)),
        404,
        vendor=vendor,
    )
    assert (
        post_assignment(api, "/user/users/14/roles", assign_input(prefix, 2), vendor=vendor).status_code
        == 200
    )
    response = api.get(
        f"/user/users?roleId={prefix}/user/roles/2", accept=media("UserRefList", "json", vendor)
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == media("UserRefList", "json", vendor)
    assert response.json()["UserRefList"] == {
        "_media-type": media("UserRefList", "json", vendor),
        "_href": f"{prefix}/user/users",
        "User": [{"_media-type": media("User", "json", vendor), "_href": f"{prefix}/user/users/14"}],
    }
    error_message(
        api.get("/user/users?roleId=2", accept=media("UserRefList", "json", vendor)), 400, vendor=vendor
    )  # must be an href


@pytest.mark.parametrize("role", ["3", f"{PREFIX}/user/roles/3"])
def test_groups_by_role(api: Api, role: str) -> None:
    response = api.get(f"/user/groups?roleId={role}", accept=media("UserGroupRefList", "xml"))
    assert response.status_code == 200
    root = xml(response)
    assert root.tag == "UserGroupRefList"
    assert [g.get("href") for g in root.findall("UserGroup")] == [f"{PREFIX}/user/groups/1/5/14"]
    listed = api.json("GET", "/user/groups?roleId=1", "UserGroupRefList")["UserGroupRefList"]["UserGroup"]
    assert [g["_href"] for g in listed] == [f"{PREFIX}/user/groups/1/5/12", f"{PREFIX}/user/groups/1/5/44"]
    assert api.json("GET", "/user/groups", "UserGroupRefList")["UserGroupRefList"]["UserGroup"] == []


def test_anonymous_may_not_list_holders_of_a_role(client: Any) -> None:
    anonymous = Api(client, auth=None)
    error_message(
        anonymous.get(f"/user/users?roleId={PREFIX}/user/roles/1", accept=media("UserRefList")), 404
    )
    error_message(anonymous.get("/user/groups?roleId=1", accept=media("UserGroupRefList")), 401)
