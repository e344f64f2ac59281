"""Shared-cache headers (rest/httpcache.py) and the user-context hash (``/_fos_user_context_hash``)."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.functional.content_support import main_location_path, published_folder
from tests.functional.role_support import assign, make_group, make_role, make_user
from tests.helpers import Api, media

SHARED = "public, max-age=0, s-maxage=86400"


def _keys(response: object) -> set[str]:
    return set(response.headers["xkey"].split())  # type: ignore[attr-defined]


def _through_proxy(client: TestClient, api: Api) -> dict[str, str]:
    """The header a proxy doing the hash flow adds to the administrator's requests."""
    return {"X-User-Context-Hash": _hash(client, api.auth)}


def test_a_content_read_carries_keys_of_the_item_its_type_and_every_ancestor(
    client: TestClient, api: Api
) -> None:
    parent = published_folder(api, "Parent")
    child = published_folder(api, "Child", parent=main_location_path(parent))
    response = api.get(
        f"/content/objects/{child['_id']}", accept=media("ContentInfo"), headers=_through_proxy(client, api)
    )
    assert response.status_code == 200
    assert response.headers["cache-control"] == SHARED
    assert response.headers["vary"] == "Accept, X-User-Context-Hash"
    assert "etag" in response.headers
    path = [int(part) for part in main_location_path(child).strip("/").split("/")]
    location_id = path[-1]
    expected = {f"c{child['_id']}", f"ct{child['ContentType']['_href'].rsplit('/', 1)[1]}", f"l{location_id}"}
    expected |= {f"pl{path[-2]}", "ez-all"} | {f"p{ancestor}" for ancestor in path}
    assert expected <= _keys(response)


def test_children_lists_are_tagged_with_the_parent(client: TestClient, api: Api) -> None:
    parent = published_folder(api, "Parent")
    location = main_location_path(parent)
    response = api.get(
        f"/content/locations/{location}/children",
        accept=media("LocationList"),
        headers=_through_proxy(client, api),
    )
    assert response.status_code == 200
    assert f"pl{location.rsplit('/', 1)[-1]}" in _keys(response)


def test_a_conditional_read_keeps_the_cache_headers(client: TestClient, api: Api) -> None:
    proxy = _through_proxy(client, api)
    first = api.get("/content/sections/1", accept=media("Section"), headers=proxy)
    again = api.get(
        "/content/sections/1",
        accept=media("Section"),
        headers={**proxy, "If-None-Match": first.headers["etag"]},
    )
    assert again.status_code == 304
    assert again.headers["cache-control"] == SHARED
    assert {"s1", "ez-all"} <= _keys(again)


def test_writes_errors_and_personal_routes_are_private(api: Api) -> None:
    created = api.post(
        "/content/sections",
        body={"SectionInput": {"identifier": "cached_not", "name": "No"}},
        content_type=media("SectionInput"),
        accept=media("Section"),
    )
    assert created.status_code == 201
    assert created.headers["cache-control"] == "private, no-store"
    missing = api.get("/content/objects/999999", accept=media("ContentInfo"))
    assert missing.status_code == 404
    assert missing.headers["cache-control"] == "private, no-store"
    me = api.get("/user/current", accept=media("User"))
    assert me.headers["cache-control"] == "private, no-store"
    assert "xkey" not in me.headers


def test_a_logged_in_read_without_a_hash_is_private_and_an_anonymous_one_shared(
    client: TestClient, api: Api
) -> None:
    """Without the hash flow a proxy would file the administrator's answer where anonymous readers look."""
    folder = published_folder(api, "Read without a hash")
    path = f"/content/objects/{folder['_id']}"
    logged_in = api.get(path, accept=media("ContentInfo"))
    assert logged_in.status_code == 200
    assert logged_in.headers["cache-control"] == "private, no-store"
    assert "xkey" not in logged_in.headers
    anonymous = client.get("/api/ibexa/v2" + path, headers={"Accept": media("ContentInfo")})
    assert anonymous.status_code == 200, anonymous.text
    assert anonymous.headers["cache-control"] == SHARED


def test_a_hash_that_is_not_the_callers_makes_the_answer_private(api: Api) -> None:
    response = api.get(
        "/content/sections/1", accept=media("Section"), headers={"X-User-Context-Hash": "forged"}
    )
    assert response.status_code == 200
    assert response.headers["cache-control"] == "private, no-store"


def _hash(client: TestClient, auth: str | None) -> str:
    response = client.get("/_fos_user_context_hash", headers={"Authorization": auth} if auth else {})
    assert response.status_code == 200, response.text
    assert response.headers["vary"] == "Cookie, Authorization"
    assert response.headers["cache-control"] == "max-age=600"
    return response.headers["x-user-context-hash"]


def test_the_user_context_hash_names_rights_not_people(client: TestClient, api: Api) -> None:
    group = make_group(api, "Readers")
    role = make_role(api, "hash_reader", ("content", "read", {}), ("user", "login", {}))
    assign(api, f"/user/groups/{group}", role)
    _, first = make_user(api, "hash_one", group)
    _, second = make_user(api, "hash_two", group)
    others = make_group(api, "Others")
    assign(api, f"/user/groups/{others}", make_role(api, "hash_login", ("user", "login", {})))
    _, other = make_user(api, "hash_three", others)
    assign(api, "/user/groups/" + make_group(api, "Nothing"), role)  # unrelated: changes no one above
    anonymous = _hash(client, None)
    admin = _hash(client, api.auth)
    one, two, three = _hash(client, first.auth), _hash(client, second.auth), _hash(client, other.auth)
    assert one == two
    assert len({anonymous, admin, one, three}) == 4
    # the hash the caller presents is its own: the answer may be shared
    folder = published_folder(api, "Read by both")
    shared = first.get(
        f"/content/objects/{folder['_id']}", accept=media("ContentInfo"), headers={"X-User-Context-Hash": two}
    )
    assert shared.status_code == 200
    assert shared.headers["cache-control"] == SHARED


def test_owner_limited_rights_are_never_shared(client: TestClient, api: Api) -> None:
    group = make_group(api, "Owners")
    role = make_role(api, "own_reader", ("content", "read", {"Owner": ["1"]}), ("user", "login", {}))
    assign(api, f"/user/groups/{group}", role)
    first_id, first = make_user(api, "owner_one", group)
    _, second = make_user(api, "owner_two", group)
    assert _hash(client, first.auth) != _hash(client, second.auth)
    own_hash = _hash(client, first.auth)
    response = first.get(
        f"/content/objects/{first_id}", accept=media("ContentInfo"), headers={"X-User-Context-Hash": own_hash}
    )
    assert response.status_code == 200
    assert response.headers["cache-control"] == "private, no-store"


def test_the_hash_route_reads_only(client: TestClient) -> None:
    response = client.post("/_fos_user_context_hash")
    assert response.status_code == 405
    assert response.headers["cache-control"] == "private, no-store"
