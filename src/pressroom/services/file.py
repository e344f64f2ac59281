"""Stored binary files (of image, file and media fields): served back by id, deleted when unused.

A file is readable when a version that references it is: the published version of a live item needs
``content/read`` in the item's section, a draft or archived version ``content/versionread`` (the rules of
reading the version itself); an image rendition is readable as its original is. A file no version
references, deleted content's included, is not found.

Files are deleted by one mechanism: every write of the content and version services runs in
:func:`write_releasing_files`. The gateway remembers the files of the field rows a write removes or
replaces; once the transaction has committed, those that no version references any more are deleted from
the file store, with the renditions made of them. Never before the commit: a write that fails keeps every
file it found, and loses only those uploaded for it (``uploaded_files``), which nothing can reference.
"""

from __future__ import annotations

import logging
import mimetypes
import posixpath
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from pressroom.domain.byte_range import ByteRange
from pressroom.domain.caller import RequestCaller
from pressroom.domain.content import TRASHED, Field
from pressroom.domain.errors import NotFound, Unauthorized
from pressroom.domain.fieldtypes._binary import media_type_of
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.fieldtypes.coerce import dict_or_none, str_or_empty
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.image_variation import variation_origin
from pressroom.domain.user import User
from pressroom.services.content_access import check_version_readable
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, TreeLock, Tx

DEFAULT_MIME_TYPE = "application/octet-stream"
log = logging.getLogger("pressroom.files")


@contextmanager
def write_releasing_files(
    store: Store, files: FileStore, tree: TreeLock | None = None, caller: RequestCaller | None = None
) -> Iterator[Tx]:
    """A write transaction (holding the tree lock ``tree`` asks for, confirming the request's ``caller``
    before it commits); after it commits, the files it left
    without any referencing version go, with the image renditions made of them. If it fails, the files
    uploaded for it go instead."""
    uploaded: set[str] = set()
    try:
        with store.write(tree, caller) as tx:
            uploaded = tx.content.uploaded_files
            yield tx
            originals = sorted(tx.content.unreferenced(tx.content.released_files))
            orphans = originals + tx.image_variations.forget(originals)
    except BaseException:
        _delete(files, sorted(uploaded), "an upload of a failed write")
        raise
    _delete(files, orphans, "an unreferenced file")


def _delete(files: FileStore, file_ids: list[str], what: str) -> None:
    for file_id in file_ids:
        try:
            files.delete(file_id)
        except Exception:  # a file left behind (disk, S3) is garbage for gc-files, not a failure
            log.warning("could not delete %s, %s", what, file_id, exc_info=True)


@dataclass(frozen=True, slots=True)
class ServedFile:
    """A stored file as it is served: its content (all of it, or the bytes ``part`` names), its size, and
    the name and media type of the field value that holds it (a rendition's come from the rendition)."""

    file_id: str
    file_name: str
    mime_type: str
    size: int
    data: bytes
    part: tuple[int, int] | None = None  # first and last byte sent, both included; None: the whole file


def check_file_readable(permissions: Permissions, user: User, tx: Tx, file_id: str) -> tuple[str, str]:
    """The file name and media type the file is served under. Raises NotFound when no version of live
    content references the file (or, for an image rendition, its original), Unauthorized when the user may
    read none of the versions that do."""
    owners = tx.content.file_owners(file_id)
    origin = variation_origin(file_id) if not owners else None
    rendition = tx.image_variations.get(*origin) if origin is not None else None
    if origin is not None and rendition is not None and rendition.file_id == file_id:
        owners = tx.content.file_owners(origin[0])
    refused: Unauthorized | None = None
    for content_id, version_no in owners:
        info = tx.content.get(content_id)
        version = tx.content.get_version(content_id, version_no)
        if info is None or version is None or info.status == TRASHED:
            continue
        try:
            check_version_readable(permissions, user, tx, info, version)
        except Unauthorized as error:
            refused = refused or error
            continue
        file_name = posixpath.basename(file_id)
        if rendition is not None:
            return file_name, rendition.mime_type
        return _named_in(tx.content.load_fields(content_id, version_no), file_id) or (file_name, "")
    if refused is not None:
        raise refused
    raise NotFound.of("file", file_id)


def _named_in(fields: list[Field], file_id: str) -> tuple[str, str] | None:
    """The ``fileName`` and ``mimeType`` the field value holding ``file_id`` gives."""
    for field in fields:
        value = dict_or_none(field.value) or {}
        if get_field_type(field.field_type).stored_file_id(field.value) == file_id:
            mime = value.get("mimeType")
            return str_or_empty(value.get("fileName")), mime if isinstance(mime, str) else ""
    return None


class FileService:
    def __init__(self, store: Store, files: FileStore, permissions: Permissions) -> None:
        self.store = store
        self.files = files
        self.permissions = permissions

    def load(self, user: User, file_id: str, wanted: ByteRange | None = None) -> ServedFile:
        """A stored file the user may read, whole or the one byte range asked for.

        Raises NotFound when no version of live content references the file (or it is missing),
        Unauthorized when the user may read none of the versions that do, InvalidArgument for an id
        that is not a file id, RangeNotSatisfiable for a range past the end of the file.
        """
        with self.store.read(caller=user.request) as tx:
            file_name, mime_type = check_file_readable(self.permissions, user, tx, file_id)
        mime_type = served_media_type(mime_type, file_name or file_id)
        if wanted is None:
            data = self.files.get(file_id)
            return ServedFile(file_id, file_name, mime_type, len(data), data)
        size = self.files.size(file_id)
        first, last = wanted.resolve(size)
        data = self.files.get_range(file_id, first, last)
        return ServedFile(file_id, file_name, mime_type, size, data, (first, last))


def served_media_type(given: str, file_name: str) -> str:
    """The media type a file goes out under: the one its field value holds when that is a well-formed
    ``type/subtype`` (parameters dropped), else the one its name suggests, else octet-stream. Nothing a
    client typed reaches the header unchecked."""
    guessed = mimetypes.guess_type(file_name)[0] or ""
    return media_type_of(given) or media_type_of(guessed) or DEFAULT_MIME_TYPE
