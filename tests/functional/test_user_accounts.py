"""The account side of users: a user created through /content/objects can log in once published, and a
disabled user is refused on every way in: session, JWT, Basic (spec/auth.md, fieldtypes.md ezuser)."""

from __future__ import annotations

from typing import Any

import httpx
from starlette.testclient import TestClient

from tests.functional.content_support import USER, content_create, field, post_content, publish
from tests.functional.support import cookie_of, error_message, login, session_of
from tests.functional.users_support import EDITORS, PASSWORD, basic, create_user, new_login
from tests.helpers import PREFIX, Api, media


def token_for(client: TestClient, username: str, password: str = PASSWORD) -> httpx.Response:
    return Api(client, auth=None).post(
        "/user/token/jwt",
        body={"JWTInput": {"username": username, "password": password}},
        content_type=media("JWTInput"),
        accept=media("JWT"),
    )


def current(client: TestClient, **headers: str) -> httpx.Response:
    return Api(client, auth=None).get(
        "/user/current", accept=media("User"), headers=headers, follow_redirects=False
    )


def bearer(token: str) -> str:
    return f"Bearer {token}"


def set_enabled(api: Api, user_id: int, enabled: bool) -> None:
    response = api.patch(
        f"/user/users/{user_id}",
        body={"UserUpdate": {"enabled": enabled}},
        content_type=media("UserUpdate"),
        accept=media("User"),
    )
    assert response.status_code == 200, response.text
    assert response.json()["User"]["enabled"] is enabled


def user_content(login_name: str, **account: Any) -> dict[str, Any]:
    value = {"login": login_name, "email": f"{login_name}@example.com", "password": PASSWORD, **account}
    return content_create(
        [field("first_name", "Content"), field("last_name", "Made"), field("user_account", value)],
        type_id=USER,
        parent=EDITORS,
    )


def test_user_created_through_content_objects_logs_in_once_published(client: TestClient, api: Api) -> None:
    name = new_login()
    response = post_content(api, user_content(name))
    assert response.status_code == 201, response.text
    content_id = response.json()["Content"]["_id"]
    error_message(current(client, Authorization=basic(name)), 401)  # a draft has no account yet
    error_message(api.get(f"/user/users/{content_id}", accept=media("User")), 404)
    publish(api, content_id)
    user = api.get(f"/user/users/{content_id}", accept=media("User")).json()["User"]
    assert (user["login"], user["email"], user["enabled"]) == (name, f"{name}@example.com", True)
    redirect = current(client, Authorization=basic(name))
    assert redirect.status_code == 307
    assert redirect.headers["location"] == f"{PREFIX}/user/users/{content_id}"
    session = session_of(login(client, name, PASSWORD))
    assert session["User"]["_href"] == f"{PREFIX}/user/users/{content_id}"
    token = token_for(client, name).json()["JWT"]["token"]
    assert current(client, Authorization=bearer(token)).status_code == 307


def test_publishing_a_user_with_a_taken_login_through_content_objects_is_403(api: Api) -> None:
    response = post_content(api, user_content("admin"))
    assert response.status_code == 201, response.text  # the draft holds no account yet
    content_id = response.json()["Content"]["_id"]
    published = api.request("PUBLISH", f"/content/objects/{content_id}/versions/1", accept=media("Version"))
    body = error_message(published, 403)
    assert body["errorDescription"] == "A user with login 'admin' already exists"
    info = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo")).json()["Content"]
    assert info["status"] == "DRAFT"


def test_a_new_version_of_a_user_through_content_objects_updates_the_account(
    client: TestClient, api: Api
) -> None:
    user = create_user(api)
    draft = api.request("COPY", f"/content/objects/{user['_id']}/currentversion", accept=media("Version"))
    number = draft.json()["Version"]["VersionInfo"]["versionNo"]
    value = {"login": "ignored-new-login", "email": "changed@example.com", "password": "Changed12345"}
    update = api.patch(
        f"/content/objects/{user['_id']}/versions/{number}",
        body={"VersionUpdate": {"fields": {"field": [field("user_account", value)]}}},
        content_type=media("VersionUpdate"),
        accept=media("Version"),
    )
    assert update.status_code == 200, update.text
    publish(api, user["_id"], number)
    loaded = api.get(user["_href"], accept=media("User")).json()["User"]
    assert (loaded["login"], loaded["email"]) == (user["login"], "changed@example.com")  # logins never change
    assert current(client, Authorization=basic(user["login"], "Changed12345")).status_code == 307
    error_message(current(client, Authorization=basic(user["login"])), 401)


def test_disabled_user_is_refused_on_session_jwt_and_basic(client: TestClient, api: Api) -> None:
    user = create_user(api, EDITORS)
    session = session_of(login(client, user["login"], PASSWORD))
    token = token_for(client, user["login"]).json()["JWT"]["token"]
    assert current(client, Authorization=basic(user["login"])).status_code == 307  # remembered from now on
    assert current(client, **cookie_of(session)).status_code == 307
    set_enabled(api, user["_id"], False)
    error_message(login(client, user["login"], PASSWORD), 401)
    error_message(token_for(client, user["login"]), 401)
    error_message(current(client, Authorization=basic(user["login"])), 401)
    error_message(current(client, Authorization=bearer(token)), 401)
    error_message(current(client, **cookie_of(session)), 401)  # the session is dead: the caller is anonymous
    check = Api(client, auth=None).get(
        "/user/sessions/current", accept=media("Session"), headers=cookie_of(session)
    )
    assert check.status_code == 404
    assert check.headers["set-cookie"].startswith(f"{session['name']}=deleted;")
    set_enabled(api, user["_id"], True)
    assert current(client, Authorization=basic(user["login"])).status_code == 307
    assert session_of(login(client, user["login"], PASSWORD))["User"]["_href"] == user["_href"]


def test_user_created_disabled_cannot_log_in(client: TestClient, api: Api) -> None:
    user = create_user(api, enabled=False)
    assert user["enabled"] is False
    error_message(login(client, user["login"], PASSWORD), 401)
    error_message(current(client, Authorization=basic(user["login"])), 401)


def test_deleting_a_user_through_content_objects_removes_the_account(client: TestClient, api: Api) -> None:
    user = create_user(api)
    assert current(client, Authorization=basic(user["login"])).status_code == 307
    assert api.delete(f"/content/objects/{user['_id']}").status_code == 204
    error_message(current(client, Authorization=basic(user["login"])), 401)
    assert api.request("HEAD", f"/user/users?login={user['login']}").status_code == 404
