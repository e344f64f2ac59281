"""Roles, role drafts and policies over HTTP (endpoints-users.tsv rows 32-48, shapes-users.md §5-§6),
in JSON and XML, under both dialects, against the clean install's roles (install.md §10, §12)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.functional.content_support import encode
from tests.functional.role_support import limitations_body, make_role
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

DIALECTS = [(PREFIX, "ibexa"), (EZ_PREFIX, "ez")]


def create_role(api: Api, identifier: str, fmt: str = "json", query: str = "", **kwargs: Any) -> Any:
    kwargs.setdefault("accept", media("Role"))
    return api.post(
        "/user/roles" + query,
        body=encode("RoleInput", {"identifier": identifier}, fmt),
        content_type=media("RoleInput", fmt),
        **kwargs,
    )


def policy_ids(api: Api, role_id: int) -> list[int]:
    response = api.get(f"/user/roles/{role_id}/policies", accept=media("PolicyList"))
    assert response.status_code == 200, response.text
    return [p["id"] for p in response.json()["PolicyList"]["Policy"]]


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_list_roles_of_the_clean_install(client: Any, prefix: str, vendor: str) -> None:
    api = Api(client, prefix)
    response = api.get("/user/roles", accept=media("RoleList", "json", vendor))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("RoleList", "json", vendor)
    assert "accept-patch" not in response.headers
    body = response.json()["RoleList"]
    assert body["_href"] == f"{prefix}/user/roles"
    assert [r["identifier"] for r in body["Role"]] == ["Anonymous", "Administrator", "Editor", "Member"]
    editor = body["Role"][2]
    assert editor == {
        "_media-type": media("Role", "json", vendor),
        "_href": f"{prefix}/user/roles/3",
        "identifier": "Editor",
        "Policies": {
            "_media-type": media("PolicyList", "json", vendor),
            "_href": f"{prefix}/user/roles/3/policies",
        },
    }


def test_list_roles_xml_by_identifier_and_page(api: Api) -> None:
    response = api.get("/user/roles?identifier=Editor", accept=media("RoleList", "xml"))
    assert response.status_code == 200
    root = xml(response)
    assert root.tag == "RoleList"
    assert [r.findtext("identifier") for r in root.findall("Role")] == ["Editor"]
    assert root.find("Role").get("href") == f"{PREFIX}/user/roles/3"
    assert api.json("GET", "/user/roles?identifier=Nobody", "RoleList")["RoleList"]["Role"] == []
    page = api.json("GET", "/user/roles?offset=1&limit=2", "RoleList")["RoleList"]["Role"]
    assert [r["identifier"] for r in page] == ["Administrator", "Editor"]
    assert error_message(api.get("/user/roles?limit=x", accept=media("RoleList")), 400)


def test_anonymous_sees_no_roles_and_may_not_load_one(client: Any) -> None:
    anonymous = Api(client, auth=None)
    assert anonymous.json("GET", "/user/roles", "RoleList")["RoleList"]["Role"] == []
    body = error_message(anonymous.get("/user/roles/1", accept=media("Role")), 401)
    assert body["errorDescription"] == "The User does not have the 'read' 'role' permission"
    error_message(create_role(anonymous, "Sneaky"), 401)


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_create_role_publishes_with_the_next_clean_install_id(api: Api, fmt: str) -> None:
    response = create_role(api, "Reviewer", fmt, accept=media("Role", fmt))
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"{PREFIX}/user/roles/5"  # install.md §12: next role id 5
    assert response.headers["content-type"] == media("Role", fmt)
    assert response.headers["accept-patch"] == media("RoleInput", fmt)
    loaded = api.json("GET", "/user/roles/5", "Role")["Role"]
    assert loaded["identifier"] == "Reviewer"
    assert loaded["Policies"]["_href"] == f"{PREFIX}/user/roles/5/policies"


def test_create_role_as_draft(api: Api) -> None:
    response = create_role(api, "Drafty", query="?publish=false")
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == media("RoleDraft")
    body = response.json()["Role"]
    assert body["_media-type"] == media("Role")
    draft_id = int(body["_href"].rsplit("/", 1)[1])
    error_message(api.get(f"/user/roles/{draft_id}", accept=media("Role")), 404)
    draft = api.get(f"/user/roles/{draft_id}/draft", accept=media("Role"))
    assert draft.status_code == 200
    assert draft.headers["content-type"] == media("RoleDraft")
    published = api.request("PUBLISH", f"/user/roles/{draft_id}/draft")
    assert published.status_code == 204
    assert published.headers["location"] == f"{PREFIX}/user/roles/{draft_id}"
    assert api.json("GET", f"/user/roles/{draft_id}", "Role")["Role"]["identifier"] == "Drafty"


def test_create_role_errors(api: Api) -> None:
    body = error_message(create_role(api, "Editor"), 403)
    assert "Editor" in body["errorDescription"]
    missing = api.post(
        "/user/roles", body={"RoleInput": {}}, content_type=media("RoleInput"), accept=media("Role")
    )
    assert "identifier" in error_message(missing, 400)["errorDescription"]
    error_message(create_role(api, "   "), 400)
    wrong_type = api.post(
        "/user/roles",
        body={"RoleInput": {"identifier": "X"}},
        content_type=media("Section"),
        accept=media("Role"),
    )
    error_message(wrong_type, 415)


def test_update_and_delete_role(api: Api) -> None:
    response = api.patch(
        "/user/roles/4",
        body={"RoleInput": {"identifier": "Members"}},
        content_type=media("RoleInput"),
        accept=media("Role", "xml"),
    )
    assert response.status_code == 200, response.text
    assert xml(response).findtext("identifier") == "Members"
    assert api.json("GET", "/user/roles/4", "Role")["Role"]["identifier"] == "Members"
    rename = {"body": {"RoleInput": {"identifier": "Editor"}}, "content_type": media("RoleInput")}
    error_message(api.patch("/user/roles/4", accept=media("Role"), **rename), 403)
    error_message(api.patch("/user/roles/99", accept=media("Role"), **rename), 404)
    assert api.delete("/user/roles/4").status_code == 204
    error_message(api.get("/user/roles/4", accept=media("Role")), 404)
    error_message(api.delete("/user/roles/4", accept=media("Role")), 404)
    # The Member assignment of Editors (35) went with the role.
    group = api.json("GET", "/user/groups/1/5/14/roles", "RoleAssignmentList")["RoleAssignmentList"]
    assert [a["Role"]["_href"] for a in group["RoleAssignment"]] == [f"{PREFIX}/user/roles/3"] * 2


def test_role_draft_life_cycle(api: Api) -> None:
    created = api.post("/user/roles/3", accept=media("Role"))
    assert created.status_code == 201, created.text
    assert created.headers["content-type"] == media("RoleDraft")
    draft_id = int(created.headers["location"].rsplit("/", 1)[1])
    assert draft_id == 5 and draft_id != 3
    error_message(api.post("/user/roles/3", accept=media("Role")), 403)  # one draft at a time
    # The draft holds copies of the role's policies, pointing back at the originals.
    draft_policies = api.json("GET", f"/user/roles/{draft_id}/policies/341", "Policy")
    assert draft_policies["Policy"]["originalId"] == 317
    renamed = api.patch(
        "/user/roles/3/draft",  # the role id finds its draft too
        body={"RoleInput": {"identifier": "Editor2"}},
        content_type=media("RoleInput"),
        accept=media("Role"),
    )
    assert renamed.status_code == 200
    assert renamed.headers["content-type"] == media("RoleDraft")
    added = api.post(
        f"/user/roles/{draft_id}/policies",
        body={"PolicyCreate": {"module": "section", "function": "view"}},
        content_type=media("PolicyCreate"),
        accept=media("Policy"),
    )
    assert added.status_code == 201
    assert added.headers["content-type"] == media("PolicyDraft")
    assert api.json("GET", "/user/roles/3", "Role")["Role"]["identifier"] == "Editor"  # not yet
    published = api.post(f"/user/roles/{draft_id}/draft", headers={"X-HTTP-Method-Override": "PUBLISH"})
    assert published.status_code == 204
    assert published.headers["location"] == f"{PREFIX}/user/roles/3"
    assert api.json("GET", "/user/roles/3", "Role")["Role"]["identifier"] == "Editor2"
    policies = api.json("GET", "/user/roles/3/policies", "PolicyList")["PolicyList"]["Policy"]
    assert [(p["module"], p["function"]) for p in policies] == [
        ("content", "*"), ("user", "login"), ("url", "*"), ("section", "view"),
    ]  # fmt: skip
    assert all("originalId" not in p for p in policies)
    error_message(api.get("/user/roles/3/draft", accept=media("Role")), 404)
    # The Editors' assignments of role 3 survive publishing.
    group = api.json("GET", "/user/groups/1/5/14/roles", "RoleAssignmentList")["RoleAssignmentList"]
    assert len(group["RoleAssignment"]) == 3


def test_delete_role_draft(api: Api) -> None:
    created = api.post("/user/roles/1", accept=media("Role"))
    draft_id = int(created.headers["location"].rsplit("/", 1)[1])
    assert api.delete(f"/user/roles/{draft_id}/draft").status_code == 204
    error_message(api.get(f"/user/roles/{draft_id}/draft", accept=media("Role")), 404)
    assert api.json("GET", "/user/roles/1", "Role")["Role"]["identifier"] == "Anonymous"
    assert policy_ids(api, 1) == [328, 331, 334]


def role_href(response: Any, fmt: str) -> str:
    href: str = response.json()["Role"]["_href"] if fmt == "json" else xml(response).get("href")
    return href


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_a_draft_outlives_its_deleted_role_and_publishing_it_makes_the_role_again(
    db_api: Api, fmt: str
) -> None:
    """Issue 25 item 3: deleting a role leaves its draft (as the reference does); PUBLISH of the draft
    answers 204 with the Location of the draft's href, and that role exists again."""
    api = db_api
    body = {
        "body": encode("RoleInput", {"identifier": "Editor"}, fmt),
        "content_type": media("RoleInput", fmt),
    }
    created = api.post("/user/roles/3", accept=media("Role", fmt), **body)
    assert created.status_code == 201, created.text
    draft_href = role_href(created, fmt)
    assert created.headers["location"] == draft_href != f"{PREFIX}/user/roles/3"
    editor_policies = policy_ids(api, 3)
    assert api.delete("/user/roles/3").status_code == 204
    error_message(api.get("/user/roles/3", accept=media("Role", fmt)), 404, fmt)
    for still in (draft_href + "/draft", "/user/roles/3/draft"):  # by its own id or by the role's
        draft = api.get(still, accept=media("Role", fmt))
        assert (draft.status_code, draft.headers["content-type"]) == (200, media("RoleDraft", fmt))
        assert role_href(draft, fmt) == draft_href
    published = api.request("PUBLISH", draft_href + "/draft", accept=media("Role", fmt))
    assert (published.status_code, published.content) == (204, b"")
    assert published.headers["location"] == draft_href
    role = api.get(draft_href, accept=media("Role", fmt))
    assert (role.status_code, role.headers["content-type"]) == (200, media("Role", fmt))
    identifier = role.json()["Role"]["identifier"] if fmt == "json" else xml(role).findtext("identifier")
    assert identifier == "Editor"
    assert len(policy_ids(api, int(draft_href.rsplit("/", 1)[1]))) == len(editor_policies)
    error_message(api.get(draft_href + "/draft", accept=media("Role", fmt)), 404, fmt)


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_delete_of_a_draft_href_deletes_the_draft_and_leaves_the_role(api: Api, fmt: str) -> None:
    """Issue 25 item 3: a draft made from a published role is deleted by DELETE on its own href."""
    created = api.post("/user/roles/4", accept=media("Role", fmt))
    draft_href = role_href(created, fmt)
    deleted = api.delete(draft_href, accept=media("Role", fmt))
    assert (deleted.status_code, deleted.content) == (204, b"")
    error_message(api.get(draft_href + "/draft", accept=media("Role", fmt)), 404, fmt)
    error_message(api.get("/user/roles/4/draft", accept=media("Role", fmt)), 404, fmt)
    error_message(api.delete(draft_href, accept=media("Role", fmt)), 404, fmt)
    assert api.json("GET", "/user/roles/4", "Role")["Role"]["identifier"] == "Member"
    assert api.post("/user/roles/4", accept=media("Role")).status_code == 201  # a new draft may be made


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_policies_of_the_anonymous_role(client: Any, prefix: str, vendor: str) -> None:
    api = Api(client, prefix)
    response = api.get("/user/roles/1/policies", accept=media("PolicyList", "json", vendor))
    assert response.status_code == 200
    body = response.json()["PolicyList"]
    assert body["_href"] == f"{prefix}/user/roles/1/policies"
    first = body["Policy"][0]
    assert first == {
        "_media-type": media("Policy", "json", vendor),
        "_href": f"{prefix}/user/roles/1/policies/328",
        "id": 328,
        "module": "content",
        "function": "read",
        "limitations": {
            "limitation": [
                {
                    "_identifier": "Section",
                    "values": {"ref": [{"_media-type": media("ref", "json", vendor), "_href": "1"}]},
                }
            ]
        },
    }
    assert [p["id"] for p in body["Policy"]] == [328, 331, 334]
    embed = body["Policy"][2]["limitations"]["limitation"][0]
    assert [v["_href"] for v in embed["values"]["ref"]] == ["5", "12"]


def test_policy_without_limitations_has_no_limitations_key(api: Api) -> None:
    response = api.get("/user/roles/2/policies/332", accept=media("Policy", "xml"))
    assert response.status_code == 200
    assert response.headers["accept-patch"] == media("PolicyUpdate", "xml")
    root = xml(response)
    assert (root.findtext("module"), root.findtext("function")) == ("*", "*")
    assert root.find("limitations") is None
    body = error_message(api.get("/user/roles/2/policies/328", accept=media("Policy")), 404)
    assert body["errorDescription"] == "Policy not found: '/user/roles/2/policies/328'."


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_add_update_delete_policy(api: Api, fmt: str) -> None:
    role_id = make_role(api, "Writers")
    data = {
        "module": "content",
        "function": "edit",
        "limitations": limitations_body({"Section": ["1", "3"], "Subtree": ["/1/2/"]}),
    }
    response = api.post(
        f"/user/roles/{role_id}/policies",
        body=encode("PolicyCreate", data, fmt),
        content_type=media("PolicyCreate", fmt),
        accept=media("Policy"),
    )
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"{PREFIX}/user/roles/{role_id}/policies/341"  # next policy id
    assert response.headers["content-type"] == media("Policy")
    policy = api.json("GET", f"/user/roles/{role_id}/policies/341", "Policy")["Policy"]
    limitations = {
        lim["_identifier"]: [v["_href"] for v in lim["values"]["ref"]]
        for lim in policy["limitations"]["limitation"]
    }
    assert limitations == {"Section": ["1", "3"], "Subtree": ["/1/2/"]}
    update = {"limitations": limitations_body({"Class": ["2"]})}
    updated = api.patch(
        f"/user/roles/{role_id}/policies/341",
        body=encode("PolicyUpdate", update, fmt),
        content_type=media("PolicyUpdate", fmt),
        accept=media("Policy"),
    )
    assert updated.status_code == 200, updated.text
    stored = api.json("GET", f"/user/roles/{role_id}/policies/341", "Policy")["Policy"]
    assert stored["limitations"]["limitation"] == [
        {"_identifier": "Class", "values": {"ref": [{"_media-type": media("ref"), "_href": "2"}]}}
    ]
    assert api.delete(f"/user/roles/{role_id}/policies/341").status_code == 204
    error_message(api.get(f"/user/roles/{role_id}/policies/341", accept=media("Policy")), 404)
    assert policy_ids(api, role_id) == []


@pytest.mark.parametrize(
    ("policy", "status"),
    [
        (
            {"module": "content", "function": "read", "limitations": limitations_body({"NewSection": ["1"]})},
            404,
        ),
        ({"module": "user", "function": "login", "limitations": limitations_body({"Section": ["1"]})}, 400),
        ({"module": "content", "function": "read", "limitations": limitations_body({"Owner": ["3"]})}, 400),
        (
            {
                "module": "content",
                "function": "read",
                "limitations": limitations_body({"Subtree": ["/1/999/"]}),
            },
            400,
        ),
        (
            {"module": "content", "function": "read", "limitations": limitations_body({"Section": ["99"]})},
            400,
        ),
        (
            {"module": "user", "function": "login", "limitations": limitations_body({"SiteAccess": ["1"]})},
            400,
        ),
        ({"module": "nothing", "function": "read"}, 400),
        ({"function": "read"}, 400),
    ],
)
def test_add_policy_refuses_bad_input(api: Api, policy: dict[str, Any], status: int) -> None:
    response = api.post(
        "/user/roles/4/policies",
        body={"PolicyCreate": policy},
        content_type=media("PolicyCreate"),
        accept=media("Policy"),
    )
    error_message(response, status)
    assert policy_ids(api, 4) == [333]  # nothing half-written


def test_delete_all_policies(api: Api) -> None:
    assert api.delete("/user/roles/3/policies").status_code == 204
    assert policy_ids(api, 3) == []
    error_message(api.delete("/user/roles/77/policies", accept=media("Role")), 404)


@pytest.mark.parametrize(
    ("user_id", "expected"),
    [(14, [332]), (10, [328, 331, 334])],  # permissions.md §4
)
def test_policies_of_a_user_include_those_of_its_groups(api: Api, user_id: int, expected: list[int]) -> None:
    response = api.get(f"/user/policies?userId={user_id}", accept=media("PolicyList"))
    assert response.status_code == 200
    body = response.json()["PolicyList"]
    assert body["_href"] == f"{PREFIX}/user/policies"
    assert [p["id"] for p in body["Policy"]] == expected


def test_policies_of_an_unknown_user(api: Api) -> None:
    error_message(api.get("/user/policies", accept=media("PolicyList")), 404)
    error_message(api.get("/user/policies?userId=999", accept=media("PolicyList")), 404)
