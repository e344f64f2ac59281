"""Bookmarks of the current user."""

from __future__ import annotations

from pressroom.rest.output.bookmarks import BookmarkList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, Empty, NoContent

DEFAULT_LIMIT = 25


def list_bookmarks(req: RestRequest) -> BookmarkList:
    offset = max(req.query_int("offset", 0), 0)
    limit = max(req.query_int("limit", DEFAULT_LIMIT), 0)
    return BookmarkList(req.services.bookmarks.list(req.user, offset, limit))


def create_bookmark(req: RestRequest, locationId: int) -> Created[None]:
    req.services.bookmarks.create(req.user, locationId)
    return Created(req.url("bookmark.load", locationId=locationId))


def is_bookmarked(req: RestRequest, locationId: int) -> Empty:
    req.services.bookmarks.check(req.user, locationId)
    return Empty(200)


def delete_bookmark(req: RestRequest, locationId: int) -> NoContent:
    req.services.bookmarks.delete(req.user, locationId)
    return NoContent()
