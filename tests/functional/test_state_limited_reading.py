"""A content/read policy limited by object State (issue 24 item 1): what the reader may GET, it also finds
by search (POST /views) and among the children of its parent, and nothing else. The clean install's lock
group has not_locked (1, the default: an item with no state of the group is in it) and locked (2)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from pressroom.config import Settings
from tests.conftest import make_settings
from tests.functional.content_support import content_info, main_location_path, published_folder
from tests.functional.role_support import assign, make_group, make_role, make_user
from tests.functional.tree_support import child_paths
from tests.helpers import PREFIX, Api, media

NOT_LOCKED, LOCKED = 1, 2


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return make_settings(database_url, tmp_path)


def lock(api: Api, content_id: int) -> None:
    response = api.patch(
        f"/content/objects/{content_id}/objectstates",
        body={
            "ContentObjectStates": {
                "ObjectState": [{"_href": f"{PREFIX}/content/objectstategroups/2/objectstates/{LOCKED}"}]
            }
        },
        content_type=media("ContentObjectStates"),
        accept=media("ContentObjectStates"),
    )
    assert response.status_code == 200, response.text


def state_reader(api: Api, state: int) -> Api:
    role = make_role(
        api, f"Reader{state}", ("content", "read", {"State": [str(state)]}), ("user", "login", {})
    )
    group = make_group(api, f"State {state} readers")
    assign(api, f"/user/groups/{group}", role)
    return make_user(api, f"statereader{state}", group)[1]


def searched(api: Api, parent_id: int) -> list[int]:
    body = {
        "ViewInput": {
            "identifier": "state",
            "ContentQuery": {
                "Filter": {"ParentLocationIdCriterion": parent_id},
                "SortClauses": {"ContentId": "ascending"},
            },
        }
    }
    response = api.post(
        "/views",
        body=orjson.dumps(body).decode(),
        content_type=media("ViewInput") + "; version=1.1",
        accept=media("View"),
    )
    assert response.status_code == 200, response.text
    hits = response.json()["View"]["Result"]["searchHits"]["searchHit"]
    return [hit["value"]["Content"]["_id"] for hit in hits]


@pytest.mark.parametrize("state", [LOCKED, NOT_LOCKED])
def test_a_state_limited_reader_finds_what_it_may_get(api: Api, state: int) -> None:
    parent = published_folder(api, "Parent")
    locked = published_folder(api, "Locked", main_location_path(parent))["_id"]
    unlocked = published_folder(api, "Unlocked", main_location_path(parent))["_id"]  # no state row: default
    lock(api, locked)
    if state == LOCKED:
        lock(api, parent["_id"])
    reader = state_reader(api, state)
    readable, unreadable = (locked, unlocked) if state == LOCKED else (unlocked, locked)
    status = {
        i: reader.get(f"/content/objects/{i}", accept=media("ContentInfo")).status_code
        for i in (readable, unreadable)
    }
    assert status == {readable: 200, unreadable: 401}
    parent_location = int(main_location_path(parent).rsplit("/", 1)[1])
    assert searched(reader, parent_location) == [readable]
    assert child_paths(reader, main_location_path(parent)) == [
        main_location_path(content_info(api, readable))
    ]
