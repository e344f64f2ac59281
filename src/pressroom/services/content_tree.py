"""Where items sit in the tree: new locations (remote ids, default sorts), placing a published item,
turning pending locations into real ones, deleting subtrees with their content, visibility."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence

from pressroom.domain.content import ContentInfo
from pressroom.domain.content_type import ContentType
from pressroom.domain.errors import Forbidden, NotFound
from pressroom.domain.location import Location, LocationCreate
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.services.url_alias_ops import remove_subtree_aliases
from pressroom.storage.spi import Tx


def new_remote_id() -> str:
    return uuid.uuid4().hex


def resolve_location(tx: Tx, struct: LocationCreate, content_type: ContentType) -> LocationCreate:
    """Fill in the remote id and the type's default sort; Forbidden when the remote id is taken."""
    remote_id = struct.remote_id or new_remote_id()
    if struct.remote_id and tx.locations.remote_id_taken(struct.remote_id):
        raise Forbidden(f"A location with remote id '{struct.remote_id}' already exists")
    return LocationCreate(
        parent_id=struct.parent_id,
        priority=struct.priority,
        hidden=struct.hidden,
        remote_id=remote_id,
        sort_field=struct.sort_field or content_type.default_sort_field,
        sort_order=struct.sort_order or content_type.default_sort_order,
    )


def place(tx: Tx, info: ContentInfo, parent: Location, struct: LocationCreate) -> Location:
    """Create a location of a published item below ``parent``; the first one becomes the main one."""
    invisible = parent.invisible or parent.hidden or struct.hidden or info.is_hidden
    location = tx.locations.create(info.id, parent, struct, invisible)
    if info.main_location_id is None:
        tx.content.set_main_location(info.id, location.id)
    return location


def place_pending(tx: Tx, info: ContentInfo) -> list[Location]:
    """Turn the item's pending locations into locations (in the order they were added); a remote id
    that a location took meanwhile is replaced by a new one. NotFound when a parent is gone."""
    placed: list[Location] = []
    for item in tx.locations.take_pending(info.id):
        pending, parent = item.pending, item.parent
        if parent is None:
            raise NotFound.of("Location", pending.parent_id)
        taken = item.remote_id_taken or any(location.remote_id == pending.remote_id for location in placed)
        struct = LocationCreate(
            pending.parent_id,
            pending.priority,
            pending.hidden,
            new_remote_id() if taken else pending.remote_id,
            pending.sort_field,
            pending.sort_order,
        )
        invisible = parent.shadowed or struct.hidden or info.is_hidden
        placed.append(tx.locations.create(info.id, parent, struct, invisible))
    return placed


def delete_subtrees(tx: Tx, paths: Sequence[str], content_ids: Iterable[int] = ()) -> None:
    """Delete the subtrees at ``paths`` and ``content_ids``: content with no location outside the
    subtrees goes too; content with another location keeps it (as its main location if needed). A fixed
    number of statements, whatever the size of the subtrees."""
    doomed = set(content_ids)
    if paths:
        doomed |= tx.locations.sole_content_ids(paths)
        remove_subtree_aliases(tx, paths)
        tx.locations.delete_subtrees(paths)
    tx.users.delete(sorted(doomed))
    tx.content.delete(sorted(doomed))


def delete_content(tx: Tx, content_ids: Iterable[int]) -> None:
    """Delete items with every location as a subtree (see ``delete_subtrees``)."""
    doomed = set(content_ids)
    delete_subtrees(tx, [location.path_string for location in tx.locations.of_contents(doomed)], doomed)


def refresh_visibility(tx: Tx, roots: Iterable[Location]) -> None:
    """Recompute ``invisible`` below (and at) each root after something was hidden, revealed or moved:
    a location is invisible when it, an ancestor, or the content of either is hidden."""
    for root in roots:
        parent = tx.locations.get(root.parent_id, UNRESTRICTED) if root.parent_id != root.id else None
        tx.locations.refresh_invisible(root.path_string, bool(parent and (parent.invisible or parent.hidden)))
