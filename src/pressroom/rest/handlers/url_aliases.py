"""URL aliases (of a location, global) and URL wildcards."""

from __future__ import annotations

from pressroom.domain.url_alias import UrlAlias, UrlAliasCreate, UrlWildcard, UrlWildcardCreate
from pressroom.rest.input.content import location_id_of
from pressroom.rest.input.registry import plain
from pressroom.rest.output.lists import ItemList
from pressroom.rest.output.url_alias import UrlAliasRefList, UrlWildcardList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent


def list_location_aliases(req: RestRequest, path: str) -> UrlAliasRefList:
    # Only the exact text "false" asks for the generated aliases; anything else lists the custom ones.
    custom = req.query.get("custom") != "false"
    entries = req.services.locations.url_aliases(req.user, path, custom=custom)
    return ItemList("UrlAliasRefList", req.url("location.url_aliases", path=path), entries)


def list_global_aliases(req: RestRequest) -> UrlAliasRefList:
    entries = req.services.url_aliases.list_global(req.user)
    return ItemList("UrlAliasRefList", req.url("url_alias.list"), entries)


def _alias_create(req: RestRequest) -> UrlAliasCreate:
    node = req.input(plain)
    kind = node.string("_type")
    location_id = resource = None
    if kind == "LOCATION":
        location_id = location_id_of(req, node.href("location"), f"{node.where}.location")
    else:
        resource = node.string("resource")
    return UrlAliasCreate(
        path=node.string("path"),
        language_code=node.string("languageCode"),
        location_id=location_id,
        resource=resource,
        always_available=bool(node.opt_boolean("alwaysAvailable")),
        forward=bool(node.opt_boolean("forward")),
    )


def create_alias(req: RestRequest) -> Created[UrlAlias]:
    alias = req.services.url_aliases.create(req.user, _alias_create(req))
    return Created(req.url("url_alias.load", urlAliasId=alias.id), alias)


def load_alias(req: RestRequest, urlAliasId: str) -> UrlAlias:
    return req.services.url_aliases.load(req.user, urlAliasId)


def delete_alias(req: RestRequest, urlAliasId: str) -> NoContent:
    req.services.url_aliases.delete(req.user, urlAliasId)
    return NoContent()


def list_wildcards(req: RestRequest) -> UrlWildcardList:
    return ItemList(
        "UrlWildcardList", req.url("url_wildcard.list"), req.services.url_wildcards.list(req.user)
    )


def create_wildcard(req: RestRequest) -> Created[UrlWildcard]:
    node = req.input(plain)
    struct = UrlWildcardCreate(
        node.string("sourceUrl"), node.string("destinationUrl"), node.boolean("forward")
    )
    wildcard = req.services.url_wildcards.create(req.user, struct)
    return Created(req.url("url_wildcard.load", urlWildcardId=wildcard.id), wildcard)


def load_wildcard(req: RestRequest, urlWildcardId: int) -> UrlWildcard:
    return req.services.url_wildcards.load(req.user, urlWildcardId)


def delete_wildcard(req: RestRequest, urlWildcardId: int) -> NoContent:
    req.services.url_wildcards.delete(req.user, urlWildcardId)
    return NoContent()
