"""Locations: load by path, find, list children, update (hide/reveal), move, copy, swap and delete
subtrees, and add locations to a content item."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from pressroom.domain.errors import BadRequest, Forbidden, NotFound, PreconditionFailed
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.location import ROOT_LOCATION_ID, Location, LocationCreate, LocationUpdate, is_below
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.tags import tag_matches, value_tag
from pressroom.domain.url_alias import AliasEntry
from pressroom.domain.user import User
from pressroom.services.content_access import check_readable, require_create, require_on
from pressroom.services.content_copy import copy_item, copy_subtree
from pressroom.services.content_loading import get_content, get_content_type, get_location, lock_content
from pressroom.services.content_tree import delete_subtrees, place, refresh_visibility, resolve_location
from pressroom.services.event_log import LOCATION_UPDATES, record_content, record_location
from pressroom.services.file import write_releasing_files
from pressroom.services.permissions import Permissions
from pressroom.services.url_alias_ops import lookup, refresh_location_aliases
from pressroom.storage.spi import Store, Tx


@dataclass(frozen=True, slots=True)
class Children:
    """One page of a location's children (each with its content info) and the parent itself."""

    parent: Location
    locations: list[Location]


def now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def path_ids(path: str) -> list[int]:
    """``"1/2/59"`` -> ``[1, 2, 59]``; NotFound for anything that is not an id path."""
    parts = [part for part in path.strip("/").split("/") if part]
    if not parts or not all(part.isascii() and part.isdigit() for part in parts):
        raise NotFound(f"Could not find 'Location' with path '{path}'")
    return [int(part) for part in parts]


class LocationService:
    def __init__(self, store: Store, permissions: Permissions, files: FileStore) -> None:
        self.store = store
        self.permissions = permissions
        self.files = files  # the files of content a delete removes go after the commit

    # -- helpers (inside the caller's transaction) ---------------------------------------------------
    def _at_path(self, tx: Tx, user: User, path: str, *, counted: bool = True) -> Location:
        """The location whose real path is ``path``, its child count limited to what ``user`` may read
        (or left out: ``counted=False``)."""
        ids = path_ids(path)
        readable = self.permissions.read_criterion(user, tx) if counted else UNRESTRICTED  # nothing counted
        location = tx.locations.get(ids[-1], readable, counted=counted)
        if location is None or location.path_ids != ids:
            raise NotFound(f"Could not find 'Location' with path '{path}'")
        return location

    def _require_at(self, tx: Tx, user: User, function: str, location: Location) -> None:
        """``content/<function>`` on the location's item, judged at that location."""
        if location.content_info is None:
            self.permissions.require(user, "content", function, tx=tx)
        else:
            require_on(self.permissions, user, tx, function, location.content_info, locations=(location,))

    def _with_content(self, tx: Tx, user: User, location: Location) -> Location:
        """The location with its content info (none for the virtual root), after the read check."""
        if location.content_id is None:
            self.permissions.require(user, "content", "read")
            return location
        info = get_content(tx, location.content_id)
        check_readable(self.permissions, user, tx, info, at=location)
        return replace(location, content_info=info)

    def load_in(self, tx: Tx, user: User, path: str, *, counted: bool = True) -> Location:
        """``load`` inside the caller's transaction (``counted=False``: without its child count)."""
        return self._with_content(tx, user, self._at_path(tx, user, path, counted=counted))

    def _reload(self, tx: Tx, user: User, location_id: int) -> Location:
        location = get_location(tx, location_id)
        return self.load_in(tx, user, location.path)

    @staticmethod
    def _movable(location: Location, what: str) -> None:
        if location.content_id is None or location.id == ROOT_LOCATION_ID:
            raise Forbidden(f"The root location cannot be {what}")

    # -- reads ---------------------------------------------------------------------------------------
    def load(self, user: User, path: str) -> Location:
        """The location at ``path`` (``"1/2/59"``); NotFound unless it is the location's real path."""
        with self.store.read(caller=user.request) as tx:
            return self.load_in(tx, user, path)

    def find(
        self,
        user: User,
        *,
        location_id: int | None = None,
        remote_id: str | None = None,
        url_alias: str | None = None,
        path: str | None = None,
    ) -> Location:
        """By id, else remote id, else URL alias, else path (BadRequest when none is given)."""
        with self.store.read(caller=user.request) as tx:
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
                found = None if target is None else tx.locations.get(target, UNRESTRICTED)
                if found is None:
                    raise NotFound(f"Could not find 'URLAlias' with identifier '{url_alias}'")
                location = found
            elif path is not None:
                location = self._at_path(tx, user, path)
            else:
                raise BadRequest(
                    "Give one of the query parameters 'id', 'remoteId', 'urlAlias' or 'locationPath'"
                )
            return self._with_content(tx, user, location)

    def url_aliases(self, user: User, path: str, *, custom: bool) -> list[AliasEntry]:
        """The current custom (or generated) alias entries of the location at ``path``."""
        with self.store.read(caller=user.request) as tx:
            location = self.load_in(tx, user, path)
            return tx.url_aliases.of_locations([location.id], custom=custom)

    def of_content(self, user: User, content_id: int) -> list[Location]:
        with self.store.read(caller=user.request) as tx:
            info = get_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            readable = self.permissions.read_criterion(user, tx)
            return tx.locations.of_content(content_id, readable=readable)

    def children(
        self, user: User, path: str, offset: int, limit: int | None, *, with_content: bool = True
    ) -> Children:
        """A page of the children ``user`` may read, sorted as the parent says, with their content
        infos loaded in one query (unless ``with_content`` is False: references need none). The filter
        is part of the SQL, so pages are full. The parent's own children are not counted."""
        with self.store.read(caller=user.request) as tx:
            readable = self.permissions.read_criterion(user, tx)
            parent = self.load_in(tx, user, path, counted=False)
            page = tx.locations.children(parent, readable, offset, limit)
            if not with_content:
                return Children(parent, page)
            infos = tx.content.get_many(c.content_id for c in page if c.content_id is not None)
            located = [replace(c, content_info=infos.get(c.content_id or 0)) for c in page]
            return Children(parent, located)

    # -- writes --------------------------------------------------------------------------------------
    def create(self, user: User, content_id: int, struct: LocationCreate) -> Location:
        """A new location of a published item. NotFound (item, parent); Forbidden when the item is not
        published, already has a location under that parent, or the parent lies below the item."""
        with self.store.write("shared", caller=user.request) as tx:
            info = lock_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            parent = get_location(tx, struct.parent_id)
            require_on(self.permissions, user, tx, "manage_locations", info, locations=(parent,))
            require_create(
                self.permissions, user, tx, parent,
                content_type_id=info.content_type_id, section_id=info.section_id, owner_id=info.owner_id,
                language_codes=(info.main_language_code,),
            )  # fmt: skip
            if not info.is_published:
                raise Forbidden(f"Content {content_id} is not published and cannot get another location")
            existing = tx.locations.of_content(content_id, UNRESTRICTED)
            self._check_placeable(existing, parent, content_id)
            resolved = resolve_location(tx, struct, get_content_type(tx, info.content_type_id))
            created = place(tx, info, parent, resolved)
            refresh_location_aliases(tx, [created.id])
            record_content(tx, "location.created", user.id, info, locations=[created])
            return self._with_content(tx, user, created)

    @staticmethod
    def _check_placeable(existing: list[Location], parent: Location, content_id: int) -> None:
        if any(location.parent_id == parent.id for location in existing):
            raise Forbidden(f"Content {content_id} already has a location under location {parent.id}")
        if any(location.id in parent.path_ids for location in existing):
            raise Forbidden(f"Location {parent.id} lies below a location of content {content_id}")

    def update(self, user: User, path: str, struct: LocationUpdate, if_match: str | None) -> Location:
        """Priority, remote id, sort (content/edit) and hidden (content/hide: hides or reveals the
        subtree). PreconditionFailed when ``if_match`` is stale; Forbidden when the remote id is taken."""
        with self.store.write(None if struct.hidden is None else "exclusive", caller=user.request) as tx:
            location = self.load_in(tx, user, path)
            if struct.hidden is not None:
                self._require_at(tx, user, "hide", location)
            if (struct.priority, struct.remote_id, struct.sort_field, struct.sort_order) != (None,) * 4:
                self._require_at(tx, user, "edit", location)
            if if_match is not None and not tag_matches(if_match, value_tag(location)):
                raise PreconditionFailed(
                    f"Location {location.id} has changed; its ETag is {value_tag(location)}"
                )
            if struct.remote_id not in (None, location.remote_id):
                assert struct.remote_id is not None
                if tx.locations.remote_id_taken(struct.remote_id):
                    raise Forbidden(f"A location with remote id '{struct.remote_id}' already exists")
            tx.locations.update(location.id, struct)
            if struct.hidden is not None and struct.hidden != location.hidden:
                tx.locations.set_hidden(location.id, struct.hidden)
                refresh_visibility(tx, [location])
            updated = self._reload(tx, user, location.id)
            record_location(tx, LOCATION_UPDATES[struct.hidden], user.id, updated)
            return updated

    def _source_and_target(
        self, tx: Tx, user: User, path: str, parent_path: str, what: str
    ) -> tuple[Location, Location]:
        """The subtree to move or copy and its new parent, both readable, with content/create on the
        parent and content/read on every item of the subtree (Unauthorized otherwise). Forbidden for the
        root and for a parent inside the subtree."""
        source = self.load_in(tx, user, path)
        self._movable(source, what)
        parent = self.load_in(tx, user, parent_path)
        info = source.content_info
        assert info is not None  # _movable refused the root
        require_create(
            self.permissions, user, tx, parent, content_type_id=info.content_type_id,
            section_id=info.section_id, owner_id=info.owner_id, language_codes=(info.main_language_code,),
        )  # fmt: skip
        if is_below(parent.path_string, source.path_string):
            raise Forbidden(f"Location {source.id} cannot be {what} into its own subtree")
        self.permissions.require_throughout(user, "read", [source.path_string], tx)
        return source, parent

    def move(self, user: User, path: str, parent_path: str) -> Location:
        """Move the subtree at ``path`` below the location at ``parent_path`` (a fixed number of
        statements for any subtree). Forbidden for the root, a target inside the subtree, or a target
        that already holds a location of the same content; NotFound when either is missing."""
        with self.store.write("exclusive", caller=user.request) as tx:
            return self.move_in(tx, user, path, parent_path)

    def move_in(self, tx: Tx, user: User, path: str, parent_path: str) -> Location:
        """``move`` inside the caller's transaction."""
        location, parent = self._source_and_target(tx, user, path, parent_path, "moved")
        if parent.id != location.parent_id:
            self._check_placeable(_others(tx, location), parent, location.content_id or 0)
            tx.locations.move(location, parent)
            refresh_visibility(tx, [get_location(tx, location.id)])
            refresh_location_aliases(tx, [location.id])  # the subtree's paths follow its top
        moved = self._reload(tx, user, location.id)
        record_location(
            tx, "location.moved", user.id, moved, oldParentId=location.parent_id, oldPath=location.path_string
        )
        return moved

    def copy(self, user: User, path: str, parent_path: str) -> Location:
        """Copy the subtree at ``path`` below ``parent_path``: every item is copied once (published,
        owned by ``user``, as the reference's copies are: the copier created them; each keeps its
        original's section) and placed like its original. Returns the new top location."""
        moment = now()
        with self.store.write("shared", caller=user.request) as tx:
            source, parent = self._source_and_target(tx, user, path, parent_path, "copied")
            originals = tx.locations.subtree(source.path_string)
            top = copy_subtree(tx, user, originals, parent, moment)
            if top is None:
                top = self._copy_each(tx, user, originals, parent, moment)
            copied = self._reload(tx, user, top.id)
            record_location(tx, "location.copied", user.id, copied, copiedFrom=source.id)
            return copied

    @staticmethod
    def _copy_each(
        tx: Tx, user: User, originals: list[Location], parent: Location, moment: datetime
    ) -> Location:
        """``copy`` one item at a time, each published as publishing does (a subtree of users and groups,
        whose accounts a publish stores): a number of statements that grows with the subtree."""
        placed: dict[int, Location] = {originals[0].parent_id: parent}
        copies: dict[int, int] = {}
        for original in originals:
            assert original.content_id is not None
            target = placed[original.parent_id]
            where = LocationCreate(
                target.id,
                original.priority,
                original.hidden,
                None,
                original.sort_field,
                original.sort_order,
            )
            if original.content_id in copies:
                info = get_content(tx, copies[original.content_id])
                struct = resolve_location(tx, where, get_content_type(tx, info.content_type_id))
                placed[original.id] = place(tx, info, target, struct)
                refresh_location_aliases(tx, [placed[original.id].id])
                continue
            info = copy_item(tx, user, get_content(tx, original.content_id), where, moment, None)
            copies[original.content_id] = info.id
            placed[original.id] = get_location(tx, info.main_location_id or 0)
        return placed[originals[0].id]

    def swap(self, user: User, path: str, other_path: str) -> None:
        """Exchange the content of two locations; Forbidden for the root."""
        with self.store.write("exclusive", caller=user.request) as tx:
            first = self.load_in(tx, user, path)
            second = self.load_in(tx, user, other_path)
            self._movable(first, "swapped")
            self._movable(second, "swapped")
            self._require_at(tx, user, "edit", first)
            self._require_at(tx, user, "edit", second)
            if first.content_id == second.content_id:
                return
            for location, other in ((first, second), (second, first)):
                if any(loc.parent_id == location.parent_id for loc in _others(tx, other)):
                    parent_id = location.parent_id
                    raise Forbidden(f"Content {other.content_id} already has a location under {parent_id}")
            tx.locations.swap(first, second)
            refresh_visibility(tx, [get_location(tx, first.id), get_location(tx, second.id)])
            refresh_location_aliases(tx, [first.id, second.id])
            record_location(tx, "location.swapped", user.id, first, locations=[first, second])

    def delete(self, user: User, path: str) -> None:
        """Delete the subtree (content/remove on every item of it): content with no other location
        goes, other content loses these locations. A fixed number of statements for any subtree."""
        with write_releasing_files(self.store, self.files, "exclusive", caller=user.request) as tx:
            location = self.load_in(tx, user, path)
            self._movable(location, "deleted")
            self._require_at(tx, user, "remove", location)
            self.permissions.require_throughout(user, "remove", [location.path_string], tx)
            delete_subtrees(tx, [location.path_string])
            record_location(tx, "location.deleted", user.id, location)


def _others(tx: Tx, location: Location) -> list[Location]:
    """The other locations of the location's content."""
    return [
        other
        for other in tx.locations.of_content(location.content_id or 0, UNRESTRICTED)
        if other.id != location.id
    ]
