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
from tests.functional.content_support import new_draft, publish, published_folder, update_version
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


def relation_hrefs(relations: dict[str, Any]) -> list[str]:
    return [r["DestinationContent"]["_href"] for r in relations["Relation"]]


def test_every_route_that_lists_relations_shows_only_those_the_reader_may_read(setup: Setup) -> None:
    """One item in folder A relates to an item the reader may read and one it may not (folder B): no
    answer that carries relations shows the second to the reader, and the administrator sees both."""
    source = published_folder(setup.admin, "Source", setup.a)["_id"]
    relate_both(setup, source)  # version 2, published
    both = sorted(f"{PREFIX}/content/objects/{i}" for i in (setup.shown, setup.hidden))
    shown = [f"{PREFIX}/content/objects/{setup.shown}"]
    item = f"/content/objects/{source}"

    def answers(api: Api) -> dict[str, list[str]]:
        """What every reading route shows of the item's relations."""
        content = api.get(item, accept=media("Content")).json()["Content"]
        current = api.get(f"{item}/currentversion", accept=media("Version")).json()
        version = api.get(f"{item}/versions/2", accept=media("Version")).json()
        of_content = api.get(f"{item}/relations", accept=media("RelationList")).json()  # a redirect followed
        listed = api.get(f"{item}/versions/2/relations", accept=media("RelationList")).json()
        paged = api.get(f"{item}/versions/2/relations?offset=0&limit=5", accept=media("RelationList")).json()
        by_content = post_view(api, {"Filter": {"ContentIdCriterion": source}}, "ContentQuery")
        by_location = post_view(api, {"Filter": {"ContentIdCriterion": source}}, "LocationQuery")
        (content_hit,) = by_content["searchHits"]["searchHit"]
        (location_hit,) = by_location["searchHits"]["searchHit"]
        in_location = location_hit["value"]["Location"]["ContentInfo"]["Content"]
        return {
            "content": relation_hrefs(content["CurrentVersion"]["Version"]["Relations"]),
            "current version": relation_hrefs(current["Version"]["Relations"]),
            "version": relation_hrefs(version["Version"]["Relations"]),
            "content relations": relation_hrefs(of_content["Relations"]),
            "version relations": relation_hrefs(listed["Relations"]),
            "a page of them": relation_hrefs(paged["Relations"]),
            "content view": relation_hrefs(
                content_hit["value"]["Content"]["CurrentVersion"]["Version"]["Relations"]
            ),
            "location view": relation_hrefs(in_location["CurrentVersion"]["Version"]["Relations"]),
        }

    assert {route: sorted(found) for route, found in answers(setup.admin).items()} == dict.fromkeys(
        answers(setup.admin), both
    )
    assert answers(setup.reader) == dict.fromkeys(answers(setup.reader), shown)
    # The drafts a reader makes (it may edit in folder A) are answered with the relations it may read.
    copied = setup.reader.request("COPY", f"{item}/currentversion", accept=media("Version"))
    assert copied.status_code == 201, copied.text
    assert relation_hrefs(copied.json()["Version"]["Relations"]) == shown
    copied = setup.reader.request("COPY", f"{item}/versions/2", accept=media("Version"))
    assert copied.status_code == 201, copied.text
    assert relation_hrefs(copied.json()["Version"]["Relations"]) == shown
    draft_no = copied.json()["Version"]["VersionInfo"]["versionNo"]
    updated = update_version(setup.reader, source, draft_no, [])
    assert updated.status_code == 200, updated.text
    assert relation_hrefs(updated.json()["Version"]["Relations"]) == shown
    # The user and group answers, listed or single, as the reader and as the administrator.
    relate_both(setup, setup.reader_id)
    for api, expected in ((setup.admin, both), (setup.reader, shown)):
        user = api.get(f"/user/users/{setup.reader_id}", accept=media("User")).json()["User"]
        assert sorted(relation_hrefs(user["Version"]["Relations"])) == expected
        found = api.get("/user/users?login=relationreader", accept=media("UserList")).json()["UserList"]
        (listed_user,) = found["User"]
        assert sorted(relation_hrefs(listed_user["Version"]["Relations"])) == expected
        members = api.get(f"/user/groups/{setup.group}/users", accept=media("UserList")).json()["UserList"]
        (member,) = members["User"]
        assert sorted(relation_hrefs(member["Version"]["Relations"])) == expected


def post_view(api: Api, query: dict[str, Any], kind: str) -> dict[str, Any]:
    body = {"ViewInput": {"identifier": "relations", kind: query}}
    response = api.post(
        "/views", body=body, content_type=media("ViewInput") + "; version=1.1", accept=media("View")
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()["View"]["Result"]
    return result
