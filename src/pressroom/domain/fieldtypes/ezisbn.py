"""ezisbn: an ISBN-10, or an ISBN-13 when the definition allows it; hyphens and spaces are ignored."""

from __future__ import annotations

import re
from collections.abc import Mapping

from pressroom.domain.errors import FieldError
from pressroom.domain.fieldtypes._text import TextFieldType
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.params import boolean

ERROR_TYPE = "IsbnValidator"
_ISBN10 = re.compile(r"\d{9}[\dX]")
_ISBN13 = re.compile(r"97[89]\d{10}")


class IsbnType(TextFieldType):
    identifier = "ezisbn"
    aliases = ("ibexa_isbn",)
    settings_schema = {"isISBN13": boolean(True)}

    def clean(self, text: str) -> str:
        return text.strip()

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        digits = re.sub(r"[\s-]", "", value if isinstance(value, str) else "").upper()
        if len(digits) == 13 and settings.get("isISBN13") is not False:
            if _ISBN13.fullmatch(digits) and _isbn13_ok(digits):
                return []
            return [FieldError(ERROR_TYPE, "The ISBN-13 number is invalid (wrong format or check digit).")]
        if _ISBN10.fullmatch(digits) and _isbn10_ok(digits):
            return []
        if settings.get("isISBN13") is not False:
            return [FieldError(ERROR_TYPE, "The value must be a valid ISBN-10 or ISBN-13 number.")]
        return [FieldError(ERROR_TYPE, "The value must be a valid ISBN-10 number.")]


def _isbn10_ok(digits: str) -> bool:
    total = sum((10 - i) * (10 if ch == "X" else int(ch)) for i, ch in enumerate(digits))
    return total % 11 == 0


def _isbn13_ok(digits: str) -> bool:
    total = sum(int(ch) * (1 if i % 2 == 0 else 3) for i, ch in enumerate(digits))
    return total % 10 == 0
