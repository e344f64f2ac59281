"""Relations over HTTP: COMMON relations of drafts, field relations and rich text LINK/EMBED relations
recorded on every save of a draft (spec/endpoints-content.tsv relation rows, shapes-content.md §7)."""

from __future__ import annotations

from typing import Any

from tests.functional.content_support import (
    ARTICLE,
    INTRO,
    content_create,
    create_folder,
    encode,
    field,
    new_draft,
    post_content,
    publish,
    published_folder,
    update_version,
    version,
)
from tests.functional.support import error_message
from tests.helpers import PREFIX, Api, StatementCounter, media, xml


def relate(api: Api, content_id: int, version_no: int, destination: int, fmt: str = "json") -> Any:
    body = encode(
        "RelationCreate", {"Destination": {"_href": f"{PREFIX}/content/objects/{destination}"}}, fmt
    )
    return api.post(
        f"/content/objects/{content_id}/versions/{version_no}/relations",
        body=body,
        content_type=media("RelationCreate", fmt),
        accept=media("Relation", fmt),
    )


def relations(api: Api, content_id: int, version_no: int, query: str = "") -> list[dict[str, Any]]:
    response = api.get(
        f"/content/objects/{content_id}/versions/{version_no}/relations{query}", accept=media("RelationList")
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == media("RelationList")
    items: list[dict[str, Any]] = response.json()["Relations"]["Relation"]
    return items


def test_add_a_common_relation_to_a_draft(api: Api) -> None:
    target = published_folder(api, "Target")
    source = create_folder(api, "Source")
    response = relate(api, source["_id"], 1, target["_id"])
    assert response.status_code == 201
    relation = response.json()["Relation"]
    assert response.headers["location"] == relation["_href"]
    assert relation["_href"].startswith(f"{PREFIX}/content/objects/{source['_id']}/versions/1/relations/")
    assert relation["SourceContent"] == {
        "_media-type": media("ContentInfo"),
        "_href": f"{PREFIX}/content/objects/{source['_id']}",
    }
    assert relation["DestinationContent"]["_href"] == f"{PREFIX}/content/objects/{target['_id']}"
    assert relation["RelationType"] == "COMMON"
    assert "SourceFieldDefinitionIdentifier" not in relation
    assert [r["_href"] for r in relations(api, source["_id"], 1)] == [relation["_href"]]
    loaded = api.get(relation["_href"], accept=media("Relation"))
    assert loaded.status_code == 200 and loaded.json()["Relation"] == relation


def test_relation_in_xml(api: Api) -> None:
    source = create_folder(api, "Xml source")
    response = relate(api, source["_id"], 1, 41, fmt="xml")
    assert response.status_code == 201
    root = xml(response)
    assert root.tag == "Relation" and root.findtext("RelationType") == "COMMON"
    listing = xml(
        api.get(f"/content/objects/{source['_id']}/versions/1/relations", accept=media("RelationList", "xml"))
    )
    assert listing.tag == "Relations" and len(listing.findall("Relation")) == 1


def test_relation_errors(api: Api) -> None:
    source = create_folder(api, "Errors")
    assert relate(api, source["_id"], 1, 41).status_code == 201
    error_message(relate(api, source["_id"], 1, 41), 403)  # duplicate
    error_message(relate(api, source["_id"], 1, 9999), 404)  # destination missing
    publish(api, source["_id"])
    error_message(relate(api, source["_id"], 1, 49), 403)  # not a draft
    error_message(
        api.get(f"/content/objects/{source['_id']}/versions/1/relations/9999", accept=media("Relation")), 404
    )


def test_relations_are_copied_into_new_drafts_and_paginated(api: Api) -> None:
    source = create_folder(api, "Many")
    for destination in (41, 49, 50):
        assert relate(api, source["_id"], 1, destination).status_code == 201
    publish(api, source["_id"])
    draft = new_draft(api, source["_id"])
    assert len(relations(api, source["_id"], draft)) == 3
    assert len(relations(api, source["_id"], draft, "?offset=1&limit=1")) == 1


def test_delete_a_common_relation(api: Api) -> None:
    source = create_folder(api, "Unrelate")
    href = relate(api, source["_id"], 1, 41).json()["Relation"]["_href"]
    assert api.delete(href).status_code == 204
    assert relations(api, source["_id"], 1) == []
    error_message(api.delete(href, accept=media("Relation")), 404)


def test_field_relations_show_on_the_draft(api: Api) -> None:
    """The reference records field relations on every save of a draft, not only on publish."""
    target = published_folder(api, "Picture")
    data = content_create(
        [
            field("title", "Story"),
            field("intro", {"xml": INTRO}),
            field("image", {"destinationContentId": target["_id"]}),
        ],
        type_id=ARTICLE,
    )
    article = post_content(api, data).json()["Content"]
    [relation] = relations(api, article["_id"], 1)
    assert relation["RelationType"] == "ATTRIBUTE"
    assert relation["SourceFieldDefinitionIdentifier"] == "image"
    assert relation["DestinationContent"]["_href"] == f"{PREFIX}/content/objects/{target['_id']}"
    assert version(api, article["_id"], 1)["Relations"]["Relation"] == [relation]
    publish(api, article["_id"])
    assert relations(api, article["_id"], 1) == [relation]
    draft = new_draft(api, article["_id"])
    [copied] = relations(api, article["_id"], draft)
    error_message(api.delete(copied["_href"], accept=media("Relation")), 403)  # not COMMON
    # clearing the field on the draft drops its relation there, not on the published version
    assert update_version(api, article["_id"], draft, [field("image", None)]).status_code == 200
    assert relations(api, article["_id"], draft) == []
    assert relations(api, article["_id"], 1) == [relation]


def rich_text(*inner: str) -> dict[str, str]:
    return {
        "xml": '<?xml version="1.0" encoding="UTF-8"?><section xmlns="http://docbook.org/ns/docbook" '
        'xmlns:xlink="http://www.w3.org/1999/xlink" version="5.0-variant ezpublish-1.0">'
        + "".join(inner)
        + "</section>"
    }


def kinds(items: list[dict[str, Any]]) -> list[tuple[str, str, str | None]]:
    return [
        (
            r["RelationType"],
            r["DestinationContent"]["_href"].rsplit("/", 1)[1],
            r.get("SourceFieldDefinitionIdentifier"),
        )
        for r in items
    ]


def test_rich_text_links_and_embeds_are_relations(api: Api) -> None:
    linked, located, embedded, pictured = (published_folder(api, name) for name in "ABCD")
    located_location = located["MainLocation"]["_href"].rsplit("/", 1)[1]
    intro = rich_text(
        f'<para><link xlink:href="ezcontent://{linked["_id"]}#top">a</link> ',
        f'<link xlink:href="ezlocation://{located_location}">b</link> ',
        '<link xlink:href="https://example.com/">outside</link> ',
        '<link xlink:href="ezcontent://999999">gone</link></para>',
        f'<ezembed xlink:href="ezcontent://{embedded["_id"]}" view="embed"/>',
    )
    data = content_create(
        [
            field("title", "Linked story"),
            field("intro", intro),
            field("image", {"destinationContentId": pictured["_id"]}),
        ],
        type_id=ARTICLE,
    )
    article = post_content(api, data).json()["Content"]
    assert relate(api, article["_id"], 1, linked["_id"]).status_code == 201
    expected = [
        ("LINK", str(linked["_id"]), None),
        ("LINK", str(located["_id"]), None),  # ezlocation:// names the location's content
        ("EMBED", str(embedded["_id"]), None),
        ("ATTRIBUTE", str(pictured["_id"]), "image"),
        ("COMMON", str(linked["_id"]), None),
    ]
    assert sorted(kinds(relations(api, article["_id"], 1))) == sorted(expected)
    # the version carries the same list, in JSON and in XML
    assert sorted(kinds(version(api, article["_id"], 1)["Relations"]["Relation"])) == sorted(expected)
    root = xml(api.get(f"/content/objects/{article['_id']}/versions/1", accept=media("Version", "xml")))
    assert sorted(r.findtext("RelationType") for r in root.findall("Relations/Relation")) == sorted(
        kind for kind, _, _ in expected
    )
    publish(api, article["_id"])
    draft = new_draft(api, article["_id"])
    assert sorted(kinds(relations(api, article["_id"], draft))) == sorted(expected)
    # editing the text drops the links it no longer has; the client's COMMON relation stays
    assert (
        update_version(
            api, article["_id"], draft, [field("intro", rich_text("<para>plain</para>"))]
        ).status_code
        == 200
    )
    assert sorted(kinds(relations(api, article["_id"], draft))) == sorted(
        [("ATTRIBUTE", str(pictured["_id"]), "image"), ("COMMON", str(linked["_id"]), None)]
    )


def test_relations_of_the_item_redirect_to_the_current_version(api: Api) -> None:
    response = api.get("/content/objects/1/relations", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"{PREFIX}/content/objects/1/versions/9/relations"


def test_relations_to_deleted_content_are_removed(api: Api) -> None:
    target = published_folder(api, "Short lived")
    source = create_folder(api, "Survivor")
    relate(api, source["_id"], 1, target["_id"])
    assert api.delete(f"/content/objects/{target['_id']}").status_code == 204
    assert relations(api, source["_id"], 1) == []


def test_relation_upkeep_does_not_grow_with_the_links(api: Api) -> None:
    """Location targets are resolved and destinations checked in one statement each, whatever the count."""
    targets = [published_folder(api, f"Target {n}") for n in range(4)]

    def create_with_links(count: int) -> int:
        links = "".join(
            f'<link xlink:href="ezcontent://{t["_id"]}">c</link>'
            f'<link xlink:href="ezlocation://{t["MainLocation"]["_href"].rsplit("/", 1)[1]}">l</link>'
            for t in targets[:count]
        )
        data = content_create(
            [field("title", "Counted"), field("intro", rich_text(f"<para>{links}</para>"))], type_id=ARTICLE
        )
        with StatementCounter() as counter:
            created = post_content(api, data)
        assert created.status_code == 201, created.text
        assert len(relations(api, created.json()["Content"]["_id"], 1)) == count
        return counter.count

    create_with_links(1)  # the first item of a type loads the type into the process cache
    assert create_with_links(1) == create_with_links(4)
