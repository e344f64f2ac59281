"""The View visitor: the answer of a search view (spec/search.md §2).

    {"View": {"_media-type": ..., "_href": "/api/ibexa/v2/views/articles", "identifier": "articles",
      "Query": {"_media-type": ...Query},
      "Result": {"_media-type": ...ViewResult, "_href": ".../views/articles/results",
                 "count": 42, "time": 3.1, "timedOut": false, "maxScore": null,
                 "searchHits": {"searchHit": [{"_media-type": ...searchHit, "_score": 0.0, "_index": "",
                                               "value": {"_media-type": ...value, "Content": {...}}}]},
                 "aggregations": [...]}}}

A content search hit is the full Content (the one of GET /content/objects/{id} with Accept Content); a
location hit is the Location, in the reference's search variant: without ``explicitlyHidden`` and with the
full Content (not the ContentInfo) in ``ContentInfo.Content``.

Aggregation results are a list: in JSON an array of objects, in XML one ``<aggregations>`` element per
result carrying its media type (and likewise one ``<entries>`` element per entry). A term entry's ``key`` is
a scalar, or the entry's object as its own visitor writes it (``{"ContentType": {...}}``); a range entry's
key is a ``Range``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from pressroom.domain.content import Version
from pressroom.domain.search import (
    AggregationResult,
    LocationHit,
    RangeAggregationResult,
    SearchHit,
    SearchResult,
    StatsAggregationResult,
    TermAggregationResult,
)
from pressroom.rest.output.content import full_content_body
from pressroom.rest.output.location import location_body
from pressroom.rest.output.visitor import Out, Representation, visit, visits


@dataclass(frozen=True, slots=True)
class View:
    """An executed view: its name and what it found (Version hits, or LocationHit hits)."""

    identifier: str
    result: SearchResult[Version] | SearchResult[LocationHit]


def location_hit_body(out: Out, hit: LocationHit) -> dict[str, Any]:
    body = location_body(out, hit.location)
    body.pop("explicitlyHidden", None)
    if "ContentInfo" in body:
        body["ContentInfo"]["Content"] = full_content_body(out, hit.version)
    return body


def _hit(out: Out, hit: SearchHit[Any]) -> dict[str, Any]:
    value: dict[str, Any] = {"_media-type": out.media("value")}
    if isinstance(hit.value, LocationHit):
        value["Location"] = location_hit_body(out, hit.value)
    else:
        value["Content"] = full_content_body(out, hit.value)
    return {
        "_media-type": out.media("searchHit"),
        "_score": float(hit.score or 0.0),
        "_index": "",
        "value": value,
    }


def _term_key(out: Out, key: object) -> Any:
    if key is None or isinstance(key, str | int | float | bool):
        return key
    representation = visit(out, key)
    return {representation.root: representation.body}


def aggregation_body(out: Out, result: AggregationResult) -> dict[str, Any]:
    if isinstance(result, TermAggregationResult):
        entries = [
            {
                "_media-type": out.media("TermAggregationResultEntry"),
                "key": _term_key(out, entry.key),
                "count": entry.count,
            }
            for entry in result.entries
        ]
        return {"_media-type": out.media("TermAggregationResult"), "name": result.name, "entries": entries}
    if isinstance(result, RangeAggregationResult):
        ranges = [
            {
                "_media-type": out.media("RangeAggregationResultEntry"),
                "key": {"Range": {"_media-type": out.media("Range"), "from": entry.start, "to": entry.end}},
                "count": entry.count,
            }
            for entry in result.entries
        ]
        return {"_media-type": out.media("RangeAggregationResult"), "name": result.name, "entries": ranges}
    stats: StatsAggregationResult = result
    return {
        "_media-type": out.media("StatsAggregationResult"),
        "name": stats.name,
        "sum": stats.sum,
        "count": stats.count,
        "min": stats.min,
        "max": stats.max,
        "avg": stats.avg,
    }


@visits(View, "View")
def visit_view(out: Out, view: View) -> Representation:
    result = view.result
    hits: list[SearchHit[Any]] = list(result.hits)
    # The view's own href, as the reference writes it: stored views are served by neither (no route).
    href = out.href("/views/" + quote(view.identifier, safe=""))
    body = {
        "_media-type": out.media("View"),
        "_href": href,
        "identifier": view.identifier,
        "Query": {"_media-type": out.media("Query")},
        "Result": {
            "_media-type": out.media("ViewResult"),
            "_href": href + "/results",
            "count": result.total_count,
            "time": result.time_ms,
            "timedOut": False,
            "maxScore": result.max_score,
            "searchHits": {"searchHit": [_hit(out, hit) for hit in hits]},
            "aggregations": [aggregation_body(out, item) for item in result.aggregations],
        },
    }
    return Representation("View", "View", body)
