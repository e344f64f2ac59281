"""The trash: list, load, restore (MOVE), delete an item, empty."""

from __future__ import annotations

from pressroom.domain.location import TrashItem
from pressroom.rest.input.location import destination
from pressroom.rest.output.lists import ItemList
from pressroom.rest.output.location import TrashList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent


def list_trash(req: RestRequest) -> TrashList:
    """``?offset`` (default 0) and ``?limit`` (default -1: every item)."""
    offset = max(req.query_int("offset", 0), 0)
    limit = req.query_int("limit", -1)
    items = req.services.trash.list(req.user, offset, limit if limit >= 0 else None)
    return ItemList("Trash", req.url("trash.list"), items)


def load_trash_item(req: RestRequest, trashItemId: int) -> TrashItem:
    return req.services.trash.load(req.user, trashItemId)


def restore_trash_item(req: RestRequest, trashItemId: int) -> Created[None]:
    """MOVE: back below the Destination location, or the original parent without one."""
    found = destination(req.headers.get("destination"), req.out.router, "location.load")
    restored = req.services.trash.restore(req.user, trashItemId, found[1] if found else None)
    return Created(req.url("location.load", path=restored.path))


def delete_trash_item(req: RestRequest, trashItemId: int) -> NoContent:
    req.services.trash.delete(req.user, trashItemId)
    return NoContent()


def empty_trash(req: RestRequest) -> NoContent:
    req.services.trash.empty(req.user)
    return NoContent()
