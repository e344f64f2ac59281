"""Loading what a service works on inside its transaction, with the 404 each kind of missing thing
gets: items (locked for a change), versions, content types, locations, installed languages."""

from __future__ import annotations

from pressroom.domain.content import ContentInfo, LockedVersion, VersionInfo
from pressroom.domain.content_type import ContentType
from pressroom.domain.errors import NotFound, found
from pressroom.domain.location import Location
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.storage.spi import Tx


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


def current_version(tx: Tx, info: ContentInfo) -> VersionInfo:
    return get_version(tx, info.id, info.current_version_no)


def get_content_type(tx: Tx, type_id: int) -> ContentType:
    content_type = tx.content_types.get(type_id)
    if content_type is None:
        raise NotFound.of("ContentType", type_id)
    return content_type


def get_location(tx: Tx, location_id: int) -> Location:
    location = tx.locations.get(location_id, UNRESTRICTED)
    if location is None:
        raise NotFound.of("Location", location_id)
    return location


def installed_languages(tx: Tx) -> set[str]:
    return {language.language_code for language in tx.languages.list() if language.enabled}
