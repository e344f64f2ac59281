"""Relations to items the caller may not read stay hidden on every route (issue 24 item 2, issue 23 item
12): users and user groups embed their current version's relations filtered as a content GET filters them,
a relation loaded by id whose destination the caller may not read is not found (the reference looks it up
among the relations it lets the caller see), and relating a draft to such an item is refused (the
reference loads the destination with the read check)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pressroom.config import Settings
from tests.conftest import make_settings
from tests.functional.content_support import new_draft, publish, published_folder
from tests.functional.role_support import assign, main_path, make_group, make_role, make_user
from tests.helpers import PREFIX, Api, media


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return make_settings(database_url, tmp_path)


@dataclass
class Setup:
    admin: Api
    reader: Api
    reader_id: int
    group: str  # the reader's group, which it may read
    shown: int  # an item the reader may read (in folder A)
    hidden: int  # an item it may not (in folder B)
    a: str


@pytest.fixture
def setup(api: Api) -> Setup:
    """A reader who may read the users tree and folder A, and edit in folder A."""
    a = main_path(api, published_folder(api, "A")["_id"])
    b = main_path(api, published_folder(api, "B")["_id"])
    role = make_role(
        api,
        "RelationReader",
        ("content", "read", {"Subtree": ["/1/5/", f"/{a}/"]}),
        ("content", "versionread", {}),
        ("content", "edit", {"Subtree": [f"/{a}/"]}),
        ("user", "login", {}),
    )
    group = make_group(api, "Relation readers")
    assign(api, f"/user/groups/{group}", role)
    reader_id, reader = make_user(api, "relationreader", group)
    shown = published_folder(api, "Shown", a)["_id"]
    hidden = published_folder(api, "Hidden", b)["_id"]
    return Setup(api, reader, reader_id, group, shown, hidden, a)


def relate(api: Api, content_id: int, version_no: int, destination: int) -> Any:
    return api.post(
        f"/content/objects/{content_id}/versions/{version_no}/relations",
        body={"RelationCreate": {"Destination": {"_href": f"{PREFIX}/content/objects/{destination}"}}},
        content_type=media("RelationCreate"),
        accept=media("Relation"),
    )


def relate_both(setup: Setup, content_id: int) -> list[int]:
    """Publish a version of ``content_id`` relating to the shown and the hidden item; their relation ids."""
    version_no = new_draft(setup.admin, content_id)
    ids = []
    for destination in (setup.shown, setup.hidden):
        response = relate(setup.admin, content_id, version_no, destination)
        assert response.status_code == 201, response.text
        ids.append(response.json()["Relation"]["_href"].rsplit("/", 1)[1])
    publish(setup.admin, content_id, version_no)
    return [int(i) for i in ids]


def destinations(body: dict[str, Any]) -> list[str]:
    return [r["DestinationContent"]["_href"] for r in body["Version"]["Relations"]["Relation"]]


def test_users_and_groups_show_only_relations_the_viewer_may_read(setup: Setup) -> None:
    group_id = int(
        setup.admin.get(f"/user/groups/{setup.group}", accept=media("UserGroup")).json()["UserGroup"]["_id"]
    )
    relate_both(setup, setup.reader_id)
    relate_both(setup, group_id)
    both = [f"{PREFIX}/content/objects/{i}" for i in (setup.shown, setup.hidden)]
    shown = both[:1]
    user = f"/user/users/{setup.reader_id}"
    assert sorted(destinations(setup.admin.get(user, accept=media("User")).json()["User"])) == sorted(both)
    assert destinations(setup.reader.get(user, accept=media("User")).json()["User"]) == shown
    group = setup.reader.get(f"/user/groups/{setup.group}", accept=media("UserGroup")).json()["UserGroup"]
    assert destinations(group) == shown
    (listed,) = setup.reader.get(f"/user/groups/{setup.group}/users", accept=media("UserList")).json()[
        "UserList"
    ]["User"]
    assert destinations(listed) == shown
    subgroups = setup.reader.get("/user/groups/1/5/subgroups", accept=media("UserGroupList"))
    (listed_group,) = (g for g in subgroups.json()["UserGroupList"]["UserGroup"] if g["_id"] == group_id)
    assert destinations(listed_group) == shown


def test_a_relation_to_an_item_the_caller_may_not_read_is_not_found(setup: Setup) -> None:
    source = published_folder(setup.admin, "Source", setup.a)["_id"]
    shown_id, hidden_id = relate_both(setup, source)
    base = f"/content/objects/{source}/versions/2/relations"
    assert setup.reader.get(f"{base}/{shown_id}", accept=media("Relation")).status_code == 200
    response = setup.reader.get(f"{base}/{hidden_id}", accept=media("Relation"))
    assert response.status_code == 404, response.text
    assert str(setup.hidden) not in response.text
    assert setup.admin.get(f"{base}/{hidden_id}", accept=media("Relation")).status_code == 200


def test_relating_a_draft_to_an_item_the_caller_may_not_read_is_refused(setup: Setup) -> None:
    source = published_folder(setup.admin, "Source", setup.a)["_id"]
    version_no = new_draft(setup.reader, source)
    refused = relate(setup.reader, source, version_no, setup.hidden)
    assert refused.status_code == 401, refused.text
    assert relate(setup.reader, source, version_no, setup.shown).status_code == 201
    relations = setup.admin.get(
        f"/content/objects/{source}/versions/{version_no}/relations", accept=media("RelationList")
    ).json()["Relations"]["Relation"]
    assert [r["DestinationContent"]["_href"] for r in relations] == [
        f"{PREFIX}/content/objects/{setup.shown}"
    ]
