"""Input decoders (JSON/XML -> one neutral tree) and output writers (tree -> JSON/XML).

Shapes: spec/shapes-content.md §0 (global serialisation rules), shapes-users.md §15 (XML notes),
fieldtypes.md (hash values). The XML parser must refuse DOCTYPE/entity documents (DESIGN.md, Stack).
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from lxml import etree

from pressroom.domain.errors import BadRequest, PayloadTooLarge
from pressroom.rest.input import decoders
from pressroom.rest.input.decoders import LIMITS, decode
from pressroom.rest.input.node import Node
from pressroom.rest.media import JSON, XML
from pressroom.rest.output.writers import Hash, write_json, write_xml, writer_for

XML_DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'


def bad_request(body: bytes, fmt: str | None) -> str:
    """Decode a body that must be refused; return the error message."""
    with pytest.raises(BadRequest) as caught:
        decode(body, fmt)
    return caught.value.message


def parse(document: bytes) -> Any:
    return etree.fromstring(document)


# -- JSON input ---------------------------------------------------------------------------------------


def test_json_root_key_is_returned_but_not_checked() -> None:
    # the parser is chosen by Content-Type; the root key may be anything (PHP reset())
    assert decode(b'{"Anything": {"identifier": "a"}}', JSON) == ("Anything", {"identifier": "a"})


def test_json_keeps_types() -> None:
    body = b'{"X": {"i": 5, "f": 1.5, "b": true, "n": null, "s": "5", "l": [1, "a"]}}'
    assert decode(body, JSON) == ("X", {"i": 5, "f": 1.5, "b": True, "n": None, "s": "5", "l": [1, "a"]})


def test_json_with_several_root_keys_uses_the_first() -> None:
    assert decode(b'{"A": {"x": 1}, "B": {"y": 2}}', JSON) == ("A", {"x": 1})


@pytest.mark.parametrize("body", [b'{"SectionInput": {', b"{'a': 1}", b'{"a": }', b"nul"])
def test_malformed_json_is_a_bad_request_naming_the_problem(body: bytes) -> None:
    message = bad_request(body, JSON)
    assert message.startswith("Invalid JSON in the request body")
    assert "position" in message


@pytest.mark.parametrize("body", [b"[]", b"{}", b'"text"', b"42", b'[{"A": 1}]'])
def test_json_must_be_an_object_with_a_root_key(body: bytes) -> None:
    assert bad_request(body, JSON) == "The JSON request body must be an object with one root key"


@pytest.mark.parametrize("fmt", [JSON, XML, None])
@pytest.mark.parametrize("body", [b"", b"   \n"])
def test_empty_body_is_a_bad_request(body: bytes, fmt: str | None) -> None:
    assert bad_request(body, fmt) == "The request body is empty"


# -- XML input ----------------------------------------------------------------------------------------


def test_xml_is_the_default_format() -> None:
    # Content-Type without +json/+xml means XML (shapes-content.md §0, Input Content-Type)
    assert decode(b"<SectionInput><identifier>a</identifier></SectionInput>", None) == (
        "SectionInput",
        {"identifier": "a"},
    )


def test_xml_attributes_become_underscore_keys_and_text_becomes_hash_text() -> None:
    body = b"""<ContentUpdate>
        <Section href="/api/ibexa/v2/content/sections/2" media-type="x"/>
        <name languageCode="eng-GB">Name</name>
    </ContentUpdate>"""
    root, data = decode(body, XML)
    assert root == "ContentUpdate"
    assert data == {
        "Section": {"_href": "/api/ibexa/v2/content/sections/2", "_media-type": "x"},
        "name": {"_languageCode": "eng-GB", "#text": "Name"},
    }


def test_xml_root_attributes_are_kept() -> None:
    assert decode(b'<Root id="7"><a>1</a></Root>', XML) == ("Root", {"_id": "7", "a": "1"})


def test_xml_repeated_elements_become_lists_and_single_ones_stay_scalar() -> None:
    body = b"""<ContentCreate><fields>
        <field><fieldDefinitionIdentifier>title</fieldDefinitionIdentifier></field>
        <field><fieldDefinitionIdentifier>body</fieldDefinitionIdentifier></field>
    </fields><names><value languageCode="eng-GB">One</value></names></ContentCreate>"""
    _, data = decode(body, XML)
    assert data["fields"] == {
        "field": [{"fieldDefinitionIdentifier": "title"}, {"fieldDefinitionIdentifier": "body"}]
    }
    assert data["names"] == {"value": {"_languageCode": "eng-GB", "#text": "One"}}


def test_xml_values_stay_text_outside_hashes() -> None:
    _, data = decode(b"<X><priority>5</priority><hidden>true</hidden><empty/></X>", XML)
    assert data == {"priority": "5", "hidden": "true", "empty": ""}


def test_xml_namespaces_are_reduced_to_local_names() -> None:
    body = b'<p:SectionInput xmlns:p="urn:x"><p:identifier>a</p:identifier></p:SectionInput>'
    assert decode(body, XML) == ("SectionInput", {"identifier": "a"})


def test_xml_comments_and_processing_instructions_are_ignored() -> None:
    body = b"<?xml version='1.0'?><X><!-- note --><?pi data?><a>1</a><!-- b --></X>"
    assert decode(body, XML) == ("X", {"a": "1"})


@pytest.mark.parametrize("body", [b"<X><a></X>", b"<X>", b"not xml", b"<X></Y>", b"<a/><b/>"])
def test_malformed_xml_is_a_bad_request_naming_the_problem(body: bytes) -> None:
    message = bad_request(body, XML)
    assert message.startswith("Invalid XML in the request body: ")
    assert len(message) > len("Invalid XML in the request body: ")


# -- hash values (fieldValue, defaultValue, fieldSettings, validatorConfiguration) ----------------------


def field_value(inner: str, element: str = "fieldValue") -> Any:
    _, data = decode(f"<field><{element}>{inner}</{element}></field>".encode(), XML)
    return data[element]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("42", 42),
        ("-7", -7),
        ("1.5", 1.5),
        ("-0.25", -0.25),
        (".5", 0.5),
        ("true", True),
        ("false", False),
        ("abc", "abc"),
        ("1e5", "1e5"),
        ("True", "True"),
        ("5 apples", "5 apples"),
    ],
)
def test_hash_scalars_are_cast_like_the_reference(text: str, expected: Any) -> None:
    value = field_value(text)
    assert value == expected
    assert type(value) is type(expected)


def test_empty_hash_is_none() -> None:
    assert field_value("") is None


def test_hash_with_keys_is_a_dict_and_without_keys_a_list() -> None:
    inner = (
        '<value key="destinationContentIds"><value>12</value><value>14</value></value>'
        '<value key="text">Hello &amp; bye</value>'
        '<value key="ratio">0.5</value>'
        '<value key="enabled">false</value>'
        '<value key="nested"><value key="a">1</value></value>'
    )
    assert field_value(inner) == {
        "destinationContentIds": [12, 14],
        "text": "Hello & bye",
        "ratio": 0.5,
        "enabled": False,
        "nested": {"a": 1},
    }


def test_hash_list_of_one_stays_a_list() -> None:
    assert field_value("<value>x</value>") == ["x"]


@pytest.mark.parametrize("element", ["defaultValue", "fieldSettings", "validatorConfiguration"])
def test_every_hash_element_is_decoded_as_a_hash(element: str) -> None:
    assert field_value('<value key="maxLength">255</value>', element) == {"maxLength": 255}


def test_hash_rich_text_keeps_its_markup_as_text() -> None:
    markup = "&lt;section&gt;&lt;para&gt;Hi&lt;/para&gt;&lt;/section&gt;"
    assert field_value(f'<value key="xml">{markup}</value>') == {"xml": "<section><para>Hi</para></section>"}


# -- hardened XML: no DTD, no entities -----------------------------------------------------------------

XXE_FILE = b"""<?xml version="1.0"?>
<!DOCTYPE SectionInput [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<SectionInput><identifier>&xxe;</identifier><name>x</name></SectionInput>"""

XXE_PARAMETER = b"""<?xml version="1.0"?>
<!DOCTYPE SectionInput [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]>
<SectionInput><identifier>a</identifier></SectionInput>"""

XXE_EXTERNAL_DTD = b"""<?xml version="1.0"?>
<!DOCTYPE SectionInput SYSTEM "file:///etc/passwd">
<SectionInput><identifier>a</identifier></SectionInput>"""

BILLION_LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n'
    + b"".join(
        f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10 if n > 1 else "&lol;" * 10}">\n'.encode()
        for n in range(1, 10)
    )
    + b"]>\n<lolz><a>&lol9;</a></lolz>"
)

ENTITY_WITHOUT_DOCTYPE = b'<X><!ENTITY a "b"><a>1</a></X>'


@pytest.mark.parametrize(
    "body",
    [XXE_FILE, XXE_PARAMETER, XXE_EXTERNAL_DTD, BILLION_LAUGHS, ENTITY_WITHOUT_DOCTYPE],
    ids=["xxe-file", "xxe-parameter-entity", "external-dtd", "billion-laughs", "bare-entity"],
)
def test_doctype_and_entity_documents_are_refused(body: bytes) -> None:
    # Refused for the declaration itself, before any entity could be expanded (no timing asserted).
    message = bad_request(body, XML)
    assert message == "XML documents with a DOCTYPE or entity declarations are not accepted"
    assert "root:" not in message


def test_doctype_in_a_utf16_document_is_refused() -> None:
    document = XXE_FILE.decode().replace('version="1.0"', 'version="1.0" encoding="UTF-16"')
    bad_request(document.encode("utf-16"), XML)


def test_utf16_doctype_never_leaks_an_external_entity() -> None:
    # whatever happens to the document, the file is never read into the tree
    document = XXE_FILE.decode().replace('version="1.0"', 'version="1.0" encoding="UTF-16"')
    try:
        _, data = decode(document.encode("utf-16"), XML)
    except BadRequest:
        return
    assert "root:" not in repr(data)


# -- limits on the decoded tree (issue 15: quadratic attributes, millions of elements) -----------------


class CountingBytes(bytes):
    """A body that counts how many of its bytes were sliced out (fed to the parser)."""

    sliced = 0

    def __getitem__(self, key: Any) -> Any:
        part = super().__getitem__(key)
        if isinstance(key, slice):
            self.sliced += len(part)
        return part


def too_large(body: bytes, fmt: str | None) -> str:
    with pytest.raises(PayloadTooLarge) as caught:
        decode(body, fmt)
    return caught.value.message


def with_attributes(count: int) -> bytes:
    return ("<SessionInput " + " ".join(f'a{i}="x"' for i in range(count)) + "/>").encode()


def test_an_element_with_too_many_attributes_is_refused_before_they_are_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reading attributes is quadratic in lxml: 40,000 of them on one element took seconds."""
    read: list[int] = []
    original = decoders._attributes

    def counting(element: Any) -> Any:
        attributes = original(element)
        read.append(len(attributes))
        return attributes

    monkeypatch.setattr(decoders, "_attributes", counting)
    message = too_large(with_attributes(40_000), XML)
    assert message == f"An XML element has more than {LIMITS.attributes} attributes"
    assert read == []
    root, data = decode(with_attributes(LIMITS.attributes), XML)
    assert root == "SessionInput"
    assert len(data) == LIMITS.attributes
    assert read == [LIMITS.attributes]


def test_millions_of_elements_are_refused_after_reading_a_bounded_prefix() -> None:
    body = CountingBytes(b"<SessionInput>" + b"<a/>" * 1_000_000 + b"</SessionInput>")
    message = too_large(body, XML)
    assert message == f"The XML document has more than {LIMITS.elements} elements"
    # the parser stopped within one chunk of the limit: it never saw most of the 4 MB
    assert body.sliced < 4 * LIMITS.elements + 64 * 1024


def test_a_document_at_the_element_limit_decodes() -> None:
    body = b"<Root>" + b"<a>1</a>" * (LIMITS.elements - 1) + b"</Root>"
    root, data = decode(body, XML)
    assert root == "Root"
    assert len(data["a"]) == LIMITS.elements - 1


def test_deep_nesting_is_refused_naming_the_depth() -> None:
    depth = LIMITS.depth + 1
    body = b"<a>" * depth + b"</a>" * depth
    assert too_large(body, XML) == f"The XML document nests elements deeper than {LIMITS.depth} levels"
    allowed = LIMITS.depth
    assert decode(b"<a>" * allowed + b"</a>" * allowed, XML)[0] == "a"


def test_json_with_too_many_objects_and_arrays_is_refused() -> None:
    body = b'{"SessionInput": [' + b",".join([b"[]"] * (LIMITS.elements + 1)) + b"]}"
    assert too_large(body, JSON) == f"The JSON document has more than {LIMITS.elements} objects and arrays"


def test_json_brackets_inside_strings_do_not_count() -> None:
    text = "[{" * LIMITS.elements
    _, data = decode(orjson.dumps({"SessionInput": {"login": text, "quote": 'a "[" b'}}), JSON)
    assert data["login"] == text


# -- JSON output --------------------------------------------------------------------------------------


def test_write_json_wraps_the_tree_in_its_root_key_and_keeps_types() -> None:
    tree = {"_media-type": "m", "_href": "/h", "id": 5, "flag": False, "none": None, "items": [1, 2]}
    assert orjson.loads(write_json("Thing", tree)) == {"Thing": tree}


def test_write_json_writes_hashes_natively() -> None:
    tree = {"fieldValue": Hash({"a": [1, 2], "b": None}), "plain": Hash("text")}
    assert orjson.loads(write_json("field", tree)) == {
        "field": {"fieldValue": {"a": [1, 2], "b": None}, "plain": "text"}
    }


def test_write_json_keeps_key_order_and_escapes_nothing_it_need_not() -> None:
    body = write_json("S", {"_media-type": "a", "_href": "/api/x", "name": "Ø & <b>"})
    assert body == '{"S":{"_media-type":"a","_href":"/api/x","name":"Ø & <b>"}}'.encode()


# -- XML output ---------------------------------------------------------------------------------------


def test_write_xml_declaration_attributes_and_children() -> None:
    tree = {
        "_media-type": "application/vnd.ibexa.api.Section+xml",
        "_href": "/s/1",
        "sectionId": 1,
        "name": "A",
    }
    body = write_xml("Section", tree)
    assert body.startswith(XML_DECLARATION)
    assert body == XML_DECLARATION + (
        b'<Section media-type="application/vnd.ibexa.api.Section+xml" href="/s/1">'
        b"<sectionId>1</sectionId><name>A</name></Section>"
    )


def test_write_xml_lists_are_repeated_elements_without_wrapper() -> None:
    body = write_xml("List", {"Item": [{"_id": 1}, {"_id": 2}], "Empty": []})
    assert body == XML_DECLARATION + b'<List><Item id="1"/><Item id="2"/></List>'


def test_write_xml_booleans_none_and_numbers() -> None:
    body = write_xml("X", {"t": True, "f": False, "n": None, "i": 0, "x": 1.5, "_a": True, "_b": None})
    assert body == XML_DECLARATION + (b'<X a="true" b=""><t>true</t><f>false</f><n/><i>0</i><x>1.5</x></X>')


def test_write_xml_text_with_attributes() -> None:
    body = write_xml("names", {"value": [{"_languageCode": "eng-GB", "#text": "Folder"}]})
    assert body == XML_DECLARATION + b'<names><value languageCode="eng-GB">Folder</value></names>'


def test_write_xml_replaces_characters_xml_cannot_carry() -> None:
    """Control characters (legal in JSON input) and lone surrogates have no XML 1.0 form at all; the
    document must stay well-formed in text, attributes and hash keys alike."""
    tree = {"_a": "x\x01y", "text": "a\x00b\x1fc\ud800d\tok\n", "h": Hash({"k\x02": "v\x0b"})}
    body = write_xml("X", tree)
    root = etree.fromstring(body)
    assert root.get("a") == "x\ufffdy"
    assert root.findtext("text") == "a\ufffdb\ufffdc\ufffdd\tok\n"
    assert root.find("h/value").get("key") == "k\ufffd"
    assert root.findtext("h/value") == "v\ufffd"


def test_write_json_keeps_control_characters() -> None:
    assert orjson.loads(write_json("X", {"t": "a\x01b"})) == {"X": {"t": "a\x01b"}}


@pytest.mark.parametrize(
    "value", ["99999999999999999999", "1" * 5000, 2**31, 2**63, -(2**31) - 1, "\u00b2", "\u0665", 1.5, True]
)
def test_node_integer_out_of_range_or_not_ascii_digits_is_a_bad_request(value: Any) -> None:
    """A value no 32-bit column holds, or digits int() refuses, is the client's error (400), not a 500."""
    with pytest.raises(BadRequest, match="'priority' in LocationCreate"):
        Node({"priority": value}, "LocationCreate").integer("priority")


@pytest.mark.parametrize(
    ("value", "expected"), [("12", 12), (" -3 ", -3), (2**31 - 1, 2**31 - 1), ("0" * 5000 + "7", 7), (0, 0)]
)
def test_node_integer_accepts_ints_and_digit_strings(value: Any, expected: int) -> None:
    assert Node({"priority": value}, "LocationCreate").integer("priority") == expected


def test_write_xml_hash_values() -> None:
    tree = {"fieldValue": Hash({"ids": [12, 14], "flag": True, "empty": None, "nested": {"k": "v"}})}
    body = write_xml("field", tree)
    assert body == XML_DECLARATION + (
        b'<field><fieldValue><value key="ids"><value>12</value><value>14</value></value>'
        b'<value key="flag">true</value><value key="empty"></value>'
        b'<value key="nested"><value key="k">v</value></value></fieldValue></field>'
    )


def test_write_xml_scalar_hash() -> None:
    assert write_xml("field", {"fieldValue": Hash("plain")}) == (
        XML_DECLARATION + b"<field><fieldValue>plain</fieldValue></field>"
    )


NASTY = "Tom & Jerry <b>\"quoted\"</b> 'single'"


def test_write_xml_escapes_text() -> None:
    body = write_xml(
        "X", {"name": NASTY, "mixed": {"_a": "1", "#text": NASTY}, "fieldValue": Hash({NASTY: NASTY})}
    )
    document = parse(body)
    assert document.findtext("name") == NASTY
    assert document.findtext("mixed") == NASTY
    value = document.find("fieldValue/value")
    assert value is not None
    assert value.get("key") == NASTY
    assert value.text == NASTY


def test_write_xml_escapes_attributes_once() -> None:
    href = "/api/ibexa/v2/content/objects?remoteId=a&b<c>"
    document = parse(write_xml("X", {"_href": href, "_title": NASTY}))
    assert document.get("href") == href
    assert document.get("title") == NASTY


def test_write_xml_attribute_with_a_double_quote_stays_well_formed() -> None:
    document = parse(write_xml("X", {"_title": 'say "hi"'}))
    assert document.get("title") == 'say "hi"'


def test_xml_written_by_the_writer_decodes_to_the_same_tree() -> None:
    tree = {
        "_href": "/api/ibexa/v2/content/sections/1",
        "identifier": "standard",
        "Section": [{"_id": "1", "name": "A"}, {"_id": "2", "name": "B"}],
        "names": {"value": {"_languageCode": "eng-GB", "#text": "Folder"}},
        "fieldValue": Hash({"ids": [12, 14], "ratio": 0.5, "on": True}),
    }
    root, data = decode(write_xml("Thing", tree), XML)
    assert root == "Thing"
    assert data == {**tree, "fieldValue": {"ids": [12, 14], "ratio": 0.5, "on": True}}


def test_writer_for_picks_by_format() -> None:
    assert writer_for(JSON) is write_json
    assert writer_for(XML) is write_xml


def escaped_quotes_then_brackets(quotes: int) -> bytes:
    """Issue 23: escaped quotes ahead of more brackets than the limit. The old pre-count cut strings out
    with a regular expression that ran from every quote to the end: 64 KB of this stalled a worker 25 s."""
    return b'\\"' * quotes + b"[" * (LIMITS.elements + 1)


@pytest.mark.parametrize("quotes", [7_000, 4 * 7_000])
def test_json_is_counted_reading_each_byte_once(quotes: int) -> None:
    body = CountingBytes(escaped_quotes_then_brackets(quotes))
    message = too_large(body, JSON)
    assert message == f"The JSON document has more than {LIMITS.elements} objects and arrays"
    # the steps: the body went through the scan once, in pieces of bounded size, whatever its content
    assert body.sliced == len(body)


def test_json_strings_with_escapes_across_scan_pieces_keep_their_brackets() -> None:
    """Runs of backslashes of every length, some cut between two pieces of the scan, before quotes and
    brackets that belong to the strings: none of the 120,000 brackets in them counts."""
    strings = ["\\" * length + '"' + "[{" * 20 for length in range(3_000)]
    deep: Any = "end"
    for _ in range(LIMITS.depth - 3):  # under the two objects and the "deep" array: 64 levels in all
        deep = [deep]
    body = orjson.dumps({"SessionInput": {"strings": strings, "deep": [deep]}})
    assert len(body) > 4 * decoders._CHUNK
    root, data = decode(body, JSON)
    assert root == "SessionInput"
    assert data["strings"] == strings


def test_json_nested_deeper_than_the_limit_is_refused_naming_it() -> None:
    """The README's nesting limit held for XML only: JSON nested up to orjson's own 1,024 levels."""
    depth = LIMITS.depth  # the root object makes one more
    body = b'{"SessionInput": ' + b"[" * depth + b"]" * depth + b"}"
    assert (
        too_large(body, JSON)
        == f"The JSON document nests objects and arrays deeper than {LIMITS.depth} levels"
    )
    allowed = LIMITS.depth - 1
    assert decode(b'{"SessionInput": ' + b"[" * allowed + b"]" * allowed + b"}", JSON)[0] == "SessionInput"


@pytest.mark.parametrize(
    ("entry", "named"),
    [
        ({"_languageCode": None, "#text": "A type"}, "'_languageCode'"),  # was stored under "None"
        ({"_languageCode": "", "#text": "A type"}, "'_languageCode'"),
        ({"_languageCode": 7, "#text": "A type"}, "'_languageCode'"),
        ({"_languageCode": "eng-GB", "#text": {"nested": 1}}, "'#text'"),
        ({"_languageCode": "eng-GB", "#text": ["a"]}, "'#text'"),
    ],
)
def test_translated_values_need_a_language_code_and_text(entry: dict[str, object], named: str) -> None:
    node = Node({"names": {"value": [entry]}}, "ContentTypeCreate")
    with pytest.raises(BadRequest, match=named):
        node.translated("names")


def test_translated_values_read_text_and_absent_text() -> None:
    node = Node(
        {"names": {"value": [{"_languageCode": "eng-GB", "#text": "A"}, {"_languageCode": "pol-PL"}]}}, "X"
    )
    assert node.translated("names") == {"eng-GB": "A", "pol-PL": ""}
