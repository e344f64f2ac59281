"""The root resource (shapes-content.md §2): every entry, its media type and its exact href.

Clients compare the templated hrefs by string, so the RFC 6570 form (``{?remoteId}``) is pinned here
entry by entry, in both dialects and both formats.
"""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

# (name, media type name or "" for an empty media-type, path below the prefix), in the reference's order
EXPECTED = [
    ("content", "", "/content/objects"),
    ("contentByRemoteId", "", "/content/objects{?remoteId}"),
    ("contentTypes", "ContentTypeInfoList", "/content/types"),
    ("contentTypeByIdentifier", "", "/content/types{?identifier}"),
    ("contentTypeGroups", "ContentTypeGroupList", "/content/typegroups"),
    ("contentTypeGroupByIdentifier", "", "/content/typegroups{?identifier}"),
    ("users", "UserRefList", "/user/users"),
    ("usersByRoleId", "UserRefList", "/user/users{?roleId}"),
    ("usersByRemoteId", "UserRefList", "/user/users{?remoteId}"),
    ("usersByEmail", "UserRefList", "/user/users{?email}"),
    ("usersByLogin", "UserRefList", "/user/users{?login}"),
    ("roles", "RoleList", "/user/roles"),
    ("rootLocation", "Location", "/content/locations/1/2"),
    ("rootUserGroup", "UserGroup", "/user/groups/1/5"),
    ("rootMediaFolder", "Location", "/content/locations/1/43"),
    ("locationByRemoteId", "", "/content/locations{?remoteId}"),
    ("locationByPath", "", "/content/locations{?locationPath}"),
    ("trash", "Trash", "/content/trash"),
    ("sections", "SectionList", "/content/sections"),
    ("views", "RefList", "/views"),
    ("objectStateGroups", "ObjectStateGroupList", "/content/objectstategroups"),
    ("objectStates", "ObjectStateList", "/content/objectstategroups/{objectStateGroupId}/objectstates"),
    ("globalUrlAliases", "UrlAliasRefList", "/content/urlaliases"),
    ("urlWildcards", "UrlWildcardList", "/content/urlwildcards"),
    ("createSession", "UserSession", "/user/sessions"),
    ("refreshSession", "UserSession", "/user/sessions/{sessionId}/refresh"),
    ("createToken", "JWT", "/user/token/jwt"),
]
DIALECTS = [pytest.param(PREFIX, "ibexa", id="ibexa"), pytest.param(EZ_PREFIX, "ez", id="ez")]


def expected(prefix: str, vendor: str, fmt: str) -> list[tuple[str, str, str]]:
    return [(name, media(kind, fmt, vendor) if kind else "", prefix + path) for name, kind, path in EXPECTED]


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_root_entries_in_json(client: TestClient, prefix: str, vendor: str) -> None:
    response = Api(client, prefix).get("/", accept=media("Root", "json", vendor))
    assert response.status_code == 200
    root = response.json()["Root"]
    assert root["_media-type"] == media("Root", "json", vendor)
    entries = [
        (name, link["_media-type"], link["_href"]) for name, link in root.items() if name != "_media-type"
    ]
    assert entries == expected(prefix, vendor, "json")
    assert all(set(link) == {"_media-type", "_href"} for name, link in root.items() if name != "_media-type")


@pytest.mark.parametrize(("prefix", "vendor"), DIALECTS)
def test_root_entries_in_xml(client: TestClient, prefix: str, vendor: str) -> None:
    response = Api(client, prefix).get("/", accept=media("Root", "xml", vendor))
    assert response.status_code == 200
    root = xml(response)
    entries = [(child.tag, child.get("media-type"), child.get("href")) for child in root]
    assert entries == expected(prefix, vendor, "xml")
    assert b"{?remoteId}" in response.content  # written literally, not escaped or expanded
