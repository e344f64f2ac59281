"""Image variations and image assets."""

from __future__ import annotations

from pressroom.rest.output import images as _visitors  # noqa: F401  (registers the visitors)
from pressroom.rest.request import RestRequest
from pressroom.services.image import ImageAsset, ImageVariation


def load_variation(req: RestRequest, imageId: str, variation: str) -> ImageVariation:
    return req.services.images.variation(req.user, imageId, variation)


def load_asset(req: RestRequest, assetId: str, assetSource: str) -> ImageAsset:
    return req.services.images.asset(req.user, assetId, assetSource)
