"""Stored binary files, served back (the ``uri`` of image, file and media field values).

Files are served from the API's own origin, so nothing a client uploaded may run there:

- ``Content-Type`` is the media type the field value holds (checked ``type/subtype`` only), else the one
  the file name suggests, else ``application/octet-stream``; ``X-Content-Type-Options: nosniff`` stops a
  browser from guessing another.
- ``Content-Disposition: inline`` only for media types a browser shows without running anything: raster
  images (PNG, JPEG, GIF, WebP, AVIF, BMP, ICO), any ``audio/*`` or ``video/*``, and ``text/plain``.
  Everything else is an ``attachment``, downloaded rather than shown: HTML, SVG, XML, JavaScript, PDF (its
  viewers run script), and every type not on that list.
- ``Content-Security-Policy: sandbox; default-src 'none'; img-src 'self'; media-src 'self'``: should a
  browser render a file as a page anyway, it runs in an opaque origin with no script and loads nothing.
- The file name goes out as RFC 6266 says: an ASCII ``filename="..."`` fallback (anything else, quotes
  and backslashes included, becomes ``_``) and the exact name as ``filename*=UTF-8''<percent-encoded>``;
  no character of a name can end the header or start another.
- Range requests: see :mod:`pressroom.domain.byte_range` (one range: 206 with ``Content-Range``;
  unsatisfiable: 416; several: the whole file, 200). ``Accept-Ranges: bytes`` on every answer, and a
  strong ``ETag`` (file ids are never reused for other content) honoured by ``If-Range``.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import quote

from pressroom.domain.byte_range import parse_range
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import RawBody
from pressroom.services.file import ServedFile

INLINE_TYPES = frozenset(
    {
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
        "image/avif",
        "image/bmp",
        "image/x-icon",
        "image/vnd.microsoft.icon",
        "text/plain",
    }
)
INLINE_FAMILIES = ("audio/", "video/")
SANDBOX = "sandbox; default-src 'none'; img-src 'self'; media-src 'self'"
_NOT_QUOTABLE = re.compile(r'[^\x20-\x7e]|["\\]')
_ATTR_CHARS = "!#$&+-.^_`|~"  # RFC 8187 attr-char besides letters and digits


def load_file(req: RestRequest, fileId: str) -> RawBody:
    etag = file_etag(fileId)
    if_range = req.headers.get("if-range")
    wanted = parse_range(req.headers.get("range")) if if_range in (None, etag) else None
    return served_body(req.services.files.load(req.user, fileId, wanted), etag)


def served_body(served: ServedFile, etag: str) -> RawBody:
    headers = {
        "content-disposition": content_disposition(served.mime_type, served.file_name),
        "x-content-type-options": "nosniff",
        "content-security-policy": SANDBOX,
        "accept-ranges": "bytes",
        "etag": etag,
    }
    if served.part is None:
        return RawBody(served.data, served.mime_type, headers)
    first, last = served.part
    headers["content-range"] = f"bytes {first}-{last}/{served.size}"
    return RawBody(served.data, served.mime_type, headers, status=206)


def file_etag(file_id: str) -> str:
    return '"' + hashlib.sha256(file_id.encode()).hexdigest()[:32] + '"'


def is_inline(mime_type: str) -> bool:
    return mime_type in INLINE_TYPES or mime_type.startswith(INLINE_FAMILIES)


def content_disposition(mime_type: str, file_name: str) -> str:
    """``inline`` or ``attachment`` (see the module doc), with the name in both RFC 6266 forms."""
    kind = "inline" if is_inline(mime_type) else "attachment"
    name = file_name.replace("\\", "/").rsplit("/", 1)[-1] or "file"
    fallback = _NOT_QUOTABLE.sub("_", name)
    return f"{kind}; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe=_ATTR_CHARS)}"
