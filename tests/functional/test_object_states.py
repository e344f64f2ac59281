"""Object state groups, object states and the states of content items over HTTP
(shapes-content.md §13, service-description.md "Object state groups and object states", install.md §3)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from tests.functional.content_support import published_folder
from tests.functional.support import error_message, unique
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

GROUPS = "/content/objectstategroups"
LOCK = f"{GROUPS}/2"


def texts(text: str, language: str = "eng-GB") -> dict[str, Any]:
    return {"value": [{"_languageCode": language, "#text": text}]}


def group_input(identifier: str, name: str = "Workflow", **extra: Any) -> dict[str, Any]:
    return {"identifier": identifier, "defaultLanguageCode": "eng-GB", "names": texts(name), **extra}


def create_group(api: Api, identifier: str, **extra: Any) -> httpx.Response:
    return api.post(
        GROUPS,
        body={"ObjectStateGroupCreate": group_input(identifier, **extra)},
        content_type=media("ObjectStateGroupCreate"),
        accept=media("ObjectStateGroup"),
    )


def create_state(api: Api, group_id: int, identifier: str, **extra: Any) -> httpx.Response:
    return api.post(
        f"{GROUPS}/{group_id}/objectstates",
        body={"ObjectStateCreate": group_input(identifier, identifier.title(), **extra)},
        content_type=media("ObjectStateCreate"),
        accept=media("ObjectState"),
    )


def new_group(api: Api, *states: str) -> tuple[int, list[int]]:
    response = create_group(api, unique("group"))
    assert response.status_code == 201, response.text
    group_id: int = response.json()["ObjectStateGroup"]["id"]
    state_ids = []
    for identifier in states:
        created = create_state(api, group_id, identifier)
        assert created.status_code == 201, created.text
        state_ids.append(created.json()["ObjectState"]["id"])
    return group_id, state_ids


def state_href(group_id: int, state_id: int, prefix: str = PREFIX) -> str:
    return f"{prefix}{GROUPS}/{group_id}/objectstates/{state_id}"


def content_states(api: Api, content_id: int) -> list[str]:
    response = api.get(f"/content/objects/{content_id}/objectstates", accept=media("ContentObjectStates"))
    assert response.status_code == 200, response.text
    return [ref["_href"] for ref in response.json()["ContentObjectStates"]["ObjectState"]]


def assign(api: Api, content_id: int, *hrefs: str, fmt: str = "json") -> httpx.Response:
    if fmt == "json":
        body: Any = {"ContentObjectStates": {"ObjectState": [{"_href": href} for href in hrefs]}}
    else:
        refs = "".join(f'<ObjectState href="{href}"/>' for href in hrefs)
        body = f"<ContentObjectStates>{refs}</ContentObjectStates>"
    return api.patch(
        f"/content/objects/{content_id}/objectstates",
        body=body,
        content_type=media("ContentObjectStates", fmt),
        accept=media("ContentObjectStates", fmt),
    )


# -- the clean install -------------------------------------------------------------------------------


def test_clean_install_lock_group_in_json(api: Api) -> None:
    response = api.get(LOCK, accept=media("ObjectStateGroup"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("ObjectStateGroup")
    assert response.headers["accept-patch"] == media("ObjectStateGroupUpdate")
    assert response.json() == {
        "ObjectStateGroup": {
            "_media-type": media("ObjectStateGroup"),
            "_href": f"{PREFIX}{LOCK}",
            "id": 2,
            "identifier": "ez_lock",
            "defaultLanguageCode": "eng-GB",
            "languageCodes": "eng-GB",
            "ObjectStates": {
                "_media-type": media("ObjectStateList"),
                "_href": f"{PREFIX}{LOCK}/objectstates",
            },
            "names": texts("Lock"),
            "descriptions": texts(""),
        }
    }


def test_clean_install_states_in_xml_under_the_ez_prefix(client: TestClient) -> None:
    api = Api(client, EZ_PREFIX)
    response = api.get(f"{LOCK}/objectstates", accept=media("ObjectStateList", "xml", "ez"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("ObjectStateList", "xml", "ez")
    root = xml(response)
    assert root.tag == "ObjectStateList"
    assert root.get("href") == f"{EZ_PREFIX}{LOCK}/objectstates"
    states = root.findall("ObjectState")
    assert [(s.findtext("id"), s.findtext("identifier"), s.findtext("priority")) for s in states] == [
        ("1", "not_locked", "0"),
        ("2", "locked", "1"),
    ]
    assert states[0].get("href") == state_href(2, 1, EZ_PREFIX)
    assert states[0].find("ObjectStateGroup").get("href") == f"{EZ_PREFIX}{LOCK}"
    assert states[1].find("names/value").get("languageCode") == "eng-GB"
    assert states[1].findtext("names/value") == "Locked"


def test_group_list_embeds_full_groups(api: Api) -> None:
    group_id, _ = new_group(api)
    body = api.json("GET", GROUPS, "ObjectStateGroupList")["ObjectStateGroupList"]
    assert body["_href"] == f"{PREFIX}{GROUPS}"
    ids = [group["id"] for group in body["ObjectStateGroup"]]
    assert ids[0] == 2 and group_id in ids
    assert body["ObjectStateGroup"][0]["identifier"] == "ez_lock"


def test_every_item_starts_not_locked(api: Api) -> None:
    assert content_states(api, 1) == [state_href(2, 1)]


# -- groups ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_create_group_answers_201_with_location(api: Api, fmt: str) -> None:
    identifier = unique("group")
    if fmt == "json":
        body: Any = {"ObjectStateGroupCreate": group_input(identifier, "Review", descriptions=texts("Steps"))}
    else:
        body = (
            f"<ObjectStateGroupCreate><identifier>{identifier}</identifier>"
            "<defaultLanguageCode>eng-GB</defaultLanguageCode>"
            '<names><value languageCode="eng-GB">Review</value></names>'
            '<descriptions><value languageCode="eng-GB">Steps</value></descriptions>'
            "</ObjectStateGroupCreate>"
        )
    response = api.post(
        GROUPS, body=body, content_type=media("ObjectStateGroupCreate", fmt), accept=media("ObjectStateGroup")
    )
    assert response.status_code == 201, response.text
    group = response.json()["ObjectStateGroup"]
    assert response.headers["location"] == group["_href"] == f"{PREFIX}{GROUPS}/{group['id']}"
    assert group["id"] >= 3  # install.md §12: the next group id is 3
    loaded = api.json("GET", f"{GROUPS}/{group['id']}", "ObjectStateGroup")["ObjectStateGroup"]
    assert loaded == group
    assert loaded["names"] == texts("Review") and loaded["descriptions"] == texts("Steps")


def test_duplicate_group_identifier_is_403(api: Api) -> None:
    error = error_message(create_group(api, "ez_lock"), 403)
    assert "ez_lock" in error["errorDescription"]


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"defaultLanguageCode": "eng-GB", "names": texts("X")}, "identifier"),
        ({"identifier": "x1", "defaultLanguageCode": "eng-GB"}, "names"),
        ({"identifier": "x2", "defaultLanguageCode": "xxx-YY", "names": texts("X", "xxx-YY")}, "xxx-YY"),
        (
            {"identifier": "x3", "defaultLanguageCode": "eng-GB", "names": {"value": [{"#text": "X"}]}},
            "names",
        ),
    ],
)
def test_bad_group_input_is_400_naming_the_problem(api: Api, body: dict[str, Any], named: str) -> None:
    response = api.post(
        GROUPS,
        body={"ObjectStateGroupCreate": body},
        content_type=media("ObjectStateGroupCreate"),
        accept=media("ObjectStateGroup"),
    )
    assert named in error_message(response, 400)["errorDescription"]
    identifiers = [
        g["identifier"]
        for g in api.json("GET", GROUPS, "ObjectStateGroupList")["ObjectStateGroupList"]["ObjectStateGroup"]
    ]
    assert body.get("identifier") not in identifiers


def test_update_group_with_if_match(api: Api) -> None:
    group_id, _ = new_group(api)
    href = f"{GROUPS}/{group_id}"
    etag = api.get(href, accept=media("ObjectStateGroup")).headers["etag"]
    identifier = unique("renamed")
    update = {"ObjectStateGroupUpdate": {"identifier": identifier, "names": texts("Renamed")}}
    response = api.patch(
        href,
        body=update,
        content_type=media("ObjectStateGroupUpdate"),
        accept=media("ObjectStateGroup"),
        headers={"If-Match": etag},
    )
    assert response.status_code == 200, response.text
    assert response.json()["ObjectStateGroup"]["identifier"] == identifier
    assert response.json()["ObjectStateGroup"]["names"] == texts("Renamed")
    stale = api.patch(
        href,
        body={"ObjectStateGroupUpdate": {"identifier": unique("late")}},
        content_type=media("ObjectStateGroupUpdate"),
        accept=media("ObjectStateGroup"),
        headers={"If-Match": etag},
    )
    error_message(stale, 412)
    assert api.json("GET", href, "ObjectStateGroup")["ObjectStateGroup"]["identifier"] == identifier
    taken = api.patch(
        href,
        body={"ObjectStateGroupUpdate": {"identifier": "ez_lock"}},
        content_type=media("ObjectStateGroupUpdate"),
        accept=media("ObjectStateGroup"),
    )
    error_message(taken, 403)


def test_delete_group_deletes_its_states(api: Api) -> None:
    group_id, (state_id,) = new_group(api, "draft")
    assert api.delete(f"{GROUPS}/{group_id}").status_code == 204
    error_message(api.get(f"{GROUPS}/{group_id}", accept=media("ObjectStateGroup")), 404)
    error_message(api.get(f"{GROUPS}/{group_id}/objectstates/{state_id}", accept=media("ObjectState")), 404)
    error_message(api.delete(f"{GROUPS}/{group_id}", accept=media("ObjectStateGroup")), 404)


# -- states ----------------------------------------------------------------------------------------------


def test_create_state_answers_201_and_priorities_follow_creation(api: Api) -> None:
    group_id, _ = new_group(api)
    first = create_state(api, group_id, "draft")
    assert first.status_code == 201, first.text
    state = first.json()["ObjectState"]
    assert first.headers["location"] == state["_href"] == state_href(group_id, state["id"])
    assert first.headers["content-type"] == media("ObjectState")
    assert state["ObjectStateGroup"]["_href"] == f"{PREFIX}{GROUPS}/{group_id}"
    second = create_state(api, group_id, "review").json()["ObjectState"]
    explicit = create_state(api, group_id, "done", priority=10).json()["ObjectState"]
    assert (state["priority"], second["priority"], explicit["priority"]) == (0, 1, 10)
    listed = api.json("GET", f"{GROUPS}/{group_id}/objectstates", "ObjectStateList")["ObjectStateList"]
    assert [s["identifier"] for s in listed["ObjectState"]] == ["draft", "review", "done"]


def test_duplicate_state_in_group_is_403_but_allowed_in_another_group(api: Api) -> None:
    group_id, _ = new_group(api, "draft")
    error_message(create_state(api, group_id, "draft"), 403)
    other, _ = new_group(api)
    assert create_state(api, other, "draft").status_code == 201


def test_state_of_another_group_is_404(api: Api) -> None:
    group_id, _ = new_group(api)
    error_message(api.get(f"{GROUPS}/{group_id}/objectstates/1", accept=media("ObjectState")), 404)
    error_message(create_state(api, 999_999, "x"), 404)


def test_update_and_delete_state(api: Api) -> None:
    group_id, (state_id,) = new_group(api, "draft")
    href = f"{GROUPS}/{group_id}/objectstates/{state_id}"
    response = api.patch(
        href,
        body={"ObjectStateUpdate": {"priority": 5, "names": texts("Drafted")}},
        content_type=media("ObjectStateUpdate"),
        accept=media("ObjectState"),
    )
    assert response.status_code == 200, response.text
    assert response.headers["accept-patch"] == media("ObjectStateUpdate")
    assert (response.json()["ObjectState"]["priority"], response.json()["ObjectState"]["names"]) == (
        5,
        texts("Drafted"),
    )
    assert api.delete(href).status_code == 204
    error_message(api.get(href, accept=media("ObjectState")), 404)


# -- states of content -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_assign_states_to_content(api: Api, fmt: str) -> None:
    content_id = published_folder(api)["_id"]
    group_id, (_draft, review) = new_group(api, "draft", "review")
    # A new group's default state (lowest priority) is the state of every item until one is assigned.
    assert content_states(api, content_id) == [state_href(2, 1), state_href(group_id, _draft)]
    response = assign(api, content_id, state_href(2, 2), fmt=fmt)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media("ContentObjectStates", fmt)
    if fmt == "json":
        # The answer lists the states sent, not every group's.
        assert response.json() == {
            "ContentObjectStates": {
                "_media-type": media("ContentObjectStates"),
                "ObjectState": [{"_media-type": media("ObjectState"), "_href": state_href(2, 2)}],
            }
        }
    else:
        assert [e.get("href") for e in xml(response).findall("ObjectState")] == [state_href(2, 2)]
    assign(api, content_id, state_href(group_id, review))
    assert content_states(api, content_id) == [state_href(2, 2), state_href(group_id, review)]
    assert content_states(api, 1) == [state_href(2, 1), state_href(group_id, _draft)]


def test_two_states_of_one_group_is_403_and_changes_nothing(api: Api) -> None:
    content_id = published_folder(api)["_id"]
    error_message(assign(api, content_id, state_href(2, 1), state_href(2, 2)), 403)
    assert content_states(api, content_id) == [state_href(2, 1)]


def test_bad_state_references(api: Api) -> None:
    content_id = published_folder(api)["_id"]
    group_id, _ = new_group(api, "draft")
    assert "ObjectState" in error_message(assign(api, content_id, "/not/a/state"), 400)["errorDescription"]
    error_message(assign(api, content_id, state_href(group_id, 1)), 400)  # state 1 is in group 2
    error_message(assign(api, content_id, state_href(2, 999_999)), 404)
    error_message(assign(api, 999_999, state_href(2, 2)), 404)
    assert content_states(api, content_id) == [state_href(2, 1), state_href(group_id, _[0])]


def test_deleting_a_state_returns_its_items_to_the_default(api: Api) -> None:
    content_id = published_folder(api)["_id"]
    group_id, (draft, review) = new_group(api, "draft", "review")
    assign(api, content_id, state_href(group_id, review))
    assert api.delete(f"{GROUPS}/{group_id}/objectstates/{review}").status_code == 204
    assert state_href(group_id, draft) in content_states(api, content_id)


def test_adding_a_lower_priority_state_does_not_move_items(api: Api) -> None:
    """The default state is the lowest priority one; items in it keep their state when that changes."""
    content_id = published_folder(api)["_id"]
    group_id, (draft,) = new_group(api, "draft")
    created = create_state(api, group_id, "first", priority=-1)
    assert created.status_code == 201
    assert state_href(group_id, draft) in content_states(api, content_id)


# -- permissions -----------------------------------------------------------------------------------------


def test_anonymous_reads_groups_but_cannot_change_them(client: TestClient) -> None:
    anonymous = Api(client, auth=None)
    assert anonymous.get(LOCK, accept=media("ObjectStateGroup")).status_code == 200
    error_message(create_group(anonymous, unique("group")), 401)
    error_message(anonymous.delete(LOCK, accept=media("ObjectStateGroup")), 401)
    error_message(assign(anonymous, 1, state_href(2, 2)), 401)
    assert content_states(Api(client), 1) == [state_href(2, 1)]
