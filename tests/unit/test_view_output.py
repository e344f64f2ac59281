"""The View visitor's aggregation results (spec/search.md §2): term entries whose key is a scalar or an
object written by its own visitor, range entries keyed by a Range, stats; in JSON and in XML."""

from __future__ import annotations

from typing import Any

import orjson
from lxml import etree

from pressroom.config import Dialect
from pressroom.domain.search import (
    RangeAggregationResult,
    RangeEntry,
    SearchResult,
    StatsAggregationResult,
    TermAggregationResult,
    TermEntry,
)
from pressroom.domain.section import Section
from pressroom.rest.media import JSON, XML, Rendering
from pressroom.rest.output.view import View
from pressroom.rest.output.visitor import Out, visit
from pressroom.rest.output.writers import writer_for
from pressroom.rest.routes import build_router

IBEXA = Dialect("/api/ibexa/v2", "ibexa")
RESULT: SearchResult[Any] = SearchResult(
    hits=(),
    total_count=0,
    time_ms=1.5,
    aggregations=(
        TermAggregationResult(
            "sections",
            (TermEntry(Section(1, "standard", "Standard"), 3), TermEntry(Section(3, "media", "Media"), 1)),
        ),
        TermAggregationResult("visible", (TermEntry(True, 4),)),
        RangeAggregationResult("ranks", (RangeEntry(None, 10, 2), RangeEntry(10, None, 5))),
        StatsAggregationResult("stats", count=4, sum=10.0, min=1.0, max=4.0, avg=2.5),
    ),
)


def render(fmt: str) -> bytes:
    out = Out(Rendering(IBEXA, fmt), build_router())
    representation = visit(out, View("agg", RESULT))
    return writer_for(fmt)(representation.root, representation.body)


def test_aggregations_in_json() -> None:
    result = orjson.loads(render(JSON))["View"]["Result"]
    assert result["count"] == 0 and result["time"] == 1.5 and result["searchHits"] == {"searchHit": []}
    terms, visible, ranges, stats = result["aggregations"]
    assert terms["_media-type"] == "application/vnd.ibexa.api.TermAggregationResult+json"
    assert terms["name"] == "sections"
    entry = terms["entries"][0]
    assert entry["_media-type"] == "application/vnd.ibexa.api.TermAggregationResultEntry+json"
    assert entry["count"] == 3
    section = entry["key"]["Section"]
    assert section["_href"] == "/api/ibexa/v2/content/sections/1" and section["identifier"] == "standard"
    assert visible["entries"] == [
        {"_media-type": "application/vnd.ibexa.api.TermAggregationResultEntry+json", "key": True, "count": 4}
    ]
    assert ranges["_media-type"] == "application/vnd.ibexa.api.RangeAggregationResult+json"
    assert [entry["key"]["Range"] for entry in ranges["entries"]] == [
        {"_media-type": "application/vnd.ibexa.api.Range+json", "from": None, "to": 10},
        {"_media-type": "application/vnd.ibexa.api.Range+json", "from": 10, "to": None},
    ]
    assert [entry["count"] for entry in ranges["entries"]] == [2, 5]
    assert stats == {
        "_media-type": "application/vnd.ibexa.api.StatsAggregationResult+json",
        "name": "stats",
        "sum": 10.0,
        "count": 4,
        "min": 1.0,
        "max": 4.0,
        "avg": 2.5,
    }


def test_aggregations_in_xml() -> None:
    root = etree.fromstring(render(XML))
    aggregations = root.findall("Result/aggregations")
    assert [element.findtext("name") for element in aggregations] == ["sections", "visible", "ranks", "stats"]
    first = aggregations[0].findall("entries")
    assert first[0].find("key/Section").get("href") == "/api/ibexa/v2/content/sections/1"
    assert first[1].findtext("count") == "1"
    assert aggregations[1].findtext("entries/key") == "true"
    assert (
        aggregations[2].find("entries/key/Range").get("media-type") == "application/vnd.ibexa.api.Range+xml"
    )
    assert aggregations[3].findtext("avg") == "2.5"
