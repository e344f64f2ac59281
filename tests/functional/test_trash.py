"""The trash over HTTP: MOVE to the trash (201 with an item, 204 without), list, load, restore with and
without Destination, delete an item, empty the trash (service-description.md, location and trash)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.functional.support import error_message
from tests.functional.tree_support import (
    add_location,
    child_paths,
    folder_at,
    location,
    path_of,
    relocate,
    small_tree,
    status_of,
)
from tests.functional.url_alias_support import alias, alias_refs
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

ITEM_KEYS = [
    "_media-type", "_href", "id", "priority", "hidden", "invisible", "ParentLocation", "pathString", "depth",
    "childCount", "remoteId", "Content", "sortField", "sortOrder", "ContentInfo",
]  # fmt: skip


def trash(api: Api, path: str) -> str:
    """Trash the location; returns the trash item's href."""
    response = relocate(api, "MOVE", path, "trash")
    assert response.status_code == 201, response.text
    assert response.content == b""
    href: str = response.headers["location"]
    return href


def item(api: Api, href: str, fmt: str = "json") -> Any:
    response = api.get(href, accept=media("TrashItem", fmt))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media("TrashItem", fmt)
    return response.json()["TrashItem"] if fmt == "json" else xml(response)


def restore(api: Api, href: str, destination: str | None = None, override: bool = True) -> Any:
    headers = {"Destination": f"{PREFIX}/content/locations/{destination}"} if destination else {}
    if override:
        headers["X-HTTP-Method-Override"] = "MOVE"
    return api.request("POST" if override else "MOVE", href, headers=headers, accept=media("Location"))


def trash_ids(api: Api, query: str = "") -> list[int]:
    response = api.get(f"/content/trash{query}", accept=media("Trash"))
    assert response.status_code == 200, response.text
    return [entry["id"] for entry in response.json()["Trash"]["TrashItem"]]


def test_trash_a_location_and_read_the_item(api: Api) -> None:
    path = folder_at(api, "Rubbish")
    old = location(api, path)
    href = trash(api, path)
    assert href == f"{PREFIX}/content/trash/{old['id']}"
    assert status_of(api, path) == 404
    body = item(api, href)
    assert list(body) == ITEM_KEYS
    assert (body["id"], body["pathString"], body["depth"], body["remoteId"]) == (
        old["id"], old["pathString"], old["depth"], old["remoteId"],
    )  # fmt: skip
    assert body["ParentLocation"]["_href"] == f"{PREFIX}/content/locations/1/2"
    assert body["ContentInfo"]["Content"]["status"] == "TRASHED"
    assert body["Content"]["_href"] == old["Content"]["_href"]
    root = item(api, href, "xml")
    assert root.tag == "TrashItem" and root.get("href") == href and root.findtext("id") == str(old["id"])
    assert old["id"] in trash_ids(api)


def test_trash_list_in_xml_and_the_ez_dialect(api: Api) -> None:
    trash(api, folder_at(api, "Ez rubbish"))
    ez = Api(api.client, EZ_PREFIX)
    response = ez.get("/content/trash", accept=media("Trash", "xml", "ez"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("Trash", "xml", "ez")
    root = xml(response)
    assert root.tag == "Trash" and root.get("href") == f"{EZ_PREFIX}/content/trash"
    hrefs = [entry.get("href") for entry in root.findall("TrashItem")]
    assert hrefs and all(href.startswith(f"{EZ_PREFIX}/content/trash/") for href in hrefs)


def test_trash_list_pagination(api: Api) -> None:
    ids = [location(api, p)["id"] for p in (folder_at(api, f"Paged {n}") for n in range(3))]
    for n in range(3):
        trash(api, f"1/2/{ids[n]}")
    listed = trash_ids(api)
    assert listed[-3:] == ids
    assert trash_ids(api, "?limit=2") == listed[:2]
    assert trash_ids(api, f"?offset={len(listed) - 1}") == listed[-1:]
    assert trash_ids(api, "?limit=-1") == listed


def test_trashing_a_subtree_trashes_every_location_without_another_place(api: Api) -> None:
    tree = small_tree(api, "Bin tree")
    ids = {name: location(api, tree[name])["id"] for name in tree}
    b_content = location(api, tree["b"])["ContentInfo"]["Content"]["_id"]
    second = add_location(api, b_content, "1/43")
    href = trash(api, tree["top"])
    assert item(api, href)["childCount"] == 1  # 'a'; 'b' lives on below 1/43
    listed = trash_ids(api)
    assert {ids["top"], ids["a"], ids["a1"]} <= set(listed) and ids["b"] not in listed
    assert location(api, path_of(second))["ContentInfo"]["Content"]["status"] == "PUBLISHED"


def test_trashing_a_location_whose_content_has_another_gives_204(api: Api) -> None:
    path = folder_at(api, "Two homes")
    content_id = location(api, path)["ContentInfo"]["Content"]["_id"]
    other = add_location(api, content_id, "1/43")
    before = trash_ids(api)
    response = relocate(api, "MOVE", path, "trash")
    assert response.status_code == 204 and response.content == b""
    assert trash_ids(api) == before
    assert status_of(api, path) == 404
    info = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo")).json()["Content"]
    assert info["MainLocation"]["_href"] == other


@pytest.mark.parametrize("override", [True, False])
def test_restore_to_the_original_parent(api: Api, override: bool) -> None:
    tree = small_tree(api, f"Comeback {override}")
    href = trash(api, tree["top"])
    response = restore(api, href, override=override)
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"{PREFIX}/content/locations/{tree['top']}"
    back = location(api, tree["top"])
    assert back["ContentInfo"]["Content"]["status"] == "PUBLISHED"
    assert back["ContentInfo"]["Content"]["MainLocation"]["_href"] == response.headers["location"]
    assert child_paths(api, tree["top"]) == [tree["a"], tree["b"]]  # the subtree came back with it
    assert child_paths(api, tree["a"]) == [tree["a1"]]
    error_message(api.get(href, accept=media("TrashItem")), 404)
    a_item = f"{PREFIX}/content/trash/{tree['a'].rsplit('/', 1)[1]}"
    error_message(api.get(a_item, accept=media("TrashItem")), 404)


def test_restore_brings_back_the_subtree_trashed_with_the_item(db_api: Api) -> None:
    """On both databases: below a Destination, the subtree follows its top (paths, depths, aliases); a
    location whose content lived on elsewhere did not go to the trash, so what lay below it stays there,
    an item of its own."""
    api = db_api
    tree = small_tree(api, "Whole")
    deep = folder_at(api, "Whole a1x", tree["a1"])
    ids = {name: int(path.rsplit("/", 1)[1]) for name, path in {**tree, "a1x": deep}.items()}
    b_content = location(api, tree["b"])["ContentInfo"]["Content"]["_id"]
    below_b = folder_at(api, "Whole b1", tree["b"])
    add_location(api, b_content, "1/43")
    href = trash(api, tree["top"])
    response = restore(api, href, "1/5")
    assert response.status_code == 201, response.text
    top = f"1/5/{ids['top']}"
    a, a1 = f"{top}/{ids['a']}", f"{top}/{ids['a']}/{ids['a1']}"
    assert child_paths(api, top) == [a]
    assert child_paths(api, a1) == [f"{a1}/{ids['a1x']}"]
    back = location(api, f"{a1}/{ids['a1x']}")
    assert back["depth"] == 5 and back["ContentInfo"]["Content"]["status"] == "PUBLISHED"
    assert back["ContentInfo"]["Content"]["MainLocation"]["_href"].endswith(f"/{a1}/{ids['a1x']}")
    (alias_id,) = alias_refs(api, f"{a1}/{ids['a1x']}")
    assert alias(api, alias_id)["path"].endswith("/Whole-top/Whole-a/Whole-a1/Whole-a1x")
    left = trash_ids(api)
    assert int(below_b.rsplit("/", 1)[1]) in left
    assert not {ids["top"], ids["a"], ids["a1"], ids["a1x"]} & set(left)


def test_restore_below_a_destination(api: Api) -> None:
    path = folder_at(api, "Relocated")
    item_id = path.rsplit("/", 1)[1]
    href = trash(api, path)
    response = restore(api, href, "1/43")
    assert response.status_code == 201
    assert response.headers["location"] == f"{PREFIX}/content/locations/1/43/{item_id}"
    assert location(api, f"1/43/{item_id}")["depth"] == 2


def test_restore_needs_an_existing_parent(api: Api) -> None:
    tree = small_tree(api, "Orphan")
    a_item = trash(api, tree["a"])
    assert api.delete(f"/content/locations/{tree['top']}").status_code == 204
    error = error_message(restore(api, a_item), 403)
    assert "parent" in error["errorDescription"]
    error_message(restore(api, a_item, "1/2/999999"), 403)
    assert restore(api, a_item, "1/2").status_code == 201
    error_message(restore(api, f"{PREFIX}/content/trash/999999"), 404)


def test_delete_a_trash_item_deletes_its_content(api: Api) -> None:
    path = folder_at(api, "Shredded")
    content_id = location(api, path)["ContentInfo"]["Content"]["_id"]
    href = trash(api, path)
    assert api.delete(href).status_code == 204
    error_message(api.get(href, accept=media("TrashItem")), 404)
    error_message(api.get(f"/content/objects/{content_id}", accept=media("ContentInfo")), 404)
    error_message(api.delete(href, accept=media("TrashItem")), 404)


def test_empty_the_trash(api: Api) -> None:
    contents = []
    for n in range(2):
        path = folder_at(api, f"Emptied {n}")
        contents.append(location(api, path)["ContentInfo"]["Content"]["_id"])
        trash(api, path)
    assert api.delete("/content/trash").status_code == 204
    assert trash_ids(api) == []
    for content_id in contents:
        error_message(api.get(f"/content/objects/{content_id}", accept=media("ContentInfo")), 404)


def test_trash_permissions(api: Api) -> None:
    path = folder_at(api, "Guarded bin")
    href = trash(api, path)
    anonymous = Api(api.client, auth=None)
    error_message(relocate(anonymous, "MOVE", "1/43", "trash"), 401)
    error_message(restore(anonymous, href), 401)
    error_message(anonymous.delete(href, accept=media("TrashItem")), 401)
    error_message(anonymous.delete("/content/trash", accept=media("Trash")), 401)
    assert item(anonymous, href)["id"] == int(path.rsplit("/", 1)[1])  # section 1: readable
    error_message(relocate(api, "MOVE", "1", "trash"), 403)
