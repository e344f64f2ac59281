"""Bookmarks: each signed-in user's list of locations."""

from __future__ import annotations

from dataclasses import dataclass, replace

from pressroom.domain.errors import Conflict, NotFound, Unauthorized
from pressroom.domain.location import Location
from pressroom.domain.user import User
from pressroom.services.content_access import check_readable
from pressroom.services.content_loading import get_content, get_location
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, Tx


@dataclass(frozen=True, slots=True)
class BookmarkPage:
    total: int  # readable bookmarks of the user, over all pages
    locations: list[Location]  # this page's, with their content info, most recent first


class BookmarkService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    def create(self, user: User, location_id: int) -> None:
        """Conflict when the location is bookmarked already."""
        _signed_in(user)
        with self.store.write(
            "shared", caller=user.request
        ) as tx:  # the location stays until the bookmark is in
            self._readable_location(tx, user, location_id)
            if tx.bookmarks.exists(user.id, location_id):
                raise Conflict(f"Location {location_id} is already bookmarked")
            tx.bookmarks.add(user.id, location_id)

    def delete(self, user: User, location_id: int) -> None:
        _signed_in(user)
        with self.store.write(caller=user.request) as tx:
            get_location(tx, location_id)
            if not tx.bookmarks.remove(user.id, location_id):
                raise _not_bookmarked(location_id)

    def check(self, user: User, location_id: int) -> None:
        """NotFound unless the location exists and the user bookmarked it."""
        _signed_in(user)
        with self.store.read(caller=user.request) as tx:
            get_location(tx, location_id)
            if not tx.bookmarks.exists(user.id, location_id):
                raise _not_bookmarked(location_id)

    def list(self, user: User, offset: int, limit: int) -> BookmarkPage:
        """The readable bookmarked locations; what the user may not read is filtered in the query."""
        _signed_in(user)
        with self.store.read(caller=user.request) as tx:
            readable = self.permissions.read_criterion(user, tx)
            ids = tx.bookmarks.page(user.id, readable, offset, limit)
            found = tx.locations.get_many(ids, readable)
            infos = tx.content.get_many(loc.content_id for loc in found.values() if loc.content_id)
            page = [replace(found[i], content_info=infos.get(found[i].content_id or 0)) for i in ids]
            return BookmarkPage(tx.bookmarks.count(user.id, readable), page)

    def _readable_location(self, tx: Tx, user: User, location_id: int) -> Location:
        location = get_location(tx, location_id)
        if location.content_id is None:
            self.permissions.require(user, "content", "read")
        else:
            check_readable(self.permissions, user, tx, get_content(tx, location.content_id), at=location)
        return location


def _signed_in(user: User) -> None:
    if user.is_anonymous:
        raise Unauthorized("Bookmarks belong to a signed-in user; the anonymous user has none")


def _not_bookmarked(location_id: int) -> NotFound:
    return NotFound(f"Location {location_id} is not bookmarked")
