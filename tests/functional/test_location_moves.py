"""MOVE, COPY, SWAP and DELETE of location subtrees over HTTP, as clients send them (POST with
X-HTTP-Method-Override and a Destination href, or the method itself), in both dialects."""

from __future__ import annotations

import pytest

from tests.functional.content_support import content_info
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
from tests.functional.url_alias_support import lookup, redirects_to
from tests.helpers import EZ_PREFIX, PREFIX, Api, media


def content_of(api: Api, path: str) -> int:
    content_id: int = location(api, path)["ContentInfo"]["Content"]["_id"]
    return content_id


@pytest.mark.parametrize(("override", "prefix"), [(True, PREFIX), (False, PREFIX), (True, EZ_PREFIX)])
def test_move_a_subtree(api: Api, override: bool, prefix: str) -> None:
    tree = small_tree(api, f"Mover {override} {prefix[5:8]}")
    target = folder_at(api, "Move target", "1/43")
    client = Api(api.client, prefix)
    top_id = tree["top"].rsplit("/", 1)[1]
    response = relocate(client, "MOVE", tree["top"], f"locations/{target}", override=override, prefix=prefix)
    assert response.status_code == 201, response.text
    assert response.content == b""
    assert response.headers["location"] == f"{prefix}/content/locations/{target}/{top_id}"
    assert status_of(api, tree["top"]) == 404
    moved = location(api, f"{target}/{top_id}")
    assert (moved["depth"], moved["childCount"]) == (3, 2)
    a1_id = tree["a1"].rsplit("/", 1)[1]
    a_id = tree["a"].rsplit("/", 1)[1]
    a1 = location(api, f"{target}/{top_id}/{a_id}/{a1_id}")
    assert (a1["pathString"], a1["depth"]) == (f"/{target}/{top_id}/{a_id}/{a1_id}/", 5)
    info = content_info(api, a1["ContentInfo"]["Content"]["_id"])
    assert path_of(info["MainLocation"]["_href"]) == f"{target}/{top_id}/{a_id}/{a1_id}"
    assert child_paths(api, target) == [f"{target}/{top_id}"]


def test_move_below_a_hidden_parent_makes_the_subtree_invisible(api: Api) -> None:
    tree = small_tree(api, "Into the dark")
    dark = folder_at(api, "Dark")
    api.patch(
        f"/content/locations/{dark}",
        body={"LocationUpdate": {"hidden": True}},
        content_type=media("LocationUpdate"),
    )
    assert relocate(api, "MOVE", tree["top"], f"locations/{dark}").status_code == 201
    top_id, a_id, a1_id = (tree[n].rsplit("/", 1)[1] for n in ("top", "a", "a1"))
    moved = location(api, f"{dark}/{top_id}/{a_id}/{a1_id}")
    assert (moved["invisible"], moved["explicitlyHidden"]) == (True, False)
    assert relocate(api, "MOVE", f"{dark}/{top_id}", "locations/1/2").status_code == 201
    assert location(api, f"1/2/{top_id}/{a_id}/{a1_id}")["invisible"] is False


def test_move_errors(api: Api) -> None:
    tree = small_tree(api, "Stuck")
    error_message(relocate(api, "MOVE", tree["top"], f"locations/{tree['a1']}"), 403)  # own subtree
    error_message(relocate(api, "MOVE", tree["top"], f"locations/{tree['top']}"), 403)  # itself
    error_message(relocate(api, "MOVE", tree["top"], "locations/1/2/999999"), 404)  # missing parent
    error_message(relocate(api, "MOVE", "1", "locations/1/43"), 403)  # the root
    error_message(relocate(api, "MOVE", "1/2/999999", "locations/1/43"), 404)
    error = error_message(relocate(api, "MOVE", tree["top"], None), 400)
    assert "Destination" in error["errorDescription"]
    error = error_message(relocate(api, "MOVE", tree["top"], "objects/1"), 400)
    assert "Destination" in error["errorDescription"]
    anonymous = Api(api.client, auth=None)
    error_message(relocate(anonymous, "MOVE", tree["top"], "locations/1/43"), 401)
    assert child_paths(api, tree["top"]) == [tree["a"], tree["b"]]


def test_copy_a_subtree(api: Api) -> None:
    tree = small_tree(api, "Original")
    target = folder_at(api, "Copy target")
    response = relocate(api, "COPY", tree["top"], f"locations/{target}")
    assert response.status_code == 201, response.text
    copy_path = path_of(response.headers["location"])
    assert response.headers["location"] == f"{PREFIX}/content/locations/{copy_path}"
    copy = location(api, copy_path)
    assert copy["ContentInfo"]["Content"]["Name"] == "Original top"
    assert copy["ContentInfo"]["Content"]["_id"] != content_of(api, tree["top"])
    kids = child_paths(api, copy_path)
    assert [location(api, kid)["ContentInfo"]["Content"]["Name"] for kid in kids] == [
        "Original a",
        "Original b",
    ]
    grandchildren = child_paths(api, kids[0])
    assert [location(api, p)["ContentInfo"]["Content"]["Name"] for p in grandchildren] == ["Original a1"]
    assert child_paths(api, tree["top"]) == [tree["a"], tree["b"]]  # the original is untouched
    error_message(relocate(api, "COPY", tree["top"], f"locations/{tree['a']}"), 403)
    error_message(relocate(api, "COPY", tree["top"], "locations/1/2/999999"), 404)
    error_message(relocate(api, "COPY", tree["top"], None), 400)


def test_copy_in_the_ez_dialect_as_a_real_method(api: Api) -> None:
    source = folder_at(api, "Ez copy")
    ez = Api(api.client, EZ_PREFIX)
    response = relocate(ez, "COPY", source, "locations/1/43", override=False, prefix=EZ_PREFIX)
    assert response.status_code == 201
    assert response.headers["location"].startswith(f"{EZ_PREFIX}/content/locations/1/43/")


@pytest.mark.parametrize("override", [False, True])
def test_swap_two_locations(api: Api, override: bool) -> None:
    first = folder_at(api, f"First {override}")
    second = folder_at(api, f"Second {override}", "1/43")
    below = folder_at(api, f"Below first {override}", first)
    first_content, second_content = content_of(api, first), content_of(api, second)
    response = relocate(api, "SWAP", first, f"locations/{second}", override=override)
    assert response.status_code == 204, response.text
    assert content_of(api, first) == second_content and content_of(api, second) == first_content
    assert path_of(content_info(api, first_content)["MainLocation"]["_href"]) == second
    assert path_of(content_info(api, second_content)["MainLocation"]["_href"]) == first
    assert child_paths(api, first) == [below]  # children stay with the location


def test_swap_errors(api: Api) -> None:
    path = folder_at(api, "Lonely swap")
    error_message(relocate(api, "SWAP", path, "locations/1/2/999999"), 404)
    error_message(relocate(api, "SWAP", path, "locations/1"), 403)
    error_message(relocate(api, "SWAP", path, None), 400)
    error_message(relocate(api, "SWAP", path, "trash"), 400)


def test_delete_a_subtree(api: Api) -> None:
    tree = small_tree(api, "Doomed")
    kept = content_of(api, tree["a1"])
    other = add_location(api, kept, "1/43")
    gone = content_of(api, tree["b"])
    assert api.delete(f"/content/locations/{tree['top']}").status_code == 204
    for name in tree:
        assert status_of(api, tree[name]) == 404
    error_message(api.get(f"/content/objects/{gone}", accept=media("ContentInfo")), 404)
    assert content_info(api, kept)["MainLocation"]["_href"] == other
    error_message(api.delete(f"/content/locations/{tree['top']}", accept=media("Location")), 404)
    error_message(api.delete("/content/locations/1", accept=media("Location")), 403)
    error_message(Api(api.client, auth=None).delete("/content/locations/1/43", accept=media("Location")), 401)


def test_location_allow_header(api: Api) -> None:
    path = folder_at(api, "Options")
    response = api.request("OPTIONS", f"/content/locations/{path}")
    assert response.status_code == 200
    assert {m.strip() for m in response.headers["allow"].split(",")} >= {
        "GET", "PATCH", "DELETE", "COPY", "MOVE", "SWAP",
    }  # fmt: skip


def test_anonymous_may_not_copy_or_swap_nor_read_other_sections(api: Api) -> None:
    path = folder_at(api, "Not for guests")
    anonymous = Api(api.client, auth=None)
    media_children = child_paths(api, "1/43")
    error_message(relocate(anonymous, "COPY", path, "locations/1/43"), 401)
    error_message(relocate(anonymous, "SWAP", path, "locations/1/43"), 401)
    error_message(anonymous.get("/content/locations/1/5", accept=media("Location")), 401)  # Users section
    error_message(anonymous.get("/content/locations/1/5/children", accept=media("LocationList")), 401)
    assert child_paths(api, "1/43") == media_children  # nothing was copied or swapped there
    assert path_of(location(anonymous, path)["_href"]) == path


def test_url_aliases_follow_a_move_and_leave_with_the_trash(api: Api) -> None:
    wanderer = folder_at(api, "Wanderer")
    kid = folder_at(api, "Kid", wanderer)
    camp = folder_at(api, "Camp")
    redirects_to(api, "/Wanderer/Kid", kid)
    assert relocate(api, "MOVE", wanderer, f"locations/{camp}").status_code == 201
    moved, moved_kid = f"{camp}/{wanderer.rsplit('/', 1)[1]}", f"{camp}/{kid.split('/', 2)[2]}"
    redirects_to(api, "/Camp/Wanderer", moved)
    redirects_to(api, "/Camp/Wanderer/Kid", moved_kid)
    href = relocate(api, "MOVE", moved, "trash").headers["location"]
    assert lookup(api, "/Camp/Wanderer/Kid").status_code == 404
    restored = api.request("MOVE", href, accept=media("Location"))
    assert restored.status_code == 201
    redirects_to(api, "/Camp/Wanderer", moved)
