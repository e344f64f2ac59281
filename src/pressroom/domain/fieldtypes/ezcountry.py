"""ezcountry: countries stored as ISO 3166-1 alpha-2 codes (names from pycountry)."""

from __future__ import annotations

from collections.abc import Mapping

import pycountry

from pressroom.domain.errors import FieldError, InvalidArgument
from pressroom.domain.fieldtypes.base import IndexScalar, ListFieldType, TermRule, WireContext
from pressroom.domain.fieldtypes.coerce import as_str
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.params import boolean

ERROR_TYPE = "CountryValidator"


def find_alpha2(text: str) -> str | None:
    """The alpha-2 code of a country given by name, alpha-2, alpha-3 or numeric code (case-insensitive)."""
    key = text.strip()
    if not key:
        return None
    try:
        return str(pycountry.countries.lookup(key).alpha_2)
    except LookupError:
        return None


def country_name(alpha2: str) -> str:
    country = pycountry.countries.get(alpha_2=alpha2)
    return str(country.name) if country is not None else alpha2


class CountryType(ListFieldType):
    identifier = "ezcountry"
    aliases = ("ibexa_country",)
    settings_schema = {"isMultiple": boolean(False)}

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """A list of country names, alpha-2 or alpha-3 codes (a single string is accepted too)."""
        if raw is None or raw == "":
            return []
        items = raw if isinstance(raw, list) else [raw]
        codes: list[JsonValue] = []
        for item in items:
            text = as_str(item, "fieldValue item")
            code = find_alpha2(text)
            if code is None:
                raise InvalidArgument(f"fieldValue item '{text}' is not a known country")
            if code not in codes:
                codes.append(code)
        return codes

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        if isinstance(value, list) and len(value) > 1 and settings.get("isMultiple") is not True:
            return [
                FieldError(ERROR_TYPE, "Field definition does not allow multiple countries to be selected.")
            ]
        return []

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        return list(value) if isinstance(value, list) and value else None

    term_rule = TermRule(length=2)  # indexed by alpha-2 code and by name: the code is the term

    def term_key(self, stored: str, settings: Mapping[str, JsonValue]) -> object:
        return stored.upper()

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return ", ".join(country_name(str(code)) for code in value) if isinstance(value, list) else ""

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return self.name(value).lower() or None

    def match_values(self, value: JsonValue) -> list[IndexScalar]:
        """Each country by its alpha-2 code and by its name."""
        codes = [str(code) for code in value] if isinstance(value, list) else []
        return [*codes, *(country_name(code) for code in codes)]
