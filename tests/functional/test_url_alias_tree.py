"""URL aliases as the tree changes over HTTP: MOVE (the subtree's paths follow, old paths resolve),
SWAP (the locations take each other's names), COPY (the copies get aliases of their own), DELETE, and
the trash (aliases go with the trashed subtree and come back with it)."""

from __future__ import annotations

from tests.functional.support import error_message, unique
from tests.functional.tree_support import folder_at, path_of, relocate, small_tree
from tests.functional.url_alias_support import alias, alias_refs, lookup
from tests.helpers import Api, media


def alias_path(api: Api, path: str) -> str:
    """The current generated alias path of the location at ``path``."""
    (alias_id,) = alias_refs(api, path)
    text: str = alias(api, alias_id)["path"]
    return text


def resolved(api: Api, url: str) -> str:
    """The location path ``?urlAlias=url`` redirects to."""
    response = lookup(api, url)
    assert response.status_code == 307, response.text
    return path_of(response.headers["location"])


def below(parent: str, path: str) -> str:
    """The path ``path``'s location has once moved below ``parent``."""
    return f"{parent}/{path.rsplit('/', 1)[1]}"


def names(stem: str) -> dict[str, str]:
    """The segments of ``small_tree(api, stem)``."""
    return {key: f"{stem}-{key}" for key in ("top", "a", "b", "a1")}


def test_move_takes_the_subtree_along_and_keeps_old_paths(api: Api) -> None:
    stem, target_name = unique("Mover"), unique("Target")
    tree, text = small_tree(api, stem), names(stem)
    target = folder_at(api, target_name)
    assert relocate(api, "MOVE", tree["a"], f"locations/{target}").status_code == 201
    new_a, new_a1 = below(target, tree["a"]), below(below(target, tree["a"]), tree["a1"])
    assert alias_path(api, new_a) == f"/{target_name}/{text['a']}"
    assert alias_path(api, new_a1) == f"/{target_name}/{text['a']}/{text['a1']}"
    assert resolved(api, f"/{target_name}/{text['a']}/{text['a1']}") == new_a1
    assert resolved(api, f"/{text['top']}/{text['a']}") == new_a  # old paths lead to the new places
    assert resolved(api, f"/{text['top']}/{text['a']}/{text['a1']}") == new_a1
    assert alias_path(api, tree["b"]) == f"/{text['top']}/{text['b']}"


def test_move_next_to_a_namesake_gets_a_suffix(api: Api) -> None:
    name = unique("Namesake")
    first, second = folder_at(api, unique("One")), folder_at(api, unique("Two"))
    folder_at(api, name, first)
    mover = folder_at(api, name, second)
    assert relocate(api, "MOVE", mover, f"locations/{first}").status_code == 201
    moved = below(first, mover)
    assert alias_path(api, moved).endswith(f"/{name}2")
    assert resolved(api, alias_path(api, moved)) == moved


def test_swapped_siblings_take_each_others_names(api: Api) -> None:
    parent = folder_at(api, unique("Pair"))
    left, right = unique("Left"), unique("Right")
    left_path, right_path = folder_at(api, left, parent), folder_at(api, right, parent)
    response = relocate(api, "SWAP", left_path, f"locations/{right_path}")
    assert response.status_code == 204, response.text
    assert alias_path(api, left_path).endswith(f"/{right}")
    assert alias_path(api, right_path).endswith(f"/{left}")
    assert resolved(api, alias_path(api, left_path)) == left_path


def test_a_copied_subtree_gets_aliases_of_its_own(api: Api) -> None:
    stem, target_name = unique("Copied"), unique("Into")
    tree, text = small_tree(api, stem), names(stem)
    target = folder_at(api, target_name)
    response = relocate(api, "COPY", tree["top"], f"locations/{target}")
    assert response.status_code == 201, response.text
    copy = path_of(response.headers["location"])
    assert alias_path(api, copy) == f"/{target_name}/{text['top']}"
    copied_a1 = resolved(api, f"/{target_name}/{text['top']}/{text['a']}/{text['a1']}")
    assert copied_a1.startswith(copy + "/")
    assert resolved(api, f"/{text['top']}/{text['a']}/{text['a1']}") == tree["a1"]  # the original stays


def test_deleting_a_subtree_removes_its_aliases(api: Api) -> None:
    stem = unique("Gone")
    tree, text = small_tree(api, stem), names(stem)
    a1_alias = alias_refs(api, tree["a1"])[0]
    assert api.delete(f"/content/locations/{tree['a']}").status_code == 204
    error_message(lookup(api, f"/{text['top']}/{text['a']}/{text['a1']}"), 404)
    error_message(api.get(f"/content/urlaliases/{a1_alias}", accept=media("UrlAlias")), 404)
    assert resolved(api, f"/{text['top']}/{text['b']}") == tree["b"]


def test_trashed_locations_lose_their_aliases_until_restored(api: Api) -> None:
    stem = unique("Binned")
    tree, text = small_tree(api, stem), names(stem)
    response = relocate(api, "MOVE", tree["a"], "trash")
    assert response.status_code == 201, response.text
    error_message(lookup(api, f"/{text['top']}/{text['a']}"), 404)
    error_message(lookup(api, f"/{text['top']}/{text['a']}/{text['a1']}"), 404)
    headers = {"X-HTTP-Method-Override": "MOVE"}
    restored = api.request("POST", response.headers["location"], headers=headers, accept=media("Location"))
    assert restored.status_code == 201, restored.text
    assert path_of(restored.headers["location"]) == tree["a"]
    assert resolved(api, f"/{text['top']}/{text['a']}") == tree["a"]
    assert alias_path(api, tree["a"]) == f"/{text['top']}/{text['a']}"
