"""The groups of a content type over HTTP: list, link, unlink (service-description.md "Content types",
shapes-content.md §14 ContentTypeGroupRefList)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.functional.content_types_support import get_json, new_draft, publish
from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

# -- groups of a type --------------------------------------------------------------------------------


def group_refs(api: Api, type_id: int) -> list[Any]:
    refs: list[Any] = get_json(api, f"/content/types/{type_id}/groups", "ContentTypeGroupRefList")[
        "ContentTypeGroupRef"
    ]
    return refs


def link(api: Api, type_id: int, group: str) -> Any:
    return api.post(f"/content/types/{type_id}/groups?group={group}", accept=media("ContentTypeGroupRefList"))


def test_groups_of_a_type(api: Api) -> None:
    response = api.get("/content/types/5/groups", accept=media("ContentTypeGroupRefList"))
    assert response.json() == {
        "ContentTypeGroupRefList": {
            "_media-type": media("ContentTypeGroupRefList"),
            "_href": f"{PREFIX}/content/types/5/groups",
            "ContentTypeGroupRef": [
                {"_media-type": media("ContentTypeGroup"), "_href": f"{PREFIX}/content/typegroups/3"}
            ],
        }
    }


def test_link_and_unlink_a_group(api: Api) -> None:
    response = link(api, 5, f"{PREFIX}/content/typegroups/1")
    assert response.status_code == 200, response.text
    refs = response.json()["ContentTypeGroupRefList"]["ContentTypeGroupRef"]
    assert refs == group_refs(api, 5)
    assert [(r["_href"], r["unlink"]) for r in refs] == [
        (
            f"{PREFIX}/content/typegroups/1",
            {"_href": f"{PREFIX}/content/types/5/groups/1", "_method": "DELETE"},
        ),
        (
            f"{PREFIX}/content/typegroups/3",
            {"_href": f"{PREFIX}/content/types/5/groups/3", "_method": "DELETE"},
        ),
    ]
    in_content = get_json(api, "/content/typegroups/1/types", "ContentTypeInfoList")["ContentType"]
    assert [t["id"] for t in in_content] == [1, 2, 5]
    response = api.delete("/content/types/5/groups/3", accept=media("ContentTypeGroupRefList"))
    assert response.status_code == 200
    assert group_refs(api, 5) == [
        {"_media-type": media("ContentTypeGroup"), "_href": f"{PREFIX}/content/typegroups/1"}
    ]


def test_link_a_group_keeps_the_draft_in_step(api: Api) -> None:
    new_draft(api, 5)
    assert link(api, 5, f"{EZ_PREFIX}/content/typegroups/2").status_code == 200
    assert publish(api, 5).status_code == 200
    assert [r["_href"] for r in group_refs(api, 5)] == [
        f"{PREFIX}/content/typegroups/2", f"{PREFIX}/content/typegroups/3"
    ]  # fmt: skip


def test_link_an_assigned_group_is_403(api: Api) -> None:
    response = link(api, 5, f"{PREFIX}/content/typegroups/3")
    assert (
        error_message(response, 403)["errorDescription"]
        == "Content type 5 is already in content type group 3"
    )


@pytest.mark.parametrize("group", ["", "/content/typegroups/1", f"{PREFIX}/content/sections/1"])
def test_link_with_a_bad_group_reference_is_400(api: Api, group: str) -> None:
    assert link(api, 5, group).status_code == 400
    assert len(group_refs(api, 5)) == 1


def test_link_an_unknown_group_is_400(api: Api) -> None:
    response = link(api, 5, f"{PREFIX}/content/typegroups/99")
    assert error_message(response, 400)["errorDescription"] == "Content type group 99 does not exist"


def test_unlink_the_last_group_is_403(api: Api) -> None:
    response = api.delete("/content/types/5/groups/3", accept=media("ContentTypeGroupRefList"))
    assert error_message(response, 403)["errorDescription"] == (
        "Content type group 3 is the last group of content type 5"
    )


def test_unlink_a_group_the_type_is_not_in_is_404(api: Api) -> None:
    assert api.delete("/content/types/5/groups/1").status_code == 404


def test_groups_of_an_unknown_type_is_404(api: Api) -> None:
    assert api.get("/content/types/99/groups", accept=media("ContentTypeGroupRefList")).status_code == 404


def test_groups_in_xml(api: Api) -> None:
    link(api, 4, f"{PREFIX}/content/typegroups/1")
    root = xml(api.get("/content/types/4/groups", accept=media("ContentTypeGroupRefList", "xml")))
    assert [(r.tag, r.get("href"), r.find("unlink").get("method")) for r in root] == [
        ("ContentTypeGroupRef", f"{PREFIX}/content/typegroups/1", "DELETE"),
        ("ContentTypeGroupRef", f"{PREFIX}/content/typegroups/2", "DELETE"),
    ]
