"""Lists hide what the caller may not read, inside their SQL query: the number of statements does not grow
with the number of hidden rows. And role changes reach every process (the role revision counter)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import Settings
from tests.functional.content_support import create_folder, publish, published_folder
from tests.functional.role_support import assign, main_path, make_group, make_role, make_user
from tests.functional.tree_support import add_location, path_of
from tests.helpers import PREFIX, Api, StatementCounter, media


@dataclass
class Setup:
    admin: Api
    reader: Api
    a: str
    b: str
    role_id: int
    group: str


@pytest.fixture
def setup(api: Api) -> Setup:
    """A reader whose only content/read policy is limited to the subtree of folder A."""
    a = main_path(api, published_folder(api, "A")["_id"])
    b = main_path(api, published_folder(api, "B")["_id"])
    role_id = make_role(
        api,
        "SubtreeReader",
        ("content", "read", {"Subtree": [f"/{a}/"]}),
        ("content", "versionread", {}),
        ("user", "login", {}),
    )
    group = make_group(api, "Readers")
    assign(api, f"/user/groups/{group}", role_id)
    _, reader = make_user(api, "reader", group)
    # Verify the reader's password now, so that statement counts below see only the requests' own work.
    assert reader.get("/", accept=media("Root")).status_code == 200
    return Setup(api, reader, a, b, role_id, group)


def location_hrefs(client: Api, content_id: int) -> list[str]:
    response = client.get(f"/content/objects/{content_id}/locations", accept=media("LocationList"))
    assert response.status_code == 200, response.text
    return [ref["_href"] for ref in response.json()["LocationList"]["Location"]]


def test_locations_of_an_item_hide_those_outside_the_readers_subtree(setup: Setup) -> None:
    counts = []
    for hidden in (1, 4):
        item = published_folder(setup.admin, f"Shown once, hidden {hidden}", setup.a)["_id"]
        parents = [
            main_path(setup.admin, published_folder(setup.admin, "B child", setup.b)["_id"])
            for _ in range(hidden)
        ]
        for parent in parents:
            add_location(setup.admin, item, parent)
        assert len(location_hrefs(setup.admin, item)) == hidden + 1
        with StatementCounter() as counter:
            shown = location_hrefs(setup.reader, item)
        assert len(shown) == 1 and shown[0].startswith(f"{PREFIX}/content/locations/{setup.a}/")
        counts.append(counter.count)
    assert counts[0] == counts[1]  # filtered in the query, not row by row


def relate(api: Api, content_id: int, destination: int) -> None:
    response = api.post(
        f"/content/objects/{content_id}/versions/1/relations",
        body={"RelationCreate": {"Destination": {"_href": f"{PREFIX}/content/objects/{destination}"}}},
        content_type=media("RelationCreate"),
        accept=media("Relation"),
    )
    assert response.status_code == 201, response.text


def relation_targets(client: Api, content_id: int, query: str = "") -> list[str]:
    response = client.get(
        f"/content/objects/{content_id}/versions/1/relations{query}", accept=media("RelationList")
    )
    assert response.status_code == 200, response.text
    return [r["DestinationContent"]["_href"] for r in response.json()["Relations"]["Relation"]]


def test_relations_hide_destinations_the_reader_may_not_read(setup: Setup) -> None:
    counts = []
    for hidden in (1, 4):
        source = create_folder(setup.admin, f"Source {hidden}", setup.a)["_id"]
        readable = published_folder(setup.admin, "Readable", setup.a)["_id"]
        relate(setup.admin, source, readable)
        for _ in range(hidden):
            relate(setup.admin, source, published_folder(setup.admin, "Hidden", setup.b)["_id"])
        publish(setup.admin, source)
        assert len(relation_targets(setup.admin, source)) == hidden + 1
        with StatementCounter() as counter:
            shown = relation_targets(setup.reader, source)
        assert shown == [f"{PREFIX}/content/objects/{readable}"]
        counts.append(counter.count)
        # Paging counts only what the reader may see: the first page of one is the readable item.
        assert relation_targets(setup.reader, source, "?limit=1") == shown
        # The relations embedded in the item's current version are filtered the same way.
        item = setup.reader.json("GET", f"/content/objects/{source}", "Content")["Content"]
        embedded = item["CurrentVersion"]["Version"]["Relations"]["Relation"]
        assert [r["DestinationContent"]["_href"] for r in embedded] == shown
    assert counts[0] == counts[1]


@pytest.fixture
def second_process(settings: Settings) -> Iterator[Any]:
    """Another application on the same database, as a second server process would be."""
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        yield client


def test_a_policy_change_reaches_another_process(setup: Setup, second_process: Any) -> None:
    outside = published_folder(setup.admin, "Outside", setup.b)["_id"]
    other = Api(second_process, auth=setup.reader.auth)
    assert other.get(f"/content/objects/{outside}", accept=media("ContentInfo")).status_code == 401
    # Change the role through the first process; the second has the old definition cached.
    policy_id = next(
        p["id"]
        for p in setup.admin.json("GET", f"/user/roles/{setup.role_id}/policies", "PolicyList")["PolicyList"][
            "Policy"
        ]
        if p["function"] == "read"
    )
    response = setup.admin.patch(
        f"/user/roles/{setup.role_id}/policies/{policy_id}",
        body={
            "PolicyUpdate": {
                "limitations": {
                    "limitation": [{"_identifier": "Subtree", "values": {"ref": [{"_href": f"/{setup.b}/"}]}}]
                }
            }
        },
        content_type=media("PolicyUpdate"),
        accept=media("Policy"),
    )
    assert response.status_code == 200, response.text
    assert other.get(f"/content/objects/{outside}", accept=media("ContentInfo")).status_code == 200
    # Removing the assignment takes the access away again, in every process.
    removed = setup.admin.delete(
        f"/user/groups/{setup.group}/roles/{setup.role_id}", accept=media("RoleAssignmentList")
    )
    assert removed.status_code == 200
    assert other.get(f"/content/objects/{outside}", accept=media("ContentInfo")).status_code == 401


def test_grants_derived_once_serve_later_requests_of_the_same_stamp(api: Api) -> None:
    """The read filter of a Group-limited reader needs the reader's groups (one statement); requests that
    find the same access stamp reuse it, until the reader's locations change."""
    group = make_group(api, "Stamped readers")
    role = make_role(api, "stamped_reader", ("user", "login", {}), ("content", "read", {"Group": ["1"]}))
    assign(api, f"/user/groups/{group}", role)
    user_id, reader = make_user(api, "stamped", group)
    found = api.get(f"/content/locations/{group}", accept=media("Location")).json()
    group_id = found["Location"]["ContentInfo"]["Content"]["_id"]
    owned = api.patch(
        f"/content/objects/{group_id}",
        body={"ContentUpdate": {"Owner": {"_href": f"{PREFIX}/user/users/{user_id}"}}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
    )
    assert owned.status_code == 200, owned.text  # the reader may read its group: it owns it

    def children() -> tuple[int, list[str]]:
        with StatementCounter() as counter:
            response = reader.get(f"/content/locations/{group}/children", accept=media("LocationList"))
        assert response.status_code == 200, response.text
        return counter.count, [path_of(item["_href"]) for item in response.json()["LocationList"]["Location"]]

    first, second, third = children(), children(), children()
    assert first[1] == second[1] == third[1] == [main_path(api, user_id)]  # the reader owns itself
    # The grants with the caller, the group's location, its content, its owner's groups, the page's ids,
    # their rows; the reader's own groups (behind its read filter) are not read again.
    assert second[0] == third[0] == 6, (first, second, third)
    add_location(api, user_id, make_group(api, "Stamped elsewhere"))  # a new stamp: groups read again
    assert children() == (7, first[1])
    assert children() == (6, first[1])
