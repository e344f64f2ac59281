"""The last administrator stays (issue 23, item 12): deleting or unassigning the last role assignment that
grants all modules and functions (``*/*``, without limitation) is refused with 403, and nothing changes.
The clean install's only one: role 2 (Administrator, policy 332 ``*/*``) assigned to Administrator users
(group 12 at 1/5/13) by assignment 34."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.domain.errors import Forbidden
from pressroom.domain.role import Assignee
from pressroom.services.role import keeping_an_administrator
from tests.conftest import make_settings
from tests.functional.role_support import assign, make_role
from tests.functional.support import error_message
from tests.helpers import PREFIX, Api, media

REASON = (
    "would leave nobody an administrator: it removes the last role assignment granting all modules and "
    "functions (*/*)"
)
ADMINS = "/user/groups/1/5/13"


def policy_ids(api: Api, role_id: int) -> list[int]:
    body = api.json("GET", f"/user/roles/{role_id}/policies", "PolicyList")["PolicyList"]
    return [policy["id"] for policy in body["Policy"]]


def roles_of(api: Api, assignee: str) -> list[str]:
    body = api.json("GET", f"{assignee}/roles", "RoleAssignmentList")["RoleAssignmentList"]
    return [assignment["Role"]["_href"].rsplit("/", 1)[1] for assignment in body["RoleAssignment"]]


def assert_refused(response: Any, change: str) -> None:
    assert error_message(response, 403)["errorDescription"] == f"{change} {REASON}"


def assert_admin_intact(api: Api) -> None:
    assert policy_ids(api, 2) == [332]
    assert roles_of(api, ADMINS) == ["2"]
    # and the administrator still may do anything: here, create a role
    assert make_role(api, "StillAdmin") > 0


@pytest.mark.parametrize(
    ("method", "path", "change"),
    [
        ("DELETE", "/user/roles/2/policies/332", "Deleting policy 332 of role 2"),
        ("DELETE", "/user/roles/2/policies", "Deleting the policies of role 2"),
        ("DELETE", "/user/roles/2", "Deleting role 2"),
        ("DELETE", f"{ADMINS}/roles/2", "Unassigning role 2"),
    ],
)
def test_removing_the_last_administrator_is_refused(db_api: Api, method: str, path: str, change: str) -> None:
    assert_refused(db_api.request(method, path, accept=media("RoleAssignmentList")), change)
    assert_admin_intact(db_api)


def test_the_policy_cannot_be_narrowed_either(api: Api) -> None:
    """A ``*/*`` policy takes no limitation: an update cannot make it grant less."""
    response = api.patch(
        "/user/roles/2/policies/332",
        body={
            "PolicyUpdate": {
                "limitations": {
                    "limitation": [{"_identifier": "Section", "values": {"ref": [{"_href": "1"}]}}]
                }
            }
        },
        content_type=media("PolicyUpdate"),
        accept=media("Policy"),
    )
    error_message(response, 400)
    assert_admin_intact(api)


def test_another_administrator_assignment_lets_one_go(db_api: Api) -> None:
    assign(db_api, "/user/users/14", 2)
    assert db_api.delete(f"{ADMINS}/roles/2", accept=media("RoleAssignmentList")).status_code == 200
    assert_refused(
        db_api.delete("/user/users/14/roles/2", accept=media("RoleAssignmentList")), "Unassigning role 2"
    )
    assert roles_of(db_api, "/user/users/14") == ["2"]


def test_a_limited_assignment_of_the_administrator_role_does_not_count(api: Api) -> None:
    assign(api, "/user/users/14", 2, ("Subtree", f"{PREFIX}/content/locations/1/2/"))
    assert_refused(api.delete(f"{ADMINS}/roles/2", accept=media("RoleAssignmentList")), "Unassigning role 2")
    assert_admin_intact(api)


def test_another_role_granting_everything_lets_the_administrator_role_go(api: Api) -> None:
    root = make_role(api, "Root", ("*", "*", {}))
    assign(api, "/user/users/14", root)
    assert api.delete("/user/roles/2/policies/332").status_code == 204
    assert api.delete("/user/roles/2").status_code == 204
    assert_refused(api.delete(f"/user/roles/{root}", accept=media("Role")), f"Deleting role {root}")
    # a role granting everything but assigned to nobody is no administrator: it may go
    spare = make_role(api, "Spare", ("*", "*", {}))
    assert api.delete(f"/user/roles/{spare}").status_code == 204


def test_two_concurrent_removals_cannot_each_take_one_of_the_last_two(
    postgres_url: str, tmp_path: Path
) -> None:
    """On PostgreSQL (read committed): while one transaction removes the group's assignment, a concurrent
    removal of the user's waits for it, then sees it and is refused. Without that wait each would still
    see the other's assignment, and both would commit."""
    with TestClient(create_app(make_settings(postgres_url, tmp_path))) as client:
        assign(Api(client), "/user/users/14", 2)
        services = client.app.services  # type: ignore[attr-defined]
        admin = services.auth.load_user(14)
        outcome: list[BaseException | None] = []

        def remove_the_users() -> None:
            try:
                services.role_assignments.unassign(admin, Assignee(user_id=14), 2)
                outcome.append(None)
            except Forbidden as refused:
                outcome.append(refused)

        other = threading.Thread(target=remove_the_users)
        with services.roles.store.write() as tx:
            with keeping_an_administrator(tx, "Unassigning role 2"):
                tx.roles.unassign(12, 2)
            other.start()
            other.join(timeout=2)  # it cannot finish while this transaction holds the revision
        other.join(timeout=60)
        assert not other.is_alive()
        assert len(outcome) == 1 and isinstance(outcome[0], Forbidden)
        assert roles_of(Api(client), "/user/users/14") == ["2"]
        assert roles_of(Api(client), ADMINS) == []


def test_publishing_a_draft_that_drops_the_last_administrator_policy_is_refused(api: Api) -> None:
    created = api.post("/user/roles/2", accept=media("Role"))
    draft_id = int(created.headers["location"].rsplit("/", 1)[1])
    services = api.client.app.services  # type: ignore[attr-defined]
    admin = services.auth.load_user(14)
    [copied] = [policy.id for policy in services.roles.load_draft(admin, draft_id).policies]
    assert api.delete(f"/user/roles/{draft_id}/policies/{copied}").status_code == 204
    refused = api.request("PUBLISH", f"/user/roles/{draft_id}/draft", accept=media("Role"))
    assert_refused(refused, f"Publishing draft {draft_id}")
    assert_admin_intact(api)
