"""Stored binary files, served back (the ``uri`` of image, file and media field values)."""

from __future__ import annotations

from pressroom.rest.request import RestRequest
from pressroom.rest.responses import RawBody


def load_file(req: RestRequest, fileId: str) -> RawBody:
    data, mime_type = req.services.files.load(req.user, fileId)
    # Served from the API origin: never let a stored HTML or SVG file run scripts there.
    return RawBody(
        data, mime_type, {"x-content-type-options": "nosniff", "content-security-policy": "sandbox"}
    )
