"""ezurl: a link with an optional text."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.errors import FieldError
from pressroom.domain.fieldtypes.base import FieldType, IndexScalar, WireContext
from pressroom.domain.fieldtypes.coerce import as_dict, dict_or_none, optional_str, str_or_empty
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.links import is_unsafe_link

ERROR_TYPE = "UrlValidator"


class UrlType(FieldType):
    identifier = "ezurl"
    aliases = ("ibexa_url",)

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """``{"link": str, "text": str (optional)}``; an empty link is the empty value."""
        if raw is None:
            return None
        hash_ = as_dict(raw, "fieldValue")
        link = optional_str(hash_.get("link"), "fieldValue 'link'").strip()
        if not link:
            return None
        return {"link": link, "text": optional_str(hash_.get("text"), "fieldValue 'text'")}

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        link = str_or_empty((dict_or_none(value) or {}).get("link"))
        if is_unsafe_link(link):
            return [FieldError(ERROR_TYPE, "The link uses a scheme that is not allowed.")]
        return []

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        hash_ = dict_or_none(value)
        if hash_ is None:
            return None
        return {"link": hash_.get("link"), "text": hash_.get("text", "")}

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        hash_ = dict_or_none(value) or {}
        return str_or_empty(hash_.get("text")) or str_or_empty(hash_.get("link"))

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return self.name(value).lower() or None

    def match_values(self, value: JsonValue) -> list[IndexScalar]:
        """The link and its text."""
        hash_ = dict_or_none(value) or {}
        return [text for text in (str_or_empty(hash_.get(key)) for key in ("link", "text")) if text]
