"""Locations: load by path, lookups, children, update, move (or trash), copy, swap, delete, and the
locations of a content item."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pressroom.domain.errors import BadRequest, NotFound, PressroomError
from pressroom.domain.integers import MAX_ID, parse_int
from pressroom.domain.location import Location
from pressroom.rest.input.content import parse_location_create
from pressroom.rest.input.location import TRASH, destination, location_destination, parse_location_update
from pressroom.rest.output.lists import ItemList
from pressroom.rest.output.location import LocationObjects, LocationRefList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent, Redirect

DEFAULT_CHILDREN_LIMIT = 10
NEGATIVE_CHILDREN_LIMIT = 25  # what the reference uses when the limit is negative

T = TypeVar("T")


def write_at(req: RestRequest, path: str, write: Callable[[str], T]) -> T:
    """``write(path)``; when the path is stale (its location moved), ``write`` at the location's current
    path. The reference resolves the target of a write by the last id of a location or user group path,
    so a client holding a path from before a move still reaches it; reads keep checking the whole path.

    The write is tried first as addressed (a current path costs nothing more) and, after a NotFound, once
    again at the current path of the last id, if one the caller may read exists and differs: the failed
    attempt was rolled back. Otherwise the first NotFound stands.
    """
    try:
        return write(path)
    except NotFound:
        try:
            current = req.services.locations.find(req.user, location_id=int(path.rsplit("/", 1)[-1])).path
        except PressroomError:  # no such location, or one the caller may not read: the path names nothing
            current = path
        if current == path:
            raise
    return write(current)


def find_location(req: RestRequest) -> Redirect:
    raw_id = req.query.get("id")
    location_id = parse_int(raw_id) if raw_id else None
    if raw_id and (location_id is None or location_id < 0):
        raise BadRequest(f"Query parameter 'id' must be an integer, got '{raw_id}'")
    if location_id is not None and location_id > MAX_ID:
        raise NotFound.of("Location", raw_id)
    location = req.services.locations.find(
        req.user,
        location_id=location_id,
        remote_id=req.query.get("remoteId") or None,
        url_alias=req.query.get("urlAlias"),
        path=req.query.get("locationPath") or None,
    )
    return Redirect(req.url("location.load", path=location.path))


def load_location(req: RestRequest, path: str) -> Location:
    return req.services.locations.load(req.user, path)


def update_location(req: RestRequest, path: str) -> Location:
    struct = req.input(parse_location_update)
    return write_at(req, path, lambda at: req.services.locations.update(req.user, at, struct, req.if_match))


def list_children(req: RestRequest, path: str) -> LocationRefList | LocationObjects:
    """``?offset`` (default 0) and ``?limit`` (default 10; negative: 25). Accept ``Locations`` gives
    whole Location objects, anything else the ``LocationList`` of references."""
    offset = max(req.query_int("offset", 0), 0)
    limit = req.query_int("limit", DEFAULT_CHILDREN_LIMIT)
    whole = req.wants("Locations")
    page = req.services.locations.children(
        req.user, path, offset, limit if limit >= 0 else NEGATIVE_CHILDREN_LIMIT, with_content=whole
    )
    href = req.url("location.children", path=page.parent.path)
    if whole:
        return LocationObjects("Locations", href, page.locations)
    return LocationRefList("LocationList", href, page.locations)


def move_location(req: RestRequest, path: str) -> Created[None] | NoContent:
    """MOVE below the Destination location (201), or to the trash: 201 with the trash item, or 204 when
    the content kept another location and no item was made."""
    found = destination(req.headers.get("destination"), req.out.router, "location.load", TRASH)
    if found is None:
        raise BadRequest("The Destination header is missing; it must be a location href or the trash")
    name, target = found
    if name == TRASH:
        item = write_at(req, path, lambda at: req.services.trash.trash(req.user, at))
        if item is None:
            return NoContent()
        return Created(req.url("trash.load", trashItemId=item.location.id))
    moved = write_at(req, path, lambda at: req.services.locations.move(req.user, at, target))
    return Created(req.url("location.load", path=moved.path))


def copy_location(req: RestRequest, path: str) -> Created[None]:
    target = location_destination(req.headers.get("destination"), req.out.router)
    copy = write_at(req, path, lambda at: req.services.locations.copy(req.user, at, target))
    return Created(req.url("location.load", path=copy.path))


def swap_location(req: RestRequest, path: str) -> NoContent:
    other = location_destination(req.headers.get("destination"), req.out.router)
    write_at(req, path, lambda at: req.services.locations.swap(req.user, at, other))
    return NoContent()


def delete_location(req: RestRequest, path: str) -> NoContent:
    write_at(req, path, lambda at: req.services.locations.delete(req.user, at))
    return NoContent()


def list_content_locations(req: RestRequest, contentId: int) -> LocationRefList:
    locations = req.services.locations.of_content(req.user, contentId)
    return ItemList("LocationList", req.url("content.locations", contentId=contentId), locations)


def create_content_location(req: RestRequest, contentId: int) -> Created[Location]:
    struct = req.input(parse_location_create)
    location = req.services.locations.create(req.user, contentId, struct)
    return Created(req.url("location.load", path=location.path), location)
