"""Stored binary files (of image, file and media fields), served back by id."""

from __future__ import annotations

import mimetypes

from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.user import User
from pressroom.services.permissions import Permissions

DEFAULT_MIME_TYPE = "application/octet-stream"


class FileService:
    def __init__(self, files: FileStore, permissions: Permissions) -> None:
        self.files = files
        self.permissions = permissions

    def load(self, user: User, file_id: str) -> tuple[bytes, str]:
        """The content and mime type (from the file name) of a stored file.

        Raises NotFound when there is no such file, InvalidArgument for an id that is not a file id.
        """
        self.permissions.require(user, "content", "read")
        data = self.files.get(file_id)
        return data, mimetypes.guess_type(file_id)[0] or DEFAULT_MIME_TYPE
