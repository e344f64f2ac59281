"""A published copy of an item (what copying an item or a subtree makes of each item), inside the
caller's transaction."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from pressroom.domain.content import ContentInfo, NewContent, NewVersion
from pressroom.domain.location import LocationCreate
from pressroom.domain.user import User
from pressroom.services.content_loading import current_version, get_content, get_content_type
from pressroom.services.content_tree import new_remote_id, resolve_location
from pressroom.services.publishing import publish
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
