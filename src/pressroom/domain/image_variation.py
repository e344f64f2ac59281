"""Image variations: named renditions of an image field's file (``small``, ``medium``, ...).

A variation scales the original down to fit a box (``fit``, aspect kept, never enlarged) or covers the
box and crops the overflow (``fill``). ``original`` is the uploaded file itself. Renditions are made on
first request and kept in the file store beside the original, under an id derived from it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageOps

ORIGINAL = "original"
FIT = "fit"
FILL = "fill"
# Formats written as they came; anything else (GIF, BMP, TIFF, WebP...) is rendered as PNG.
_KEPT_FORMATS = {"JPEG": "image/jpeg", "PNG": "image/png"}
_JPEG_QUALITY = 85
# What Pillow raises for data it cannot read: UnidentifiedImageError is an OSError (so is a truncated
# image), corrupt headers give ValueError or SyntaxError.
_UNREADABLE = (OSError, ValueError, SyntaxError, Image.DecompressionBombError)
DEFAULT_MAX_PIXELS = 50_000_000  # a 45-megapixel camera fits; a 9,400 x 9,400 bomb (2 s to decode) not

# Pillow's own bound only warns up to twice its size, through the process-wide warning filters that
# threads cannot share safely; :func:`decoded` checks ours instead, before any pixel is decoded.
Image.MAX_IMAGE_PIXELS = None


def image_id(content_id: int, field_id: int, version_no: int) -> str:
    """The REST image id of an image field value, used in variation hrefs."""
    return f"{content_id}-{field_id}-{version_no}"


class PixelBound:
    """The most pixels an image may have to be accepted or rendered: process-wide, as Pillow's own bound
    it replaces; the app sets it from the ``max_image_pixels`` setting at start."""

    pixels = DEFAULT_MAX_PIXELS


def set_max_pixels(pixels: int) -> None:
    PixelBound.pixels = pixels


@contextmanager
def decoded(data: bytes, side: int = 1) -> Iterator[tuple[Image.Image, tuple[int, int]]]:
    """The image in ``data``, every pixel decoded (a JPEG at the smallest scale that covers ``side``),
    and its size as stored (before that scaling). Raises ValueError for data that is not a whole image
    (no pixels, cut short) or has more pixels than :class:`PixelBound` allows."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width * height > PixelBound.pixels:
                raise ValueError(f"The image has {width} x {height} pixels, more than {PixelBound.pixels}")
            # JPEG decodes at 1/2, 1/4 or 1/8 scale when that still covers the box (either orientation,
            # as EXIF may turn it): far less work than decoding every pixel.
            image.draft(image.mode, (side, side))
            image.load()
            yield image, (width, height)
    except _UNREADABLE as error:
        raise ValueError(str(error) or "The data is not a readable image") from error


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
        with decoded(original, max(variation.width, variation.height)) as (source, _):
            image_format = source.format or ""
            image = ImageOps.exif_transpose(source)
            box = (variation.width, variation.height)
            if variation.mode == FILL:
                image = ImageOps.fit(image, box, Image.Resampling.LANCZOS)
            else:
                image = image.copy()
                image.thumbnail(box, Image.Resampling.LANCZOS)
    except ValueError as error:
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
