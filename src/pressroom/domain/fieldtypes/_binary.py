"""Shared base of the file field types (ezbinaryfile, ezmedia, ezimage).

Input is either an upload, ``{"fileName", "data": <base64>, "mimeType"?}``, or a reference to a file
already in the store, ``{"id": <file id>}`` / ``{"inputUri": <file id>}`` (what a client echoes back when
it keeps the file of a previous version). :meth:`BinaryFieldType.from_wire` only records them, under the
private keys ``_pendingData`` (the base64 text) and ``_pendingRef``; :meth:`BinaryFieldType.store_files`
writes the upload, or checks the reference, and sets ``id``, ``fileSize`` and ``mimeType``. Callers must run
``store_files`` before persisting a value. Sizes are in bytes; ``maxFileSize`` is in megabytes.

Refused with InvalidArgument (a 400 naming the field): a ``fileName`` that is not a bare name (a path
separator, ``.``/``..``, a control character such as NUL, CR or LF, or more than 255 characters), a
``fileSize`` that is not a count of bytes or differs from the size of a referenced file, and a ``mimeType``
that is not a ``type/subtype`` media type (parameters are dropped). The ``fileSize`` given with ``data`` is
a hint that clients often get wrong (some send a fixed number): the size stored and shown is the data's.
"""

from __future__ import annotations

import base64
import binascii
import mimetypes
import posixpath
import re
from collections.abc import Mapping

from pressroom.domain.errors import FieldError, InvalidArgument, NotFound
from pressroom.domain.fieldtypes.base import FieldType, FileStore, StoredFile
from pressroom.domain.fieldtypes.coerce import (
    as_dict,
    as_int,
    dict_or_none,
    int_or_none,
    optional_str,
    str_or_empty,
)
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.fieldtypes.params import Param, integer

PENDING_DATA = "_pendingData"
PENDING_REF = "_pendingRef"
SIZE_VALIDATOR = "FileSizeValidator"
MEGABYTE = 1024 * 1024
MAX_FILE_NAME = 255
_MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}")
_WHITESPACE = re.compile(r"\s+")
_NOT_IN_NAMES = re.compile(r"[/\\\x00-\x1f\x7f]")


def file_size_validator() -> dict[str, Param]:
    """``FileSizeValidator`` schema shared by the file types (``maxFileSize`` in megabytes)."""
    return {"maxFileSize": integer(None, minimum=0)}


def decode_base64(text: str, what: str) -> bytes:
    """Decode base64 text, ignoring whitespace (MIME line breaks); raises InvalidArgument."""
    try:
        return base64.b64decode(_WHITESPACE.sub("", text), validate=True)
    except (binascii.Error, ValueError):
        raise InvalidArgument(f"{what} is not valid Base64") from None


def check_size(given: int | None, actual: int) -> None:
    """A ``fileSize`` given with a reference must be the size of the stored file (the size the field's
    ``maxFileSize`` was checked against); raises InvalidArgument."""
    if given is not None and given != actual:
        raise InvalidArgument(f"fieldValue 'fileSize' {given} is not the size of the file ({actual} bytes)")


def media_type_of(text: str) -> str | None:
    """The lower-case ``type/subtype`` of a media type (parameters dropped), None when malformed."""
    essence = text.split(";", 1)[0].strip().lower()
    return essence if _MEDIA_TYPE.fullmatch(essence) else None


def _media_type(given: str) -> str | None:
    """The ``type/subtype`` of a given ``mimeType``; raises InvalidArgument for a malformed one."""
    if not given:
        return None
    essence = media_type_of(given)
    if essence is None:
        shown = given.encode("unicode_escape").decode("ascii")[:80]
        raise InvalidArgument(f"fieldValue 'mimeType' '{shown}' is not a type/subtype media type")
    return essence


def _file_name(hash_: JsonDict) -> str:
    """The ``fileName`` given (stripped), refused when it is not a bare file name."""
    name = optional_str(hash_.get("fileName"), "fieldValue 'fileName'").strip()
    if _NOT_IN_NAMES.search(name) or name in (".", "..") or len(name) > MAX_FILE_NAME:
        shown = name.encode("unicode_escape").decode("ascii")[:80]
        raise InvalidArgument(
            f"fieldValue 'fileName' '{shown}' must be a bare file name of at most {MAX_FILE_NAME} "
            "characters: no path separator, no control character"
        )
    return name


class BinaryFieldType(FieldType):
    """Subclasses add their own keys with :meth:`extra_from_wire` and shape the output."""

    def from_wire(self, raw: JsonValue) -> JsonValue:
        if raw is None:
            return None
        hash_ = as_dict(raw, "fieldValue")
        data_text = optional_str(hash_.get("data"), "fieldValue 'data'")
        reference = optional_str(hash_.get("inputUri") or hash_.get("id"), "fieldValue 'inputUri'")
        given_mime = optional_str(hash_.get("mimeType") or hash_.get("mime"), "fieldValue 'mimeType'")
        given_size = hash_.get("fileSize")
        size = None if given_size in (None, "") else as_int(given_size, "fieldValue 'fileSize'", 0)
        data: bytes | None = None
        if data_text:
            file_name = _file_name(hash_)
            if not file_name:
                raise InvalidArgument("fieldValue 'fileName' is required with 'data'")
            data = decode_base64(data_text, "fieldValue 'data'")
            value: JsonDict = {"fileName": file_name, "fileSize": len(data), PENDING_DATA: data_text}
        elif reference:
            file_id = reference.lstrip("/")
            file_name = _file_name(hash_) or posixpath.basename(file_id)
            value = {"fileName": file_name, "fileSize": size, PENDING_REF: file_id}
        elif any(item not in (None, "", [], {}) for item in hash_.values()):
            raise InvalidArgument("fieldValue needs 'data' (with 'fileName') or 'inputUri'")
        else:
            return None
        value["mimeType"] = _media_type(given_mime) or mimetypes.guess_type(str(value["fileName"]))[0]
        value.update(self.extra_from_wire(hash_))
        if data is not None:
            value.update(self.inspect(data))
        return value

    def extra_from_wire(self, hash_: JsonDict) -> JsonDict:
        """Hook: the type's own keys read from the input hash."""
        return {}

    def inspect(self, data: bytes) -> JsonDict:
        """Hook: keys computed from the file content (image dimensions, sniffed mime type)."""
        return {}

    def store_files(self, value: JsonValue, files: FileStore) -> JsonValue:
        """Write a pending upload, or check a pending reference, and set ``id``/``fileSize``/``mimeType``.

        Raises InvalidArgument when a referenced file is not in the store.
        """
        hash_ = dict_or_none(value)
        if hash_ is None:
            return value
        result = dict(hash_)
        pending_data, reference = result.pop(PENDING_DATA, None), result.pop(PENDING_REF, None)
        mime = result.get("mimeType")
        mime_type = mime if isinstance(mime, str) else None
        file_name = str_or_empty(result.get("fileName"))
        if isinstance(pending_data, str):
            data = decode_base64(pending_data, "fieldValue 'data'")
            stored = files.put(data, file_name, mime_type)
        elif isinstance(reference, str):
            try:
                data = files.get(reference)
            except NotFound:
                raise InvalidArgument(f"fieldValue 'inputUri' '{reference}' is not a stored file") from None
            check_size(int_or_none(result.get("fileSize")), len(data))
            stored = StoredFile(reference, file_name, len(data), mime_type)
            result.update(self.inspect(data))  # an upload was inspected as it was read
        else:
            return result
        result.update({"id": stored.id, "fileSize": stored.size, "mimeType": result.get("mimeType")})
        return result

    def has_upload(self, value: JsonValue) -> bool:
        return PENDING_DATA in (dict_or_none(value) or {})

    def stored_file_id(self, value: JsonValue) -> str | None:
        return self.file_wire(dict_or_none(value) or {})[0]

    def is_empty(self, value: JsonValue) -> bool:
        hash_ = dict_or_none(value)
        return hash_ is None or not (hash_.get("id") or hash_.get(PENDING_DATA) or hash_.get(PENDING_REF))

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        max_size = int_or_none((dict_or_none(validators.get(SIZE_VALIDATOR)) or {}).get("maxFileSize"))
        size = int_or_none((dict_or_none(value) or {}).get("fileSize"))
        if max_size and size is not None and size > max_size * MEGABYTE:
            unit = "megabyte" if max_size == 1 else "megabytes"
            return [FieldError(SIZE_VALIDATOR, f"The file size cannot exceed {max_size} {unit}.")]
        return []

    def file_wire(self, hash_: JsonDict) -> tuple[str | None, int | None]:
        """The stored file id and size, for the output."""
        file_id = hash_.get("id")
        return (file_id if isinstance(file_id, str) and file_id else None), int_or_none(hash_.get("fileSize"))

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return str_or_empty((dict_or_none(value) or {}).get("fileName"))

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return self.name(value).lower() or None
