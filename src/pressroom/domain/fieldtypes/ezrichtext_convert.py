"""Element-by-element conversion between rich text DocBook and xhtml5edit (lxml trees).

Covered: paragraphs, emphasis (strong/em/underline/strike), links, headings (``title`` with
``ezxhtml:level``), lists, block quotes, sub/superscript, literal layout (``pre``), tables, and the ``ez*``
embed/template elements, which xhtml5edit writes as ``div``/``span`` with ``data-ezelement``. Attributes
outside the mapped set are dropped, so event handlers and styles other than text alignment never pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.links import is_unsafe_link

DOCBOOK_NS = "http://docbook.org/ns/docbook"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"
EZXHTML_NS = "http://ibexa.co/xmlns/dxp/docbook/xhtml"
EZCUSTOM_NS = "http://ibexa.co/xmlns/dxp/docbook/custom"
XHTML5EDIT_NS = "http://ibexa.co/namespaces/ezpublish5/xhtml5/edit"

Builder = Callable[[etree._Element, etree._Element], None]
"""Converts one source element and appends the result to the target parent."""

_SAME_NAME = ("blockquote", "caption", "thead", "tbody", "tfoot", "tr", "td", "th")
_D2X = {
    "para": "p",
    "itemizedlist": "ul",
    "orderedlist": "ol",
    "subscript": "sub",
    "superscript": "sup",
    "literallayout": "pre",
    "informaltable": "table",
    "table": "table",
    **{name: name for name in _SAME_NAME},
}
_X2D = {"p": "para", "ul": "itemizedlist", "ol": "orderedlist", "sub": "subscript", "sup": "superscript"}
_X2D.update({name: name for name in _SAME_NAME})
_EMPHASIS_TO_XHTML = {"strong": "strong", "underlined": "u", "strikedthrough": "s"}
_EMPHASIS_TO_DOCBOOK = {
    "strong": "strong",
    "b": "strong",
    "em": "",
    "i": "",
    "u": "underlined",
    "s": "strikedthrough",
    "del": "strikedthrough",
    "strike": "strikedthrough",
}
EZ_ELEMENTS = (
    "ezembed",
    "ezembedinline",
    "ezconfig",
    "ezvalue",
    "ezattribute",
    "eztemplate",
    "eztemplateinline",
    "ezcontent",
)
_EZ_INLINE = ("ezembedinline", "ezconfig", "ezvalue", "ezattribute", "eztemplateinline")
_EZ_ATTRIBUTES = {
    f"{{{XLINK_NS}}}href": "data-href",
    "view": "data-ezview",
    "key": "data-ezvalue-key",
    "name": "data-ezname",
    "type": "data-eztype",
}
_TABLE_ATTRIBUTES = ("colspan", "rowspan", "scope", "border", "width", "valign", "align")
_BLOCK_XHTML = ("p", "ul", "ol", "table", "pre", "blockquote", "div", "h1", "h2", "h3", "h4", "h5", "h6")
DOCBOOK_ELEMENTS = frozenset(
    ("section", "emphasis", "link", "title", "listitem", "anchor", *_D2X, *EZ_ELEMENTS)
)
_HEADING = re.compile(r"h([1-6])")
_LINK_ATTRIBUTES = ("href", "data-href")
_TEXT_ALIGN = re.compile(r"text-align\s*:\s*([a-z]+)", re.IGNORECASE)
_CLASS, _ALIGN, _LEVEL = (f"{{{EZXHTML_NS}}}{name}" for name in ("class", "textalign", "level"))
_ID, _HREF, _TITLE, _SHOW = (
    f"{{{XML_NS}}}id",
    *(f"{{{XLINK_NS}}}{name}" for name in ("href", "title", "show")),
)
DOCBOOK_ATTRIBUTES = frozenset(
    {"version", "role", "linkend", "class", _CLASS, _ALIGN, _LEVEL, _ID, _HREF, _TITLE, _SHOW}
    | {*_TABLE_ATTRIBUTES, *_EZ_ATTRIBUTES}
)
"""The attributes stored DocBook may carry (what the conversions know); input loses every other one."""


def append_text(target: etree._Element, text: str | None) -> None:
    """Append text after the last child of ``target`` (or inside it when it has none)."""
    if not text:
        return
    if len(target):
        target[-1].tail = (target[-1].tail or "") + text
    else:
        target.text = (target.text or "") + text


def convert_children(source: etree._Element, target: etree._Element, build: Builder) -> None:
    """Convert the content of ``source`` into ``target``, keeping text and tails."""
    append_text(target, source.text)
    for child in source:
        if isinstance(child.tag, str):
            build(child, target)
        append_text(target, child.tail)


def _present(source: etree._Element, mapping: dict[str, str]) -> dict[str, str]:
    """``{target name: value}`` for each ``{source name: target name}`` the element carries."""
    return {target: value for name, target in mapping.items() if (value := source.get(name)) is not None}


# -- DocBook -> xhtml5edit -------------------------------------------------------------------------


_XHTML_TAGS = {name: f"{{{XHTML5EDIT_NS}}}{name}" for name in (*_D2X.values(), "em", "u", "s", "a", "li")}
_XHTML_ATTRIBUTES = {_CLASS: "class", _ID: "id", **{a: a for a in _TABLE_ATTRIBUTES}}
# What an element without attributes becomes (the usual paragraph, emphasis, list, cell).
_BARE_XHTML = {**_D2X, "emphasis": "em", "link": "a", "title": "h2"}


def _localname(element: etree._Element) -> str:
    """The local name of an element's tag (``{namespace}name`` or ``name``)."""
    return str(element.tag).rpartition("}")[2]


def xhtml_element(source: etree._Element, parent: etree._Element) -> None:
    name = _localname(source)
    content = source
    bare = not source.attrib
    if name == "listitem":
        tag, attributes = "li", ({} if bare else _present(source, {_CLASS: "class"}))
        para = _single_para(source)
        content = source if para is None else para
    elif bare and name in _BARE_XHTML:
        tag, attributes = _BARE_XHTML[name], {}
    else:
        tag, attributes = _xhtml_tag(source, name)
    for key in _LINK_ATTRIBUTES:  # rich text stored before links were checked may still hold one
        if key in attributes and is_unsafe_link(attributes[key]):
            del attributes[key]
    element = etree.SubElement(parent, _XHTML_TAGS.get(tag) or f"{{{XHTML5EDIT_NS}}}{tag}", attributes)
    convert_children(content, element, xhtml_element)


def _single_para(item: etree._Element) -> etree._Element | None:
    """The only child of a list item when it is a bare paragraph (xhtml5edit writes ``<li>text</li>``)."""
    children = [child for child in item if isinstance(child.tag, str)]
    if len(children) != 1 or _localname(children[0]) != "para" or children[0].attrib:
        return None
    if (item.text or "").strip() or (children[0].tail or "").strip():
        return None
    return children[0]


def _xhtml_tag(source: etree._Element, name: str) -> tuple[str, dict[str, str]]:
    attributes = _present(source, _XHTML_ATTRIBUTES)
    if source.get(_ALIGN):
        attributes["style"] = f"text-align:{source.get(_ALIGN)};"
    if name == "emphasis":
        return _EMPHASIS_TO_XHTML.get(source.get("role", ""), "em"), attributes
    if name == "link":
        linkend = source.get("linkend")
        if linkend and source.get(_HREF) is None:
            attributes["href"] = f"#{linkend}"
        attributes.update(_present(source, {_HREF: "href", _TITLE: "title"}))
        if source.get(_SHOW) == "new":
            attributes["target"] = "_blank"
        return "a", attributes
    if name == "title":
        level = source.get(_LEVEL, "2")
        return f"h{level if level in ('1', '2', '3', '4', '5', '6') else '2'}", attributes
    if name in _D2X:
        return _D2X[name], attributes
    attributes = {"data-ezelement": name, **_present(source, _EZ_ATTRIBUTES)}
    return ("span" if name in _EZ_INLINE else "div"), attributes


# -- xhtml5edit -> DocBook -------------------------------------------------------------------------


def docbook_element(source: etree._Element, parent: etree._Element) -> None:
    """Raises InvalidArgument for an element xhtml5edit does not define."""
    qname = etree.QName(source)
    name = qname.localname.lower()
    if qname.namespace != XHTML5EDIT_NS:
        raise InvalidArgument(
            f"fieldValue 'xml' contains the element '{qname.localname}' of another namespace"
        )
    if name == "br":
        append_text(parent, "\n")
        return
    if name == "li":
        item = etree.SubElement(parent, f"{{{DOCBOOK_NS}}}listitem", _present(source, {"class": _CLASS}))
        has_blocks = any(
            isinstance(child.tag, str) and etree.QName(child).localname in _BLOCK_XHTML for child in source
        )
        target = item if has_blocks else etree.SubElement(item, f"{{{DOCBOOK_NS}}}para")
        convert_children(source, target, docbook_element)
        return
    tag, attributes = _docbook_tag(source, name)
    element = etree.SubElement(parent, f"{{{DOCBOOK_NS}}}{tag}", attributes)
    convert_children(source, element, docbook_element)


def _docbook_tag(source: etree._Element, name: str) -> tuple[str, dict[str, str]]:
    attributes = _present(source, {"class": _CLASS, "id": _ID, **{a: a for a in _TABLE_ATTRIBUTES}})
    align = _TEXT_ALIGN.search(source.get("style", ""))
    if align:
        attributes[_ALIGN] = align.group(1).lower()
    if name in _EMPHASIS_TO_DOCBOOK:
        if _EMPHASIS_TO_DOCBOOK[name]:
            attributes["role"] = _EMPHASIS_TO_DOCBOOK[name]
        return "emphasis", attributes
    if name == "a":
        href = source.get("href", "")
        if href.startswith("#"):
            attributes["linkend"] = href[1:]
        elif href:
            attributes[_HREF] = href
        attributes.update(_present(source, {"title": _TITLE}))
        if source.get("target") == "_blank":
            attributes[_SHOW] = "new"
        return "link", attributes
    heading = _HEADING.fullmatch(name)
    if heading:
        attributes[_LEVEL] = heading.group(1)
        return "title", attributes
    if name == "table":
        has_caption = source.find(f"{{{XHTML5EDIT_NS}}}caption") is not None
        return ("table" if has_caption else "informaltable"), attributes
    if name == "pre":
        attributes["class"] = "normal"
        return "literallayout", attributes
    if name in _X2D:
        return _X2D[name], attributes
    ez_element = source.get("data-ezelement", "")
    if name in ("div", "span") and ez_element in EZ_ELEMENTS:
        return ez_element, {
            key: source.get(attr, "") for key, attr in _EZ_ATTRIBUTES.items() if source.get(attr)
        }
    raise InvalidArgument(f"fieldValue 'xml' contains the unsupported element '{name}'")
