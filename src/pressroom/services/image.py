"""Image variations of image fields, made on first request and kept; the image Asset resource."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pressroom.domain.content import Field
from pressroom.domain.errors import NotFound, found
from pressroom.domain.fieldtypes.base import FileStore, StoredImage
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.image_variation import (
    ORIGINAL,
    StoredVariation,
    Variation,
    render,
    variation_file_id,
)
from pressroom.domain.user import User
from pressroom.services.content_access import check_version_readable
from pressroom.services.content_loading import get_content, get_version
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, Tx

_IMAGE_ID = re.compile(r"^([0-9]{1,10})-([0-9]{1,10})(?:-([0-9]{1,10}))?$")


@dataclass(frozen=True, slots=True)
class ImageVariation:
    """A rendition of one image field value (``image_id`` as in its ``variations`` hrefs)."""

    image_id: str
    name: str
    stored: StoredVariation


@dataclass(frozen=True, slots=True)
class ImageAsset:
    """The Asset resource of an image content item (asset source ``internal``)."""

    content_id: int
    source: str
    file_id: str
    alternative_text: str
    width: int | None
    height: int | None


class ImageService:
    def __init__(
        self, store: Store, permissions: Permissions, files: FileStore, variations: tuple[Variation, ...]
    ) -> None:
        self.store = store
        self.permissions = permissions
        self.files = files
        self.variations = {variation.name: variation for variation in variations}

    @property
    def variation_names(self) -> tuple[str, ...]:
        return (ORIGINAL, *self.variations)

    def variation(self, user: User, image_id: str, name: str) -> ImageVariation:
        """NotFound for an unknown image id, field or variation name; the caller must be able to read
        the version the image belongs to. The first request renders and stores the variation."""
        match = _IMAGE_ID.match(image_id)
        if match is None:
            raise NotFound.of("Image", image_id)
        if name != ORIGINAL and name not in self.variations:
            raise NotFound(f"Unknown image variation '{name}'; known: {', '.join(self.variation_names)}")
        content_id, field_id = int(match.group(1)), int(match.group(2))
        with self.store.read(caller=user.request) as tx:
            image = self._image_field(tx, user, content_id, field_id, match.group(3), image_id)
            original = image.file_id
            if name == ORIGINAL:
                return ImageVariation(image_id, name, _original(image))
            known = tx.image_variations.get(original, name)
        if known is not None:
            return ImageVariation(image_id, name, known)
        try:
            rendition = render(self.files.get(original), self.variations[name])
        except ValueError:
            raise NotFound(f"Image '{image_id}' cannot be rendered as '{name}'") from None
        stored = StoredVariation(
            variation_file_id(original, name),
            rendition.width,
            rendition.height,
            len(rendition.data),
            rendition.mime_type,
        )
        self.files.put_as(stored.file_id, rendition.data)
        with self.store.write(caller=user.request) as tx:
            tx.image_variations.add(original, name, stored)
        return ImageVariation(image_id, name, stored)

    def asset(self, user: User, asset_id: str, source: str) -> ImageAsset:
        """The image of an image content item, as the Asset resource shows it (source ``internal``)."""
        if source != "internal" or not asset_id.isascii() or not asset_id.isdigit() or len(asset_id) > 10:
            raise NotFound(f"Could not find 'Asset' with identifier '{asset_id}' in source '{source}'")
        content_id = int(asset_id)
        with self.store.read(caller=user.request) as tx:
            info = get_content(tx, content_id)
            version = get_version(tx, content_id, info.current_version_no)
            check_version_readable(self.permissions, user, tx, info, version)
            fields = tx.content.load_fields(content_id, version.version_no)
        image = found(next(filter(None, map(_image_value, fields)), None), "Asset", asset_id)
        return ImageAsset(
            content_id, source, image.file_id, image.alternative_text, image.width, image.height
        )

    def _image_field(
        self, tx: Tx, user: User, content_id: int, field_id: int, version: str | None, image_id: str
    ) -> StoredImage:
        info = get_content(tx, content_id)
        version_info = get_version(tx, content_id, int(version) if version else info.current_version_no)
        check_version_readable(self.permissions, user, tx, info, version_info)
        fields = tx.content.load_fields(content_id, version_info.version_no)
        field = next((f for f in fields if f.id == field_id), None)
        return found(_image_value(field) if field else None, "Image", image_id)


def _image_value(field: Field) -> StoredImage | None:
    """The image file a field holds (as its type answers), else None."""
    return get_field_type(field.field_type).image_file(field.value)


def _original(image: StoredImage) -> StoredVariation:
    return StoredVariation(
        image.file_id,
        image.width or 0,
        image.height or 0,
        image.file_size or 0,
        image.mime_type or "application/octet-stream",
    )
