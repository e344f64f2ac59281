"""POST /views end to end for the criteria compiled beside the core ones (metadata, location, user and
state criteria) and the sort clauses by name and by field, on items the tests create."""

from __future__ import annotations

from typing import Any

import pytest

from tests.functional.content_support import (
    content_create,
    content_info,
    encode,
    field,
    post_content,
    publish,
)
from tests.functional.content_types_support import field as field_definition
from tests.functional.content_types_support import new_type
from tests.functional.support import unique
from tests.functional.test_views import Data, content_ids, data, found, search
from tests.functional.tree_support import location
from tests.helpers import Api, media

__all__ = ["data"]  # the fixture, shared with test_views

ADMIN_ID = 14


def _location_of(api: Api, content_id: int) -> dict[str, Any]:
    href: str = content_info(api, content_id)["MainLocation"]["_href"]
    return location(api, href.split("/content/locations/", 1)[1])


def test_remote_id_section_and_group_criteria(api: Api, data: Data) -> None:
    _, two, three = data.items
    remote = content_info(api, two)["_remoteId"]
    assert found(api, {"ContentRemoteIdCriterion": remote}) == [two]
    assert found(api, {"LocationRemoteIdCriterion": _location_of(api, three)["remoteId"]}) == [three]
    folder_remote = location(api, data.folder)["remoteId"]
    assert found(api, {"ParentLocationRemoteIdCriterion": folder_remote}) == data.items
    typed = {"ContentTypeIdCriterion": data.type_id}
    assert found(api, {**typed, "SectionIdentifierCriterion": "standard"}) == data.items
    assert found(api, {**typed, "SectionIdentifierCriterion": "media"}) == []
    assert found(api, {**typed, "ContentTypeGroupIdCriterion": 1}) == data.items
    assert found(api, {**typed, "ContentTypeGroupIdCriterion": 2}) == []


def test_name_visibility_sibling_and_container_criteria(api: Api, data: Data) -> None:
    one, two, three = data.items
    assert found(api, {"ContentNameCriterion": "beta*"}) == [two]
    hidden = api.post(f"/content/objects/{one}/hide")
    assert hidden.status_code == 204, hidden.text
    typed = {"ContentTypeIdCriterion": data.type_id}
    assert found(api, {**typed, "VisibilityCriterion": 1}) == [one]
    assert found(api, {**typed, "VisibilityCriterion": 0}) == [two, three]
    sibling_of_one = _location_of(api, one)["id"]
    assert found(api, {"SiblingCriterion": sibling_of_one}) == [two, three]
    below = {"ParentLocationIdCriterion": data.folder.rsplit("/", 1)[1]}
    assert found(api, {"SubtreeCriterion": f"/{data.folder}/", "IsContainerCriterion": True}) == [
        data.folder_id
    ]
    assert found(api, {**below, "IsContainerCriterion": "false"}) == data.items


def test_user_criteria(api: Api, data: Data) -> None:
    assert found(api, {"UserLoginCriterion": "admin"}) == [ADMIN_ID]
    assert found(api, {"UserLoginCriterion": "adm*"}) == [ADMIN_ID]
    assert found(api, {"UserEmailCriterion": "admin@link.invalid"}) == [ADMIN_ID]
    assert found(api, {"UserIdCriterion": ADMIN_ID}) == [ADMIN_ID]
    assert found(
        api, {"ContentIdCriterion": f"{ADMIN_ID},{data.items[0]}", "IsUserBasedCriterion": True}
    ) == [ADMIN_ID]
    assert found(api, {"UserIdCriterion": ADMIN_ID, "IsUserEnabledCriterion": True}) == [ADMIN_ID]
    typed = {"ContentTypeIdCriterion": data.type_id}
    owned = {"UserMetadataCriterion": {"Target": "owner", "Value": ADMIN_ID}}
    assert found(api, {**typed, **owned}) == data.items
    assert found(api, {**typed, "UserMetadataCriterion": {"Target": "modifier", "Value": "10"}}) == []


def test_date_and_state_criteria(api: Api, data: Data) -> None:
    typed = {"ContentTypeIdCriterion": data.type_id}
    after = {"Target": "created", "Operator": "GT", "Value": 1_000_000_000}
    assert found(api, {**typed, "DateMetadataCriterion": after}) == data.items
    before = {"Target": "published", "Operator": "LT", "Value": "1000000000"}
    assert found(api, {**typed, "DateMetadataCriterion": before}) == []
    assert found(api, {**typed, "ObjectStateIdCriterion": 1}) == data.items  # not_locked: the default
    locked = {"ObjectStateIdentifierCriterion": {"value": "locked", "target": "ez_lock"}}
    assert found(api, {**typed, **locked}) == []
    unlocked = {"ObjectStateIdentifierCriterion": {"value": "not_locked", "target": ""}}
    assert found(api, {**typed, **unlocked}) == data.items


def test_bookmarked_locations(api: Api, data: Data) -> None:
    two = _location_of(api, data.items[1])
    response = api.post(f"/bookmark/{two['id']}")
    assert response.status_code == 201, response.text
    query = {"Filter": {"IsBookmarkedCriterion": True, "SubtreeCriterion": f"/{data.folder}/"}}
    hits = search(api, query, "LocationQuery")["searchHits"]["searchHit"]
    assert [hit["value"]["Location"]["id"] for hit in hits] == [two["id"]]


def test_sort_by_name_and_by_field(api: Api, data: Data) -> None:
    criteria = {"ContentTypeIdCriterion": data.type_id}
    by_name = search(api, {"Filter": criteria, "SortClauses": {"ContentName": "descending"}})
    assert content_ids(by_name) == list(reversed(data.items))  # gamma, beta, alpha
    by_field = {"Field": {"identifier": f"{data.type_identifier}/rank", "direction": "descending"}}
    assert content_ids(search(api, {"Filter": criteria, "SortClauses": by_field})) == list(
        reversed(data.items)
    )
    long_form = {
        "Field": {
            "contentTypeIdentifier": data.type_identifier,
            "fieldDefinitionIdentifier": "title",
            "direction": "ascending",
        }
    }
    assert content_ids(search(api, {"Filter": criteria, "SortClauses": long_form})) == data.items
    response = api.post(
        "/views",
        body=(
            "<ViewInput><identifier>x</identifier><ContentQuery><Filter>"
            f"<ContentTypeIdCriterion>{data.type_id}</ContentTypeIdCriterion></Filter><SortClauses>"
            f'<Field identifier="{data.type_identifier}/rank">descending</Field>'
            "</SortClauses></ContentQuery></ViewInput>"
        ),
        content_type=media("ViewInput", "xml") + "; version=1.1",
        accept=media("View"),
    )
    assert response.status_code == 200, response.text
    assert content_ids(response.json()["View"]["Result"]) == list(reversed(data.items))


@pytest.fixture
def tagged(db_api: Api) -> tuple[int, list[int]]:
    """A type with a keyword field ``tags``, and three items of it: tagged ``foobaz, bazfoo`` (foo only
    inside keywords), ``foo, bar`` and ``bar``."""
    created = new_type(
        db_api,
        identifier=unique("tagged"),
        fields=[field_definition("title"), field_definition("tags", "ezkeyword")],
    )
    items = []
    for title, tags in (("substrings", ["foobaz", "bazfoo"]), ("whole", ["foo", "bar"]), ("other", ["bar"])):
        body = content_create([field("title", title), field("tags", tags)], type_id=created["id"])
        response = post_content(db_api, body)
        assert response.status_code == 201, response.text
        items.append(response.json()["Content"]["_id"])
        publish(db_api, items[-1])
    return created["id"], items


def found_in(api: Api, fmt: str, criteria: dict[str, Any]) -> list[int]:
    """The ids ``criteria`` find, the ViewInput sent in ``fmt``."""
    body = {
        "identifier": "t",
        "ContentQuery": {"Filter": criteria, "SortClauses": {"ContentId": "ascending"}},
    }
    response = api.post(
        "/views",
        body=encode("ViewInput", body, fmt),
        content_type=media("ViewInput", fmt) + "; version=1.1",
        accept=media("View"),
    )
    assert response.status_code == 200, response.text
    return content_ids(response.json()["View"]["Result"])


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_keyword_criteria_compare_whole_keywords(
    db_api: Api, tagged: tuple[int, list[int]], fmt: str
) -> None:
    type_id, (substrings, whole, other) = tagged

    def tags(operator: str, value: Any) -> list[int]:
        criteria = {
            "ContentTypeIdCriterion": type_id,
            "Field": {"name": "tags", "operator": operator, "value": value},
        }
        return found_in(db_api, fmt, criteria)

    assert tags("CONTAINS", "foo") == [whole]  # not the item whose keywords only contain "foo"
    assert tags("CONTAINS", "FOO") == [whole]
    assert tags("CONTAINS", "baz") == []
    assert tags("EQ", "foo") == [whole]
    assert tags("IN", ["foo", "bar"]) == [whole, other]
    assert tags("IN", ["fooba", "azfoo"]) == []
    # a text field still matches a part of its text
    title = {
        "ContentTypeIdCriterion": type_id,
        "Field": {"name": "title", "operator": "CONTAINS", "value": "string"},
    }
    assert found_in(db_api, fmt, title) == [substrings]


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_criteria_take_lists_as_json_arrays_and_nested_xml_values(api: Api, data: Data, fmt: str) -> None:
    """A list in XML is written ``<value><value>a</value><value>b</value></value>`` (decoded as
    ``{"value": [...]}``); JSON sends an array. Both select the same items, in every criterion that
    takes a list, and a single ``<value>a</value>`` stays valid."""
    one, two, three = data.items

    def listed(*values: Any) -> Any:
        return list(values) if fmt == "json" else {"value": list(values)}

    typed = {"ContentTypeIdCriterion": listed(data.type_id)}
    cases: list[tuple[dict[str, Any], list[int]]] = [
        ({"Field": {"name": "rank", "operator": "IN", "value": listed(10, 30)}}, [one, three]),
        (
            {"Field": {"name": "title", "operator": "IN", "value": listed("alpha one", "beta two")}},
            [one, two],
        ),
        ({"Field": {"name": "rank", "operator": "BETWEEN", "value": listed(15, 25)}}, [two]),
        ({"Field": {"name": "rank", "operator": "EQ", "value": 30}}, [three]),
        ({"ContentIdCriterion": listed(one, three)}, [one, three]),
        (
            {
                "DateMetadataCriterion": {
                    "Target": "created",
                    "Operator": "BETWEEN",
                    "Value": listed(1, 2**40),
                }
            },
            data.items,
        ),
        ({"UserMetadataCriterion": {"Target": "owner", "Value": listed(10, ADMIN_ID)}}, data.items),
        (
            {
                "ObjectStateIdentifierCriterion": {
                    "value": listed("locked", "not_locked"),
                    "target": "ez_lock",
                }
            },
            data.items,
        ),
    ]
    for criteria, expected in cases:
        assert found_in(api, fmt, {**typed, **criteria}) == expected, criteria
