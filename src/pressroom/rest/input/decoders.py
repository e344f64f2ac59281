"""Decoders: a JSON or XML request body becomes one neutral tree (the JSON shape).

XML attributes become ``_name`` keys, text next to attributes ``#text``, repeated elements lists. The
content of field-type hashes (``fieldValue``, ``defaultValue``, ``fieldSettings``,
``validatorConfiguration``) is decoded from ``<value key>`` elements into dicts and lists, with scalars
type-cast as the reference does (digits -> int, decimals -> float, true/false -> bool).

The XML parser is hardened: no entity expansion, no DTD, no network, no huge trees, and documents with
a DOCTYPE are refused outright. Both formats are held to ``LIMITS`` before a full tree exists: a body of
millions of tiny elements, one element with thousands of attributes, or nesting past 64 levels is a 413
after work linear in the body (request input is a few hundred elements; file contents travel as base64
text, not as elements).
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from lxml import etree

from pressroom.domain.errors import BadRequest, PayloadTooLarge
from pressroom.domain.integers import INT64_MAX, INT64_MIN, parse_int
from pressroom.rest.media import JSON
from pressroom.safexml import TreeLimits, UnsafeXml, XmlTooLarge, parse_limited

HASH_ELEMENTS = frozenset({"fieldValue", "defaultValue", "fieldSettings", "validatorConfiguration"})

_INT = re.compile(r"^-?[0-9]+$")
_FLOAT = re.compile(r"^-?[0-9]*\.[0-9]+$")
# JSON is scanned in pieces of this size: whatever is done to one piece, the work is linear in the body.
_CHUNK = 16 * 1024
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")

LIMITS = TreeLimits(elements=50_000, depth=64, attributes=32)


def decode(body: bytes, fmt: str | None) -> tuple[str, Any]:
    """Return (root name, root value). Missing format means XML, as in the reference."""
    if not body.strip():
        raise BadRequest("The request body is empty")
    return _decode_json(body) if fmt == JSON else _decode_xml(body)


def _json_shape(body: bytes) -> tuple[int, int]:
    """How many objects and arrays ``body`` holds, and how deep they nest, counted on its bytes before
    parsing, exactly for any well-formed document (a malformed one is orjson's to refuse).

    The body is read once, in pieces of ``_CHUNK`` bytes, carrying from one piece to the next only whether
    a string is open and a dangling backslash: escapes occur only inside strings, so once ``\\\\`` and
    ``\\"`` are dropped (left to right, as JSON reads them) every quote left opens or closes a string, and
    the brackets between strings are the document's. The scan stops at the first count past a limit.
    """
    opened = body.count(b"{") + body.count(b"[")
    if opened <= LIMITS.depth:  # few brackets anywhere, even inside strings: nothing to find
        return opened, opened
    brackets = bytearray()
    opened = closed = 0
    in_string = False
    carry = b""
    for offset in range(0, len(body), _CHUNK):
        text = (carry + body[offset : offset + _CHUNK]).replace(b"\\\\", b"").replace(b'\\"', b"")
        carry = b"\\" if text.endswith(b"\\") else b""  # escapes what starts the next piece
        parts = text[: len(text) - len(carry)].split(b'"')
        outside = b"".join(parts[1 if in_string else 0 :: 2]).translate(None, _NOT_BRACKETS)
        in_string ^= len(parts) % 2 == 0
        opens = outside.count(b"{") + outside.count(b"[")
        opened += opens
        closed += len(outside) - opens
        if opened > LIMITS.elements or closed > opened:  # too many, or malformed
            return opened, 0
        brackets += outside
    return opened, _depth(bytes(brackets))


def _depth(brackets: bytes) -> int:
    """How deep ``brackets`` nest (0 when they do not match): each round drops the innermost pairs, and
    the rounds stop past ``LIMITS.depth``."""
    depth = 0
    while brackets and depth <= LIMITS.depth:
        # marked first, then dropped: dropping ``[]`` before looking for ``{}`` would take ``{[]}`` whole
        inner = brackets.replace(b"[]", b"()").replace(b"{}", b"()").replace(b"()", b"")
        if len(inner) == len(brackets):
            return 0
        brackets = inner
        depth += 1
    return depth


def _decode_json(body: bytes) -> tuple[str, Any]:
    containers, depth = _json_shape(body)
    if containers > LIMITS.elements:
        raise PayloadTooLarge(f"The JSON document has more than {LIMITS.elements} objects and arrays")
    if depth > LIMITS.depth:
        raise PayloadTooLarge(f"The JSON document nests objects and arrays deeper than {LIMITS.depth} levels")
    try:
        document = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise BadRequest(f"Invalid JSON in the request body: {exc.msg} at position {exc.pos}") from None
    if not isinstance(document, dict) or not document:
        raise BadRequest("The JSON request body must be an object with one root key")
    root = next(iter(document))
    return root, document[root]


def _cast(text: str) -> Any:
    if _INT.match(text):
        number = parse_int(text)
        # digits past 64 bits stay text: a string field keeps them, a number field refuses them by name
        return number if number is not None and INT64_MIN <= number <= INT64_MAX else text
    if _FLOAT.match(text):
        return float(text)
    if text in ("true", "false"):
        return text == "true"
    return text


def _local(tag: Any) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _hash(element: Any) -> Any:
    children = [child for child in element if isinstance(child.tag, str)]
    if not children:
        text = element.text or ""
        if not text.strip():
            return text or None
        return _cast(text)
    if all(child.get("key") is not None for child in children):
        return {child.get("key"): _hash(child) for child in children}
    return [_hash(child) for child in children]


def _attributes(element: Any) -> list[tuple[str, str]]:
    """The attributes of one element (lxml reads them in time quadratic in their number: LIMITS bounds it)."""
    return list(element.attrib.items())


def _generic(element: Any) -> Any:
    name = _local(element.tag)
    if name in HASH_ELEMENTS:
        return _hash(element)
    children = [child for child in element if isinstance(child.tag, str)]
    attrs = {f"_{key}": value for key, value in _attributes(element)}
    if not children:
        text = element.text or ""
        if not attrs:
            return text
        if text:
            attrs["#text"] = text
        return attrs
    groups: dict[str, list[Any]] = {}
    for child in children:
        groups.setdefault(_local(child.tag), []).append(_generic(child))
    node: dict[str, Any] = attrs
    for key, values in groups.items():
        node[key] = values[0] if len(values) == 1 else values
    return node


def _decode_xml(body: bytes) -> tuple[str, Any]:
    refused = "XML documents with a DOCTYPE or entity declarations are not accepted"
    if b"<!DOCTYPE" in body or b"<!ENTITY" in body:
        raise BadRequest(refused)
    try:
        root = parse_limited(body, LIMITS)
    except XmlTooLarge as exc:
        raise PayloadTooLarge(str(exc)) from None
    except UnsafeXml as exc:
        raise BadRequest(
            refused if exc.doctype else f"Invalid XML in the request body: {exc.detail}"
        ) from None
    return _local(root.tag), _generic(root)
