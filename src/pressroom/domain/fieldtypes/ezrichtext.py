"""ezrichtext: structured text stored as DocBook, shown as DocBook and xhtml5edit.

The stored value is the DocBook document as a string; the empty value is a ``<section>`` without
children (never ``None``). See :mod:`.ezrichtext_xml` for parsing and conversion.
"""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.errors import FieldError, InvalidArgument
from pressroom.domain.fieldtypes.base import FieldType, RelationTarget, WireContext
from pressroom.domain.fieldtypes.coerce import as_dict, as_str
from pressroom.domain.fieldtypes.ezrichtext_relations import docbook_relations
from pressroom.domain.fieldtypes.ezrichtext_xml import (
    EMPTY_DOCBOOK,
    docbook_problems,
    docbook_text,
    docbook_to_xhtml5edit,
    is_empty_docbook,
    to_docbook,
)
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.params import integer

ERROR_TYPE = "RichTextValidator"
NAME_LENGTH = 255


class RichTextType(FieldType):
    identifier = "ezrichtext"
    aliases = ("ibexa_richtext",)
    settings_schema = {"numRows": integer(10, minimum=1)}

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """``{"xml": "<DocBook or xhtml5edit document>"}``; the ``xml`` key is required.

        Raises InvalidArgument for a missing key, malformed XML, a DOCTYPE, or an unknown root.
        """
        if raw is None:
            return EMPTY_DOCBOOK
        hash_ = as_dict(raw, "fieldValue")
        if "xml" not in hash_:
            raise InvalidArgument("fieldValue 'xml' is required")
        xml = hash_["xml"]
        if xml is None or (isinstance(xml, str) and not xml.strip()):
            return EMPTY_DOCBOOK
        return to_docbook(as_str(xml, "fieldValue 'xml'"))

    def empty_value(self) -> JsonValue:
        return EMPTY_DOCBOOK

    def is_empty(self, value: JsonValue) -> bool:
        return not isinstance(value, str) or is_empty_docbook(value)

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        if not isinstance(value, str):
            return []
        return [FieldError(ERROR_TYPE, problem) for problem in docbook_problems(value)]

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        docbook = value if isinstance(value, str) else EMPTY_DOCBOOK
        return {"xml": docbook, "xhtml5edit": docbook_to_xhtml5edit(docbook)}

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        """The first line of text, at most 255 characters."""
        text = self.searchable_text(value)
        return text.split("\n", 1)[0][:NAME_LENGTH]

    def searchable_text(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return docbook_text(value) if isinstance(value, str) else ""

    def relations(self, value: JsonValue) -> list[RelationTarget]:
        """LINK and EMBED relations of the links and embeds in the document."""
        return docbook_relations(value) if isinstance(value, str) else []
