"""Parsing XML from clients: one hardened parser for request bodies and rich-text values alike.

No entity expansion, no DTD, no network, no huge trees, comments and processing instructions dropped, and
a document that declares a DOCTYPE is refused even when its encoding hides it from a byte search.

Request bodies are also parsed under :class:`TreeLimits`: the document is fed to the parser in small chunks
and counted as it grows, so a body of millions of empty elements or of one element with thousands of
attributes is refused after a bounded amount of work and memory, not after the whole tree exists.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from lxml import etree

_OPTIONS: dict[str, Any] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "dtd_validation": False,
    "huge_tree": False,
    "remove_comments": True,
    "remove_pis": True,
}
# Bytes handed to the parser at a time: how far past a limit a document can grow before it is counted.
_CHUNK = 16 * 1024


class UnsafeXml(ValueError):
    """The text is not well-formed (``detail`` is the parser's message), or it declares a DOCTYPE."""

    def __init__(self, detail: str, *, doctype: bool = False) -> None:
        super().__init__(detail)
        self.detail = detail
        self.doctype = doctype


class XmlTooLarge(ValueError):
    """The document goes past one of its :class:`TreeLimits`; the message names the limit."""


@dataclass(frozen=True, slots=True)
class TreeLimits:
    elements: int  # in the whole document
    depth: int  # nesting of elements, the root being 1
    attributes: int  # on any one element


def _checked(root: etree._Element) -> etree._Element:
    docinfo = root.getroottree().docinfo
    # DocInfo.doctype is missing from lxml-stubs
    if getattr(docinfo, "doctype", "") or docinfo.internalDTD is not None:
        raise UnsafeXml("DOCTYPE", doctype=True)
    return root


_PARSERS = threading.local()


def _parser() -> etree.XMLParser:
    """This thread's parser: making one costs more than parsing a small document, and a parser may parse
    one document after another but not two at once (lxml parsers are not shared between threads)."""
    parser: etree.XMLParser | None = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = _PARSERS.parser = etree.XMLParser(**_OPTIONS)
    return parser


def parse_untrusted(data: str | bytes) -> etree._Element:
    """The root element of ``data``; raises UnsafeXml."""
    try:
        root = etree.fromstring(data, parser=_parser())
    except etree.XMLSyntaxError as exc:
        raise UnsafeXml(exc.msg) from None
    return _checked(root)


def parse_limited(data: bytes, limits: TreeLimits) -> etree._Element:
    """The root element of ``data``, counted while it is parsed; raises UnsafeXml or XmlTooLarge."""
    parser = etree.XMLPullParser(events=("start", "end"), **_OPTIONS)
    elements = depth = 0
    try:
        for offset in range(0, len(data), _CHUNK):
            parser.feed(data[offset : offset + _CHUNK])
            for event, item in parser.read_events():
                if event == "end":
                    depth -= 1
                    continue
                elements += 1
                depth += 1
                if elements > limits.elements:
                    raise XmlTooLarge(f"The XML document has more than {limits.elements} elements")
                if depth > limits.depth:
                    raise XmlTooLarge(f"The XML document nests elements deeper than {limits.depth} levels")
                # len() walks the attribute list once; reading items() is quadratic in lxml
                assert isinstance(item, etree._Element)  # start/end events carry elements
                if len(item.attrib) > limits.attributes:
                    raise XmlTooLarge(f"An XML element has more than {limits.attributes} attributes")
        root = parser.close()
    except etree.XMLSyntaxError as exc:
        raise UnsafeXml(exc.msg) from None
    return _checked(root)
