"""A published copy of an item (what copying an item or a subtree makes of each item), inside the
caller's transaction."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import datetime

from pressroom.domain.content import PUBLISHED, ContentInfo, NewContent, NewVersion
from pressroom.domain.location import Location, LocationCreate
from pressroom.domain.user import User
from pressroom.services.accounts import account_definition
from pressroom.services.content_loading import current_version, get_content, get_content_type
from pressroom.services.content_tree import new_remote_id, resolve_location
from pressroom.services.publishing import publish
from pressroom.services.url_alias_ops import alias_new_subtree, current_segment_names, infos_of
from pressroom.storage.spi import Tx


def copy_item(
    tx: Tx,
    user: User,
    info: ContentInfo,
    where: LocationCreate,
    now: datetime,
    event: str | None = "content.copied",
) -> ContentInfo:
    """A published copy of the item's current version (fields, relations), owned by ``user``, with one
    location as ``where`` says (sort fields left None take the type's defaults); appends ``event``."""
    content_type = get_content_type(tx, info.content_type_id)
    source = current_version(tx, info)
    new_id = tx.content.create(
        NewContent(
            content_type_id=info.content_type_id,
            remote_id=new_remote_id(),
            section_id=info.section_id,
            owner_id=user.id,
            main_language_code=info.main_language_code,
            always_available=info.always_available,
            modification_date=now,
        )
    )
    version_no = 1  # the number a new item's counter starts at
    version = tx.content.create_version(
        NewVersion(
            new_id, version_no, user.id, now, source.initial_language_code, source.language_codes,
            source.names,
        )
    )  # fmt: skip
    fields = tx.content.load_fields(info.id, source.version_no)
    ids = tx.content.new_field_ids(len(fields))
    copied = [replace(f, id=new_field_id) for f, new_field_id in zip(fields, ids, strict=True)]
    tx.content.save_fields(new_id, version_no, copied, replace=False)
    tx.relations.copy(info.id, source.version_no, version_no, target_content_id=new_id)
    tx.locations.add_pending(new_id, resolve_location(tx, replace(where, remote_id=None), content_type))
    publish(tx, get_content(tx, new_id), version, now, by=user, event=event, copiedFrom=info.id)
    return get_content(tx, new_id)


def copy_subtree(
    tx: Tx, user: User, originals: Sequence[Location], parent: Location, now: datetime
) -> Location | None:
    """Copy the subtree ``originals`` (its top first, then top down, as ``locations.subtree`` lists it)
    below ``parent``, in a number of statements that does not grow with its size: every item once, as
    :func:`copy_item` copies it (its current version published as version 1 by ``user``, who owns the
    copy; section, fields, names, search index and relations as the original's), every location placed
    like its original, the first location of an item its main one, URL aliases as publishing makes them.
    Returns the new top location; None (nothing written) when the subtree holds a user or group whose
    publish does more than a copy of rows (an account): the caller copies item by item then."""
    infos = infos_of(tx, originals)
    types = {
        type_id: get_content_type(tx, type_id) for type_id in {i.content_type_id for i in infos.values()}
    }
    if any(account_definition(content_type) for content_type in types.values()):
        return None
    order = list(dict.fromkeys(loc.content_id for loc in originals if loc.content_id is not None))
    copy_ids = dict(zip(order, tx.copies.new_content_ids(len(order)), strict=True))
    location_ids = tx.locations.new_ids(len(originals))
    remote_ids = _remote_ids(len(originals) + len(order))
    placed: dict[int, Location] = {}
    main: dict[int, int] = {}
    for original, location_id in zip(originals, location_ids, strict=True):
        assert original.content_id is not None
        above = placed.get(original.parent_id, parent)
        placed[original.id] = Location(
            id=location_id,
            parent_id=above.id,
            content_id=copy_ids[original.content_id],
            path_string=f"{above.path_string}{location_id}/",
            depth=above.depth + 1,
            priority=original.priority,
            hidden=original.hidden,
            invisible=above.invisible or above.hidden or original.hidden,  # a copy is never hidden itself
            remote_id=next(remote_ids),
            sort_field=original.sort_field,
            sort_order=original.sort_order,
        )
        main.setdefault(original.content_id, location_id)
    copies = [(old, new, next(remote_ids), main[old]) for old, new in copy_ids.items()]
    tx.copies.copy_items(copies, user.id, now)
    made = list(placed.values())
    tx.locations.insert_many(made)
    copied = {
        copy_ids[old]: replace(
            info, id=copy_ids[old], remote_id=remote_id, owner_id=user.id, status=PUBLISHED,
            current_version_no=1, main_location_id=main_id,
        )
        for old, _, remote_id, main_id in copies
        for info in (infos[old],)
    }  # fmt: skip
    names = current_segment_names(tx, infos)
    alias_new_subtree(tx, made, copied, {copy_ids[old]: segments for old, segments in names.items()})
    return made[0]


def _remote_ids(count: int) -> Iterator[str]:
    """``count`` new remote ids: 32 random hex digits each, as ``new_remote_id`` makes them but from one
    read of the random source (a uuid4 each cost a tenth of a 10,000 item copy's CPU)."""
    digits = os.urandom(16 * count).hex()
    return (digits[i : i + 32] for i in range(0, 32 * count, 32))
