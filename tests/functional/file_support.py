"""Items with one file-carrying field (ezbinaryfile, ezmedia or ezimage), for the download and bad-input
tests: a type per field type with ``title`` and ``target``, and uploads in the wire form."""

from __future__ import annotations

import base64
import io
from typing import Any

import httpx
from PIL import Image

from tests.functional import content_types_support as types
from tests.functional.content_support import content_create, field, post_content, version
from tests.helpers import Api

FILE_FIELD_TYPES = ["ezbinaryfile", "ezmedia", "ezimage"]


def file_type(api: Api, field_type: str, **target: Any) -> int:
    """A published type with a ``title`` and a ``target`` field of ``field_type`` (``target`` settings)."""
    created = types.new_type(api, fields=[types.field("title"), types.field("target", field_type, **target)])
    type_id: int = created["id"]
    return type_id


def upload(name: str, data: bytes, **extra: Any) -> dict[str, Any]:
    return {"fileName": name, "data": base64.b64encode(data).decode(), **extra}


def create_item(api: Api, type_id: int, value: Any, **extra: Any) -> httpx.Response:
    """POST a draft of a ``file_type`` item with ``value`` in its ``target`` field."""
    body = content_create([field("title", "T"), field("target", value)], type_id=type_id, **extra)
    return post_content(api, body)


def target_value(api: Api, content_id: int, version_no: int = 1) -> Any:
    fields = version(api, content_id, version_no)["Fields"]["field"]
    return next(f["fieldValue"] for f in fields if f["fieldDefinitionIdentifier"] == "target")


def png(width: int = 4, height: int = 3) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (10, 120, 200)).save(buffer, "PNG")
    return buffer.getvalue()
