"""What search knows of a published item, built from its field types' index hooks.

Each field of the published version gives rows of the field index: its sort key (``sort_key``), and the
values the Field criterion compares (``match_values``: one per keyword, selected option, author...). A
scalar field whose only match value is its sort key gives a single row that plays both parts. An image
row also carries the image's metadata. Text is kept lower-cased, at most ``MAX_STRING`` characters.

Full text is the item's names and the searchable text of its searchable fields, in every language, as
one string of normalised words (see :func:`words`). Both databases index those words as they are, so
the same query finds the same items on SQLite (FTS5) and PostgreSQL (the ``simple`` configuration):
no stemming, no stop words, no dependence on a language configuration.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pressroom.domain.content import Field
from pressroom.domain.content_type import ContentType
from pressroom.domain.fieldtypes.base import ImageMetadata, IndexScalar
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.fieldtypes.registry import get_field_type

MAX_STRING = 255
_WORD = re.compile(r"[^\W_]+(\*?)")


@dataclass(frozen=True, slots=True)
class FieldIndexRow:
    """One row of the field index: a number or a lower-cased text, the field's sort key and/or one of
    its match values."""

    field_definition_id: int
    language_code: str
    is_sort_key: bool
    is_match: bool
    string_value: str | None
    number_value: float | None
    image: ImageMetadata | None = None


@dataclass(frozen=True, slots=True)
class ItemIndex:
    content_id: int
    rows: tuple[FieldIndexRow, ...]
    text: str  # normalised words, separated by single spaces


def fold(text: str) -> str:
    """Lower-cased, without diacritics (``"Café"`` → ``"cafe"``): how full text compares words."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words(text: str) -> list[str]:
    """The words of ``text`` as full text indexes them: folded runs of letters and digits."""
    return [match.group(0).rstrip("*") for match in _WORD.finditer(fold(text))]


def query_words(text: str) -> list[tuple[str, bool]]:
    """The words of a full-text query, each with whether it ends in ``*`` (a prefix: ``pub*``)."""
    return [(match.group(0).rstrip("*"), bool(match.group(1))) for match in _WORD.finditer(fold(text))]


def index_string(value: str) -> str:
    """A text as the field index keeps it, and as a Field criterion operand is compared with it."""
    return value.lower()[:MAX_STRING]


def _split(value: IndexScalar) -> tuple[str | None, float | None]:
    if isinstance(value, bool):
        return None, float(value)
    if isinstance(value, int | float):
        return None, float(value)
    return index_string(value), None


def field_rows(
    definition_id: int, language_code: str, field_type: str, value: JsonValue
) -> list[FieldIndexRow]:
    """The index rows of one field value (none for an empty value)."""
    kind = get_field_type(field_type)
    if kind.is_empty(value):
        return []
    sort = kind.sort_key(value)
    matches = [m for m in dict.fromkeys(_split(v) for v in kind.match_values(value)) if m != ("", None)]
    image = kind.image_metadata(value)
    rows: list[FieldIndexRow] = []
    sort_key = None if sort is None or sort == "" else _split(sort)
    if sort_key is not None and matches == [sort_key]:
        rows.append(FieldIndexRow(definition_id, language_code, True, True, *sort_key))
    else:
        if sort_key is not None:
            rows.append(FieldIndexRow(definition_id, language_code, True, False, *sort_key))
        rows.extend(FieldIndexRow(definition_id, language_code, False, True, *m) for m in matches)
    if image is not None:
        if rows:
            first = rows[0]
            rows[0] = FieldIndexRow(
                definition_id, language_code, first.is_sort_key, first.is_match, first.string_value,
                first.number_value, image,
            )  # fmt: skip
        else:
            rows.append(FieldIndexRow(definition_id, language_code, False, False, None, None, image))
    return rows


def index_item(
    content_id: int, content_type: ContentType, names: Mapping[str, str], fields: Sequence[Field]
) -> ItemIndex:
    """The index of a published version: ``names`` by language, its ``fields`` in every language."""
    definitions = {definition.id: definition for definition in content_type.field_definitions}
    rows: list[FieldIndexRow] = []
    texts = list(names.values())
    for field in fields:
        definition = definitions.get(field.field_definition_id)
        if definition is None:
            continue
        rows.extend(field_rows(definition.id, field.language_code, field.field_type, field.value))
        if definition.is_searchable:
            kind = get_field_type(field.field_type)
            if not kind.is_empty(field.value):
                texts.append(kind.searchable_text(field.value, definition.field_settings))
    return ItemIndex(content_id, tuple(rows), " ".join(word for text in texts for word in words(text)))
