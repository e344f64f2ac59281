"""ezinteger: a whole number; XML leaves negative numbers as strings, which are accepted."""

from __future__ import annotations

from pressroom.domain.fieldtypes._number import NumberFieldType
from pressroom.domain.fieldtypes.coerce import as_int
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.params import integer

VALIDATOR = "IntegerValueValidator"


class IntegerType(NumberFieldType):
    identifier = "ezinteger"
    aliases = ("ibexa_integer",)
    validator = VALIDATOR
    min_key = "minIntegerValue"
    max_key = "maxIntegerValue"
    validators_schema = {VALIDATOR: {"minIntegerValue": integer(None), "maxIntegerValue": integer(None)}}

    def convert(self, raw: JsonValue) -> int | float:
        """A 64-bit signed integer, as the storage (and PHP) holds it."""
        return as_int(raw, "fieldValue")
