"""Locations: load by path, find by id or remote id, and the locations of a content item."""

from __future__ import annotations

from pressroom.domain.errors import BadRequest, NotFound
from pressroom.domain.location import Location
from pressroom.rest.input.content import parse_location_create
from pressroom.rest.output.location import LocationRefList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, Redirect
from pressroom.rest.routing import MAX_ID


def find_location(req: RestRequest) -> Redirect:
    raw_id = req.query.get("id")
    if raw_id is not None and not (raw_id.strip().isascii() and raw_id.strip().isdigit()):
        raise BadRequest(f"Query parameter 'id' must be an integer, got '{raw_id}'")
    location_id = int(raw_id) if raw_id else None
    if location_id is not None and location_id > MAX_ID:
        raise NotFound.of("Location", raw_id)
    location = req.services.locations.find(
        req.user,
        location_id=location_id,
        remote_id=req.query.get("remoteId") or None,
        url_alias=req.query.get("urlAlias"),
    )
    return Redirect(req.url("location.load", path=location.path))


def load_location(req: RestRequest, path: str) -> Location:
    return req.services.locations.load(req.user, path)


def list_content_locations(req: RestRequest, contentId: int) -> LocationRefList:
    locations = req.services.locations.of_content(req.user, contentId)
    return LocationRefList(req.url("content.locations", contentId=contentId), locations)


def create_content_location(req: RestRequest, contentId: int) -> Created:
    struct = parse_location_create(req, req.input("LocationCreate"))
    location = req.services.locations.create(req.user, contentId, struct)
    return Created(req.url("location.load", path=location.path), location)
