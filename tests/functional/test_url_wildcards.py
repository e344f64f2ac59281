"""URL wildcards over HTTP: list, create, load, delete, and lookups through them
(endpoints-users.tsv, shapes-users.md §12)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.functional.content_support import encode, main_location_path, published_folder
from tests.functional.support import error_message, unique
from tests.functional.url_alias_support import lookup, redirects_to
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml


def create(
    api: Api,
    source: str | None,
    destination: str | None,
    forward: Any = "true",
    fmt: str = "json",
    vendor: str = "ibexa",
) -> httpx.Response:
    data = {
        k: v
        for k, v in (("sourceUrl", source), ("destinationUrl", destination), ("forward", forward))
        if v is not None
    }
    return api.post(
        "/content/urlwildcards",
        body=encode("UrlWildcardCreate", data, fmt),
        content_type=media("UrlWildcardCreate", fmt, vendor),
        accept=media("UrlWildcard", fmt, vendor),
    )


def wildcard_list(api: Api) -> list[dict[str, Any]]:
    response = api.get("/content/urlwildcards", accept=media("UrlWildcardList"))
    assert response.status_code == 200
    body = response.json()["UrlWildcardList"]
    assert body["_media-type"] == media("UrlWildcardList")
    assert body["_href"] == f"{PREFIX}/content/urlwildcards"
    items: list[dict[str, Any]] = body["UrlWildcard"]
    return items


def test_clean_install_has_none(api: Api) -> None:
    assert wildcard_list(api) == []
    response = Api(api.client, EZ_PREFIX).get(
        "/content/urlwildcards", accept=media("UrlWildcardList", "xml", "ez")
    )
    root = xml(response)
    assert (root.tag, root.get("href"), list(root)) == (
        "UrlWildcardList",
        f"{EZ_PREFIX}/content/urlwildcards",
        [],
    )


def test_create_load_list_delete(api: Api) -> None:
    response = create(api, " old/* ", "/new/{1}/", forward=True)
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"{PREFIX}/content/urlwildcards/1"  # the clean install's next id
    expected = {
        "_media-type": media("UrlWildcard"),
        "_href": f"{PREFIX}/content/urlwildcards/1",
        "_id": 1,
        "sourceUrl": "/old/*",
        "destinationUrl": "/new/{1}",
        "forward": True,
    }
    assert response.json() == {"UrlWildcard": expected}
    loaded = api.get("/content/urlwildcards/1", accept=media("UrlWildcard"))
    assert loaded.json() == {"UrlWildcard": expected}
    assert wildcard_list(api) == [expected]
    second = create(api, "/other/*/*", "/x/{2}/{1}", forward="false")
    assert second.json()["UrlWildcard"]["_id"] == 2
    assert [w["_id"] for w in wildcard_list(api)] == [1, 2]
    assert api.delete("/content/urlwildcards/1").status_code == 204
    error_message(api.get("/content/urlwildcards/1", accept=media("UrlWildcard")), 404)
    error_message(api.delete("/content/urlwildcards/1", accept=media("UrlWildcard")), 404)
    assert [w["_id"] for w in wildcard_list(api)] == [2]


def test_create_in_xml_and_the_ez_dialect(api: Api) -> None:
    response = create(Api(api.client, EZ_PREFIX), "/xml/*", "/y/{1}", forward="false", fmt="xml", vendor="ez")
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == media("UrlWildcard", "xml", "ez")
    root = xml(response)
    assert root.get("href") == f"{EZ_PREFIX}/content/urlwildcards/{root.get('id')}"
    assert (root.findtext("sourceUrl"), root.findtext("destinationUrl"), root.findtext("forward")) == (
        "/xml/*",
        "/y/{1}",
        "false",
    )


@pytest.mark.parametrize(
    ("source", "destination", "forward", "named"),
    [
        (None, "/a", "true", "sourceUrl"),
        ("/a/*", None, "true", "destinationUrl"),
        ("/a/*", "/b", None, "forward"),
        ("/a/*", "/b", "sometimes", "forward"),
    ],
)
def test_missing_or_bad_fields_are_400(
    api: Api, source: str | None, destination: str | None, forward: Any, named: str
) -> None:
    body = error_message(create(api, source, destination, forward), 400)
    assert named in body["errorDescription"]
    assert wildcard_list(api) == []


def test_refused_with_403(api: Api) -> None:
    assert create(api, "/dup/*", "/x/{1}").status_code == 201
    error_message(create(api, "dup/*/", "/elsewhere"), 403)  # the same source once cleaned
    error_message(create(api, "/one/*", "/x/{2}"), 403)  # {2} without a second *
    error_message(create(api, "/two/*", "/x/{" + "9" * 5000 + "}"), 403)  # once int() of 5,000 digits: 500
    assert len(wildcard_list(api)) == 1


def test_anonymous_may_not_create_or_delete(api: Api) -> None:
    anonymous = Api(api.client, auth=None)
    error_message(create(anonymous, "/anon/*", "/x"), 401)
    assert create(api, "/kept/*", "/x").status_code == 201
    error_message(anonymous.delete("/content/urlwildcards/1", accept=media("UrlWildcard")), 401)
    assert len(wildcard_list(api)) == 1


def test_lookup_through_a_wildcard(api: Api) -> None:
    name = unique("Archive")
    location = main_location_path(published_folder(api, name))
    assert create(api, "/legacy/*/page", f"/{name}{{1}}").status_code == 201
    redirects_to(api, "/legacy//page", location)  # {1} is empty
    error_message(lookup(api, "/legacy/2/page"), 404)  # translates to /<name>2, which does not exist
    error_message(lookup(api, "/legacy/page"), 404)  # no match
    # An alias wins over a wildcard.
    assert create(api, "/*", "/Users").status_code == 201
    redirects_to(api, "/Media", "1/43")
    redirects_to(api, "/" + unique("nowhere"), "1/5")
