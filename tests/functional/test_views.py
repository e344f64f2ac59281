"""POST /views: ViewInput 1.0 and 1.1 (content and location queries) in JSON and XML, the View answer,
criteria run end to end on items the tests create, sort clauses, pages, bad input, and what a limited
reader may see."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import httpx
import orjson
import pytest

from tests.functional.content_support import (
    content_create,
    field,
    post_content,
    publish,
    published_folder,
)
from tests.functional.content_types_support import field as field_definition
from tests.functional.content_types_support import new_type
from tests.functional.role_support import assign, main_path, make_group, make_role, make_user
from tests.functional.support import unique
from tests.helpers import EZ_PREFIX, PREFIX, Api, StatementCounter, media, xml

VIEW_11 = media("ViewInput") + "; version=1.1"


def post_view(
    api: Api,
    body: Any,
    *,
    version: str | None = "1.1",
    fmt: str = "json",
    accept: str = "json",
    path: str = "/views",
    **kwargs: Any,
) -> httpx.Response:
    content_type = media("ViewInput", fmt) + (f"; version={version}" if version else "")
    return api.post(
        path,
        body=body if isinstance(body, str) else orjson.dumps(body).decode(),
        content_type=content_type,
        accept=media("View", accept),
        **kwargs,
    )


def view_input(query: dict[str, Any], kind: str = "ContentQuery", **extra: Any) -> dict[str, Any]:
    return {"ViewInput": {"identifier": "test", kind: query} | extra}


def search(api: Api, query: dict[str, Any], kind: str = "ContentQuery", **extra: Any) -> dict[str, Any]:
    response = post_view(api, view_input(query, kind, **extra))
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()["View"]["Result"]
    return result


def content_ids(result: dict[str, Any]) -> list[int]:
    return [hit["value"]["Content"]["_id"] for hit in result["searchHits"]["searchHit"]]


def found(api: Api, criteria: dict[str, Any], **query: Any) -> list[int]:
    return content_ids(search(api, {"Filter": criteria, "SortClauses": {"ContentId": "ascending"}, **query}))


@dataclass
class Data:
    """A folder with three items of a fresh type (title, rank) below it, and a sibling folder."""

    type_id: int
    type_identifier: str
    folder: str  # location path, "1/2/60"
    folder_id: int
    items: list[int]  # content ids, ranks 10, 20, 30, titles "alpha one", "beta two", "gamma three"
    other: int  # a folder next to ``folder``


def _item(api: Api, type_id: int, parent: str, title: str, rank: int) -> int:
    data = content_create([field("title", title), field("rank", rank)], type_id=type_id, parent=parent)
    response = post_content(api, data)
    assert response.status_code == 201, response.text
    content_id: int = response.json()["Content"]["_id"]
    publish(api, content_id)
    return content_id


@pytest.fixture
def data(api: Api) -> Data:
    identifier = unique("thing")
    created = new_type(
        api,
        identifier=identifier,
        fields=[field_definition("title"), field_definition("rank", "ezinteger")],
    )
    folder = published_folder(api, "Search root")
    path = main_path(api, folder["_id"])
    titles = [("alpha one", 10), ("beta two", 20), ("gamma three", 30)]
    items = [_item(api, created["id"], path, title, rank) for title, rank in titles]
    other = published_folder(api, "Other folder")["_id"]
    return Data(created["id"], identifier, path, folder["_id"], items, other)


def test_content_query_answers_a_view_of_full_content_items(api: Api, data: Data) -> None:
    response = post_view(
        api,
        view_input(
            {"Filter": {"ParentLocationIdCriterion": data.folder.rsplit("/", 1)[1]}}, identifier="my/view"
        ),
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media("View")
    view = response.json()["View"]
    assert view["_media-type"] == media("View")
    assert view["_href"] == f"{PREFIX}/views/my%2Fview"
    assert view["identifier"] == "my/view"
    assert view["Query"] == {"_media-type": media("Query")}
    result = view["Result"]
    assert result["_media-type"] == media("ViewResult")
    assert result["_href"] == f"{PREFIX}/views/my%2Fview/results"
    assert result["count"] == 3 and result["timedOut"] is False
    assert isinstance(result["time"], int | float) and result["maxScore"] is None
    assert result["aggregations"] == []
    hits = result["searchHits"]["searchHit"]
    assert sorted(content_ids(result)) == data.items
    hit = hits[0]
    assert hit["_media-type"] == "application/vnd.ibexa.api.searchHit+json"
    assert hit["_score"] == 0.0 and hit["_index"] == ""
    assert hit["value"]["_media-type"] == "application/vnd.ibexa.api.value+json"
    content = hit["value"]["Content"]
    assert content["_media-type"] == media("Content")
    assert content["MainLocation"]["_href"].startswith(f"{PREFIX}/content/locations/{data.folder}/")
    fields = content["CurrentVersion"]["Version"]["Fields"]["field"]
    assert {f["fieldDefinitionIdentifier"] for f in fields} == {"title", "rank"}
    # The hit is the representation GET /content/objects/{id} answers with Accept Content.
    single = api.get(f"/content/objects/{content['_id']}", accept=media("Content")).json()["Content"]
    assert content == single


def test_version_1_0_reads_query_and_searches_content(api: Api, data: Data) -> None:
    body = {"ViewInput": {"identifier": "old", "Query": {"Filter": {"ContentIdCriterion": data.items[1]}}}}
    response = post_view(api, body, version=None)
    assert response.status_code == 200, response.text
    assert content_ids(response.json()["View"]["Result"]) == [data.items[1]]
    # ContentQuery means nothing to version 1.0: the message says what is missing and why.
    response = post_view(api, view_input({"Filter": {}}), version=None)
    assert response.status_code == 400
    assert "Query" in response.json()["ErrorMessage"]["errorDescription"]
    assert "version=1.1" in response.json()["ErrorMessage"]["errorDescription"]


def test_version_1_1_needs_a_content_or_location_query(api: Api) -> None:
    response = post_view(api, {"ViewInput": {"identifier": "x", "Query": {}}})
    assert response.status_code == 400
    assert "LocationQuery" in response.json()["ErrorMessage"]["errorDescription"]


def test_location_query_answers_locations_with_their_full_content(api: Api, data: Data) -> None:
    parent = int(data.folder.rsplit("/", 1)[1])
    result = search(
        api,
        {"Filter": {"ParentLocationIdCriterion": parent}, "SortClauses": {"LocationId": "descending"}},
        "LocationQuery",
    )
    assert result["count"] == 3
    locations = [hit["value"]["Location"] for hit in result["searchHits"]["searchHit"]]
    ids = [location["id"] for location in locations]
    assert ids == sorted(ids, reverse=True)
    location = locations[0]
    assert location["_media-type"] == media("Location")
    assert location["pathString"].startswith(f"/{data.folder}/")
    assert "explicitlyHidden" not in location
    content = location["ContentInfo"]["Content"]
    assert content["_media-type"] == media("Content")
    assert content["CurrentVersion"]["Version"]["Fields"]["field"]
    # LocationQuery wins over ContentQuery.
    both = search(api, {"Filter": {"ParentLocationIdCriterion": parent}}, "LocationQuery", ContentQuery={})
    assert "Location" in both["searchHits"]["searchHit"][0]["value"]


def test_criteria_select_items_end_to_end(api: Api, data: Data) -> None:
    one, two, three = data.items
    folder_location = int(data.folder.rsplit("/", 1)[1])
    assert found(api, {"ContentIdCriterion": f"{one},{three}"}) == [one, three]
    assert found(api, {"ContentTypeIdCriterion": data.type_id}) == data.items
    assert found(api, {"ContentTypeIdentifierCriterion": data.type_identifier}) == data.items
    assert found(api, {"SubtreeCriterion": f"/{data.folder}/", "ContentTypeIdCriterion": 1}) == [
        data.folder_id
    ]
    assert found(api, {"ParentLocationIdCriterion": str(folder_location), "SectionIdCriterion": [1]}) == [
        one,
        two,
        three,
    ]
    assert found(api, {"LocationIdCriterion": str(folder_location)}) == [data.folder_id]
    # AncestorCriterion: the locations on the path, the folder's among them.
    ancestors = found(api, {"AncestorCriterion": f"/{data.folder}/"})
    assert data.folder_id in ancestors and not set(ancestors) & set(data.items)
    assert (
        found(api, {"LanguageCodeCriterion": "eng-GB", "ContentTypeIdCriterion": data.type_id}) == data.items
    )
    assert found(api, {"FullTextCriterion": "gamma"}) == [three]
    # Field criteria on an integer field.
    assert found(api, {"Field": {"name": "rank", "operator": "GTE", "value": 20}}) == [two, three]
    assert found(api, {"Field": {"name": "rank", "operator": "BETWEEN", "value": [15, 25]}}) == [two]
    assert found(api, {"Field": {"name": "title", "operator": "EQ", "value": "beta two"}}) == [two]


def test_logical_operators_flatten_arrays_and_negate(api: Api, data: Data) -> None:
    one, two, three = data.items
    assert found(api, {"OR": {"ContentIdCriterion": [one, three]}}) == [one, three]
    assert found(api, {"OR": [{"ContentIdCriterion": one}, {"ContentIdCriterion": two}]}) == [one, two]
    # An AND of the flattened values of one key: no item has two ids.
    assert found(api, {"AND": {"ContentIdCriterion": [one, three]}}) == []
    assert found(
        api, {"AND": {"ContentTypeIdCriterion": data.type_id, "NOT": {"ContentIdCriterion": two}}}
    ) == [one, three]
    # Filter and Query both narrow.
    assert found(api, {"ContentTypeIdCriterion": data.type_id}, Query={"FullTextCriterion": "alpha"}) == [one]


def test_full_text_hits_carry_scores_and_the_result_its_best(api: Api, data: Data) -> None:
    query = {"Filter": {"ContentTypeIdCriterion": data.type_id}, "Query": {"FullTextCriterion": "gamma"}}
    result = search(api, query | {"SortClauses": {"Score": "descending"}})
    scores = [hit["_score"] for hit in result["searchHits"]["searchHit"]]
    assert len(scores) == 1 and scores[0] > 0 and result["maxScore"] == scores[0]
    unranked = search(api, {"Filter": {"ContentTypeIdCriterion": data.type_id}})
    assert unranked["maxScore"] is None


def test_sort_directions_pages_and_counts(api: Api, data: Data) -> None:
    criteria = {"ContentTypeIdCriterion": data.type_id}
    down = search(api, {"Filter": criteria, "SortClauses": {"ContentId": ["descending"]}})
    assert content_ids(down) == list(reversed(data.items))
    page = search(
        api, {"Filter": criteria, "SortClauses": {"ContentId": "ascending"}, "limit": 1, "offset": 1}
    )
    assert content_ids(page) == [data.items[1]] and page["count"] == 3
    assert search(api, {"Filter": criteria, "limit": "0"})["searchHits"]["searchHit"] == []
    assert search(api, {"Filter": criteria, "limit": 0})["count"] == 3


def test_unknown_content_type_identifier_is_not_found(api: Api) -> None:
    response = post_view(api, view_input({"Filter": {"ContentTypeIdentifierCriterion": "no_such_type"}}))
    assert response.status_code == 404
    assert "no_such_type" in response.json()["ErrorMessage"]["errorDescription"]


@pytest.mark.parametrize(
    ("view", "named"),
    [
        ({"ViewInput": {"ContentQuery": {}}}, "identifier"),
        (view_input({"Filter": {"NoSuchCriterion": 1}}), "NoSuchCriterion"),
        (view_input({"Filter": {"FieldCriterion": {}}}), "'Field'"),
        (view_input({"Filter": {"ContentId": 1}}), "ContentIdCriterion"),
        (view_input({"Filter": {"ContentIdCriterion": "1,x"}}), "ContentIdCriterion"),
        (view_input({"Filter": {"NOT": {"ContentIdCriterion": 1, "SectionIdCriterion": 1}}}), "NOT"),
        (view_input({"Filter": {"VisibilityCriterion": 2}}), "VisibilityCriterion"),
        (view_input({"Filter": {"SubtreeCriterion": "1/2"}}), "SubtreeCriterion"),
        (view_input({"Filter": {"Field": {"name": "rank", "operator": "NEAR", "value": 1}}}), "operator"),
        (view_input({"Filter": {"Field": {"name": "rank", "operator": "BETWEEN", "value": 1}}}), "BETWEEN"),
        (view_input({"Query": {"MoreLikeThis": {}}}), "MoreLikeThis"),
        (view_input({"SortClauses": {"ContentId": "ASC"}}), "ContentId"),
        (view_input({"SortClauses": {"Popularity": "ascending"}}), "Popularity"),
        (view_input({"SortClauses": {"Field": {"identifier": "title", "direction": "ascending"}}}), "Field"),
        # An OR of 1,500 criteria was a 503 (SQLite: expression tree too deep): refused by name instead.
        (
            view_input({"Filter": {"OR": {"ContentIdCriterion": list(range(1, 1500))}}}),
            "criteria; at most 256",
        ),
        (view_input({"limit": -1}), "limit"),
        (view_input({"offset": "many"}), "offset"),
        (view_input({"Aggregations": [{"NoSuchAggregation": {"name": "x"}}]}), "NoSuchAggregation"),
    ],
)
def test_bad_input_is_a_400_naming_the_fault(api: Api, view: dict[str, Any], named: str) -> None:
    response = post_view(api, view)
    assert response.status_code == 400, response.text
    assert named in response.json()["ErrorMessage"]["errorDescription"]


@pytest.mark.parametrize(
    ("query", "named"),
    [
        (
            {"Filter": {"DateMetadataCriterion": {"Target": "modified", "Operator": "GT", "Value": 2**63}}},
            "DateMetadataCriterion.Value is out of range",
        ),
        (
            {"Filter": {"ImageFileSizeCriterion": {"fieldDefIdentifier": "image", "size": {"max": 1e308}}}},
            "ImageFileSizeCriterion.size.max must be a non-negative number below 1e+12",
        ),
        (
            {
                "Filter": {
                    "ImageDimensionsCriterion": {"fieldDefIdentifier": "image", "width": {"min": 2**63}}
                }
            },
            "ImageDimensionsCriterion.width.min must be a non-negative number below 1e+12",
        ),
        # 1,990 sort clauses held SQLite for 7 s (PostgreSQL: a 503 for its 1,664 terms)
        ({"SortClauses": [{"ContentName": "ascending"}] * 17}, "holds more than 16 sort clauses"),
        ({"SortClauses": {"DatePublished": ["descending"] * 17}}, "holds more than 16 sort clauses"),
    ],
)
def test_numbers_out_of_range_and_costly_sorts_are_a_400_on_both_databases(
    db_api: Api, query: dict[str, Any], named: str
) -> None:
    """These were 500s (Python ints past 64 bits handed to SQLite, an infinite size in megabytes
    multiplied into bytes) or held the database for seconds."""
    anonymous = Api(db_api.client, auth=None)
    response = post_view(anonymous, view_input(query))
    assert response.status_code == 400, response.text
    assert named in response.json()["ErrorMessage"]["errorDescription"]


@pytest.mark.parametrize(
    ("depth", "status", "named"),
    [
        (40, 400, "nests criteria more than 32 levels deep"),  # within the document's 64 levels
        (1_000, 413, "deeper than 64 levels"),  # the decoder refuses the document first
    ],
)
def test_criteria_nested_deep_are_refused_on_both_databases(
    db_api: Api, depth: int, status: int, named: str
) -> None:
    """A NOT nested 1,000 deep was a RecursionError (a 500). Criteria are bounded while the tree is read,
    and a JSON document deeper than 64 levels is refused before it is parsed (as XML always was)."""
    nested = '{"NOT":' * depth + '{"ContentIdCriterion": 1}' + "}" * depth
    body = f'{{"ViewInput": {{"identifier": "deep", "ContentQuery": {{"Filter": {nested}}}}}}}'
    response = post_view(db_api, body)
    assert response.status_code == status, response.text
    assert named in response.json()["ErrorMessage"]["errorDescription"]


XML_VIEW = """<?xml version="1.0" encoding="UTF-8"?>
<ViewInput>
  <identifier>xml-view</identifier>
  <ContentQuery>
    <Filter>
      <OR>
        <ContentIdCriterion>{one}</ContentIdCriterion>
        <ContentIdCriterion>{three}</ContentIdCriterion>
      </OR>
    </Filter>
    <limit>10</limit>
    <offset>0</offset>
    <SortClauses>
      <ContentId>descending</ContentId>
    </SortClauses>
  </ContentQuery>
</ViewInput>"""


def test_xml_in_and_out(api: Api, data: Data) -> None:
    one, _, three = data.items
    body = XML_VIEW.format(one=one, three=three)
    response = post_view(api, body, fmt="xml", accept="xml")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media("View", "xml")
    root = xml(response)
    assert root.tag == "View" and root.get("href") == f"{PREFIX}/views/xml-view"
    assert root.findtext("identifier") == "xml-view"
    result = root.find("Result")
    assert result.get("media-type") == media("ViewResult", "xml")
    assert result.findtext("count") == "2" and result.findtext("timedOut") == "false"
    hits = result.findall("searchHits/searchHit")
    assert [hit.get("media-type") for hit in hits] == ["application/vnd.ibexa.api.searchHit+xml"] * 2
    assert hits[0].get("score") == "0.0" and hits[0].get("index") == ""
    contents = [hit.find("value/Content") for hit in hits]
    assert [int(content.get("id")) for content in contents] == [three, one]
    assert contents[0].get("media-type") == media("Content", "xml")


def test_xml_version_1_0_with_json_answer(api: Api, data: Data) -> None:
    body = (
        "<ViewInput><identifier>v</identifier><Query><Filter>"
        f"<ContentTypeIdentifierCriterion>{data.type_identifier}</ContentTypeIdentifierCriterion>"
        "</Filter><SortClauses><ContentId>ascending</ContentId></SortClauses></Query></ViewInput>"
    )
    response = post_view(api, body, version=None, fmt="xml")
    assert response.status_code == 200, response.text
    assert content_ids(response.json()["View"]["Result"]) == data.items


def test_deprecated_content_views_answers_301_with_the_view(api: Api, data: Data) -> None:
    body = view_input({"Filter": {"ContentIdCriterion": data.items[0]}})
    response = post_view(api, body, path="/content/views", follow_redirects=False)
    assert response.status_code == 301
    assert response.headers["location"] == f"{PREFIX}/views"
    assert content_ids(response.json()["View"]["Result"]) == [data.items[0]]


def test_a_limited_reader_finds_only_what_it_may_read(api: Api, data: Data) -> None:
    role_id = make_role(
        api,
        "ViewReader",
        ("content", "read", {"Subtree": [f"/{data.folder}/"]}),
        ("user", "login", {}),
    )
    group = make_group(api, "View readers")
    assign(api, f"/user/groups/{group}", role_id)
    _, reader = make_user(api, unique("reader"), group)
    everything = {
        "Filter": {"SectionIdCriterion": 1},
        "SortClauses": {"ContentId": "ascending"},
        "limit": 100,
    }
    seen = search(reader, everything)
    assert content_ids(seen) == [data.folder_id, *data.items] and seen["count"] == 4
    locations = search(reader, everything, "LocationQuery")
    found_ids = {
        hit["value"]["Location"]["ContentInfo"]["Content"]["_id"]
        for hit in locations["searchHits"]["searchHit"]
    }
    assert found_ids == {data.folder_id, *data.items}
    # The admin sees more, the other folder among it.
    assert data.other in content_ids(search(api, everything))


def test_anonymous_does_not_find_items_outside_its_section(api: Api, data: Data) -> None:
    """Anonymous reads section 1 (standard) only: an item moved to Media drops out of its results."""
    moved = api.patch(
        f"/content/objects/{data.items[1]}",
        body={"ContentUpdate": {"Section": {"_href": f"{PREFIX}/content/sections/3"}}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
    )
    assert moved.status_code == 200, moved.text
    anonymous = Api(api.client, api.prefix, auth=None)
    query = {"Filter": {"ContentTypeIdCriterion": data.type_id}, "SortClauses": {"ContentId": "ascending"}}
    assert content_ids(search(anonymous, query)) == [data.items[0], data.items[2]]
    assert content_ids(search(api, query)) == data.items


def test_aggregations_end_to_end(api: Api, data: Data) -> None:
    field_of = {"contentTypeIdentifier": data.type_identifier, "fieldDefinitionIdentifier": "rank"}
    query = {
        "Filter": {"SubtreeCriterion": f"/{data.folder}/"},
        "limit": 0,
        "Aggregations": [
            {"ContentTypeTermAggregation": {"name": "types"}},
            {
                "IntegerRangeAggregation": {
                    "name": "ranks",
                    **field_of,
                    "ranges": [{"from": None, "to": 20}, {"from": 20, "to": None}],
                }
            },
            {"IntegerStatsAggregation": {"name": "rank stats", **field_of}},
        ],
    }
    result = search(api, query)
    assert result["count"] == 4  # the folder and its three items
    types, ranks, stats = result["aggregations"]
    assert types["name"] == "types"
    counts = {entry["key"]["ContentType"]["identifier"]: entry["count"] for entry in types["entries"]}
    assert counts == {data.type_identifier: 3, "folder": 1}
    assert types["entries"][0]["key"]["ContentType"]["_media-type"] == media("ContentType")
    assert [(e["key"]["Range"]["from"], e["key"]["Range"]["to"], e["count"]) for e in ranks["entries"]] == [
        (None, 20, 1),
        (20, None, 2),
    ]
    assert (stats["count"], stats["sum"], stats["min"], stats["max"], stats["avg"]) == (3, 60, 10, 30, 20)


def test_aggregations_in_xml_end_to_end(api: Api, data: Data) -> None:
    parent = data.folder.rsplit("/", 1)[1]
    body = (
        "<ViewInput><identifier>agg</identifier><LocationQuery>"
        f"<Filter><ParentLocationIdCriterion>{parent}</ParentLocationIdCriterion></Filter>"
        "<Aggregations><SectionTermAggregation><name>sections</name></SectionTermAggregation></Aggregations>"
        "</LocationQuery></ViewInput>"
    )
    response = post_view(api, body, fmt="xml", accept="xml")
    assert response.status_code == 200, response.text
    root = xml(response)
    hits = root.findall("Result/searchHits/searchHit")
    assert len(hits) == 3
    location = hits[0].find("value/Location")
    assert (
        location.get("media-type") == media("Location", "xml") and location.find("explicitlyHidden") is None
    )
    content = location.find("ContentInfo/Content")
    assert content.get("media-type") == media("Content", "xml")
    assert content.find("CurrentVersion/Version/Fields/field") is not None
    aggregation = root.find("Result/aggregations")
    assert aggregation.get("media-type") == media("TermAggregationResult", "xml")
    assert aggregation.findtext("name") == "sections"
    assert aggregation.find("entries/key/Section").findtext("identifier") == "standard"
    assert aggregation.findtext("entries/count") == "3"


def test_language_code_limits_hits_to_translations(api: Api, data: Data, german: str) -> None:
    query = {"Filter": {"ContentTypeIdCriterion": data.type_id}, "SortClauses": {"ContentId": "ascending"}}
    assert content_ids(search(api, query, languageCode="eng-GB", useAlwaysAvailable=False)) == data.items
    assert content_ids(search(api, query, languageCode=german, useAlwaysAvailable=False)) == []


def test_the_ez_dialect_answers_in_its_own_media_types(client: Any, data: Data) -> None:
    ez = Api(client, EZ_PREFIX)
    response = ez.post(
        "/views",
        body=orjson.dumps(view_input({"Filter": {"ContentIdCriterion": data.items[0]}})).decode(),
        content_type=media("ViewInput", vendor="ez") + "; version=1.1",
        accept=media("View", vendor="ez"),
    )
    assert response.status_code == 200, response.text
    view = response.json()["View"]
    assert view["_href"] == f"{EZ_PREFIX}/views/test"
    hit = view["Result"]["searchHits"]["searchHit"][0]
    assert hit["_media-type"] == "application/vnd.ez.api.searchHit+json"
    assert hit["value"]["Content"]["_href"] == f"{EZ_PREFIX}/content/objects/{data.items[0]}"


@pytest.mark.parametrize("kind", ["ContentQuery", "LocationQuery"])
def test_statements_do_not_grow_with_the_hits(api: Api, data: Data, kind: str) -> None:
    """A page of one hit and a page of three cost the same statements: hits are loaded and written in
    batch, never one query per hit (the count is asked in both: each page is full)."""
    criteria = {"ContentTypeIdCriterion": data.type_id}
    search(api, {"Filter": criteria, "limit": 3}, kind)  # warm the per-process caches (every hit's fields)
    counts = []
    for limit in (1, 3):
        with StatementCounter() as counter:
            result = search(api, {"Filter": criteria, "limit": limit}, kind)
        assert len(result["searchHits"]["searchHit"]) == limit and result["count"] == 3
        counts.append(counter.count)
    assert counts[0] == counts[1], counts


@pytest.mark.parametrize("path", ["/views", "/views/test", "/views/test/results"])
def test_stored_views_are_not_implemented_as_in_the_reference(
    api: Api, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 23: each of these answers logged a full traceback, as for a bug; it is one line."""
    with caplog.at_level(logging.INFO, "pressroom.rest"):
        response = api.get(path, accept=media("View"))
    (record,) = [r for r in caplog.records if r.name == "pressroom.rest"]
    assert (record.levelno, record.exc_info) == (logging.INFO, None)
    assert (
        record.getMessage()
        == "not implemented: Stored views are not implemented; run a search with POST /views"
    )
    assert response.status_code == 501
    error = response.json()["ErrorMessage"]
    assert (error["errorCode"], error["errorMessage"]) == (501, "Not Implemented")
    assert "POST /views" in error["errorDescription"]
