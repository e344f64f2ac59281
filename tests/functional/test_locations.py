"""Locations over HTTP: lookups, PATCH (priority, remote id, sort, hide/reveal with If-Match), and
children (pagination, every sort field, Locations vs LocationList, read filter, statement count)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.functional.content_support import encode
from tests.functional.support import error_message
from tests.functional.tree_support import child_paths, folder_at, location, path_of, small_tree
from tests.helpers import EZ_PREFIX, PREFIX, Api, StatementCounter, media, xml


def patch(api: Api, path: str, data: dict[str, Any], fmt: str = "json", **headers: str) -> Any:
    return api.patch(
        f"/content/locations/{path}",
        body=encode("LocationUpdate", data, fmt),
        content_type=media("LocationUpdate", fmt, "ez" if api.prefix == EZ_PREFIX else "ibexa"),
        accept=media("Location", fmt, "ez" if api.prefix == EZ_PREFIX else "ibexa"),
        headers=headers,
    )


def test_lookup_by_location_path(api: Api) -> None:
    path = folder_at(api, "Looked up")
    for query in (path, f"/{path}/"):
        response = api.get(f"/content/locations?locationPath={query}", follow_redirects=False)
        assert response.status_code == 307 and response.content == b""
        assert response.headers["location"] == f"{PREFIX}/content/locations/{path}"
    error_message(api.get("/content/locations?locationPath=1/43/2", accept=media("Location")), 404)
    error_message(api.get("/content/locations?remoteId=nothing-has-this", accept=media("Location")), 404)


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_patch_priority_remote_id_and_sort(api: Api, fmt: str) -> None:
    path = folder_at(api, f"Patched {fmt}")
    remote_id = f"patched-{fmt}-{path.rsplit('/', 1)[1]}"
    data = {"priority": 7, "remoteId": remote_id, "sortField": "NAME", "sortOrder": "DESC"}
    response = patch(api, path, data, fmt)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media("Location", fmt)
    if fmt == "xml":
        root = xml(response)
        assert (root.findtext("priority"), root.findtext("sortField")) == ("7", "NAME")
    stored = location(api, path)
    assert (stored["priority"], stored["remoteId"], stored["sortField"], stored["sortOrder"]) == (
        7, remote_id, "NAME", "DESC",
    )  # fmt: skip


def test_patch_in_the_ez_dialect(api: Api) -> None:
    path = folder_at(api, "Patched ez")
    ez = Api(api.client, EZ_PREFIX)
    response = patch(ez, path, {"priority": 3}, "xml")
    assert response.status_code == 200, response.text
    assert xml(response).get("href") == f"{EZ_PREFIX}/content/locations/{path}"
    assert location(api, path)["priority"] == 3


def test_patch_if_match_and_bad_input(api: Api) -> None:
    path = folder_at(api, "Guarded")
    etag = api.get(f"/content/locations/{path}", accept=media("Location")).headers["etag"]
    assert patch(api, path, {"priority": 1}, **{"If-Match": etag}).status_code == 200
    error_message(patch(api, path, {"priority": 2}, **{"If-Match": etag}), 412)
    assert location(api, path)["priority"] == 1
    error = error_message(patch(api, path, {"sortField": "SIZE"}), 400)
    assert "sortField" in error["errorDescription"]
    error_message(patch(api, path, {"priority": "high"}), 400)
    error_message(patch(api, path, {"remoteId": "f3e90596361e31d496d4026eb624c983"}), 403)  # location 2's
    error_message(patch(api, "1/2/999999", {"priority": 1}), 404)
    anonymous = Api(api.client, auth=None)
    error_message(patch(anonymous, path, {"priority": 5}), 401)
    assert location(api, path)["priority"] == 1


def test_hiding_and_revealing_a_subtree(api: Api) -> None:
    tree = small_tree(api, "Hide")
    response = patch(api, tree["a"], {"hidden": True})
    assert response.status_code == 200
    body = response.json()["Location"]
    assert (body["hidden"], body["explicitlyHidden"], body["invisible"]) == (True, True, True)
    below = location(api, tree["a1"])
    assert (below["hidden"], below["explicitlyHidden"], below["invisible"]) == (False, False, True)
    assert location(api, tree["b"])["invisible"] is False
    assert patch(api, tree["top"], {"hidden": "true"}, "xml").status_code == 200
    assert all(location(api, tree[name])["invisible"] for name in tree)
    assert patch(api, tree["top"], {"hidden": False}).status_code == 200
    # revealing the top leaves what the still hidden 'a' hides
    assert [location(api, tree[name])["invisible"] for name in ("top", "a", "b", "a1")] == [
        False, True, False, True,
    ]  # fmt: skip
    assert patch(api, tree["a"], {"hidden": False}).status_code == 200
    assert not any(location(api, tree[name])["invisible"] for name in tree)


def test_hidden_content_keeps_its_locations_invisible_when_an_ancestor_is_revealed(api: Api) -> None:
    tree = small_tree(api, "Hidden content")
    content_id = location(api, tree["a"])["ContentInfo"]["Content"]["_id"]
    assert api.post(f"/content/objects/{content_id}/hide").status_code == 204
    patch(api, tree["top"], {"hidden": True})
    patch(api, tree["top"], {"hidden": False})
    a = location(api, tree["a"])
    assert (a["hidden"], a["explicitlyHidden"], a["invisible"]) == (True, False, True)
    assert location(api, tree["a1"])["invisible"] is True


@pytest.mark.parametrize(("fmt", "vendor"), [("json", "ibexa"), ("xml", "ibexa"), ("xml", "ez")])
def test_children_list(api: Api, fmt: str, vendor: str) -> None:
    tree = small_tree(api, f"Kids {fmt} {vendor}")
    client = Api(api.client, EZ_PREFIX if vendor == "ez" else PREFIX)
    prefix = client.prefix
    response = client.get(
        f"/content/locations/{tree['top']}/children", accept=media("LocationList", fmt, vendor)
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == media("LocationList", fmt, vendor)
    assert "accept-patch" not in response.headers
    expected = [f"{prefix}/content/locations/{tree[name]}" for name in ("a", "b")]
    if fmt == "json":
        body = response.json()["LocationList"]
        assert body["_href"] == f"{prefix}/content/locations/{tree['top']}/children"
        assert [item["_href"] for item in body["Location"]] == expected
        assert {item["_media-type"] for item in body["Location"]} == {media("Location", fmt, vendor)}
    else:
        root = xml(response)
        assert root.tag == "LocationList"
        assert [item.get("href") for item in root.findall("Location")] == expected
    assert location(api, tree["top"])["childCount"] == 2


def test_children_as_whole_locations(api: Api) -> None:
    tree = small_tree(api, "Whole")
    response = api.get(f"/content/locations/{tree['top']}/children", accept=media("Locations"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("Locations")
    items = response.json()["Locations"]["Location"]
    assert [item["_href"] for item in items] == [f"{PREFIX}/content/locations/{tree[n]}" for n in ("a", "b")]
    assert [item["childCount"] for item in items] == [1, 0]
    assert items[0]["ContentInfo"]["Content"]["Name"] == "Whole a"
    root = xml(api.get(f"/content/locations/{tree['top']}/children", accept=media("Locations", "xml")))
    assert [item.findtext("ContentInfo/Content/Name") for item in root.findall("Location")] == [
        "Whole a", "Whole b",
    ]  # fmt: skip


def test_children_pagination(api: Api) -> None:
    top = folder_at(api, "Many")
    kids = [folder_at(api, f"Many {n:02d}", top) for n in range(12)]
    assert child_paths(api, top) == kids[:10]  # default limit 10
    assert child_paths(api, top, "?offset=10") == kids[10:]
    assert child_paths(api, top, "?offset=3&limit=2") == kids[3:5]
    assert child_paths(api, top, "?limit=-1") == kids  # negative: 25
    assert child_paths(api, top, "?limit=0") == []
    assert child_paths(api, top, "?offset=-5&limit=1") == kids[:1]
    error_message(api.get(f"/content/locations/{top}/children?limit=ten", accept=media("LocationList")), 400)
    error_message(api.get("/content/locations/1/2/999999/children", accept=media("LocationList")), 404)


SECTION_IDENTIFIERS = {1: "standard", 3: "media"}  # sortField SECTION sorts by section identifier


def _sort_key(field: str, loc: dict[str, Any]) -> Any:
    info = loc["ContentInfo"]["Content"]
    return {
        "PATH": loc["pathString"],
        "PUBLISHED": info["publishedDate"],
        "MODIFIED": info["lastModificationDate"],
        "SECTION": SECTION_IDENTIFIERS[int(info["Section"]["_href"].rsplit("/", 1)[1])],
        "DEPTH": loc["depth"],
        "CLASS_IDENTIFIER": 0,
        "CLASS_NAME": 0,
        "PRIORITY": loc["priority"],
        "NAME": info["Name"],
        "NODE_ID": loc["id"],
        "CONTENTOBJECT_ID": info["_id"],
    }[field]


@pytest.fixture
def sortable(api: Api) -> tuple[str, list[dict[str, Any]]]:
    """A parent with children whose names, priorities, sections and ids sort differently."""
    top = folder_at(api, "Sorted")
    specs = [("Delta", 2, 3), ("Alpha", 9, 1), ("Charlie", 0, 3), ("Bravo", 5, 1), ("Echo", 9, 1)]
    for name, priority, section in specs:
        path = folder_at(api, name, top, Section={"_href": f"{PREFIX}/content/sections/{section}"})
        patch(api, path, {"priority": priority})
    children = api.get(f"/content/locations/{top}/children", accept=media("Locations")).json()
    return top, children["Locations"]["Location"]


@pytest.mark.parametrize(
    "field",
    [
        "PATH", "PUBLISHED", "MODIFIED", "SECTION", "DEPTH", "CLASS_IDENTIFIER", "CLASS_NAME", "PRIORITY",
        "NAME", "NODE_ID", "CONTENTOBJECT_ID",
    ],
)  # fmt: skip
@pytest.mark.parametrize("order", ["ASC", "DESC"])
def test_children_follow_the_parent_sort(
    api: Api, sortable: tuple[str, list[dict[str, Any]]], field: str, order: str
) -> None:
    top, children = sortable
    assert patch(api, top, {"sortField": field, "sortOrder": order}).status_code == 200
    # ties (equal keys) fall back to the location id, ascending
    by_id = sorted(children, key=lambda loc: loc["id"])
    expected = sorted(by_id, key=lambda loc: _sort_key(field, loc), reverse=order == "DESC")  # stable
    assert child_paths(api, top) == [path_of(loc["_href"]) for loc in expected]


def test_anonymous_sees_only_readable_children(api: Api) -> None:
    top = folder_at(api, "Mixed sections")
    public = folder_at(api, "Public", top)
    folder_at(api, "Media only", top, Section={"_href": f"{PREFIX}/content/sections/3"})
    later = folder_at(api, "Public too", top)
    anonymous = Api(api.client, auth=None)
    assert child_paths(anonymous, top) == [public, later]
    assert child_paths(anonymous, top, "?offset=1&limit=1") == [later]  # the filter is in the page query
    assert location(anonymous, top)["childCount"] == 2
    assert location(api, top)["childCount"] == 3
    assert len(child_paths(api, top)) == 3


def test_children_request_loads_content_infos_in_one_query(api: Api) -> None:
    few = folder_at(api, "Few")
    for n in range(2):
        folder_at(api, f"Few {n}", few)
    many = folder_at(api, "Lots")
    for n in range(8):
        folder_at(api, f"Lots {n}", many)
    counts = []
    for top in (few, many):
        with StatementCounter() as counter:
            response = api.get(f"/content/locations/{top}/children", accept=media("Locations"))
        assert response.status_code == 200
        counts.append(counter.count)
    # the caller's grants and account, the parent, its content, the page's ids, their rows, their content
    # infos
    assert counts[0] == counts[1] <= 7, counts


def test_a_children_page_counts_only_the_children_it_lists(api: Api) -> None:
    """The parent's own child count is not part of the page (below a large folder it would cost more than
    the page), and references need no content infos."""
    top = folder_at(api, "Counted")
    kids = [folder_at(api, f"Counted {n}", top) for n in range(3)]
    folder_at(api, "Grandchild", kids[0])
    with StatementCounter() as whole:
        response = api.get(f"/content/locations/{top}/children", accept=media("Locations"))
    assert [item["childCount"] for item in response.json()["Locations"]["Location"]] == [1, 0, 0]
    with StatementCounter() as refs:
        assert child_paths(api, top) == kids
    for counter in (whole, refs):
        counting = [s for s in counter.statements if "count(" in s.lower()]
        assert len(counting) == 1, counter.statements  # the listed children's counts, nothing else
    assert refs.count == whole.count - 1, (refs.statements, whole.statements)  # no content infos
    # the caller's access stamp, the parent location and its item, the page of ids, those children with
    # their child counts, their items: six, however many children the parent has (issue 29)
    assert whole.count == 6, whole.statements
