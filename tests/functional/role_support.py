"""Helpers of the role and permission tests: user groups, users who can log in, roles with policies,
and assignments."""

from __future__ import annotations

import base64
from typing import Any

from tests.functional.content_support import USER, USER_GROUP, content_create, field, post_content, publish
from tests.helpers import PREFIX, Api, media

PASSWORD = "Secret123456"


def _published(api: Api, data: dict[str, Any]) -> int:
    response = post_content(api, data)
    assert response.status_code == 201, response.text
    content_id: int = response.json()["Content"]["_id"]
    publish(api, content_id)
    return content_id


def main_path(api: Api, content_id: int) -> str:
    """``"1/5/60"``: the path of the item's main location."""
    response = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo"))
    assert response.status_code == 200, response.text
    href: str = response.json()["Content"]["MainLocation"]["_href"]
    return href.split("/content/locations/", 1)[1]


def make_group(api: Api, name: str, parent: str = "1/5") -> str:
    """A published user group below ``parent``; returns its location path (``1/5/60``)."""
    data = content_create([field("name", name)], type_id=USER_GROUP, parent=parent)
    return main_path(api, _published(api, data))


def make_user(api: Api, login: str, group: str) -> tuple[int, Api]:
    """A published user in ``group`` (publishing stores its account) who owns its own content; returns
    its id and a client authenticated as it (Basic)."""
    account = {"login": login, "email": f"{login}@example.com", "password": PASSWORD, "enabled": True}
    fields = [field("first_name", login), field("last_name", "Tester"), field("user_account", account)]
    user_id = _published(api, content_create(fields, type_id=USER, parent=group))
    response = api.patch(
        f"/content/objects/{user_id}",
        body={"ContentUpdate": {"Owner": {"_href": f"{PREFIX}/user/users/{user_id}"}}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
    )
    assert response.status_code == 200, response.text
    credentials = base64.b64encode(f"{login}:{PASSWORD}".encode()).decode()
    return user_id, Api(api.client, api.prefix, auth=f"Basic {credentials}")


def limitations_body(limitations: dict[str, list[str]]) -> dict[str, Any]:
    return {
        "limitation": [
            {"_identifier": identifier, "values": {"ref": [{"_href": value} for value in values]}}
            for identifier, values in limitations.items()
        ]
    }


def make_role(api: Api, identifier: str, *policies: tuple[str, str, dict[str, list[str]]]) -> int:
    """A published role with ``(module, function, {limitation: [values]})`` policies; returns its id."""
    response = api.post(
        "/user/roles",
        body={"RoleInput": {"identifier": identifier}},
        content_type=media("RoleInput"),
        accept=media("Role"),
    )
    assert response.status_code == 201, response.text
    role_id = int(response.headers["location"].rsplit("/", 1)[1])
    for module, function, limitations in policies:
        data: dict[str, Any] = {"module": module, "function": function}
        if limitations:
            data["limitations"] = limitations_body(limitations)
        added = api.post(
            f"/user/roles/{role_id}/policies",
            body={"PolicyCreate": data},
            content_type=media("PolicyCreate"),
            accept=media("Policy"),
        )
        assert added.status_code == 201, added.text
    return role_id


def assign(api: Api, assignee: str, role_id: int, limitation: tuple[str, str] | None = None) -> None:
    """Assign a role to ``assignee`` (``/user/groups/1/5/60`` or ``/user/users/61``), optionally with a
    (Section|Subtree, href) limitation."""
    data: dict[str, Any] = {"Role": {"_href": f"{PREFIX}/user/roles/{role_id}"}}
    if limitation is not None:
        data["limitation"] = {"_identifier": limitation[0], "values": {"ref": [{"_href": limitation[1]}]}}
    response = api.post(
        f"{assignee}/roles",
        body={"RoleAssignInput": data},
        content_type=media("RoleAssignInput"),
        accept=media("RoleAssignmentList"),
    )
    assert response.status_code == 200, response.text
