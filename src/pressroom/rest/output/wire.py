"""The WireContext field types use to write hrefs and file URIs in the response's dialect."""

from __future__ import annotations

from urllib.parse import quote

from pressroom.rest.output.visitor import Out

FILES_PATH = "/content/files/"


class RestWireContext:
    __slots__ = ("out",)

    def __init__(self, out: Out) -> None:
        self.out = out

    def content_href(self, content_id: int) -> str:
        return self.out.href(f"/content/objects/{content_id}")

    def file_uri(self, file_id: str) -> str:
        """Stored files are served back by the server itself (route ``file.load``)."""
        return self.out.href(FILES_PATH + quote(file_id))

    @property
    def image_variation_names(self) -> tuple[str, ...]:
        return self.out.image_variations

    def image_variation_href(self, image_id: str, variation: str) -> str:
        return self.out.href(f"/content/binary/images/{image_id}/variations/{variation}")

    def location_href(self, location_id: int) -> str:
        """Field settings name locations by id; the reference's hrefs use the bare id path."""
        return self.out.href(f"/content/locations/{location_id}")
