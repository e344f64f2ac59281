"""Rich text XML documents: hardened parsing, format detection, validation and text extraction.

The stored form is DocBook 5 (``<section xmlns="http://docbook.org/ns/docbook" version="5.0-variant
ezpublish-1.0">``); the editing form is xhtml5edit. With :mod:`.ezrichtext_convert`, this is the only
domain code that imports lxml.

What input may hold (both formats are reduced to the same stored DocBook):

- Elements: only those the conversions know (``DOCBOOK_ELEMENTS``; xhtml5edit's mapped set). Anything
  else, ``<script>``, ``<iframe>``, ``<object>``, ``<style>`` included, makes the value invalid (400):
  xhtml5edit input is refused while converting, DocBook input by :func:`docbook_problems`.
- Attributes: an allow-list (``DOCBOOK_ATTRIBUTES``). Every other attribute is dropped on input, so event
  handlers (``onclick``...) and ``style`` never get stored; xhtml5edit's ``style`` only yields the text
  alignment it encodes.
- Links (``xlink:href``, xhtml5edit ``href`` and ``data-href``): :func:`.links.is_unsafe_link` normalises
  them as a browser does (``java&#9;script:`` is ``javascript:``) and a script link makes the value
  invalid; one stored before this check is left out of the xhtml5edit output.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

from lxml import etree

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.ezrichtext_convert import (
    DOCBOOK_ATTRIBUTES,
    DOCBOOK_ELEMENTS,
    DOCBOOK_NS,
    EZCUSTOM_NS,
    EZXHTML_NS,
    XHTML5EDIT_NS,
    XLINK_NS,
    convert_children,
    docbook_element,
    xhtml_element,
)
from pressroom.domain.fieldtypes.links import is_unsafe_link
from pressroom.safexml import UnsafeXml, parse_untrusted

DOCBOOK_VERSION = "5.0-variant ezpublish-1.0"
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
LEGACY_NAMESPACES = {
    "http://ez.no/namespaces/ezpublish5/xhtml5/edit": XHTML5EDIT_NS,
    "http://ez.no/xmlns/ezpublish/docbook/xhtml": EZXHTML_NS,
    "http://ez.no/xmlns/ezpublish/docbook/custom": EZCUSTOM_NS,
}
_PREFIXES: dict[str, str] = {"xlink": XLINK_NS, "ezxhtml": EZXHTML_NS, "ezcustom": EZCUSTOM_NS}
_DOCBOOK_NSMAP: dict[str | None, str] = {None: DOCBOOK_NS}
_DOCBOOK_NSMAP.update(_PREFIXES)
_XML_DECLARATION_RE = re.compile(r"^\s*<\?xml[^>]*\?>")
_TEXT_BLOCKS = ("para", "title", "listitem", "literallayout", "td", "th", "caption", "blockquote")
_NO_TEXT = ("ezconfig", "ezvalue", "ezattribute")
CACHED_SIZE = 32 * 1024
"""Documents up to this many characters have their conversions cached (512 of each at most)."""


def parse(xml: str, what: str) -> etree._Element:
    """Parse with a hardened parser (no entities, no network, no DTD, no huge trees).

    Raises InvalidArgument naming ``what`` when the text is not well-formed or has a DOCTYPE.
    """
    try:
        return parse_untrusted(_XML_DECLARATION_RE.sub("", xml, count=1))
    except UnsafeXml as exc:
        if exc.doctype:
            raise InvalidArgument(f"{what} must not contain a DOCTYPE") from None
        raise InvalidArgument(f"{what} is not well-formed XML: {exc.detail}") from None


def _serialize(root: etree._Element) -> str:
    return XML_DECLARATION + etree.tostring(root, encoding="unicode") + "\n"


def _new_docbook_section() -> etree._Element:
    # lxml-stubs omit the None key (the default namespace) from the nsmap type
    section = etree.Element(f"{{{DOCBOOK_NS}}}section", nsmap=_DOCBOOK_NSMAP)  # type: ignore[arg-type]
    section.set("version", DOCBOOK_VERSION)
    return section


EMPTY_DOCBOOK = _serialize(_new_docbook_section())


def to_docbook(xml: str, what: str = "fieldValue 'xml'") -> str:
    """The DocBook to store for DocBook or xhtml5edit input, told apart by the root namespace.

    The older ``ez.no`` namespaces are accepted and renamed. Raises InvalidArgument when the root is not
    a ``section`` of either format, or when xhtml5edit holds an element the converter does not know.
    """
    root = parse(xml, what)
    _rename_legacy_namespaces(root)
    qname = etree.QName(root)
    if qname.localname != "section" or qname.namespace not in (DOCBOOK_NS, XHTML5EDIT_NS):
        raise InvalidArgument(
            f"{what} must be a <section> in the DocBook ({DOCBOOK_NS}) or xhtml5edit ({XHTML5EDIT_NS}) "
            f"namespace, not <{qname.localname}> in '{qname.namespace or ''}'"
        )
    section = _new_docbook_section()
    if qname.namespace == DOCBOOK_NS:
        section.text = root.text
        section.extend(list(root))
    else:
        convert_children(root, section, docbook_element)
    _drop_unknown_attributes(section)
    etree.cleanup_namespaces(section, top_nsmap=_PREFIXES, keep_ns_prefixes=list(_PREFIXES))
    docbook = _serialize(section)
    _keep(docbook, section)  # validation, the name, relations and the index read it next
    return docbook


class _Trees(threading.local):
    def __init__(self) -> None:
        self.recent: dict[str, etree._Element] = {}


_TREES = _Trees()
_RECENT_TREES = 8


def stored_tree(docbook: str, what: str = "stored rich text") -> etree._Element:
    """The tree of stored DocBook, to read and not to change: the few small documents this thread
    converted or parsed last are kept, so saving and publishing a value parses it once (not once for each
    of validation, the name, the relations and the search index). Raises InvalidArgument as :func:`parse`."""
    root = _TREES.recent.get(docbook)
    if root is None:
        root = parse(docbook, what)
        _keep(docbook, root)
    return root


def _keep(docbook: str, root: etree._Element) -> None:
    if len(docbook) > CACHED_SIZE:
        return
    recent = _TREES.recent
    recent[docbook] = root
    if len(recent) > _RECENT_TREES:
        del recent[next(iter(recent))]


def _drop_unknown_attributes(root: etree._Element) -> None:
    for element in root.iter():
        if isinstance(element.tag, str):
            for key in [key for key in element.attrib if key not in DOCBOOK_ATTRIBUTES]:
                del element.attrib[key]


def docbook_to_xhtml5edit(docbook: str) -> str:
    """The xhtml5edit form of stored DocBook (small documents are cached: output is a hot path)."""
    return _cached_xhtml5edit(docbook) if len(docbook) <= CACHED_SIZE else _xhtml5edit(docbook)


def docbook_text(docbook: str) -> str:
    """The text of stored DocBook, one line per block (paragraph, title, list item, cell...)."""
    return _cached_text(docbook) if len(docbook) <= CACHED_SIZE else _text(docbook)


def _xhtml5edit(docbook: str) -> str:
    root = etree.Element(f"{{{XHTML5EDIT_NS}}}section", nsmap={None: XHTML5EDIT_NS})  # type: ignore[dict-item]
    convert_children(parse(docbook, "stored rich text"), root, xhtml_element)
    return _serialize(root)


def docbook_problems(docbook: str) -> list[str]:
    """Why stored DocBook is not acceptable: elements outside the supported set, unsafe link schemes."""
    return list(_cached_problems(docbook) if len(docbook) <= CACHED_SIZE else _problems(docbook))


def _problems(docbook: str) -> tuple[str, ...]:
    problems: list[str] = []
    for element in stored_tree(docbook, "rich text").iter():
        if not isinstance(element.tag, str):
            continue
        qname = etree.QName(element)
        if qname.namespace != DOCBOOK_NS or qname.localname not in DOCBOOK_ELEMENTS:
            problems.append(f"Element '{qname.localname}' is not allowed in rich text.")
        href = element.get(f"{{{XLINK_NS}}}href")
        if href is not None and is_unsafe_link(href):
            problems.append(f"Link '{href}' uses a scheme that is not allowed.")
    return tuple(dict.fromkeys(problems))


def _text(docbook: str) -> str:
    parts: list[str] = []
    _collect_text(stored_tree(docbook), parts)
    lines = (" ".join(line.split()) for line in "".join(parts).splitlines())
    return "\n".join(line for line in lines if line)


def is_empty_docbook(docbook: str) -> bool:
    """True when the section has no child element and no text."""
    return _cached_is_empty(docbook) if len(docbook) <= CACHED_SIZE else _is_empty(docbook)


def _is_empty(docbook: str) -> bool:
    root = stored_tree(docbook)
    return len(root) == 0 and not (root.text or "").strip()


# Saving and publishing one document asks the same questions of it several times (validation, names,
# relations, the search index: 15 parses per create and publish), and reading it converts it again.
_cached_xhtml5edit = lru_cache(maxsize=512)(_xhtml5edit)
_cached_text = lru_cache(maxsize=512)(_text)
_cached_problems = lru_cache(maxsize=512)(_problems)
_cached_is_empty = lru_cache(maxsize=512)(_is_empty)


def _collect_text(element: etree._Element, parts: list[str]) -> None:
    name = etree.QName(element).localname
    if name not in _NO_TEXT:
        parts.append(element.text or "")
        for child in element:
            if isinstance(child.tag, str):
                _collect_text(child, parts)
            parts.append(child.tail or "")
    if name in _TEXT_BLOCKS:
        parts.append("\n")


def _rename_legacy_namespaces(root: etree._Element) -> None:
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        qname = etree.QName(element)
        if qname.namespace in LEGACY_NAMESPACES:
            element.tag = f"{{{LEGACY_NAMESPACES[qname.namespace]}}}{qname.localname}"
        for key in list(element.attrib):
            attribute = etree.QName(key)
            if attribute.namespace in LEGACY_NAMESPACES:
                value = element.attrib.pop(key)
                element.set(f"{{{LEGACY_NAMESPACES[attribute.namespace]}}}{attribute.localname}", value)
