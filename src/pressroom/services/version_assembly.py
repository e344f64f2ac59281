"""Assembling versions for output: fields (the languages asked for), relations (to items the caller
may read), the images that image asset fields show; one item, or a page of search hits, from a cache, or
several items in a few queries."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from pressroom.domain.content import DRAFT, ContentInfo, CurrentItem, Field, Relation, Version, VersionInfo
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.image_variation import image_id
from pressroom.domain.read_scope import UNRESTRICTED, ReadScope, restriction
from pressroom.services.content_access import DraftReader
from pressroom.services.content_fields import asset_destinations, for_output
from pressroom.services.version_cache import Entry, VersionCache
from pressroom.storage.spi import Tx


def load_version(
    tx: Tx,
    info: ContentInfo,
    version: VersionInfo,
    languages: Sequence[str] = (),
    cache: VersionCache | None = None,
    stamp: Hashable | None = None,
    *,
    readable: ReadScope,
    loaded: tuple[Sequence[Field], Sequence[Relation]] | None = None,
    drafts: DraftReader | None = None,
) -> Version:
    """The version with its fields (only ``languages`` when given) and relations (only to items
    ``readable`` lets the caller read); from ``cache`` (of current versions) when it holds
    them under ``stamp``, else ``loaded``: the fields and relations as stored, when the caller has just
    written or read them, else from the database. Image asset fields show the images of published
    destinations, and of destinations with only a draft that ``drafts`` lets the caller read.
    The result carries a stamp for representation caches unless it shows other items' images (which
    change without this item's stamp) or relations filtered for this caller."""
    entry = None if cache is None or stamp is None else cache.get(info.id, stamp)
    if entry is None:
        if loaded is None:
            stored = tx.content.load_fields(info.id, version.version_no)
            # as stored, cached for every caller: filtered for this one below
            loaded = (stored, tx.relations.list(info.id, version.version_no, readable=UNRESTRICTED))
        entry = (stamp, tuple(loaded[0]), tuple(loaded[1]))
        if cache is not None and stamp is not None:
            cache.put(info.id, entry)
    _, fields, relations = entry
    if languages:
        fields = tuple(f for f in fields if f.language_code in languages)
    filtered = bool(relations) and restriction(readable) is not None
    if filtered:
        allowed = tx.content.existing_ids({r.destination_content_id for r in relations}, readable)
        relations = tuple(r for r in relations if r.destination_content_id in allowed)
    destinations = asset_destinations(fields)
    images = asset_images(tx, destinations, drafts) if destinations else None
    output = for_output(fields, info.id, version.version_no, images)
    shown = None if stamp is None or destinations or filtered else (stamp, tuple(languages))
    return Version(info, version, output, relations, stamp=shown)


def asset_images(tx: Tx, content_ids: Sequence[int], drafts: DraftReader | None = None) -> dict[int, str]:
    """The REST image id of the image in each item of ``content_ids`` that has one (the image an image
    asset field shows): of its published version, or of its draft when it has only that and ``drafts``
    lets the caller read it; items without an image are left out."""
    shown = [
        info
        for info in tx.content.get_many(content_ids).values()
        if info.is_published or (info.status == DRAFT and drafts is not None and drafts(info))
    ]
    fields = tx.content.load_fields_of((info.id, info.current_version_no) for info in shown)
    found: dict[int, str] = {}
    for (content_id, version_no), version_fields in fields.items():
        for f in version_fields:
            if get_field_type(f.field_type).image_file(f.value) is not None:
                found[content_id] = image_id(content_id, f.id, version_no)
                break
    return found


def load_current_versions(
    tx: Tx, infos: Sequence[ContentInfo], readable: ReadScope, drafts: DraftReader | None = None
) -> dict[int, Version]:
    """The current versions of several items with fields and relations (only to items ``readable`` lets
    the caller read), in three queries (one more when the relations are filtered and there are any).
    Image asset fields learn their destinations' images (two more queries when there are any)."""
    keys = {info.id: (info.id, info.current_version_no) for info in infos}
    versions = tx.content.get_versions(keys.values())
    fields = tx.content.load_fields_of(keys.values())
    relations = tx.relations.list_of(keys.values(), readable)
    assets = [destination for found in fields.values() for destination in asset_destinations(found)]
    images = asset_images(tx, assets, drafts) if assets else None
    return {
        info.id: Version(info, versions[key], for_output(fields[key], *key, images), tuple(relations[key]))
        for info in infos
        for key in (keys[info.id],)
        if key in versions
    }


def load_cached_versions(
    tx: Tx, items: Sequence[CurrentItem], cache: VersionCache, readable: ReadScope, drafts: DraftReader | None
) -> dict[int, Version]:
    """The current versions of ``items`` (as ``ContentGateway.get_many_current`` reads them; those
    without a version row are left out), as :func:`load_current_versions` makes them, their fields and
    relations from ``cache`` where it holds them under the item's stamp. The others' are read and put
    into the cache: their fields in one query, their relations (as stored) in one more when any holds
    some. One query keeps the relations to items ``readable`` lets the caller read, when it filters and
    there are any; image asset fields learn their destinations' images (two more when there are any)."""
    current = [(item, item.version) for item in items if item.version is not None]
    entries: dict[int, Entry] = {}
    missing = []
    for item, _ in current:
        entry = cache.get(item.info.id, item.stamp)
        if entry is None:
            missing.append(item)
        else:
            entries[item.info.id] = entry
    if missing:
        keys = [(item.info.id, item.info.current_version_no) for item in missing]
        fields = tx.content.load_fields_of(keys)
        related = [key for item, key in zip(missing, keys, strict=True) if item.has_relations]
        relations = tx.relations.list_of(related, UNRESTRICTED) if related else {}
        for item, key in zip(missing, keys, strict=True):
            entries[item.info.id] = (item.stamp, tuple(fields[key]), tuple(relations.get(key, ())))
            cache.put(item.info.id, entries[item.info.id])
    destinations = {r.destination_content_id for _, _, listed in entries.values() for r in listed}
    filtered = bool(destinations) and restriction(readable) is not None
    allowed = tx.content.existing_ids(destinations, readable) if filtered else set()
    assets = [destination for _, stored, _ in entries.values() for destination in asset_destinations(stored)]
    images = asset_images(tx, assets, drafts) if assets else None
    versions = {}
    for item, version in current:
        _, stored, listed = entries[item.info.id]
        output = for_output(stored, item.info.id, version.version_no, images)
        shown = tuple(r for r in listed if r.destination_content_id in allowed) if filtered else listed
        versions[item.info.id] = Version(item.info, version, output, shown)
    return versions
