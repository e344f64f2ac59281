"""What the user and user group services share: finding groups in the tree, loading user and group
content, and creating or editing content as one published step in the caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pressroom.domain.content import ContentCreate, ContentInfo, ContentUpdate, FieldInput, VersionUpdate
from pressroom.domain.content_type import ContentType
from pressroom.domain.errors import NotFound, found
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.integers import MAX_ID, parse_int
from pressroom.domain.location import Location, LocationCreate
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.user import USER_GROUP_TYPE, ContentParts, User, UserContent, UserGroup
from pressroom.services.content import create_draft, update_metadata
from pressroom.services.content_access import check_readable
from pressroom.services.content_loading import current_version, get_content, get_content_type
from pressroom.services.event_log import record_content
from pressroom.services.permissions import Permissions
from pressroom.services.publishing import publish
from pressroom.services.version import edit_draft
from pressroom.services.version_assembly import load_current_versions, load_version
from pressroom.services.version_writing import copy_version
from pressroom.storage.spi import Tx

ROOT_USER_GROUP_PATH = "1/5"  # the "Users" group of the clean install (spec/install.md §9)


def type_named(tx: Tx, type_id: int | None, identifier: str) -> ContentType:
    """The content type ``type_id``, or the one with ``identifier`` when no id is given."""
    if type_id is not None:
        return get_content_type(tx, type_id)
    return found(tx.content_types.by_identifier(identifier), "ContentType", identifier)


def group_type_id(tx: Tx) -> int:
    return type_named(tx, None, USER_GROUP_TYPE).id


def group_not_found(path: str) -> NotFound:
    return NotFound(f"Could not find 'UserGroup' with identifier '{path}'")


def group_at(tx: Tx, path: str) -> Location:
    """The location at exactly ``path`` (``"1/5/13"``) whose content is a user group."""
    parts = path.strip("/").split("/")
    location_id = parse_int(parts[-1])
    location = (
        tx.locations.get(location_id, UNRESTRICTED)
        if location_id is not None and 0 < location_id <= MAX_ID
        else None
    )
    if location is None or location.path != path.strip("/") or not is_group(tx, location):
        raise group_not_found(path)
    return location


def is_group(tx: Tx, location: Location) -> bool:
    if location.content_id is None:
        return False
    info = tx.content.get(location.content_id)
    return info is not None and info.content_type_id == group_type_id(tx)


def load_user(tx: Tx, permissions: Permissions, viewer: User, user_id: int) -> UserContent:
    """The user with its current version (relations only to items the viewer may read, as everywhere
    else); the viewer may always load itself."""
    account = found(tx.users.get(user_id), "User", user_id)
    info = get_content(tx, user_id)
    if viewer.id != user_id:
        check_readable(permissions, viewer, tx, info)
    readable = permissions.read_criterion(viewer, tx)
    return UserContent(account, load_version(tx, info, current_version(tx, info), readable=readable))


def lock_user(tx: Tx, permissions: Permissions, viewer: User, user_id: int) -> UserContent:
    """``load_user`` for a change: the user's content item stays locked until the transaction ends
    (see ``content_loading.lock_content``)."""
    found(tx.content.lock(user_id), "User", user_id)
    return load_user(tx, permissions, viewer, user_id)


def load_group(tx: Tx, permissions: Permissions, viewer: User, location: Location) -> UserGroup:
    """The group at ``location`` with its current version, shown at its main location."""
    assert location.content_id is not None
    info = get_content(tx, location.content_id)
    check_readable(permissions, viewer, tx, info)
    readable = permissions.read_criterion(viewer, tx)
    main = location
    if info.main_location_id not in (None, location.id):
        main = tx.locations.get(info.main_location_id, readable) or location
    return UserGroup(load_version(tx, info, current_version(tx, info), readable=readable), main)


def load_users(tx: Tx, permissions: Permissions, viewer: User, users: Sequence[User]) -> list[UserContent]:
    """Several users with their current versions in a constant number of queries (no load per user)."""
    infos = tx.content.get_many(user.id for user in users)
    for user in users:
        if user.id != viewer.id:
            check_readable(permissions, viewer, tx, infos[user.id])
    versions = load_current_versions(tx, list(infos.values()), permissions.read_criterion(viewer, tx))
    return [UserContent(user, versions[user.id]) for user in users]


def load_groups(
    tx: Tx, permissions: Permissions, viewer: User, locations: Sequence[Location]
) -> list[UserGroup]:
    """Several groups with their current versions in a constant number of queries, each shown at its
    main location."""
    infos = tx.content.get_many(location.content_id for location in locations if location.content_id)
    for info in infos.values():
        check_readable(permissions, viewer, tx, info)
    mains = {location.id: location for location in tx.locations.of_contents(infos)}
    versions = load_current_versions(tx, list(infos.values()), permissions.read_criterion(viewer, tx))
    groups = []
    for location in locations:
        assert location.content_id is not None
        info = infos[location.content_id]
        main = mains.get(info.main_location_id or location.id, location)
        groups.append(UserGroup(versions[info.id], main))
    return groups


def readable_ids(tx: Tx, permissions: Permissions, viewer: User, content_ids: Sequence[int]) -> set[int]:
    """The items of ``content_ids`` the viewer may read (itself always), in one query."""
    readable = tx.content.existing_ids(content_ids, permissions.read_criterion(viewer, tx))
    return readable | ({viewer.id} & set(content_ids))


def content_create(
    parts: ContentParts, type_id: int, parent_id: int, extra: tuple[FieldInput, ...] = ()
) -> ContentCreate:
    """The ContentCreate of a user or group placed below the group location ``parent_id``."""
    return ContentCreate(
        content_type_id=type_id,
        main_language_code=parts.main_language_code or "",
        fields=(*parts.fields, *extra),
        locations=(LocationCreate(parent_id),),
        section_id=parts.section_id,
        remote_id=parts.remote_id,
    )


def publish_new(
    tx: Tx,
    files: FileStore,
    permissions: Permissions,
    viewer: User,
    struct: ContentCreate,
    moment: datetime,
    event: str,
) -> ContentInfo:
    """Create the item and publish its first version at once; appends ``event``."""
    version = create_draft(tx, files, permissions, viewer, struct, moment)
    publish(tx, version.content, version.info, moment, by=viewer, event=event)
    return get_content(tx, version.content.id)


def publish_edit(
    tx: Tx,
    files: FileStore,
    viewer: User,
    info: ContentInfo,
    parts: ContentParts,
    moment: datetime,
    event: str,
    extra: Sequence[FieldInput] = (),
) -> None:
    """Publish a new version holding the given fields over the current one (when any), then store
    the metadata changes; appends ``event``."""
    fields = (*parts.fields, *extra)
    version_no = None
    if fields:
        draft = copy_version(tx, viewer, info, current_version(tx, info), moment)
        edit_draft(tx, files, info, draft, VersionUpdate(fields=tuple(fields)), moment)
        publish(tx, get_content(tx, info.id), draft, moment, by=viewer, event=None)
        version_no = draft.version_no
    metadata = ContentUpdate(
        main_language_code=parts.main_language_code, section_id=parts.section_id, remote_id=parts.remote_id
    )
    if metadata != ContentUpdate():
        update_metadata(tx, get_content(tx, info.id), metadata)
    record_content(tx, event, viewer.id, info, version_no=version_no)
