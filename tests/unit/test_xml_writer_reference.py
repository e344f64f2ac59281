"""The XML writer against the straightforward one it replaced (every value escaped with xml.sax.saxutils):
the fast paths (exact types first, no escaping when one search finds nothing to escape, media types
written once) must write the same bytes for any tree, odd characters and subclasses included."""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from hypothesis import given, settings
from hypothesis import strategies as st

from pressroom.rest.output import writers
from pressroom.rest.output.writers import Hash, Items, write_xml

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _plain(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    text = str(value)
    return _NOT_XML.sub("\ufffd", text) if _NOT_XML.search(text) else text


def _hash_content(out: list[str], data: Any) -> None:
    if isinstance(data, dict):
        for key, item in data.items():
            out.append(f"<value key={quoteattr(_plain(key))}>")
            _hash_content(out, item)
            out.append("</value>")
    elif isinstance(data, list):
        for item in data:
            out.append("<value>")
            _hash_content(out, item)
            out.append("</value>")
    else:
        out.append(escape(_plain(data)))


def _reference_element(out: list[str], name: str, value: Any) -> None:
    if isinstance(value, dict):
        attrs, text, children = [], None, []
        for key, item in value.items():
            if key == "#text":
                text = item
            elif key[0] == "_":
                attrs.append(f" {key[1:]}={quoteattr(_plain(item))}")
            else:
                children.append((key, item))
        out.append(f"<{name}{''.join(attrs)}")
        if text is None and not children:
            out.append("/>")
            return
        out.append(">")
        if text is not None:
            out.append(escape(_plain(text)))
        for key, item in children:
            if isinstance(item, list):
                for entry in item:
                    _reference_element(out, key, entry)
            elif isinstance(item, Items):
                for entry in item.items:
                    _reference_element(out, item.element, entry)
            else:
                _reference_element(out, key, item)
        out.append(f"</{name}>")
    elif isinstance(value, Hash):
        out.append(f"<{name}>")
        _hash_content(out, value.data)
        out.append(f"</{name}>")
    elif value is None:
        out.append(f"<{name}/>")
    else:
        out.append(f"<{name}>{escape(_plain(value))}</{name}>")


def reference_xml(root: str, tree: Any) -> bytes:
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    _reference_element(out, root, tree)
    return "".join(out).encode("utf-8")


class Text(str):
    """A str subclass: written through the general path, as before."""


class Number(int):
    pass


class Mapping(dict):  # type: ignore[type-arg]
    pass


# Text with everything the escaping cares about: markup, quotes, whitespace, control characters,
# lone surrogates, U+FFFE, non-ASCII.
_ASCII = "&<>\"'\t\n\r\x00\x01\x0b\x1f a/-+=:"
_ODD = _ASCII + "\ud800\ufffe\uffffé漢"
texts = st.text(alphabet=st.sampled_from(_ASCII), max_size=10) | st.text(
    alphabet=st.sampled_from(_ODD) | st.characters(), max_size=10
)
names = st.sampled_from(["a", "b", "field", "value", "Version"])
scalars = st.one_of(
    texts,
    texts,
    texts,
    texts.map(Text),
    st.integers(-(2**40), 2**40),
    st.integers(0, 99).map(Number),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
)
hashes = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
).map(Hash)
attributes = st.dictionaries(st.sampled_from(["_media-type", "_href", "_id", "_a"]), scalars, max_size=3)


def _element(attributes: dict[str, Any], children: dict[str, Any], first: bool, kind: type) -> Any:
    """Attributes before the children or after them; a dict or a subclass of dict."""
    return kind({**attributes, **children} if first else {**children, **attributes})


def _trees(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    children = st.dictionaries(names | st.just("#text"), inner, max_size=4)
    return (
        st.builds(_element, attributes, children, st.booleans(), st.sampled_from([dict, Mapping]))
        | st.lists(inner, max_size=3)
        | st.builds(Items, names, st.lists(inner, max_size=3))
    )


trees = st.recursive(scalars | hashes, _trees, max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(
    tree=st.builds(
        _element, attributes, st.dictionaries(names, trees, max_size=5), st.booleans(), st.just(dict)
    )
)
def test_the_xml_writer_writes_what_the_reference_writes(tree: dict[str, Any]) -> None:
    writers._MEDIA_ATTRIBUTES.clear()
    assert write_xml("Root", tree) == reference_xml("Root", tree)
    assert write_xml("Root", tree) == reference_xml("Root", tree)  # media types now remembered


def test_media_types_are_remembered_within_a_bound() -> None:
    writers._MEDIA_ATTRIBUTES.clear()
    for number in range(writers._MEDIA_ATTRIBUTES_KEPT + 10):
        media = f"application/vnd.ibexa.api.T{number}+xml"
        assert write_xml("R", {"_media-type": media}) == reference_xml("R", {"_media-type": media})
    assert len(writers._MEDIA_ATTRIBUTES) <= writers._MEDIA_ATTRIBUTES_KEPT
