"""ezimage: an image file with an alternative text; dimensions and mime type are read with Pillow.

The REST ``imageId`` ("<contentId>-<fieldId>-<versionNo>", see :func:`pressroom.domain.image_variation.
image_id`) is not known to the value: the service that loads a field asks :meth:`ImageType.shown_image_id`
and sets it under the key ``imageId`` before :meth:`ImageType.to_wire`; without it the output has
``imageId: null`` and no variations.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from pressroom.domain.errors import FieldError
from pressroom.domain.fieldtypes._binary import (
    PENDING_DATA,
    SIZE_VALIDATOR,
    BinaryFieldType,
    file_size_validator,
)
from pressroom.domain.fieldtypes.base import ImageMetadata, StoredImage, WireContext
from pressroom.domain.fieldtypes.coerce import dict_or_none, int_or_none, optional_str, str_or_empty
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.fieldtypes.params import boolean, string_list
from pressroom.domain.image_variation import decoded

ALT_VALIDATOR = "AlternativeTextValidator"
ERROR_TYPE = "ImageValidator"


class ImageType(BinaryFieldType):
    identifier = "ezimage"
    aliases = ("ibexa_image",)
    settings_schema = {"mimeTypes": string_list()}
    validators_schema = {SIZE_VALIDATOR: file_size_validator(), ALT_VALIDATOR: {"required": boolean(False)}}

    def extra_from_wire(self, hash_: JsonDict) -> JsonDict:
        """The alternative text (a ``variations`` key in the input is ignored)."""
        return {"alternativeText": optional_str(hash_.get("alternativeText"), "fieldValue 'alternativeText'")}

    def inspect(self, data: bytes) -> JsonDict:
        """Width, height and mime type of an image that decodes whole within the pixel bound; ``None``
        dimensions otherwise (a header without its pixels, a file cut short, a decompression bomb)."""
        try:
            with decoded(data) as (image, (width, height)):
                mime = Image.MIME.get(image.format or "")
        except ValueError:
            return {"width": None, "height": None}
        result: JsonDict = {"width": width, "height": height}
        if mime:
            result["mimeType"] = mime
        return result

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        hash_ = dict_or_none(value) or {}
        errors = super().validate(value, settings, validators)
        if hash_.get(PENDING_DATA) and hash_.get("width") is None:
            errors.append(FieldError(ERROR_TYPE, "A valid image file is required."))
        allowed = settings.get("mimeTypes")
        if isinstance(allowed, list) and allowed and hash_.get("mimeType") not in allowed:
            listed = ", ".join(str(mime) for mime in allowed)
            errors.append(FieldError(ERROR_TYPE, f"The mime type of the file is invalid ({listed})."))
        required = (dict_or_none(validators.get(ALT_VALIDATOR)) or {}).get("required")
        if required is True and not str_or_empty(hash_.get("alternativeText")).strip():
            errors.append(FieldError(ALT_VALIDATOR, "Alternative text is required."))
        return errors

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        hash_ = dict_or_none(value)
        if hash_ is None:
            return None
        file_id, size = self.file_wire(hash_)
        rest_id = hash_.get("imageId")
        variations: JsonDict = {}
        if isinstance(rest_id, str) and rest_id:
            variations = {
                name: {"href": ctx.image_variation_href(rest_id, name)} for name in ctx.image_variation_names
            }
        return {
            "id": file_id,
            "path": f"/{file_id}" if file_id else None,
            "alternativeText": hash_.get("alternativeText", ""),
            "fileName": hash_.get("fileName"),
            "fileSize": size,
            "imageId": rest_id if isinstance(rest_id, str) else None,
            "uri": ctx.file_uri(file_id) if file_id else None,
            "inputUri": None,
            "width": _dimension(hash_.get("width")),
            "height": _dimension(hash_.get("height")),
            "additionalData": [],
            "mime": hash_.get("mimeType"),
            "variations": variations,
        }

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        hash_ = dict_or_none(value) or {}
        return str_or_empty(hash_.get("alternativeText")) or str_or_empty(hash_.get("fileName"))

    def image_file(self, value: JsonValue) -> StoredImage | None:
        hash_ = dict_or_none(value) or {}
        file_id = str_or_empty(hash_.get("id"))
        if not file_id:
            return None
        mime = hash_.get("mimeType")
        return StoredImage(
            file_id=file_id,
            width=int_or_none(hash_.get("width")),
            height=int_or_none(hash_.get("height")),
            file_size=int_or_none(hash_.get("fileSize")),
            mime_type=mime if isinstance(mime, str) and mime else None,
            alternative_text=str_or_empty(hash_.get("alternativeText")),
        )

    def shown_image_id(self, value: JsonValue, own: str, source_images: Mapping[int, str]) -> str | None:
        return own if isinstance(value, dict) else None

    def image_metadata(self, value: JsonValue) -> ImageMetadata | None:
        hash_ = dict_or_none(value)
        if hash_ is None:
            return None
        mime = hash_.get("mimeType")
        return ImageMetadata(
            mime_type=mime if isinstance(mime, str) and mime else None,
            file_size=int_or_none(hash_.get("fileSize")),
            width=int_or_none(hash_.get("width")),
            height=int_or_none(hash_.get("height")),
        )


def _dimension(value: JsonValue) -> str | None:
    """Dimensions go out as strings, as Ibexa's image hash shows them."""
    number = int_or_none(value)
    return None if number is None else str(number)
