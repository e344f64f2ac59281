"""The parser registry: which parser turns each input media type (``ContentCreate``, ``SectionInput``)
into a value, and the one decoding of a request body through it.

A parser module registers its parsers with :func:`parses`; an input whose handler reads the decoded tree
itself is registered to :func:`plain`. A route declares the input types its body may be
(``accepts=`` in rest/routes.py); the request (rest/request.py) calls :func:`read_input` once, which
checks the Content-Type against those types, decodes the body and runs the registered parser, and a
handler receives the parsed value by naming the parser it expects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from pressroom.domain.errors import BadRequest, UnsupportedMediaType
from pressroom.rest.input.decoders import decode
from pressroom.rest.input.node import Node
from pressroom.rest.media import parse_media_type
from pressroom.rest.routing import Router

T = TypeVar("T")


class Hrefs(Protocol):
    """Anything that resolves an href to the parameters of the route it names (a request does too)."""

    def parse_href(self, href: str, *routes: str, what: str = "href") -> dict[str, Any]: ...


class Refs:
    """What a parser may know besides the body: the routes that resolve the hrefs it carries, and the
    version the Content-Type asks for (``ViewInput; version=1.1``)."""

    __slots__ = ("router", "version")

    def __init__(self, router: Router, version: str | None = None) -> None:
        self.router = router
        self.version = version

    def parse_href(self, href: str, *routes: str, what: str = "href") -> dict[str, Any]:
        """The parameters of the route (one of ``routes``) the href names; BadRequest naming ``what``."""
        return self.router.parse_href(href, *routes, what=what)[1]


Parser = Callable[[Node, Refs], Any]
_PARSERS: dict[str, Parser] = {}


def parses(*names: str) -> Callable[[Callable[[Node, Refs], T]], Callable[[Node, Refs], T]]:
    """Register the decorated function as the parser of the input media types ``names``."""

    def register(parser: Callable[[Node, Refs], T]) -> Callable[[Node, Refs], T]:
        for name in names:
            if name in _PARSERS:
                raise ValueError(f"input {name} already has a parser")
            _PARSERS[name] = parser
        return parser

    return register


def parser_of(name: str) -> Parser | None:
    """The parser registered for an input media type; None when there is none."""
    return _PARSERS.get(name)


def read_input(
    body: bytes,
    content_type: str | None,
    accepts: tuple[str, ...],
    media: Callable[[str], str],
    router: Router,
) -> tuple[Parser, Any]:
    """Decode ``body`` as one of the input types ``accepts`` (400 without a Content-Type, 415 for another
    type) and parse it with that type's parser: the parser and the value it made."""
    header = content_type
    if not header:
        raise BadRequest("Missing Content-Type header; expected " + media(accepts[0]))
    sent = parse_media_type(header)
    if sent is None or (sent.name and sent.name not in accepts):
        raise UnsupportedMediaType(
            f"Content-Type '{header}' is not accepted here; expected {media(accepts[0])}"
        )
    parser = _PARSERS[sent.name or accepts[0]]
    root, data = decode(body, sent.format)
    return parser, parser(Node(data, sent.name or root), Refs(router, sent.version))


@parses(
    "ContentObjectStates",
    "ContentTypeGroupInput",
    "JWTInput",
    "ObjectStateCreate",
    "ObjectStateGroupCreate",
    "ObjectStateGroupUpdate",
    "ObjectStateUpdate",
    "RoleInput",
    "SectionInput",
    "SessionInput",
    "UrlAliasCreate",
    "UrlWildcardCreate",
    "WebhookInput",
)
def plain(node: Node, _refs: Refs) -> Node:
    """The decoded tree itself, for the inputs whose handler reads its few elements directly."""
    return node
