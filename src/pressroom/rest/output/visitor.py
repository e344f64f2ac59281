"""Visitors: one function per value type turns a value into a neutral tree (see writers.py).

A visitor receives an :class:`Out` (the dialect and format of the response, and the href builder) and the
value, and returns a :class:`Representation`. Visitors never ask which format is being written. Each
registration declares the media type name (and root element) its visitor writes: the route table's
responses are derived from handler return types through these declarations (rest/declared.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pressroom.domain.image_variation import DEFAULT_VARIATIONS, ORIGINAL
from pressroom.domain.tags import value_tag
from pressroom.rest.media import Rendering
from pressroom.rest.routing import Router

T = TypeVar("T")
IMAGE_VARIATIONS = (ORIGINAL, *(variation.name for variation in DEFAULT_VARIATIONS))


@dataclass(frozen=True, slots=True)
class Representation:
    root: str  # element name of the document root
    media: str  # media type name for Content-Type ("" for none)
    body: Any
    accept_patch: str | None = None  # media type name of the PATCH input, for single resources
    etag: str | None = None  # for single resources

    @classmethod
    def single(cls, name: str, body: Any, value: object, patch: str | None = None) -> Representation:
        """A single resource: root element and media type ``name``, ETag from ``value``."""
        return cls(name, name, body, accept_patch=patch, etag=value_tag(value))


class Out:
    """What a visitor may know about the response being written."""

    __slots__ = ("_media_prefix", "_media_suffix", "_prefix", "image_variations", "rendering", "router")

    def __init__(
        self, rendering: Rendering, router: Router, image_variations: tuple[str, ...] = IMAGE_VARIATIONS
    ) -> None:
        self.rendering = rendering
        self.router = router
        self.image_variations = image_variations  # names listed in image field values
        # A representation has dozens of media types and hrefs: their fixed parts are joined once.
        self._prefix = rendering.dialect.prefix
        self._media_prefix = f"application/vnd.{rendering.dialect.vendor}.api."
        self._media_suffix = f"+{rendering.format}"

    def media(self, name: str) -> str:
        """As ``Rendering.media``."""
        return f"{self._media_prefix}{name}{self._media_suffix}" if name else ""

    def url(self, route: str, **params: Any) -> str:
        return self._prefix + self.router.path(route, **params)

    def ref(self, media: str, route: str, **params: Any) -> dict[str, Any]:
        """A reference element: ``{"_media-type": ..., "_href": ...}``."""
        return {"_media-type": self.media(media), "_href": self._prefix + self.router.path(route, **params)}

    def href(self, path: str) -> str:
        return self._prefix + path


@dataclass(frozen=True, slots=True)
class Output:
    """What a visitor writes: the media type name (one of ``media``) and the root element name (None: named
    as the media type it writes, for the generic list of rest/output/lists.py)."""

    media: tuple[str, ...]
    root: str | None


Visitor = Callable[[Out, Any], Representation]
_VISITORS: dict[type, tuple[Visitor, Output]] = {}


def visits(
    kind: type[T], media: str, root: str | None = None
) -> Callable[[Callable[[Out, T], Representation]], Callable[[Out, T], Representation]]:
    """Register the visitor of ``kind``, which writes media type ``media`` (space-separated names when
    it depends on the value, like ``"Role RoleDraft"``) with root element ``root`` (by default named as
    the first media type)."""
    names = tuple(media.split())

    def register(function: Callable[[Out, T], Representation]) -> Callable[[Out, T], Representation]:
        _VISITORS[kind] = (function, Output(names, root or names[0]))
        return function

    return register


def visits_lists(kind: type, function: Visitor, media: tuple[str, ...]) -> None:
    """Register the visitor of the generic list type, which writes the list media types ``media`` with a
    root element named as the media type."""
    _VISITORS[kind] = (function, Output(media, None))


def output_of(kind: type) -> Output | None:
    """What the visitor of ``kind`` writes; None when no visitor is registered for it."""
    found = _VISITORS.get(kind)
    return None if found is None else found[1]


def registered_outputs() -> list[tuple[str, str]]:
    """(media type name, root element name) of everything the registered visitors write, sorted."""
    return sorted(
        {(media, output.root or media) for _, output in _VISITORS.values() for media in output.media}
    )


def visit(out: Out, value: Any) -> Representation:
    try:
        visitor, declared = _VISITORS[type(value)]
    except KeyError:
        raise TypeError(f"no visitor for {type(value).__name__}") from None
    representation = visitor(out, value)
    if representation.media not in declared.media or representation.root != (
        declared.root or representation.media
    ):
        raise TypeError(f"the visitor of {type(value).__name__} wrote other than it declares")
    return representation


def translated(values: dict[str, str]) -> dict[str, Any]:
    """``{"eng-GB": "Folder"}`` -> ``{"value": [{"_languageCode": "eng-GB", "#text": "Folder"}]}``."""
    return {"value": [{"_languageCode": code, "#text": text} for code, text in values.items()]}
