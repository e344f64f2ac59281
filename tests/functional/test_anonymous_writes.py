"""Every unsafe route of the route table, called by the anonymous user: refused, and nothing written.

The anonymous user of the clean install may read the standard section and nothing more. Each route is
called with its path pointing at objects that exist; routes without a body (DELETE, PUBLISH, COPY, MOVE,
SWAP, hide/reveal...) get what they need besides (a Destination header) and must answer 401, so the refusal
is the permission check and not a complaint about the request. Routes that take a body are sent none and may
refuse it as malformed first (400), never with a success. After all of them the database is what it was,
row for row. Routes meant for anonymous callers (log in, issue a token, run a search view) are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, select
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.rest.routes import ROUTES
from pressroom.rest.routing import Route
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.schema import metadata
from tests.conftest import make_settings
from tests.helpers import PREFIX, Api, media

SAFE = {"GET", "HEAD", "OPTIONS"}
FOR_ANONYMOUS = {
    "session.create",
    "token.create",
    "view.create",
    "view.create_deprecated",
    "content_type.view",
}
# Routes of one's own session: without a session the answer is 404 (spec/auth.md), never a success.
OWN_SESSION = {"session.delete", "session.refresh"}
NOT_CONTENT = {"sessions", "login_failures"}  # what a refused anonymous request may still touch
# The reference answers a refused assignment of a user to a group with 403 (spec/permissions.md §3).
REFUSED_WITH_403 = {"user.assign_group"}


def destination(route: Route) -> dict[str, str]:
    """Where COPY, MOVE and SWAP go: a location, or a user group for a group's move."""
    place = "/user/groups/1/5/13" if route.template.startswith("/user") else "/content/locations/1/43"
    return {"Destination": PREFIX + place}


# Path parameters naming objects of the clean install (content 41, the Media folder, has version 1).
PARAMS = {
    "contentId": "41",
    "versionNo": "1",
    "languageCode": "eng-GB",
    "typeId": "1",
    "groupId": "1",
    "sectionId": "1",
    "stateId": "1",
    "roleId": "1",
    "policyId": "1",
    "userId": "14",
    "locationId": "2",
}


def unsafe_routes() -> list[tuple[str, Route]]:
    return [
        (method, route)
        for route in ROUTES
        for method in route.methods
        if method not in SAFE and route.name not in FOR_ANONYMOUS
    ]


def path_of(route: Route) -> str:
    def fill(match: re.Match[str]) -> str:
        name, kind = match.group(1), match.group(2)
        if kind == "path":
            return "1/5/12" if route.template.startswith("/user/groups") else "1/43/51"
        return PARAMS.get(name, "1")

    return re.sub(r"\{([A-Za-z_]+):?([a-z]*)\}", fill, route.template)


def query_of(route: Route) -> str:
    """The query a route cannot do without: the group to add a type or a user to."""
    if not route.reads("group"):
        return ""
    group = "/user/groups/1/5/12" if route.template.startswith("/user") else "/content/typegroups/1"
    return f"?group={PREFIX}{group}"


def everything(engine: Engine) -> dict[str, list[tuple[object, ...]]]:
    with engine.connect() as connection:
        return {
            table.name: sorted(map(tuple, connection.execute(select(table))), key=repr)
            for table in metadata.sorted_tables
            if table.name not in NOT_CONTENT
        }


@pytest.fixture
def setting(database_url: str, tmp_path: Path) -> Iterator[tuple[TestClient, Engine]]:
    engine = make_engine(database_url)
    with TestClient(create_app(make_settings(database_url, tmp_path))) as client:
        yield client, engine
    engine.dispose()


def test_every_unsafe_route_refuses_the_anonymous_user_and_writes_nothing(
    setting: tuple[TestClient, Engine],
) -> None:
    client, engine = setting
    anonymous = Api(client, auth=None)
    before = everything(engine)
    answers: dict[str, int] = {}
    for method, route in unsafe_routes():
        response = anonymous.request(
            method, path_of(route) + query_of(route), headers=destination(route), accept=media("ErrorMessage")
        )
        answers[f"{method} {route.template}"] = response.status_code
        if route.name in OWN_SESSION:
            assert response.status_code == 404, (method, route.template, response.text)
        elif route.name in REFUSED_WITH_403:
            assert response.status_code == 403, (method, route.template, response.text)
        elif route.accepts:
            assert response.status_code in (400, 401, 415), (method, route.template, response.text)
        else:
            assert response.status_code == 401, (method, route.template, response.text)
    assert len(answers) > 80  # the table has that many unsafe routes: none was skipped by mistake
    assert everything(engine) == before
