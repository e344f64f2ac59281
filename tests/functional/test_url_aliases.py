"""URL aliases over HTTP: the clean install's aliases, aliases generated on publish (collisions, renames
and the history that keeps old paths resolving), custom and global aliases, and ``?urlAlias=`` lookups
(shapes-users.md §11, install.md §11, endpoints-users.tsv)."""

from __future__ import annotations

import pytest

from tests.functional.content_support import (
    ROOT,
    field,
    main_location_path,
    new_draft,
    publish,
    published_folder,
    update_version,
)
from tests.functional.support import error_message, unique
from tests.functional.url_alias_support import alias, alias_refs, lookup, md5, redirects_to
from tests.helpers import EZ_PREFIX, PREFIX, Api, StatementCounter, media, xml

# REST id, location path, alias path (install.md §11)
CLEAN_ALIASES = [
    ("0-d41d8cd98f00b204e9800998ecf8427e", "1/2", "/"),
    ("0-9bc65c2abec141778ffaa729489f3e87", "1/5", "/Users"),
    ("0-62933a2951ef01f4eafd9bdf4d3cd2f0", "1/43", "/Media"),
    ("2-e57843d836e3af8ab611fde9e2139b3a", "1/5/12", "/Users/Guest-accounts"),
    ("2-f89fad7f8a3abc8c09e1deb46a420007", "1/5/13", "/Users/Administrator-users"),
    ("2-a147e136bfa717592f2bd70bd4b53b17", "1/5/14", "/Users/Editors"),
    ("2-c2803c3fa1b0b5423237b4e018cae755", "1/5/44", "/Users/Anonymous-Users"),
    ("5-5a9d7b0ec93173ef4fedee023209cb61", "1/5/13/15", "/Users/Administrator-users/Administrator-User"),
    ("10-ccb62ebca03a31272430bc414bd5cd5b", "1/5/44/45", "/Users/Anonymous-Users/Anonymous-User"),
    ("9-59b514174bffe4ae402b3d63aad79fe0", "1/43/51", "/Media/Images"),
    ("9-45b963397aa40d4a0063e0d85e4fe7a1", "1/43/52", "/Media/Files"),
    ("9-2e5bc8831f7ae6a29530e7f1bbf2de9c", "1/43/53", "/Media/Multimedia"),
]


def rename(api: Api, content_id: int, name: str) -> None:
    draft = new_draft(api, content_id)
    assert update_version(api, content_id, draft, [field("name", name)]).status_code == 200
    publish(api, content_id, draft)


def folder_path(api: Api, name: str, parent: str = ROOT) -> str:
    return main_location_path(published_folder(api, name, parent))


# -- the clean install ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("alias_id", "path", "alias_path"), CLEAN_ALIASES)
def test_clean_install_aliases(api: Api, alias_id: str, path: str, alias_path: str) -> None:
    assert alias_refs(api, path) == [alias_id]
    assert alias(api, alias_id) == {
        "_media-type": media("UrlAlias"),
        "_href": f"{PREFIX}/content/urlaliases/{alias_id}",
        "_id": alias_id,
        "_type": "LOCATION",
        "location": {
            "_media-type": media("Location"),
            "_href": f"{PREFIX}/content/locations/{path.rsplit('/', 1)[-1]}",
        },
        "path": alias_path,
        "languageCodes": "eng-GB",
        "alwaysAvailable": True,
        "isHistory": False,
        "forward": False,
        "custom": False,
    }
    redirects_to(api, alias_path, path)


@pytest.mark.parametrize("query", ["", "?custom=true", "?custom=False", "?custom=0"])
def test_custom_aliases_are_listed_unless_custom_is_false(api: Api, query: str) -> None:
    assert alias_refs(api, "1/5", query) == []


def test_clean_install_lists_in_xml_and_the_ez_dialect(api: Api) -> None:
    ez = Api(api.client, EZ_PREFIX)
    response = ez.get(
        "/content/locations/1/5/urlaliases?custom=false", accept=media("UrlAliasRefList", "xml", "ez")
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == media("UrlAliasRefList", "xml", "ez")
    root = xml(response)
    assert root.tag == "UrlAliasRefList"
    assert root.get("href") == f"{EZ_PREFIX}/content/locations/1/5/urlaliases"
    assert [ref.get("href") for ref in root.findall("UrlAlias")] == [
        f"{EZ_PREFIX}/content/urlaliases/0-9bc65c2abec141778ffaa729489f3e87"
    ]
    response = ez.get(
        "/content/urlaliases/0-9bc65c2abec141778ffaa729489f3e87", accept=media("UrlAlias", "xml", "ez")
    )
    root = xml(response)
    assert root.tag == "UrlAlias"
    assert root.get("type") == "LOCATION"
    assert root.find("location").get("href") == f"{EZ_PREFIX}/content/locations/5"
    assert root.findtext("path") == "/Users"
    assert root.findtext("isHistory") == "false"
    for prefix, vendor in ((PREFIX, "ibexa"), (EZ_PREFIX, "ez")):
        response = Api(api.client, prefix).get(
            "/content/urlaliases", accept=media("UrlAliasRefList", "json", vendor)
        )
        assert response.json() == {
            "UrlAliasRefList": {
                "_media-type": media("UrlAliasRefList", "json", vendor),
                "_href": f"{prefix}/content/urlaliases",
                "UrlAlias": [],
            }
        }


def test_location_links_to_its_aliases(api: Api) -> None:
    body = api.get("/content/locations/1/5", accept=media("Location")).json()["Location"]
    assert body["UrlAliases"] == {
        "_media-type": media("UrlAliasRefList"),
        "_href": f"{PREFIX}/content/locations/1/5/urlaliases",
    }


def test_aliases_of_an_unknown_location_are_404(api: Api) -> None:
    error_message(api.get("/content/locations/1/999/urlaliases", accept=media("UrlAliasRefList")), 404)
    error_message(api.get("/content/locations/1/2/5/urlaliases", accept=media("UrlAliasRefList")), 404)


# -- lookups -----------------------------------------------------------------------------------------
def test_lookup_ignores_case_and_slashes(api: Api) -> None:
    redirects_to(api, "/users/ADMINISTRATOR-USERS/", "1/5/13")
    redirects_to(api, "users/editors", "1/5/14")
    redirects_to(api, "/", "1/2")


@pytest.mark.parametrize("url", ["/nothing-here", "/Users/Nobody", "/Users/Editors/x"])
def test_lookup_of_an_unknown_alias_is_404(api: Api, url: str) -> None:
    body = error_message(lookup(api, url), 404)
    assert url in body["errorDescription"]


def test_history_and_placeholder_entries_of_the_clean_install(api: Api) -> None:
    # The lower-case history entry of "Guest accounts" still leads to its location.
    redirects_to(api, "/users/guest_accounts", "1/5/12")
    history = alias(api, f"2-{md5('guest_accounts')}")
    assert history["isHistory"] is True
    assert history["path"] == "/Users/guest_accounts"
    virtual = alias(api, f"0-{md5('users2')}")
    assert virtual["_type"] == "VIRTUAL"
    assert virtual["resource"] is None
    error_message(lookup(api, "/users2"), 404)  # a placeholder leads to no location


# -- generated on publish ------------------------------------------------------------------------------
def test_publishing_generates_the_alias_from_the_name(api: Api) -> None:
    name = unique("Spring news") + " & more!"
    path = folder_path(api, name)
    text = name.replace(" & more!", "-more").replace(" ", "-")
    assert alias_refs(api, path) == [f"0-{md5(text)}"]
    body = alias(api, f"0-{md5(text)}")
    assert body["path"] == f"/{text}"
    assert body["location"]["_href"] == f"{PREFIX}/content/locations/{path.rsplit('/', 1)[-1]}"
    assert (body["custom"], body["isHistory"], body["languageCodes"]) == (False, False, "eng-GB")
    redirects_to(api, f"/{text}", path)
    assert alias_refs(api, path, "") == []  # no custom aliases


def test_a_name_taken_below_the_parent_gets_a_numeric_suffix(api: Api) -> None:
    name = unique("Twin")
    paths = [folder_path(api, name) for _ in range(3)]
    assert [alias(api, alias_refs(api, p)[0])["path"] for p in paths] == [
        f"/{name}",
        f"/{name}2",
        f"/{name}3",
    ]
    for suffix, path in zip(("", "2", "3"), paths, strict=True):
        redirects_to(api, f"/{name}{suffix}", path)


def test_a_clean_install_placeholder_is_reused(api: Api) -> None:
    # "Users" is taken at the top by location 5; "Users2" is a placeholder that a new item may take.
    path = folder_path(api, "Users")
    assert alias_refs(api, path) == [f"0-{md5('users2')}"]
    assert alias(api, f"0-{md5('users2')}")["_type"] == "LOCATION"
    redirects_to(api, "/Users2", path)
    redirects_to(api, "/Users", "1/5")


def test_children_hang_below_their_parent(api: Api) -> None:
    parent_name = unique("Parent")
    parent = folder_path(api, parent_name)
    child = folder_path(api, "Child", parent)
    (child_id,) = alias_refs(api, child)
    assert alias(api, child_id)["path"] == f"/{parent_name}/Child"
    redirects_to(api, f"/{parent_name}/child", child)
    # The same name below another parent needs no suffix.
    other = folder_path(api, "Child", folder_path(api, unique("Other")))
    assert alias(api, alias_refs(api, other)[0])["path"].endswith("/Child")


def test_rename_keeps_the_old_path_as_history(api: Api) -> None:
    old_name, new_name = unique("Before"), unique("After")
    info = published_folder(api, old_name)
    path = main_location_path(info)
    child = folder_path(api, "Kid", path)
    rename(api, info["_id"], new_name)
    assert alias_refs(api, path) == [f"0-{md5(new_name)}"]
    assert alias(api, f"0-{md5(new_name)}")["path"] == f"/{new_name}"
    old = alias(api, f"0-{md5(old_name)}")
    assert (old["isHistory"], old["path"]) == (True, f"/{old_name}")
    redirects_to(api, f"/{old_name}", path)
    redirects_to(api, f"/{new_name}", path)
    # The subtree follows without being rewritten, and its old paths resolve too.
    assert alias(api, alias_refs(api, child)[0])["path"] == f"/{new_name}/Kid"
    redirects_to(api, f"/{old_name}/Kid", child)
    # Renaming back takes the history entry over again.
    rename(api, info["_id"], old_name)
    assert alias_refs(api, path) == [f"0-{md5(old_name)}"]
    assert alias(api, f"0-{md5(new_name)}")["isHistory"] is True


def test_an_added_location_gets_its_own_alias(api: Api) -> None:
    name = unique("Twice")
    info = published_folder(api, name)
    target = folder_path(api, unique("Elsewhere"))
    response = api.post(
        f"/content/objects/{info['_id']}/locations",
        body={"LocationCreate": {"ParentLocation": {"_href": f"{PREFIX}/content/locations/{target}"}}},
        content_type=media("LocationCreate"),
        accept=media("Location"),
    )
    assert response.status_code == 201, response.text
    added = response.json()["Location"]["pathString"].strip("/")
    (added_alias,) = alias_refs(api, added)
    assert alias(api, added_alias)["path"].endswith(f"/{name}")
    assert alias_refs(api, main_location_path(info)) == [f"0-{md5(name)}"]


def test_deleting_content_removes_its_aliases(api: Api) -> None:
    name = unique("Doomed")
    info = published_folder(api, name)
    child = folder_path(api, "Below", main_location_path(info))
    child_alias = alias_refs(api, child)[0]
    assert api.delete(f"/content/objects/{info['_id']}").status_code == 204
    error_message(api.get(f"/content/urlaliases/0-{md5(name)}", accept=media("UrlAlias")), 404)
    error_message(api.get(f"/content/urlaliases/{child_alias}", accept=media("UrlAlias")), 404)
    error_message(lookup(api, f"/{name}"), 404)
    # The name is free again.
    assert alias_refs(api, folder_path(api, name)) == [f"0-{md5(name)}"]


# -- statement counts ----------------------------------------------------------------------------------
def test_lookup_costs_one_statement_per_segment(api: Api) -> None:
    counts: list[int] = []
    for url, path in (("/Users", "1/5"), ("/Users/Anonymous-Users/Anonymous-User", "1/5/44/45")):
        redirects_to(api, url, path)  # warm the credential cache
        with StatementCounter() as counter:
            redirects_to(api, url, path)
        counts.append(counter.count)
    assert counts[1] - counts[0] == 2


def test_loading_an_alias_reads_its_ancestors_one_level_at_a_time(api: Api) -> None:
    counts: list[int] = []
    for alias_id in ("0-9bc65c2abec141778ffaa729489f3e87", "10-ccb62ebca03a31272430bc414bd5cd5b"):
        alias(api, alias_id)
        with StatementCounter() as counter:
            alias(api, alias_id)
        counts.append(counter.count)
    assert counts[1] - counts[0] == 2  # /Users/Anonymous-Users/Anonymous-User: two levels above


def test_listing_costs_the_same_for_one_alias_or_many(api: Api) -> None:
    target = folder_path(api, "Leaf", folder_path(api, unique("Level")))
    counts: list[int] = []
    for _ in range(3):
        response = api.post(
            "/content/urlaliases",
            body={
                "UrlAliasCreate": {
                    "_type": "LOCATION",
                    "location": {"_href": f"{PREFIX}/content/locations/{target}"},
                    "path": f"/{unique('nest')}/{unique('extra')}",
                    "languageCode": "eng-GB",
                }
            },
            content_type=media("UrlAliasCreate"),
            accept=media("UrlAlias"),
        )
        assert response.status_code == 201, response.text
        with StatementCounter() as counter:
            assert len(alias_refs(api, target, "")) == len(counts) + 1
        counts.append(counter.count)
    assert counts[0] == counts[1] == counts[2]
