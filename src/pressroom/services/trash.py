"""The trash: trash a subtree, list and load items, restore an item, delete items or empty the trash."""

from __future__ import annotations

from dataclasses import replace

from pressroom.domain.errors import Forbidden, NotFound
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.location import ROOT_LOCATION_ID, Location, TrashItem, is_below
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.user import User
from pressroom.services.content_access import require_create, require_on
from pressroom.services.content_loading import get_location
from pressroom.services.content_tree import new_remote_id, refresh_visibility
from pressroom.services.event_log import record, record_location
from pressroom.services.file import write_releasing_files
from pressroom.services.location import LocationService, now, path_ids
from pressroom.services.permissions import Permissions
from pressroom.services.url_alias_ops import (
    alias_new_subtree,
    current_segment_names,
    infos_of,
    remove_subtree_aliases,
)
from pressroom.storage.spi import Store, Tx


class TrashService:
    def __init__(
        self, store: Store, permissions: Permissions, locations: LocationService, files: FileStore
    ) -> None:
        self.store = store
        self.permissions = permissions
        self.locations = locations
        self.files = files  # the files of content the trash deletes go after the commit

    def _item(self, tx: Tx, user: User, item_id: int) -> TrashItem:
        item = tx.trash.get(item_id, self.permissions.read_criterion(user, tx))
        if item is None:
            raise NotFound.of("TrashItem", item_id)
        return self._with_content(tx, [item])[0]

    @staticmethod
    def _with_content(tx: Tx, items: list[TrashItem]) -> list[TrashItem]:
        infos = tx.content.get_many(item.location.content_id or 0 for item in items)
        return [
            replace(
                item, location=replace(item.location, content_info=infos.get(item.location.content_id or 0))
            )
            for item in items
        ]

    def trash(self, user: User, path: str) -> TrashItem | None:
        """Move the subtree at ``path`` to the trash (content/remove on every item of it; a fixed number
        of statements for any subtree).
        Locations whose content keeps another location are removed without a trash item; the answer is
        the item of the top location, or None when its content had another location."""
        self.permissions.require(user, "content", "remove")
        with self.store.write("exclusive", caller=user.request) as tx:
            location = self.locations.load_in(tx, user, path)
            if location.content_id is None or location.id == ROOT_LOCATION_ID:
                raise Forbidden("The root location cannot be trashed")
            if location.content_info is not None:  # judged at this location, as a delete is
                require_on(self.permissions, user, tx, "remove", location.content_info, locations=(location,))
            self.permissions.require_throughout(user, "remove", [location.path_string], tx)
            elsewhere = [
                other
                for other in tx.locations.of_content(location.content_id, UNRESTRICTED)
                if not is_below(other.path_string, location.path_string)
            ]
            remove_subtree_aliases(tx, [location.path_string])
            tx.trash.trash_subtree(location, now())
            record_location(tx, "trash.trashed", user.id, location, kept=[other.id for other in elsewhere])
            return None if elsewhere else self._item(tx, user, location.id)

    def list(self, user: User, offset: int, limit: int | None) -> list[TrashItem]:
        """The items ``user`` may read (filtered in SQL), with their content infos in one query."""
        self.permissions.require(user, "content", "read")
        with self.store.read(caller=user.request) as tx:
            return self._with_content(
                tx, tx.trash.list(self.permissions.read_criterion(user, tx), offset, limit)
            )

    def load(self, user: User, item_id: int) -> TrashItem:
        self.permissions.require(user, "content", "read")
        with self.store.read(caller=user.request) as tx:
            return self._item(tx, user, item_id)

    def restore(self, user: User, item_id: int, parent_path: str | None) -> Location:
        """Put the item back below ``parent_path``, or its original parent when None, with the subtree
        trashed with it. Forbidden when that parent does not exist; the item keeps its id, and its remote
        id unless taken since."""
        self.permissions.require(user, "content", "restore")
        with self.store.write("shared", caller=user.request) as tx:
            item = self._item(tx, user, item_id)
            parent = self._restore_parent(tx, item, parent_path)
            info = item.location.content_info
            if info is None:
                self.permissions.require(user, "content", "create", tx=tx)
            else:  # as creating the item below that parent would be judged
                require_create(
                    self.permissions, user, tx, parent, content_type_id=info.content_type_id,
                    section_id=info.section_id, owner_id=info.owner_id,
                    language_codes=(info.main_language_code,),
                )  # fmt: skip
            old = item.location
            remote_id = new_remote_id() if tx.locations.remote_id_taken(old.remote_id) else old.remote_id
            tx.trash.restore(item, parent, remote_id, invisible=parent.invisible or parent.hidden)
            top = get_location(tx, old.id)
            refresh_visibility(tx, [top])
            # The whole subtree came back without any alias (trashing dropped them): top down.
            back = tx.locations.subtree(top.path_string)
            infos = infos_of(tx, back)
            alias_new_subtree(tx, back, infos, current_segment_names(tx, infos))
            restored = self.locations.load_in(tx, user, top.path)
            record_location(tx, "trash.restored", user.id, restored, trashItemId=item_id)
            return restored

    @staticmethod
    def _restore_parent(tx: Tx, item: TrashItem, parent_path: str | None) -> Location:
        if parent_path is None:
            parent = tx.locations.get(item.location.parent_id, UNRESTRICTED)
            if parent is None:
                raise Forbidden(
                    f"The original parent location {item.location.parent_id} of trash item "
                    f"{item.location.id} no longer exists; give a Destination"
                )
            return parent
        ids = path_ids(parent_path)
        parent = tx.locations.get(ids[-1], UNRESTRICTED)
        if parent is None or parent.path_ids != ids:
            raise Forbidden(f"The destination location '{parent_path}' does not exist")
        return parent

    def delete(self, user: User, item_id: int) -> None:
        """Delete one item and its content when that has no location and no other item left."""
        self.permissions.require(user, "content", "cleantrash")
        with write_releasing_files(self.store, self.files, "exclusive", caller=user.request) as tx:
            item = self._item(tx, user, item_id)
            orphans = tx.trash.orphaned_content_ids([item_id])
            tx.trash.delete([item_id])
            tx.content.delete(sorted(orphans))
            record_location(tx, "trash.deleted", user.id, item.location, deletedContentIds=sorted(orphans))

    def empty(self, user: User) -> None:
        """Delete every item and the content they held (three statements)."""
        self.permissions.require(user, "content", "cleantrash")
        with write_releasing_files(self.store, self.files, "exclusive", caller=user.request) as tx:
            orphans = tx.trash.orphaned_content_ids()
            tx.trash.delete()
            tx.content.delete(sorted(orphans))
            record(tx, "trash.emptied", user.id, "trash", {"deletedContentIds": sorted(orphans)})
