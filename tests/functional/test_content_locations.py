"""Locations of content over HTTP: the clean-install tree, loading by path, lookups by id and remote
id, listing and adding locations of a content item (shapes-content.md §10, install.md §7)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import update

from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.schema import locations
from tests.functional.content_support import (
    content_create,
    content_info,
    create_folder,
    encode,
    field,
    main_location_path,
    post_content,
    publish,
    published_folder,
)
from tests.functional.support import error_message
from tests.functional.test_locations import patch as patch_location
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

CLEAN_TREE = [
    # path, content, remote id, sort field
    ("1/2", 1, "f3e90596361e31d496d4026eb624c983", "PRIORITY"),
    ("1/5", 4, "3f6d92f8044aed134f32153517850f5a", "PATH"),
    ("1/5/12", 11, "602dcf84765e56b7f999eaafd3821dd3", "PATH"),
    ("1/5/13", 12, "769380b7aa94541679167eab817ca893", "PATH"),
    ("1/5/14", 13, "f7dda2854fc68f7c8455d9cb14bd04a9", "PATH"),
    ("1/5/13/15", 14, "e5161a99f733200b9ed4e80f9c16187b", "PATH"),
    ("1/43", 41, "75c715a51699d2d309a924eca6a95145", "NAME"),
    ("1/5/44", 42, "4fdf0072da953bb276c0c7e0141c5c9b", "NAME"),
    ("1/5/44/45", 10, "2cf8343bee7b482bab82b269d8fecd76", "NAME"),
    ("1/43/51", 49, "1b26c0454b09bb49dfb1b9190ffd67cb", "NAME"),
    ("1/43/52", 50, "0b113a208f7890f9ad3c24444ff5988c", "NAME"),
    ("1/43/53", 51, "4f18b82c75f10aad476cae5adf98c11f", "NAME"),
]


def location(api: Api, path: str) -> dict[str, Any]:
    response = api.get(f"/content/locations/{path}", accept=media("Location"))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()["Location"]
    return body


@pytest.mark.parametrize(("path", "content_id", "remote_id", "sort_field"), CLEAN_TREE)
def test_clean_install_locations(
    api: Api, path: str, content_id: int, remote_id: str, sort_field: str
) -> None:
    body = location(api, path)
    assert body["id"] == int(path.rsplit("/", 1)[1])
    assert body["pathString"] == f"/{path}/"
    assert body["depth"] == path.count("/")
    assert (body["remoteId"], body["sortField"], body["sortOrder"]) == (remote_id, sort_field, "ASC")
    assert body["Content"]["_href"] == f"{PREFIX}/content/objects/{content_id}"
    assert body["ContentInfo"]["Content"]["_id"] == content_id
    parent = path.rsplit("/", 1)[0]
    assert body["ParentLocation"]["_href"] == f"{PREFIX}/content/locations/{parent}"


def test_location_shape(api: Api) -> None:
    response = api.get("/content/locations/1/43", accept=media("Location"))
    assert response.headers["content-type"] == media("Location")
    assert response.headers["accept-patch"] == media("LocationUpdate")
    body = response.json()["Location"]
    assert list(body) == [
        "_media-type", "_href", "id", "priority", "hidden", "invisible", "explicitlyHidden", "ParentLocation",
        "pathString", "depth", "childCount", "remoteId", "Children", "Content", "sortField", "sortOrder",
        "UrlAliases", "ContentInfo",
    ]  # fmt: skip
    assert body["childCount"] == 3
    assert body["Children"]["_href"] == f"{PREFIX}/content/locations/1/43/children"
    assert body["ContentInfo"]["_media-type"] == media("ContentInfo")
    assert body["ContentInfo"]["Content"]["Name"] == "Media"
    again = api.get(
        "/content/locations/1/43",
        accept=media("Location"),
        headers={"If-None-Match": response.headers["etag"]},
    )
    assert again.status_code == 304


def test_location_in_xml_and_ez_dialect(api: Api) -> None:
    root = xml(
        Api(api.client, EZ_PREFIX).get("/content/locations/1/5/13/15", accept=media("Location", "xml", "ez"))
    )
    assert root.tag == "Location" and root.get("href") == f"{EZ_PREFIX}/content/locations/1/5/13/15"
    assert root.findtext("pathString") == "/1/5/13/15/"
    assert root.find("ContentInfo/Content").get("id") == "14"


def test_the_virtual_root_has_no_content(api: Api) -> None:
    body = location(api, "1")
    assert (body["id"], body["pathString"], body["depth"], body["childCount"]) == (1, "/1/", 0, 3)
    assert body["ParentLocation"] == {"_media-type": media("Location")}
    assert "Content" not in body and "ContentInfo" not in body


def test_wrong_path_is_404(api: Api) -> None:
    error_message(api.get("/content/locations/1/43/15", accept=media("Location")), 404)
    error_message(api.get("/content/locations/1/9999", accept=media("Location")), 404)


def test_lookup_by_id_and_remote_id(api: Api) -> None:
    by_id = api.get("/content/locations?id=45", follow_redirects=False)
    assert by_id.status_code == 307
    assert by_id.headers["location"] == f"{PREFIX}/content/locations/1/5/44/45"
    by_remote = api.get(
        "/content/locations?remoteId=75c715a51699d2d309a924eca6a95145", follow_redirects=False
    )
    assert by_remote.headers["location"] == f"{PREFIX}/content/locations/1/43"
    error_message(api.get("/content/locations?id=9999", accept=media("Location")), 404)
    error_message(api.get("/content/locations", accept=media("Location")), 400)


def test_locations_of_content(api: Api) -> None:
    response = api.get("/content/objects/14/locations", accept=media("LocationList"))
    assert response.headers["content-type"] == media("LocationList")
    assert response.json() == {
        "LocationList": {
            "_media-type": media("LocationList"),
            "_href": f"{PREFIX}/content/objects/14/locations",
            "Location": [
                {"_media-type": media("Location"), "_href": f"{PREFIX}/content/locations/1/5/13/15"}
            ],
        }
    }
    root = xml(api.get("/content/objects/14/locations", accept=media("LocationList", "xml")))
    assert [item.get("href") for item in root.findall("Location")] == [
        f"{PREFIX}/content/locations/1/5/13/15"
    ]


def create_location(api: Api, content_id: int, parent: str, fmt: str = "json", **extra: Any) -> Any:
    data = {
        "ParentLocation": {"_href": f"{PREFIX}/content/locations/{parent}"},
        "sortField": "NAME",
        "sortOrder": "DESC",
        **extra,
    }
    return api.post(
        f"/content/objects/{content_id}/locations",
        body=encode("LocationCreate", data, fmt),
        content_type=media("LocationCreate", fmt),
        accept=media("Location", fmt),
    )


def test_add_a_location(api: Api) -> None:
    info = published_folder(api, "Twice")
    response = create_location(api, info["_id"], "1/43", priority=5, remoteId=f"second-{info['_id']}")
    assert response.status_code == 201
    body = response.json()["Location"]
    assert response.headers["location"] == body["_href"] == f"{PREFIX}/content/locations/1/43/{body['id']}"
    assert (body["priority"], body["sortField"], body["sortOrder"]) == (5, "NAME", "DESC")
    assert body["remoteId"] == f"second-{info['_id']}"
    listed = api.get(f"/content/objects/{info['_id']}/locations", accept=media("LocationList")).json()
    assert [item["_href"] for item in listed["LocationList"]["Location"]] == [
        f"{PREFIX}/content/locations/{main_location_path(info)}",
        body["_href"],
    ]
    assert main_location_path(content_info(api, info["_id"])) == main_location_path(info)


def test_add_a_location_in_xml(api: Api) -> None:
    info = published_folder(api, "Xml twice")
    response = create_location(api, info["_id"], "1/5", fmt="xml")
    assert response.status_code == 201
    assert xml(response).findtext("depth") == "2"


def test_add_location_errors(api: Api) -> None:
    info = published_folder(api, "Once")
    error_message(create_location(api, info["_id"], "1/2"), 403)  # already under that parent
    error_message(create_location(api, info["_id"], "1/9999"), 404)
    error_message(create_location(api, info["_id"], main_location_path(info)), 403)  # below itself
    draft = create_folder(api, "Unpublished")
    error_message(create_location(api, draft["_id"], "1/43"), 403)


def test_deleting_content_with_two_locations_removes_both_subtrees(api: Api) -> None:
    info = published_folder(api, "Two places")
    second = create_location(api, info["_id"], "1/43").json()["Location"]
    child = published_folder(api, "Kid", parent=second["_href"].split("/content/locations/")[1])
    assert api.delete(f"/content/objects/{info['_id']}").status_code == 204
    for path in (main_location_path(info), main_location_path(child)):
        error_message(api.get(f"/content/locations/{path}", accept=media("Location")), 404)
    error_message(api.get(f"/content/objects/{child['_id']}", accept=media("ContentInfo")), 404)


def test_content_below_another_location_survives_a_subtree_delete(api: Api) -> None:
    doomed = published_folder(api, "Doomed parent")
    keeper = published_folder(api, "Keeper", parent=main_location_path(doomed))
    other = create_location(api, keeper["_id"], "1/43").json()["Location"]
    assert api.delete(f"/content/objects/{doomed['_id']}").status_code == 204
    survivor = content_info(api, keeper["_id"])
    assert survivor["MainLocation"]["_href"] == other["_href"]


# -- publishing places the pending location ------------------------------------------------------------


def _draft_below(api: Api, parent: str, name: str, remote_id: str) -> int:
    data = content_create([field("name", name)], parent=parent)
    data["LocationCreate"]["remoteId"] = remote_id
    response = post_content(api, data)
    assert response.status_code == 201, response.text
    return int(response.json()["Content"]["_id"])


def test_publishing_places_the_location_below_its_parent_with_its_remote_id(db_api: Api) -> None:
    parent = main_location_path(published_folder(db_api, "Placing parent"))
    remote_id = f"placed-{uuid.uuid4().hex}"
    item = _draft_below(db_api, parent, "Placed", remote_id)
    publish(db_api, item)
    placed = location(db_api, main_location_path(content_info(db_api, item)))
    assert placed["pathString"].startswith(f"/{parent}/")
    assert placed["depth"] == parent.count("/") + 1
    assert (placed["remoteId"], placed["invisible"]) == (remote_id, False)


def test_a_remote_id_taken_meanwhile_is_replaced_and_a_hidden_parent_makes_the_location_invisible(
    db_api: Api, database_url: str
) -> None:
    parent = main_location_path(published_folder(db_api, "Hidden parent"))
    hidden = patch_location(db_api, parent, {"hidden": True})
    assert hidden.status_code == 200, hidden.text
    remote_id = f"contested-{uuid.uuid4().hex}"
    waiting = _draft_below(db_api, parent, "Waiting", remote_id)
    # A concurrent writer took the id between the create and the publish (the API refuses an id that a
    # pending location holds, so the race is played out in the database).
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.execute(update(locations).where(locations.c.id == 43).values(remote_id=remote_id))
    engine.dispose()
    publish(db_api, waiting)
    placed = location(db_api, main_location_path(content_info(db_api, waiting)))
    assert placed["remoteId"] not in (remote_id, "")
    assert placed["invisible"] is True
    assert location(db_api, "1/43")["remoteId"] == remote_id


def test_publishing_below_a_parent_deleted_meanwhile_is_refused_and_changes_nothing(db_api: Api) -> None:
    parent_info = published_folder(db_api, "Doomed parent")
    item = _draft_below(db_api, main_location_path(parent_info), "Orphan", f"orphan-{uuid.uuid4().hex}")
    assert db_api.delete(f"/content/objects/{parent_info['_id']}").status_code == 204
    response = db_api.request("PUBLISH", f"/content/objects/{item}/versions/1")
    assert response.status_code == 404, response.text
    assert content_info(db_api, item)["status"] == "DRAFT"
