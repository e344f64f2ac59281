"""Helpers of the user and user group functional tests: UserCreate / UserGroupCreate bodies in JSON and
XML, creating users and groups, logging in as them (spec/shapes-users.md §9)."""

from __future__ import annotations

import base64
import uuid
from typing import Any

import httpx

from tests.functional.content_support import encode, field
from tests.helpers import PREFIX, Api, media

ADMINS = "1/5/13"  # "Administrator users" (install.md §9)
EDITORS = "1/5/14"
GUESTS = "1/5/12"
PASSWORD = "Secret1234"  # satisfies the seeded user type's password rules


def basic(login: str, password: str = PASSWORD) -> str:
    return "Basic " + base64.b64encode(f"{login}:{password}".encode()).decode()


def new_login(stem: str = "user") -> str:
    return f"{stem}{uuid.uuid4().hex[:8]}"


def user_create(
    login: str, *, email: str | None = None, password: str = PASSWORD, **extra: Any
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "mainLanguageCode": "eng-GB",
        "login": login,
        "email": email or f"{login}@example.com",
        "password": password,
        **extra,
        "fields": {"field": [field("first_name", "Jane"), field("last_name", login)]},
    }
    return data


def post_user(
    api: Api, group: str, data: dict[str, Any], fmt: str = "json", vendor: str = "ibexa"
) -> httpx.Response:
    return api.post(
        f"/user/groups/{group}/users",
        body=encode("UserCreate", data, fmt),
        content_type=media("UserCreate", fmt, vendor),
        accept=media("User", fmt, vendor),
    )


def create_user(api: Api, group: str = EDITORS, login: str | None = None, **extra: Any) -> dict[str, Any]:
    """A new user in ``group``; returns its User body (JSON)."""
    response = post_user(api, group, user_create(login or new_login(), **extra))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()["User"]
    return body


def group_create(name: str, **extra: Any) -> dict[str, Any]:
    return {
        "mainLanguageCode": "eng-GB",
        **extra,
        "fields": {"field": [field("name", name), field("description", f"About {name}")]},
    }


def post_group(
    api: Api, parent: str | None, data: dict[str, Any], fmt: str = "json", vendor: str = "ibexa"
) -> httpx.Response:
    path = f"/user/groups/{parent}/subgroups" if parent else "/user/groups/subgroups"
    return api.post(
        path,
        body=encode("UserGroupCreate", data, fmt),
        content_type=media("UserGroupCreate", fmt, vendor),
        accept=media("UserGroup", fmt, vendor),
    )


def create_group(api: Api, parent: str | None = "1/5", name: str = "A group") -> dict[str, Any]:
    """A new group below ``parent``; returns its UserGroup body (JSON)."""
    response = post_group(api, parent, group_create(name))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()["UserGroup"]
    return body


def group_path(body: dict[str, Any]) -> str:
    """``"1/5/60"`` from a UserGroup body's ``_href``."""
    href: str = body["_href"]
    return href.split("/user/groups/", 1)[1]


def ref_hrefs(response: httpx.Response, root: str, item: str) -> list[str]:
    assert response.status_code == 200, response.text
    return [ref["_href"] for ref in response.json()[root][item]]


def user_href(user_id: int, prefix: str = PREFIX) -> str:
    return f"{prefix}/user/users/{user_id}"


def group_href(path: str, prefix: str = PREFIX) -> str:
    return f"{prefix}/user/groups/{path}"
