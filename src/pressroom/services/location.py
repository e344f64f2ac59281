"""Locations: load by path, find by id or remote id, list and add the locations of a content item."""

from __future__ import annotations

from dataclasses import replace

from pressroom.domain.errors import BadRequest, Forbidden, NotFound
from pressroom.domain.location import Location, LocationCreate
from pressroom.domain.url_alias import AliasEntry
from pressroom.domain.user import User
from pressroom.services.content_ops import (
    check_readable,
    get_content,
    get_content_type,
    get_location,
    lock_content,
    place,
    resolve_location,
)
from pressroom.services.permissions import Permissions
from pressroom.services.url_alias_ops import lookup, refresh_location_aliases
from pressroom.storage.spi import Store, Tx


class LocationService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    def _with_content(self, tx: Tx, user: User, location: Location) -> Location:
        """The location with its content info (none for the virtual root), after the read check."""
        if location.content_id is None:
            self.permissions.require(user, "content", "read")
            return location
        info = get_content(tx, location.content_id)
        check_readable(self.permissions, user, tx, info)
        return replace(location, content_info=info)

    def load(self, user: User, path: str) -> Location:
        """The location at ``path`` (``"1/2/59"``); NotFound unless it is the location's real path."""
        with self.store.read() as tx:
            return self._with_content(tx, user, self._at(tx, path))

    def _at(self, tx: Tx, path: str) -> Location:
        ids = [part for part in path.strip("/").split("/") if part]
        if not ids or not all(part.isdigit() for part in ids):
            raise NotFound(f"Could not find 'Location' with path '{path}'")
        location = tx.locations.get(int(ids[-1]))
        if location is None or location.path != "/".join(ids):
            raise NotFound(f"Could not find 'Location' with path '{path}'")
        return location

    def find(
        self,
        user: User,
        *,
        location_id: int | None = None,
        remote_id: str | None = None,
        url_alias: str | None = None,
    ) -> Location:
        """By id, else by remote id, else by URL alias (BadRequest when none is given)."""
        with self.store.read() as tx:
            if location_id is not None:
                location = get_location(tx, location_id)
            elif remote_id is not None:
                found = tx.locations.by_remote_id(remote_id)
                if found is None:
                    raise NotFound.of("Location", remote_id)
                location = found
            elif url_alias is not None:
                entry = lookup(tx, url_alias)
                target = None if entry is None else entry.location_id
                found = None if target is None else tx.locations.get(target)
                if found is None:
                    raise NotFound(f"Could not find 'URLAlias' with identifier '{url_alias}'")
                location = found
            else:
                raise BadRequest("Give one of the query parameters 'id', 'remoteId' or 'urlAlias'")
            return self._with_content(tx, user, location)

    def url_aliases(self, user: User, path: str, *, custom: bool) -> list[AliasEntry]:
        """The current custom (or generated) alias entries of the location at ``path``."""
        with self.store.read() as tx:
            location = self._with_content(tx, user, self._at(tx, path))
            return tx.url_aliases.of_locations([location.id], custom=custom)

    def of_content(self, user: User, content_id: int) -> list[Location]:
        with self.store.read() as tx:
            info = get_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            return tx.locations.of_content(content_id)

    def create(self, user: User, content_id: int, struct: LocationCreate) -> Location:
        """A new location of a published item. NotFound (item, parent); Forbidden when the item is not
        published, already has a location under that parent, or the parent lies below the item."""
        self.permissions.require(user, "content", "manage_locations")
        with self.store.write() as tx:
            info = lock_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            parent = get_location(tx, struct.parent_id)
            if not info.is_published:
                raise Forbidden(f"Content {content_id} is not published and cannot get another location")
            existing = tx.locations.of_content(content_id)
            if any(location.parent_id == parent.id for location in existing):
                raise Forbidden(f"Content {content_id} already has a location under location {parent.id}")
            if any(location.id in parent.path_ids for location in existing):
                raise Forbidden(f"Location {parent.id} lies below a location of content {content_id}")
            resolved = resolve_location(tx, struct, get_content_type(tx, info.content_type_id))
            created = place(tx, info, parent, resolved)
            refresh_location_aliases(tx, [created.id])
            return self._with_content(tx, user, created)
