"""ezrichtext: formats, conversion, hardened parsing."""

from __future__ import annotations

import uuid

import pytest

from pressroom import safexml
from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes import ezrichtext_xml
from pressroom.domain.fieldtypes.ezrichtext_xml import EMPTY_DOCBOOK
from pressroom.domain.fieldtypes.registry import get_field_type

from .conftest import FakeContext

RICH = get_field_type("ezrichtext")
DB = 'xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink"'
EDIT = 'xmlns="http://ibexa.co/namespaces/ezpublish5/xhtml5/edit"'
EZXHTML = "http://ibexa.co/xmlns/dxp/docbook/xhtml"


def _xhtml(value: object, ctx: FakeContext) -> str:
    wire = RICH.to_wire(value, ctx)  # type: ignore[arg-type]
    assert isinstance(wire, dict)
    xhtml = wire["xhtml5edit"]
    assert isinstance(xhtml, str)
    return xhtml


def test_empty_rich_text_is_an_empty_section(ctx: FakeContext) -> None:
    value = RICH.from_wire(None)
    assert value == EMPTY_DOCBOOK
    assert RICH.is_empty(value)
    assert RICH.is_empty(RICH.from_wire({"xml": ""}))
    wire = RICH.to_wire(value, ctx)
    assert isinstance(wire, dict)
    assert 'version="5.0-variant ezpublish-1.0"/>' in str(wire["xml"])
    assert wire["xhtml5edit"] == (
        '<?xml version="1.0" encoding="UTF-8"?>\n<section xmlns="http://ibexa.co/namespaces/ezpublish5/xhtml5/edit"/>\n'
    )


def test_docbook_input_is_stored_and_converted(ctx: FakeContext) -> None:
    value = RICH.from_wire(
        {
            "xml": f'<?xml version="1.0" encoding="UTF-8"?><section {DB} xmlns:ezxhtml="{EZXHTML}">'
            '<title ezxhtml:level="3">Hi</title>'
            '<para>A <emphasis role="strong">bold</emphasis> <emphasis>move</emphasis> '
            '<link xlink:href="https://ibexa.co">here</link></para>'
            "<itemizedlist><listitem><para>one</para></listitem></itemizedlist></section>"
        }
    )
    assert isinstance(value, str)
    assert value.startswith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<section xmlns="http://docbook.org/ns/docbook"'
    )
    assert not RICH.is_empty(value)
    assert RICH.validate(value, {}, {}) == []
    assert _xhtml(value, ctx).endswith(
        '<h3>Hi</h3><p>A <strong>bold</strong> <em>move</em> <a href="https://ibexa.co">here</a></p>'
        "<ul><li>one</li></ul></section>\n"
    )
    assert RICH.name(value) == "Hi"
    assert RICH.searchable_text(value) == "Hi\nA bold move here\none"


def test_xhtml5edit_input_round_trips(ctx: FakeContext) -> None:
    xhtml = (
        f'<section {EDIT}><h2>T</h2><p class="lead" style="text-align:center;">x <u>u</u><sup>2</sup></p>'
        "<ol><li>a</li><li><p>b</p><ul><li>c</li></ul></li></ol><pre>code</pre>"
        '<table><tbody><tr><td colspan="2">cell</td></tr></tbody></table>'
        '<div data-ezelement="ezembed" data-href="ezcontent://59" data-ezview="embed">'
        '<span data-ezelement="ezconfig">'
        '<span data-ezelement="ezvalue" data-ezvalue-key="size">medium</span></span>'
        "</div></section>"
    )
    value = RICH.from_wire({"xml": xhtml})
    assert isinstance(value, str)
    assert '<title ezxhtml:level="2">T</title>' in value
    assert (
        '<para ezxhtml:class="lead" ezxhtml:textalign="center">x <emphasis role="underlined">u</emphasis>'
        in value
    )
    assert '<ezembed xlink:href="ezcontent://59" view="embed"><ezconfig><ezvalue key="size">medium' in value
    assert "<informaltable>" in value
    assert RICH.validate(value, {}, {}) == []
    assert RICH.from_wire({"xml": _xhtml(value, ctx)}) == value
    assert "medium" not in RICH.searchable_text(value)


def test_legacy_xhtml5edit_namespace_is_accepted() -> None:
    value = RICH.from_wire(
        {"xml": '<section xmlns="http://ez.no/namespaces/ezpublish5/xhtml5/edit"><p>old</p></section>'}
    )
    assert "<para>old</para>" in str(value)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"text": "<section/>"}, "fieldValue 'xml' is required"),
        ("<section/>", "fieldValue must be a hash"),
        ({"xml": "<section><para>"}, "fieldValue 'xml' is not well-formed XML"),
        ({"xml": "<html xmlns='http://www.w3.org/1999/xhtml'/>"}, "must be a <section>"),
        ({"xml": "<section/>"}, "must be a <section>"),
        ({"xml": f"<section {EDIT}><script>x</script></section>"}, "unsupported element 'script'"),
    ],
)
def test_invalid_input(raw: object, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        RICH.from_wire(raw)  # type: ignore[arg-type]


def test_doctype_and_entities_are_refused() -> None:
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE section [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        f"<section {DB}><para>&b;</para></section>"
    )
    with pytest.raises(InvalidArgument, match="must not contain a DOCTYPE"):
        RICH.from_wire({"xml": bomb})
    xxe = f'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><section {DB}><para>&e;</para></section>'
    with pytest.raises(InvalidArgument, match="DOCTYPE"):
        RICH.from_wire({"xml": xxe})


def test_unknown_docbook_elements_and_unsafe_links_fail_validation() -> None:
    value = RICH.from_wire(
        {
            "xml": f"<section {DB}><para><blink>x</blink>"
            '<link xlink:href="javascript:alert(1)">y</link></para></section>'
        }
    )
    messages = [e.message for e in RICH.validate(value, {}, {})]
    assert messages == [
        "Element 'blink' is not allowed in rich text.",
        "Link 'javascript:alert(1)' uses a scheme that is not allowed.",
    ]
    assert {e.type for e in RICH.validate(value, {}, {})} == {"RichTextValidator"}


def test_num_rows_setting() -> None:
    assert RICH.normalize_definition({"numRows": 5}, None)[0] == {"numRows": 5}
    with pytest.raises(InvalidArgument, match="fieldSettings 'numRows' must be an integer"):
        RICH.normalize_definition({"numRows": "five"}, None)


def test_a_stored_script_link_is_left_out_of_xhtml5edit(ctx: FakeContext) -> None:
    """Rich text stored before links were checked must not serve a script link to the editor."""
    stored = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<section {DB} version="5.0-variant ezpublish-1.0">'
        '<para><link xlink:href="java&#9;script:alert(1)">x</link>'
        '<link xlink:href="https://example.com/">y</link></para></section>\n'
    )
    xhtml = _xhtml(stored, ctx)
    assert "script:" not in xhtml
    assert '<a>x</a><a href="https://example.com/">y</a>' in xhtml


def test_a_saved_value_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Validation, the name, the relations and the search text of a value just converted read the tree
    the conversion built, and answer as they do for the same document parsed afresh."""
    parses: list[str] = []
    real = safexml.parse_untrusted

    def counted(data: str | bytes) -> object:
        parses.append(str(data))
        return real(data)

    monkeypatch.setattr(ezrichtext_xml, "parse_untrusted", counted)
    marker = uuid.uuid4().hex  # a document no cache has seen
    source = (
        f'<section {DB}><para>Once <emphasis>{marker}</emphasis> and <link xlink:href="ezcontent://52">'
        "a link</link></para><bogus/></section>"
    )
    value = RICH.from_wire({"xml": source})
    assert isinstance(value, str)
    answers = (RICH.is_empty(value), RICH.validate(value, {}, {}), RICH.name(value), RICH.relations(value))
    assert len(parses) == 1
    fresh = value.replace(marker, marker[::-1])  # the same document, parsed where it is read
    assert (
        RICH.is_empty(fresh), RICH.validate(fresh, {}, {}), RICH.name(fresh).replace(marker[::-1], marker),
        RICH.relations(fresh),
    ) == answers  # fmt: skip
    assert answers[1] and answers[3] and marker in answers[2]
    assert len(parses) == 2
