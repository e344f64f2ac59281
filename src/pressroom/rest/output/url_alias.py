"""Visitors for URL aliases and URL wildcards (spec/shapes-users.md §11-§12)."""

from __future__ import annotations

from typing import Any, Literal

from pressroom.domain.url_alias import LOCATION, RESOURCE, AliasEntry, UrlAlias, UrlWildcard
from pressroom.rest.output.lists import ItemList, list_kind
from pressroom.rest.output.visitor import Out, Representation, visits


@visits(UrlAlias, "UrlAlias")
def visit_url_alias(out: Out, value: UrlAlias) -> Representation:
    entry = value.entry
    body: dict[str, Any] = {
        "_media-type": out.media("UrlAlias"),
        "_href": out.url("url_alias.load", urlAliasId=value.id),
        "_id": value.id,
        "_type": entry.kind,
    }
    if entry.kind == LOCATION:
        body["location"] = out.ref("Location", "location.load", path=entry.location_id)
    else:
        body["resource"] = entry.action if entry.kind == RESOURCE else None
    body.update(
        {
            "path": value.path,
            "languageCodes": ",".join(entry.language_codes),
            "alwaysAvailable": entry.always_available,
            "isHistory": not entry.is_original,
            "forward": entry.forward,
            "custom": entry.is_custom,
        }
    )
    return Representation.single("UrlAlias", body, value)


def _alias_ref(out: Out, entry: AliasEntry) -> dict[str, Any]:
    return out.ref("UrlAlias", "url_alias.load", urlAliasId=entry.rest_id)


# References to aliases; the href is the listed resource (with prefix, without query).
UrlAliasRefList = ItemList[Literal["UrlAliasRefList"], AliasEntry]
list_kind("UrlAliasRefList", "UrlAlias", _alias_ref)


def url_wildcard_body(out: Out, wildcard: UrlWildcard) -> dict[str, Any]:
    return {
        "_media-type": out.media("UrlWildcard"),
        "_href": out.url("url_wildcard.load", urlWildcardId=wildcard.id),
        "_id": wildcard.id,
        "sourceUrl": wildcard.source_url,
        "destinationUrl": wildcard.destination_url,
        "forward": wildcard.forward,
    }


@visits(UrlWildcard, "UrlWildcard")
def visit_url_wildcard(out: Out, value: UrlWildcard) -> Representation:
    return Representation.single("UrlWildcard", url_wildcard_body(out, value), value)


UrlWildcardList = ItemList[Literal["UrlWildcardList"], UrlWildcard]
list_kind("UrlWildcardList", "UrlWildcard", url_wildcard_body)
