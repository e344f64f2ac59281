"""Image variations: named renditions of an image field's file (``small``, ``medium``, ...).

A variation scales the original down to fit a box (``fit``, aspect kept, never enlarged) or covers the
box and crops the overflow (``fill``). ``original`` is the uploaded file itself. Renditions are made on
first request and kept in the file store beside the original, under an id derived from it.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps

ORIGINAL = "original"
FIT = "fit"
FILL = "fill"
# Formats written as they came; anything else (GIF, BMP, TIFF, WebP...) is rendered as PNG.
_KEPT_FORMATS = {"JPEG": "image/jpeg", "PNG": "image/png"}
_JPEG_QUALITY = 85


@dataclass(frozen=True, slots=True)
class Variation:
    name: str
    width: int
    height: int
    mode: str = FIT  # FIT or FILL


# The reference's default aliases (width x height boxes, scaled down only).
DEFAULT_VARIATIONS = (
    Variation("reference", 600, 600),
    Variation("small", 100, 100),
    Variation("tiny", 30, 30),
    Variation("medium", 200, 200),
    Variation("large", 300, 300),
)


def parse_variations(text: str) -> tuple[Variation, ...]:
    """``"thumb=120x120:fill, banner=1200x400"`` -> variations (ValueError names the bad entry)."""
    result = []
    for entry in (item.strip() for item in text.split(",")):
        if not entry:
            continue
        name, _, spec = entry.partition("=")
        size, _, mode = spec.partition(":")
        width, _, height = size.partition("x")
        mode = mode or FIT
        if (
            not name.isidentifier()
            or name == ORIGINAL
            or not (width.isdigit() and height.isdigit())
            or mode not in (FIT, FILL)
            or not (0 < int(width) <= 10_000 and 0 < int(height) <= 10_000)
        ):
            raise ValueError(f"Image variation '{entry}' must look like name=WIDTHxHEIGHT or name=WxH:fill")
        result.append(Variation(name, int(width), int(height), mode))
    return tuple(result)


def variation_file_id(original_id: str, name: str) -> str:
    """Where the rendition of ``original_id`` is kept: ``ab/cd/<token>/<name>/<file name>``."""
    directory, _, file_name = original_id.rpartition("/")
    return f"{directory}/{name}/{file_name}"


def variation_origin(file_id: str) -> tuple[str, str] | None:
    """``(original file id, variation name)`` when ``file_id`` has the form of a rendition's id (the
    inverse of :func:`variation_file_id`; whether such a rendition was made is the store's to say)."""
    parts = file_id.split("/")
    if len(parts) != 5:
        return None
    return "/".join((*parts[:3], parts[4])), parts[3]


@dataclass(frozen=True, slots=True)
class Rendition:
    data: bytes
    width: int
    height: int
    mime_type: str


def render(original: bytes, variation: Variation) -> Rendition:
    """The rendition of an image. Raises ValueError for data Pillow cannot read as an image."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(original)) as source:
                image_format = source.format or ""
                # JPEG decodes at 1/2, 1/4 or 1/8 scale when that still covers the box (either
                # orientation, as EXIF may turn it): far less work than decoding every pixel.
                side = max(variation.width, variation.height)
                source.draft(source.mode, (side, side))
                image = ImageOps.exif_transpose(source)
                box = (variation.width, variation.height)
                if variation.mode == FILL:
                    image = ImageOps.fit(image, box, Image.Resampling.LANCZOS)
                else:
                    image = image.copy()
                    image.thumbnail(box, Image.Resampling.LANCZOS)
    except (OSError, SyntaxError, Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise ValueError("The stored file is not a readable image") from error
    target = image_format if image_format in _KEPT_FORMATS else "PNG"
    if target == "JPEG" and image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    buffer = io.BytesIO()
    options = {"quality": _JPEG_QUALITY, "optimize": True} if target == "JPEG" else {"optimize": True}
    image.save(buffer, target, **options)
    return Rendition(buffer.getvalue(), image.width, image.height, _KEPT_FORMATS[target])


@dataclass(frozen=True, slots=True)
class StoredVariation:
    """A rendition kept in the file store, as ContentImageVariation describes it."""

    file_id: str
    width: int
    height: int
    file_size: int
    mime_type: str
