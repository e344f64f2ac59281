"""Visitors for image variations (ContentImageVariation) and the image Asset resource."""

from __future__ import annotations

from pressroom.rest.output.visitor import Out, Representation, visits
from pressroom.rest.output.wire import RestWireContext
from pressroom.services.image import ImageAsset, ImageVariation


@visits(ImageVariation, "ContentImageVariation")
def visit_image_variation(out: Out, value: ImageVariation) -> Representation:
    stored = value.stored
    body = {
        "_media-type": out.media("ContentImageVariation"),
        "_href": out.url("image.variation", imageId=value.image_id, variation=value.name),
        "uri": RestWireContext(out).file_uri(stored.file_id),
        "contentType": stored.mime_type,
        "width": stored.width,
        "height": stored.height,
        "fileSize": stored.file_size,
    }
    return Representation.single("ContentImageVariation", body, value)


@visits(ImageAsset, "Asset")
def visit_image_asset(out: Out, value: ImageAsset) -> Representation:
    body = {
        "_media-type": out.media("Asset"),
        "_href": out.url("image.asset", assetId=str(value.content_id), assetSource=value.source),
        "uri": RestWireContext(out).file_uri(value.file_id),
        "assetId": str(value.content_id),
        "assetSource": value.source,
        "assetMetadata": {
            "alternativeText": value.alternative_text,
            "width": value.width,
            "height": value.height,
        },
    }
    return Representation.single("Asset", body, value)
