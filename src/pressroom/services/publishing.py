"""Publishing a draft and what follows it inside the same transaction; a published copy of an item;
indexing an item again after a change that is not a publish."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from pressroom.domain.content import (
    DRAFT,
    PUBLISHED,
    ContentInfo,
    LockedVersion,
    NewContent,
    NewVersion,
    VersionInfo,
)
from pressroom.domain.errors import Forbidden
from pressroom.domain.location import LocationCreate
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.search_index import index_item
from pressroom.domain.user import User
from pressroom.services.accounts import sync_account
from pressroom.services.content_fields import check_required
from pressroom.services.content_loading import current_version, get_content, get_content_type
from pressroom.services.content_tree import new_remote_id, place_pending, resolve_location
from pressroom.services.event_log import record_content
from pressroom.services.url_alias_ops import refresh_aliases, segment_names
from pressroom.services.version_writing import record_relations
from pressroom.storage.spi import Tx


def publish(
    tx: Tx,
    info: ContentInfo,
    version: VersionInfo,
    now: datetime,
    locked: LockedVersion | None = None,
    *,
    user_id: int | None,
    event: str | None = "content.published",
    **extra: Any,
) -> None:
    """Publish a draft: the published version is archived, pending locations become real locations,
    field relations are recorded, the URL aliases of every location follow the new names. Raises
    Forbidden for a version that is not a draft, and ContentValidationError when a required field is
    empty. ``locked``: the version's fields and whether it holds derived relations, when the caller
    read them with its lock (see ``lock_version``). Appends ``event`` by ``user_id`` (None: the caller
    appends its own), naming the locations just placed on a first publish."""
    if not version.is_draft:
        raise Forbidden(f"Version {version.version_no} of content {info.id} is not a draft")
    content_type = get_content_type(tx, info.content_type_id)
    fields = locked.fields if locked else tx.content.load_fields(info.id, version.version_no)
    stored_relations = locked.stored_relations if locked else True
    check_required(content_type, info.main_language_code, fields)
    sync_account(tx, content_type, info, version.version_no, fields)
    tx.content.publish_version(info.id, version.version_no, now)
    index = index_item(info.id, content_type, version.names, fields)
    tx.search_index.put([index], fresh=info.published_date is None)
    record_relations(tx, info.id, version.version_no, fields, new=not stored_relations)
    placed = place_pending(tx, info)
    main_location_id = placed[0].id if placed and info.main_location_id is None else None
    first = info.published_date is None
    tx.content.mark_published(info.id, version.version_no, now, first, main_location_id)
    published = replace(
        info,
        status=PUBLISHED,
        current_version_no=version.version_no,
        main_location_id=main_location_id or info.main_location_id,
    )
    names = {info.id: segment_names(content_type, version, fields)}
    new = info.status == DRAFT  # never published: no location but those just placed
    locations = placed if new else tx.locations.of_content(info.id, UNRESTRICTED)
    refresh_aliases(tx, locations, names, {info.id: published}, new=new)
    if event is not None:
        record_content(
            tx, event, user_id, published, version_no=version.version_no, languages=version.language_codes,
            locations=locations, **extra,
        )  # fmt: skip


def reindex(tx: Tx, info: ContentInfo) -> None:
    """Index the item's current version again, after a change to it other than a publish."""
    version = current_version(tx, info)
    if version.status == PUBLISHED:
        fields = tx.content.load_fields(info.id, version.version_no)
        content_type = get_content_type(tx, info.content_type_id)
        tx.search_index.put([index_item(info.id, content_type, version.names, fields)])


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
    publish(tx, get_content(tx, new_id), version, now, user_id=user.id, event=event, copiedFrom=info.id)
    return get_content(tx, new_id)
