"""Custom location aliases and global aliases over HTTP: create, list, load, delete, and the errors
(endpoints-users.tsv, shapes-users.md §9 UrlAliasCreate, §11)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.functional.content_support import encode, main_location_path, published_folder
from tests.functional.support import error_message, unique
from tests.functional.url_alias_support import alias, alias_refs, lookup, md5, redirects_to
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml


def location_alias(path: str, location: str, **extra: Any) -> dict[str, Any]:
    return {
        "_type": "LOCATION",
        "location": {"_href": f"{PREFIX}/content/locations/{location}"},
        "path": path,
        "languageCode": "eng-GB",
        **extra,
    }


def global_alias(path: str, resource: str = "module:content/search", **extra: Any) -> dict[str, Any]:
    return {"_type": "GLOBAL", "resource": resource, "path": path, "languageCode": "eng-GB", **extra}


def create(api: Api, data: dict[str, Any], fmt: str = "json", vendor: str = "ibexa") -> httpx.Response:
    return api.post(
        "/content/urlaliases",
        body=encode("UrlAliasCreate", data, fmt),
        content_type=media("UrlAliasCreate", fmt, vendor),
        accept=media("UrlAlias", fmt, vendor),
    )


def test_create_a_custom_location_alias(api: Api) -> None:
    location = main_location_path(published_folder(api, unique("Target")))
    path = "/" + unique("go-here")
    response = create(api, location_alias(path, location, forward="true", alwaysAvailable=True))
    assert response.status_code == 201, response.text
    alias_id = f"0-{md5(path[1:])}"
    assert response.headers["location"] == f"{PREFIX}/content/urlaliases/{alias_id}"
    assert response.headers["content-type"] == media("UrlAlias")
    body = response.json()["UrlAlias"]
    assert body == alias(api, alias_id)
    assert body["_type"] == "LOCATION"
    assert body["location"]["_href"] == f"{PREFIX}/content/locations/{location.split('/')[-1]}"
    assert (body["path"], body["custom"], body["forward"], body["alwaysAvailable"]) == (
        path,
        True,
        True,
        True,
    )
    assert alias_refs(api, location, "") == [alias_id]
    assert alias_id not in alias_refs(api, location)  # not among the generated ones
    redirects_to(api, path, location)
    assert api.delete(f"/content/urlaliases/{alias_id}").status_code == 204
    assert alias_refs(api, location, "") == []
    error_message(lookup(api, path), 404)


def test_a_nested_path_gets_placeholders(api: Api) -> None:
    top = unique("virtual")
    response = create(api, location_alias(f"/{top}/deep/er", "1/5/13"))
    assert response.status_code == 201, response.text
    assert response.json()["UrlAlias"]["path"] == f"/{top}/deep/er"
    placeholder = alias(api, f"0-{md5(top)}")
    assert (placeholder["_type"], placeholder["resource"]) == ("VIRTUAL", None)
    redirects_to(api, f"/{top}/deep/er", "1/5/13")
    error_message(lookup(api, f"/{top}/deep"), 404)


def test_create_in_xml_and_the_ez_dialect(api: Api) -> None:
    path = "/" + unique("xml-alias")
    data = {
        "_type": "LOCATION",
        "location": {"_href": f"{EZ_PREFIX}/content/locations/1/43"},
        "path": path,
        "languageCode": "eng-GB",
    }
    response = create(Api(api.client, EZ_PREFIX), data, "xml", "ez")
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == media("UrlAlias", "xml", "ez")
    root = xml(response)
    assert root.get("type") == "LOCATION"
    assert root.find("location").get("href") == f"{EZ_PREFIX}/content/locations/43"
    assert (root.findtext("path"), root.findtext("custom"), root.findtext("forward")) == (
        path,
        "true",
        "false",
    )


def test_global_aliases(api: Api) -> None:
    path = "/" + unique("search")
    response = create(api, global_alias(path))
    assert response.status_code == 201, response.text
    alias_id = response.json()["UrlAlias"]["_id"]
    body = alias(api, alias_id)
    assert body["_type"] == "RESOURCE"
    assert body["resource"] == "module:content/search"
    assert "location" not in body
    assert (body["path"], body["custom"], body["alwaysAvailable"], body["forward"]) == (
        path,
        True,
        False,
        False,
    )
    listed = api.get("/content/urlaliases", accept=media("UrlAliasRefList")).json()["UrlAliasRefList"]
    assert {"_media-type": media("UrlAlias"), "_href": f"{PREFIX}/content/urlaliases/{alias_id}"} in listed[
        "UrlAlias"
    ]
    error_message(lookup(api, path), 404)  # leads to no location
    assert api.delete(f"/content/urlaliases/{alias_id}").status_code == 204
    error_message(api.get(f"/content/urlaliases/{alias_id}", accept=media("UrlAlias")), 404)
    error_message(api.delete(f"/content/urlaliases/{alias_id}", accept=media("UrlAlias")), 404)


@pytest.mark.parametrize(
    "data",
    [
        location_alias("/Users", "1/43"),  # a generated alias holds the path
        location_alias("/users/EDITORS", "1/43"),  # in any case
        global_alias("/Media"),
        global_alias("/x-" + unique(), resource="no-scheme"),
        location_alias("/", "1/43"),  # no segment
        location_alias("/x-" + unique(), "1/43", languageCode="xxx-XX"),
    ],
)
def test_create_refused_with_403(api: Api, data: dict[str, Any]) -> None:
    error_message(create(api, data), 403)


def test_the_same_custom_path_twice_is_403(api: Api) -> None:
    path = "/" + unique("once")
    assert create(api, location_alias(path, "1/43")).status_code == 201
    body = error_message(create(api, location_alias(path, "1/5")), 403)
    assert path in body["errorDescription"]


@pytest.mark.parametrize(
    ("data", "named"),
    [
        (
            {
                "location": {"_href": f"{PREFIX}/content/locations/1/43"},
                "path": "/a",
                "languageCode": "eng-GB",
            },
            "_type",
        ),
        ({"_type": "LOCATION", "path": "/a", "languageCode": "eng-GB"}, "location"),
        ({"_type": "GLOBAL", "path": "/a", "languageCode": "eng-GB"}, "resource"),
        ({**location_alias("/a", "1/43"), "path": None}, "path"),
        (
            {
                "_type": "LOCATION",
                "location": {"_href": "/elsewhere/43"},
                "path": "/a",
                "languageCode": "eng-GB",
            },
            "location",
        ),
        (location_alias("/a", "1/43", forward="maybe"), "forward"),
    ],
)
def test_bad_input_is_400_naming_the_field(api: Api, data: dict[str, Any], named: str) -> None:
    data = {k: v for k, v in data.items() if v is not None}
    body = error_message(create(api, data), 400)
    assert named in body["errorDescription"]


def test_an_unknown_location_is_404(api: Api) -> None:
    error_message(create(api, location_alias("/" + unique("lost"), "1/2/99999")), 404)


def test_generated_aliases_cannot_be_deleted(api: Api) -> None:
    response = api.delete("/content/urlaliases/0-9bc65c2abec141778ffaa729489f3e87", accept=media("UrlAlias"))
    error_message(response, 406)
    assert alias_refs(api, "1/5") == ["0-9bc65c2abec141778ffaa729489f3e87"]


@pytest.mark.parametrize("alias_id", ["0-" + "0" * 32, "not-an-id", "99999999999-" + "a" * 32, "1-ABC"])
def test_unknown_alias_ids_are_404(api: Api, alias_id: str) -> None:
    error_message(api.get(f"/content/urlaliases/{alias_id}", accept=media("UrlAlias")), 404)


def test_anonymous_may_not_create_or_delete(api: Api) -> None:
    anonymous = Api(api.client, auth=None)
    error_message(create(anonymous, global_alias("/" + unique("anon"))), 401)
    response = anonymous.delete(
        "/content/urlaliases/0-9bc65c2abec141778ffaa729489f3e87", accept=media("UrlAlias")
    )
    error_message(response, 401)
    assert anonymous.get("/content/urlaliases", accept=media("UrlAliasRefList")).status_code == 200
