"""The JSON and XML writers behind one neutral tree.

Visitors build a tree of plain Python values with the conventions of the JSON wire format:

* a key starting with ``_`` is an attribute (``_media-type``, ``_href``, ``_id``);
* ``#text`` is the text of an element that also has attributes;
* a list under a key is a repeated element of that name (in JSON: an array);
* :class:`Hash` wraps a field-type hash (``fieldValue``, ``fieldSettings``...), written in XML as nested
  ``<value key="...">`` / ``<value>`` elements; in JSON an empty hash is ``[]``, as PHP encodes an empty
  array (spec/shapes-content.md §0, fieldtypes.md);
* :class:`Items` is a list whose XML elements are named otherwise than its key (JSON ``"ContentType": [...]``,
  XML ``<ContentTypeInfo>`` elements).

JSON is the tree as it is; XML is derived from it here. Nothing outside this module asks which one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import orjson

from pressroom.rest.media import JSON


class Hash:
    """A field-type hash: native JSON, ``<value key>`` elements in XML."""

    __slots__ = ("data",)

    def __init__(self, data: Any) -> None:
        self.data = data


class Items:
    """A repeated element written as a JSON list under its key, and in XML as ``element`` elements."""

    __slots__ = ("element", "items")

    def __init__(self, element: str, items: list[Any]) -> None:
        self.element = element
        self.items = items


def _php_hash(data: Any) -> Any:
    """A hash as the reference's json_encode writes it: every empty map becomes ``[]``."""
    if isinstance(data, dict):
        return {key: _php_hash(item) for key, item in data.items()} if data else []
    if isinstance(data, list):
        return [_php_hash(item) for item in data]
    return data


def _json_default(obj: Any) -> Any:
    if isinstance(obj, Hash):
        return _php_hash(obj.data)
    if isinstance(obj, Items):
        return obj.items
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def write_json(root: str, tree: Any) -> bytes:
    return orjson.dumps({root: tree}, default=_json_default)


# Characters XML 1.0 cannot carry at all, not even as character references. JSON input may hold
# them ("\u0001"); written raw they would make the whole document unparsable, so they become U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# Text or an attribute value with none of these is written as it is: one search instead of escaping.
# ASCII text (str.isascii() is a flag, not a scan) is searched for the ASCII ones only: a set of
# characters below 256 is a bitmap for the regex engine, the full set a list of ranges tried in turn.
_TEXT_SPECIAL = re.compile("[&<>\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]").search
_ASCII_TEXT_SPECIAL = re.compile("[&<>\x00-\x08\x0b\x0c\x0e-\x1f]").search
_ASCII_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]").search
_ATTRIBUTE_SPECIAL = re.compile('[&<>"\t\n\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]').search
_ASCII_ATTRIBUTE_SPECIAL = re.compile('[&<>"\t\n\r\x00-\x08\x0b\x0c\x0e-\x1f]').search


def _plain(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    text = str(value)
    return _NOT_XML.sub("\ufffd", text) if _NOT_XML.search(text) else text


def _text(value: Any) -> str:
    """Element text: ``&``, ``<`` and ``>`` escaped (as xml.sax.saxutils.escape does)."""
    if type(value) is str:
        if value.isascii():
            if _ASCII_TEXT_SPECIAL(value) is None:
                return value
            return escape(value if _ASCII_NOT_XML(value) is None else _NOT_XML.sub("\ufffd", value))
        return value if _TEXT_SPECIAL(value) is None else escape(_plain(value))
    if type(value) is int:
        return str(value)
    return escape(_plain(value))


def _attribute(value: Any) -> str:
    """An attribute value with its quotes, as xml.sax.saxutils.quoteattr writes it."""
    if type(value) is str:
        special = _ASCII_ATTRIBUTE_SPECIAL(value) if value.isascii() else _ATTRIBUTE_SPECIAL(value)
        return f'"{value}"' if special is None else quoteattr(_plain(value))
    if type(value) is int:
        return f'"{value}"'
    return quoteattr(_plain(value))


# Media types repeat in every document (a content item carries a dozen): each is written once.
_MEDIA_ATTRIBUTES: dict[Any, str] = {}
_MEDIA_ATTRIBUTES_KEPT = 1024


def _media_attribute(value: Any) -> str:
    written = _MEDIA_ATTRIBUTES.get(value)
    if written is None:
        if len(_MEDIA_ATTRIBUTES) >= _MEDIA_ATTRIBUTES_KEPT:
            _MEDIA_ATTRIBUTES.clear()
        written = _MEDIA_ATTRIBUTES[value] = f" media-type={_attribute(value)}"
    return written


def _hash_content(out: list[str], data: Any) -> None:
    if isinstance(data, dict):
        for key, item in data.items():
            out.append(f"<value key={_attribute(key)}>")
            _hash_content(out, item)
            out.append("</value>")
    elif isinstance(data, list):
        for item in data:
            out.append("<value>")
            _hash_content(out, item)
            out.append("</value>")
    else:
        out.append(_text(data))


def _element(out: list[str], name: str, value: Any) -> None:
    """Write ``value`` as element ``name``. Exact types are tried first (what visitors build); anything
    else takes the general path, which treats subclasses as their base type."""
    kind = type(value)
    if kind is str or kind is int:
        out.append(f"<{name}>{_text(value)}</{name}>")
    elif kind is dict or isinstance(value, dict):
        _dict_element(out, name, value)
    elif isinstance(value, Hash):
        out.append(f"<{name}>")
        _hash_content(out, value.data)
        out.append(f"</{name}>")
    elif value is None:
        out.append(f"<{name}/>")
    else:
        out.append(f"<{name}>{_text(value)}</{name}>")


def _dict_element(out: list[str], name: str, value: dict[str, Any]) -> None:
    attributes = ""
    text = None
    children = []
    for key, item in value.items():
        if key == "#text":
            text = item
        elif key == "_media-type" and type(item) is str:
            attributes += _media_attribute(item)
        elif key[0] == "_":
            attributes += f" {key[1:]}={_attribute(item)}"
        else:
            children.append((key, item))
    if text is None and not children:
        out.append(f"<{name}{attributes}/>")
        return
    out.append(f"<{name}{attributes}>")
    if text is not None:
        out.append(_text(text))
    for key, item in children:
        kind = type(item)
        if kind is str or kind is int:
            out.append(f"<{key}>{_text(item)}</{key}>")
        elif kind is list or isinstance(item, list):
            for entry in item:
                _element(out, key, entry)
        elif isinstance(item, Items):
            for entry in item.items:
                _element(out, item.element, entry)
        else:
            _element(out, key, item)
    out.append(f"</{name}>")


def write_xml(root: str, tree: Any) -> bytes:
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    _element(out, root, tree)
    return "".join(out).encode("utf-8")


def writer_for(fmt: str) -> Callable[[str, Any], bytes]:
    return write_json if fmt == JSON else write_xml
