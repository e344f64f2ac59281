"""Publishing is one action (services/publishing.py): every way a version gets published (the PUBLISH of a
version, a user or group created or edited, an item or a subtree copied) runs the named after-publish steps
once each, in order, inside the write's transaction; a refused publish runs none. On SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.domain.errors import Forbidden
from pressroom.services import publishing
from pressroom.services.publishing import AFTER_PUBLISH, Publication, Step
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.schema import events
from tests.conftest import make_settings
from tests.functional.content_support import (
    content_info,
    create_folder,
    field,
    main_location_path,
    new_draft,
    published_folder,
    update_version,
    version,
)
from tests.functional.support import error_message
from tests.functional.test_user_groups import patch_group
from tests.functional.tree_support import relocate
from tests.functional.users_support import create_group, create_user, group_path
from tests.helpers import PREFIX, Api, media

STEPS = ("account", "index", "relations", "placement", "item", "aliases", "event")


@pytest.fixture
def api(database_url: str, tmp_path: Path) -> Iterator[Api]:
    with TestClient(create_app(make_settings(database_url, tmp_path))) as client:
        yield Api(client)


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """(content id, step name) of every after-publish step run, in order."""
    runs: list[tuple[int, str]] = []

    def recorded(step: Step) -> Step:
        def run(p: Publication) -> None:
            runs.append((p.info.id, step.name))
            step.run(p)

        return Step(step.name, run)

    monkeypatch.setattr(publishing, "AFTER_PUBLISH", tuple(recorded(step) for step in AFTER_PUBLISH))
    return runs


def publishes(*content_ids: int) -> list[tuple[int, str]]:
    """What one publish of each item, one after the other, runs."""
    return [(content_id, name) for content_id in content_ids for name in STEPS]


def publish_version(api: Api, content_id: int, version_no: int) -> int:
    return api.request("PUBLISH", f"/content/objects/{content_id}/versions/{version_no}").status_code


def test_the_steps_are_named_and_in_order() -> None:
    assert tuple(step.name for step in AFTER_PUBLISH) == STEPS


def test_publishing_a_version_runs_each_step_once_in_order(api: Api, ran: list[tuple[int, str]]) -> None:
    created = create_folder(api, "Stepped")
    assert ran == []  # a draft is not a publish
    assert publish_version(api, created["_id"], 1) == 204
    assert ran == publishes(created["_id"])
    ran.clear()
    draft = new_draft(api, created["_id"])
    update_version(api, created["_id"], draft, [field("name", "Stepped again")])
    assert publish_version(api, created["_id"], draft) == 204
    assert ran == publishes(created["_id"])
    assert content_info(api, created["_id"])["Name"] == "Stepped again"


def test_a_refused_publish_runs_no_step(api: Api, ran: list[tuple[int, str]]) -> None:
    folder = published_folder(api, "Once")
    ran.clear()
    assert publish_version(api, folder["_id"], 1) == 403  # not a draft any more
    assert ran == []


def test_an_item_copy_publishes_through_the_action(api: Api, ran: list[tuple[int, str]]) -> None:
    top = published_folder(api, "Copied top")
    child = published_folder(api, "Copied child", parent=main_location_path(top))
    ran.clear()
    response = api.request(
        "COPY", f"/content/objects/{child['_id']}", headers={"Destination": f"{PREFIX}/content/locations/1/2"}
    )
    assert response.status_code == 201, response.text
    copy_id = int(response.headers["location"].rsplit("/", 1)[1])
    assert ran == publishes(copy_id)
    ran.clear()
    # A subtree is copied in bulk (services/content_copy.copy_subtree): no publish per item; that the copies
    # are what publishing each would make is tests/functional/test_subtree_copy.py's.
    response = relocate(api, "COPY", main_location_path(top), "locations/1/2")
    assert response.status_code == 201, response.text
    assert ran == []


def test_users_and_groups_publish_through_the_action(api: Api, ran: list[tuple[int, str]]) -> None:
    user = create_user(api)
    assert ran == publishes(user["_id"])
    ran.clear()
    updated = api.patch(
        f"/user/users/{user['_id']}",
        body={"UserUpdate": {"email": "stepped@example.com"}},
        content_type=media("UserUpdate"),
        accept=media("User"),
    )
    assert updated.status_code == 200, updated.text
    assert ran == publishes(user["_id"])
    ran.clear()
    group = create_group(api, name="Stepped group")
    assert ran == publishes(group["_id"])
    ran.clear()
    patched = patch_group(api, group_path(group), {"fields": {"field": [field("name", "Renamed group")]}})
    assert patched.status_code == 200, patched.text
    assert ran == publishes(group["_id"])


def test_a_step_that_refuses_rolls_the_whole_publish_back(
    api: Api, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new need hooks in as one more step; the steps run in the write's transaction, so one that
    fails leaves nothing of the publish behind (no published version, no location, no event)."""

    def refuse(p: Publication) -> None:
        raise Forbidden(f"Content {p.info.id} may not be published now")

    monkeypatch.setattr(publishing, "AFTER_PUBLISH", (*AFTER_PUBLISH, Step("refuse", refuse)))
    created = create_folder(api, "Refused")
    path = f"/content/objects/{created['_id']}/versions/1"
    error_message(api.request("PUBLISH", path, accept=media("ErrorMessage")), 403)
    assert version(api, created["_id"], 1)["VersionInfo"]["status"] == "DRAFT"
    info = content_info(api, created["_id"])
    assert info["status"] == "DRAFT" and info.get("MainLocation") is None
    assert events_about(database_url, created["_id"]) == ["pressroom.content.created"]
    monkeypatch.setattr(publishing, "AFTER_PUBLISH", AFTER_PUBLISH)  # the same publish, without the refusal
    assert api.request("PUBLISH", path).status_code == 204
    assert content_info(api, created["_id"])["MainLocation"] is not None
    assert events_about(database_url, created["_id"]) == [
        "pressroom.content.created",
        "pressroom.content.published",
    ]


def events_about(database_url: str, content_id: int) -> list[str]:
    """The types of the events in the log about the item, oldest first, read from the table itself."""
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            query = select(events.c.type).where(events.c.content_id == content_id).order_by(events.c.id)
            return list(connection.execute(query).scalars())
    finally:
        engine.dispose()
