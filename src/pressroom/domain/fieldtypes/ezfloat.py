"""ezfloat: a floating point number; numeric strings are cast."""

from __future__ import annotations

from pressroom.domain.fieldtypes._number import NumberFieldType
from pressroom.domain.fieldtypes.coerce import as_float
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.params import number

VALIDATOR = "FloatValueValidator"


class FloatType(NumberFieldType):
    identifier = "ezfloat"
    aliases = ("ibexa_float",)
    validator = VALIDATOR
    min_key = "minFloatValue"
    max_key = "maxFloatValue"
    validators_schema = {VALIDATOR: {"minFloatValue": number(None), "maxFloatValue": number(None)}}

    def convert(self, raw: JsonValue) -> int | float:
        return as_float(raw, "fieldValue")
