"""Bookmarks of the current user over HTTP (service-description.md "Root and bookmarks",
endpoints-content.tsv /bookmark rows, shapes-content.md §15)."""

from __future__ import annotations

from typing import Any

import httpx
from starlette.testclient import TestClient

from tests.functional.content_support import main_location_path, published_folder
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, StatementCounter, media, xml


def bookmark(api: Api, location_id: int) -> httpx.Response:
    return api.post(f"/bookmark/{location_id}", accept=media("ErrorMessage"))


def location_id_of(info: dict[str, Any]) -> int:
    return int(main_location_path(info).rsplit("/", 1)[1])


def listed(api: Api, query: str = "") -> dict[str, Any]:
    response = api.get(f"/bookmark{query}", accept=media("BookmarkList"))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media("BookmarkList")
    body: dict[str, Any] = response.json()["BookmarkList"]
    return body


def test_create_check_list_and_delete(api: Api) -> None:
    location_id = location_id_of(published_folder(api, "Bookmarked"))
    response = bookmark(api, location_id)
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"{PREFIX}/bookmark/{location_id}"
    assert response.content == b""
    assert api.get(f"/bookmark/{location_id}").status_code == 200
    head = api.request("HEAD", f"/bookmark/{location_id}")
    assert (head.status_code, head.content) == (200, b"")
    body = listed(api)
    assert body["count"] == 1
    (item,) = body["items"]
    assert item["_media-type"] == media("Bookmark")
    assert item["_href"] == f"{PREFIX}/bookmark/{location_id}"
    assert item["Location"]["id"] == location_id
    assert item["Location"]["ContentInfo"]["Content"]["Name"] == "Bookmarked"
    assert api.delete(f"/bookmark/{location_id}").status_code == 204
    assert api.request("HEAD", f"/bookmark/{location_id}").status_code == 404
    assert listed(api) == {"_media-type": media("BookmarkList"), "count": 0, "items": []}


def test_twice_is_409_and_missing_location_is_404(api: Api) -> None:
    assert bookmark(api, 2).status_code == 201
    error_message(bookmark(api, 2), 409)
    error_message(bookmark(api, 999_999), 404)
    error_message(api.delete("/bookmark/43", accept=media("ErrorMessage")), 404)  # not bookmarked
    error_message(api.get("/bookmark/43", accept=media("ErrorMessage")), 404)
    assert listed(api)["count"] == 1


def test_list_pages_most_recent_first(api: Api) -> None:
    ids = [location_id_of(published_folder(api, f"F{i}")) for i in range(3)]
    for location_id in ids:
        assert bookmark(api, location_id).status_code == 201
    assert [i["Location"]["id"] for i in listed(api)["items"]] == ids[::-1]
    page = listed(api, "?offset=1&limit=1")
    assert page["count"] == 3
    assert [i["Location"]["id"] for i in page["items"]] == [ids[1]]
    assert listed(api, "?limit=0")["items"] == []


def test_list_in_xml_under_the_ez_prefix(client: TestClient) -> None:
    api = Api(client, EZ_PREFIX)
    assert bookmark(api, 43).status_code == 201
    response = api.get("/bookmark", accept=media("BookmarkList", "xml", "ez"))
    assert response.status_code == 200
    root = xml(response)
    assert root.tag == "BookmarkList"
    assert root.findtext("count") == "1"
    (item,) = root.findall("Bookmark")
    assert item.get("href") == f"{EZ_PREFIX}/bookmark/43"
    assert item.find("Location").get("href") == f"{EZ_PREFIX}/content/locations/1/43"


def test_bookmarks_belong_to_their_user(client: TestClient, api: Api) -> None:
    assert bookmark(api, 2).status_code == 201
    anonymous = Api(client, auth=None)
    error_message(bookmark(anonymous, 2), 401)
    error_message(anonymous.get("/bookmark", accept=media("BookmarkList")), 401)
    assert listed(api)["count"] == 1


def test_bookmark_goes_with_its_location(api: Api) -> None:
    info = published_folder(api, "Short-lived")
    location_id = location_id_of(info)
    assert bookmark(api, location_id).status_code == 201
    assert api.delete(f"/content/objects/{info['_id']}").status_code == 204
    assert listed(api)["count"] == 0


def test_list_is_a_fixed_number_of_statements(api: Api) -> None:
    for _ in range(5):
        assert bookmark(api, location_id_of(published_folder(api))).status_code == 201
    with StatementCounter() as few:
        assert len(listed(api, "?limit=2")["items"]) == 2
    with StatementCounter() as many:
        assert len(listed(api)["items"]) == 5
    # page ids, locations, content infos, count (+ authentication: Basic re-reads the caller's account in
    # its own transaction; the caller's grants): no statement per bookmark
    assert few.count == many.count <= 8, many.statements
