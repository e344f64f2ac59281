"""Building blocks the content, version and location services share, each run inside the caller's
transaction: loading with 404s, saving field plans, drafting, publishing, placing and deleting content.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Literal

from pressroom.domain.content import (
    DRAFT,
    PUBLISHED,
    VERSION_STATUS_CODES,
    ContentInfo,
    Field,
    LockedVersion,
    NewContent,
    NewVersion,
    Relation,
    Version,
    VersionInfo,
)
from pressroom.domain.content_type import ContentType
from pressroom.domain.errors import Forbidden, NotFound, Unauthorized, found
from pressroom.domain.fieldtypes.ezimage import image_id
from pressroom.domain.location import Location, LocationCreate
from pressroom.domain.permission import Target
from pressroom.domain.query import Criterion, MatchAll
from pressroom.domain.search_index import index_item
from pressroom.domain.user import User
from pressroom.services.accounts import sync_account
from pressroom.services.content_fields import (
    IMAGE_TYPES,
    FieldPlan,
    Key,
    asset_destinations,
    check_required,
    for_output,
    make_fields,
    relation_targets,
)
from pressroom.services.event_log import record_content
from pressroom.services.permissions import Permissions, content_target
from pressroom.services.url_alias_ops import (
    refresh_aliases,
    remove_subtree_aliases,
    segment_names,
)
from pressroom.services.version_cache import VersionCache
from pressroom.storage.spi import Tx

# Whether the caller may read the draft of an item not yet published (see draft_reader).
DraftReader = Callable[[ContentInfo], bool]


def new_remote_id() -> str:
    return uuid.uuid4().hex


# -- loading -------------------------------------------------------------------------------------------
def get_content(tx: Tx, content_id: int) -> ContentInfo:
    return found(tx.content.get(content_id), "Content", content_id)


def lock_content(tx: Tx, content_id: int) -> ContentInfo:
    """The item, locked until the transaction ends. Every change of an item, its versions, fields or
    relations starts here: concurrent writers of one item then run one after the other and each sees
    what the one before committed, so If-Match checks hold until commit and a publish archives the
    version published just before it."""
    return found(tx.content.lock(content_id), "Content", content_id)


def lock_version(tx: Tx, content_id: int, version_no: int) -> tuple[LockedVersion, VersionInfo]:
    """``lock_content`` with a version of the item (NotFound for either), whether that version holds
    relations derived from its fields, and its fields, in one statement."""
    locked = tx.content.lock_version(content_id, version_no)
    if locked is None:
        raise NotFound.of("Content", content_id)
    if locked.version is None:
        raise _no_version(content_id, version_no)
    return locked, locked.version


def _no_version(content_id: int, version_no: int) -> NotFound:
    return NotFound(
        f"Could not find 'Version' with identifier 'contentId: {content_id}, versionNo: {version_no}'"
    )


def get_version(tx: Tx, content_id: int, version_no: int) -> VersionInfo:
    version = tx.content.get_version(content_id, version_no)
    if version is None:
        raise _no_version(content_id, version_no)
    return version


def get_content_type(tx: Tx, type_id: int) -> ContentType:
    content_type = tx.content_types.get(type_id)
    if content_type is None:
        raise NotFound.of("ContentType", type_id)
    return content_type


def get_location(tx: Tx, location_id: int) -> Location:
    location = tx.locations.get(location_id)
    if location is None:
        raise NotFound.of("Location", location_id)
    return location


def installed_languages(tx: Tx) -> set[str]:
    return {language.language_code for language in tx.languages.list() if language.enabled}


def check_readable(
    permissions: Permissions, user: User, tx: Tx, info: ContentInfo, at: Location | None = None
) -> None:
    """``content/read`` on the item (at location ``at`` only, when given: Subtree and Node limitations
    then judge that location); an item never published is visible only to the creator of its draft."""
    target = content_target(info) if at is None else content_target(info, locations=(at,))
    permissions.require(user, "content", "read", target=target, tx=tx)
    if not info.is_published:
        current = tx.content.get_version(info.id, info.current_version_no)
        if current is None or current.creator_id != user.id:
            raise Unauthorized(
                f"The User does not have the 'versionread' 'content' permission with: contentId '{info.id}'"
            )


def check_version_readable(
    permissions: Permissions, user: User, tx: Tx, info: ContentInfo, version: VersionInfo
) -> None:
    if version.status == PUBLISHED:
        check_readable(permissions, user, tx, info)
        return
    target = content_target(info, version_status=VERSION_STATUS_CODES[version.status])
    permissions.require(user, "content", "versionread", target=target, tx=tx)
    if not info.is_published and version.creator_id != user.id:
        raise Unauthorized(
            f"The User does not have the 'versionread' 'content' permission with: contentId '{info.id}'"
        )


def require_on(
    permissions: Permissions, user: User, tx: Tx, function: str, info: ContentInfo, **facts: object
) -> None:
    """``content/<function>`` on the item, with any further ``facts`` of the target (languages...)."""
    permissions.require(user, "content", function, target=content_target(info, **facts), tx=tx)


def require_create(
    permissions: Permissions,
    user: User,
    tx: Tx,
    parent: Location | None,
    *,
    content_type_id: int,
    section_id: int,
    owner_id: int,
    language_codes: tuple[str, ...],
    parent_info: ContentInfo | Literal[False] | None = False,
) -> None:
    """``content/create`` of an item of this type, section and owner below ``parent`` (None: an item
    without a location, which Node, Subtree and Parent* limitations refuse); ``parent_info``: the
    content of ``parent`` when the caller has loaded it (None: it has none)."""
    if parent_info is False:
        parent_info = tx.content.get(parent.content_id) if parent and parent.content_id else None
    target = Target(
        content_type_id=content_type_id,
        section_id=section_id,
        owner_id=owner_id,
        locations=(parent,) if parent else (),
        parent_owner_id=parent_info.owner_id if parent_info else None,
        parent_content_type_id=parent_info.content_type_id if parent_info else None,
        parent_depth=parent.depth if parent else None,
        language_codes=language_codes,
        new_owner_id=owner_id,
    )
    permissions.require(user, "content", "create", target=target, tx=tx)


def load_version(
    tx: Tx,
    info: ContentInfo,
    version: VersionInfo,
    languages: Sequence[str] = (),
    cache: VersionCache | None = None,
    stamp: Hashable | None = None,
    readable: Criterion | None = None,
    loaded: tuple[Sequence[Field], Sequence[Relation]] | None = None,
    drafts: DraftReader | None = None,
) -> Version:
    """The version with its fields (only ``languages`` when given) and relations (only to items
    ``readable`` lets the caller read, when given); from ``cache`` (of current versions) when it holds
    them under ``stamp``, else ``loaded``: the fields and relations as stored, when the caller has just
    written or read them, else from the database. Image asset fields show the images of published
    destinations, and of destinations with only a draft that ``drafts`` lets the caller read.
    The result carries a stamp for representation caches unless it shows other items' images (which
    change without this item's stamp) or relations filtered for this caller."""
    entry = None if cache is None or stamp is None else cache.get(info.id, stamp)
    if entry is None:
        if loaded is None:
            stored = tx.content.load_fields(info.id, version.version_no)
            loaded = (stored, tx.relations.list(info.id, version.version_no))
        entry = (stamp, tuple(loaded[0]), tuple(loaded[1]))
        if cache is not None and stamp is not None:
            cache.put(info.id, entry)
    _, fields, relations = entry
    if languages:
        fields = tuple(f for f in fields if f.language_code in languages)
    filtered = bool(relations) and readable is not None and not isinstance(readable, MatchAll)
    if filtered and readable is not None:
        allowed = tx.content.existing_ids({r.destination_content_id for r in relations}, readable)
        relations = tuple(r for r in relations if r.destination_content_id in allowed)
    destinations = asset_destinations(fields)
    images = asset_images(tx, destinations, drafts) if destinations else None
    output = for_output(fields, info.id, version.version_no, images)
    shown = None if stamp is None or destinations or filtered else (stamp, tuple(languages))
    return Version(info, version, output, relations, stamp=shown)


def draft_reader(permissions: Permissions, user: User, tx: Tx) -> DraftReader:
    """Whether ``user`` may read the draft that an item not yet published has: what the variations
    of its image ask of the caller (services/image.py)."""

    def may_read(info: ContentInfo) -> bool:
        try:
            check_version_readable(permissions, user, tx, info, current_version(tx, info))
        except (Unauthorized, NotFound):
            return False
        return True

    return may_read


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
            if f.field_type in IMAGE_TYPES and isinstance(f.value, dict) and f.value.get("id"):
                found[content_id] = image_id(content_id, f.id, version_no)
                break
    return found


def load_current_versions(
    tx: Tx, infos: Sequence[ContentInfo], readable: Criterion | None = None, drafts: DraftReader | None = None
) -> dict[int, Version]:
    """The current versions of several items with fields and relations, in three queries; with
    ``readable``, relations only to items it lets the caller read (one more query when there are any).
    Image asset fields learn their destinations' images (two more queries when there are any)."""
    keys = {info.id: (info.id, info.current_version_no) for info in infos}
    versions = tx.content.get_versions(keys.values())
    fields = tx.content.load_fields_of(keys.values())
    relations = tx.relations.list_of(keys.values())
    destinations = {r.destination_content_id for found in relations.values() for r in found}
    if destinations and readable is not None and not isinstance(readable, MatchAll):
        allowed = tx.content.existing_ids(destinations, readable)
        relations = {
            key: [r for r in found if r.destination_content_id in allowed] for key, found in relations.items()
        }
    assets = [destination for found in fields.values() for destination in asset_destinations(found)]
    images = asset_images(tx, assets, drafts) if assets else None
    return {
        info.id: Version(info, versions[key], for_output(fields[key], *key, images), tuple(relations[key]))
        for info in infos
        for key in (keys[info.id],)
        if key in versions
    }


def current_version(tx: Tx, info: ContentInfo) -> VersionInfo:
    return get_version(tx, info.id, info.current_version_no)


# -- writing fields and versions -----------------------------------------------------------------------
def save_plan(
    tx: Tx, content_type: ContentType, content_id: int, version_no: int, plan: FieldPlan, *, new: bool = False
) -> tuple[list[Field], bool]:
    """Store the planned fields and the relations they hold; a (definition, language) keeps its field
    id across versions. ``new``: the item was created in this transaction and has nothing stored yet.
    Returns the fields and whether the version may hold derived relations now (False: it holds none)."""
    ids: dict[Key, int] = {} if new else tx.content.field_ids_of(content_id)
    missing = [key for key in plan.values if key not in ids]
    ids.update(zip(missing, tx.content.new_field_ids(len(missing)), strict=True))
    fields = make_fields(content_type, plan, ids)
    tx.content.save_fields(content_id, version_no, fields, replace=not new)
    return fields, record_relations(tx, content_id, version_no, fields, new=new)


def record_relations(
    tx: Tx, content_id: int, version_no: int, fields: Sequence[Field], *, new: bool = False
) -> bool:
    """Set the relations a version's field values hold (field relations, rich text links and embeds),
    as the reference does on every save of a draft and on publish. ``ezlocation://`` targets become
    the content of that location; destinations that do not exist are left out. ``new``: the version
    holds no such relations yet. Returns False when it holds none now, True when it may."""
    targets = relation_targets(fields)
    by_location = tx.locations.get_many([t.id for t, _ in targets if t.by_location])
    found = []
    for target, definition_id in targets:
        destination: int | None = target.id
        if target.by_location:
            location = by_location.get(target.id)
            destination = None if location is None else location.content_id
        if destination is not None:
            found.append((destination, target.type, definition_id))
    if new and not found:
        return False  # nothing stored to replace, nothing to add
    existing = tx.content.existing_ids(destination for destination, _, _ in found)
    tx.relations.replace_field_relations(content_id, version_no, [t for t in found if t[0] in existing])
    return True


def copy_version(tx: Tx, user: User, info: ContentInfo, source: VersionInfo, now: datetime) -> VersionInfo:
    """A new draft of ``info`` holding the fields and relations of ``source``."""
    version_no = tx.content.next_version_no(info.id)
    draft = tx.content.create_version(
        NewVersion(
            content_id=info.id,
            version_no=version_no,
            creator_id=user.id,
            creation_date=now,
            initial_language_code=source.initial_language_code,
            language_codes=source.language_codes,
            names=source.names,
        )
    )
    tx.content.save_fields(info.id, version_no, tx.content.load_fields(info.id, source.version_no))
    tx.relations.copy(info.id, source.version_no, version_no)
    return draft


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
    placed = _place_pending(tx, info)
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
    locations = placed if new else tx.locations.of_content(info.id)
    refresh_aliases(tx, locations, names, {info.id: published}, new=new)
    if event is not None:
        record_content(
            tx, event, user_id, published, version_no=version.version_no, languages=version.language_codes,
            locations=locations, **extra,
        )  # fmt: skip


def _place_pending(tx: Tx, info: ContentInfo) -> list[Location]:
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


# -- locations -----------------------------------------------------------------------------------------
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
        parent = tx.locations.get(root.parent_id) if root.parent_id != root.id else None
        tx.locations.refresh_invisible(root.path_string, bool(parent and (parent.invisible or parent.hidden)))


def drop_version(tx: Tx, content_id: int, version_no: int) -> None:
    """Delete a version with its fields and relations (the caller checked it may, and moves the
    current version when it was that one)."""
    tx.relations.delete_of_version(content_id, version_no)
    tx.content.delete_version(content_id, version_no)


def remove_translation(tx: Tx, info: ContentInfo, version: VersionInfo, language_code: str) -> None:
    """Drop one language's fields and name from a version, and the relations only they held (the
    caller checked it may)."""
    kept = [
        f for f in tx.content.load_fields(info.id, version.version_no) if f.language_code != language_code
    ]
    tx.content.save_fields(info.id, version.version_no, kept)
    record_relations(tx, info.id, version.version_no, kept)
    initial = version.initial_language_code
    tx.content.update_version(
        info.id,
        version.version_no,
        language_codes=[code for code in version.language_codes if code != language_code],
        names={code: name for code, name in version.names.items() if code != language_code},
        initial_language_code=info.main_language_code if initial == language_code else None,
    )
