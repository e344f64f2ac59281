"""ezauthor: a list of authors ``{"id", "name", "email"}``."""

from __future__ import annotations

from collections.abc import Mapping

from pressroom.domain.errors import FieldError
from pressroom.domain.fieldtypes.base import IndexScalar, ListFieldType, TermRule, WireContext
from pressroom.domain.fieldtypes.coerce import as_dict, as_int, as_list, dict_or_none, is_email, optional_str
from pressroom.domain.fieldtypes.jsonvalue import JsonDict, JsonValue
from pressroom.domain.fieldtypes.params import enum

ERROR_TYPE = "AuthorValidator"


class AuthorType(ListFieldType):
    identifier = "ezauthor"
    aliases = ("ibexa_author",)
    settings_schema = {
        "defaultAuthor": enum(
            "DEFAULT_VALUE_EMPTY", {"DEFAULT_VALUE_EMPTY": (0,), "DEFAULT_CURRENT_USER": (1,)}
        ),
    }

    def from_wire(self, raw: JsonValue) -> JsonValue:
        """A list of ``{"id"?, "name", "email"}``; a missing id gets the highest id so far plus one."""
        authors: list[JsonDict] = []
        for position, item in enumerate(as_list(raw, "fieldValue")):
            what = f"fieldValue item {position}"
            hash_ = as_dict(item, what)
            given_id = hash_.get("id")
            authors.append(
                {
                    "id": None if given_id in (None, "", -1) else as_int(given_id, f"{what} 'id'"),
                    "name": optional_str(hash_.get("name"), f"{what} 'name'").strip(),
                    "email": optional_str(hash_.get("email"), f"{what} 'email'").strip(),
                }
            )
        next_id = max((author["id"] for author in authors if isinstance(author["id"], int)), default=0) + 1
        for author in authors:
            if author["id"] is None:
                author["id"], next_id = next_id, next_id + 1
        return list[JsonValue](authors)

    def validate(
        self, value: JsonValue, settings: Mapping[str, JsonValue], validators: Mapping[str, JsonValue]
    ) -> list[FieldError]:
        errors = []
        for author in _authors(value):
            email = author.get("email")
            if not author.get("name"):
                errors.append(FieldError(ERROR_TYPE, "An author must have a name."))
            if isinstance(email, str) and email and not is_email(email):
                errors.append(FieldError(ERROR_TYPE, f"The e-mail address '{email}' is invalid."))
        return errors

    def to_wire(self, value: JsonValue, ctx: WireContext) -> JsonValue:
        return [{"id": a.get("id"), "name": a.get("name"), "email": a.get("email")} for a in _authors(value)]

    term_rule = TermRule(excludes="@")  # indexed by name and by e-mail: the name is the term

    def name(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        authors = _authors(value)
        return str(authors[0].get("name") or "") if authors else ""

    def searchable_text(self, value: JsonValue, settings: Mapping[str, JsonValue] | None = None) -> str:
        return " ".join(f"{a.get('name') or ''} {a.get('email') or ''}".strip() for a in _authors(value))

    def sort_key(self, value: JsonValue) -> str | int | float | None:
        return self.name(value).lower() or None

    def match_values(self, value: JsonValue) -> list[IndexScalar]:
        """Every author's name and email."""
        return [str(a[key]) for a in _authors(value) for key in ("name", "email") if a.get(key)]


def _authors(value: JsonValue) -> list[JsonDict]:
    items = value if isinstance(value, list) else []
    return [author for author in (dict_or_none(item) for item in items) if author is not None]
