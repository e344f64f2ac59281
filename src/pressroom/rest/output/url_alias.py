"""Visitors for URL aliases and URL wildcards (spec/shapes-users.md §11-§12)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pressroom.domain.url_alias import LOCATION, RESOURCE, AliasEntry, UrlAlias, UrlWildcard
from pressroom.rest.output.visitor import Out, Representation, visits


@dataclass(frozen=True, slots=True)
class UrlAliasRefList:
    """References to aliases; ``href`` is the listed resource (with prefix, without query)."""

    href: str
    entries: list[AliasEntry]


@dataclass(frozen=True, slots=True)
class UrlWildcardList:
    wildcards: list[UrlWildcard]


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


@visits(UrlAliasRefList, "UrlAliasRefList")
def visit_url_alias_list(out: Out, value: UrlAliasRefList) -> Representation:
    body = {
        "_media-type": out.media("UrlAliasRefList"),
        "_href": value.href,
        "UrlAlias": [out.ref("UrlAlias", "url_alias.load", urlAliasId=e.rest_id) for e in value.entries],
    }
    return Representation("UrlAliasRefList", "UrlAliasRefList", body)


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


@visits(UrlWildcardList, "UrlWildcardList")
def visit_url_wildcard_list(out: Out, value: UrlWildcardList) -> Representation:
    body = {
        "_media-type": out.media("UrlWildcardList"),
        "_href": out.url("url_wildcard.list"),
        "UrlWildcard": [url_wildcard_body(out, wildcard) for wildcard in value.wildcards],
    }
    return Representation("UrlWildcardList", "UrlWildcardList", body)
