"""Stored binary files (of image, file and media fields): served back by id, deleted when unused.

A file is readable when a version that references it is: the published version of a live item needs
``content/read`` in the item's section, a draft or archived version ``content/versionread`` (the rules of
reading the version itself); an image rendition is readable as its original is. A file no version
references, deleted content's included, is not found.

Files are deleted by one mechanism: every write of the content and version services runs in
:func:`write_releasing_files`. The gateway remembers the files of the field rows a write removes or
replaces; once the transaction has committed, those that no version references any more are deleted from
the file store, with the renditions made of them. Never before the commit: a write that fails keeps every
file.
"""

from __future__ import annotations

import logging
import mimetypes
from collections.abc import Iterator
from contextlib import contextmanager

from pressroom.domain.content import TRASHED
from pressroom.domain.errors import NotFound, Unauthorized
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.image_variation import variation_origin
from pressroom.domain.user import User
from pressroom.services.content_ops import check_version_readable
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, Tx

DEFAULT_MIME_TYPE = "application/octet-stream"
log = logging.getLogger("pressroom.files")


@contextmanager
def write_releasing_files(store: Store, files: FileStore) -> Iterator[Tx]:
    """A write transaction; after it commits, the files it left without any referencing version go,
    with the image renditions made of them."""
    with store.write() as tx:
        yield tx
        originals = sorted(tx.content.unreferenced(tx.content.released_files))
        orphans = originals + tx.image_variations.forget(originals)
    for file_id in orphans:
        try:
            files.delete(file_id)
        except Exception:  # the write has committed: a file left behind (disk, S3) is garbage, not a failure
            log.warning("could not delete the unreferenced file %s", file_id, exc_info=True)


def check_file_readable(permissions: Permissions, user: User, tx: Tx, file_id: str) -> None:
    """Raises NotFound when no version of live content references the file (or, for an image rendition,
    its original), Unauthorized when the user may read none of the versions that do."""
    owners = tx.content.file_owners(file_id)
    origin = variation_origin(file_id) if not owners else None
    if origin is not None and (made := tx.image_variations.get(*origin)) and made.file_id == file_id:
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
        return
    if refused is not None:
        raise refused
    raise NotFound.of("file", file_id)


class FileService:
    def __init__(self, store: Store, files: FileStore, permissions: Permissions) -> None:
        self.store = store
        self.files = files
        self.permissions = permissions

    def load(self, user: User, file_id: str) -> tuple[bytes, str]:
        """The content and mime type (from the file name) of a stored file the user may read.

        Raises NotFound when no version of live content references the file (or it is missing),
        Unauthorized when the user may read none of the versions that do, InvalidArgument for an id
        that is not a file id.
        """
        with self.store.read() as tx:
            check_file_readable(self.permissions, user, tx, file_id)
        data = self.files.get(file_id)
        return data, mimetypes.guess_type(file_id)[0] or DEFAULT_MIME_TYPE
