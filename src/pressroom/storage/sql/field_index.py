"""Search over the field index and the full text: the Field, FullText and Image criteria, the Field sort
and the relevance score.

Each criterion is ``item.id IN (SELECT content_id FROM field_index WHERE field_definition_id IN (the
definitions named so) AND <comparison>)``: a range on ``(field_definition_id, number_value)`` or
``(field_definition_id, string_value)``. The index holds the current version of every item ever
published, trashed ones included (trash and restore then cost nothing here): a search keeps to
PUBLISHED items itself.

Operands compare like the index stores values (``domain/search_index.py``): text lower-cased, booleans as
0 and 1. Equality takes a number or a numeric string both as a number and as a text (REST clients send
``"42"`` for an integer field as often as ``42``); a range compares numerically whenever the operand is
a number or a numeric string, else as text. CONTAINS on a keyword field matches a whole keyword
(``tags CONTAINS foo`` does not find an item tagged ``foobaz``), as the reference compares keywords; on
other fields a substring of the text. The criteria match a value in any translation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, FromClause, Select, Subquery, and_, func, not_, or_, select

from pressroom.domain import query as q
from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.registry import all_field_types
from pressroom.domain.search_index import index_string
from pressroom.storage.sql.full_text import text_match, text_scores
from pressroom.storage.sql.schema import content_types, field_definitions, field_index

DEFINED = 0
_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_LIKE_SPECIAL = re.compile(r"([\\%_])")
ORIENTATIONS = ("landscape", "portrait", "square")


WHOLE_VALUE_TYPES = tuple(t.identifier for t in all_field_types() if t.whole_values)


def _definitions(identifier: str, *conditions: ColumnElement[bool]) -> Select[Any]:
    """The ids of the defined field definitions ``identifier`` (of any content type)."""
    return select(field_definitions.c.id).where(
        field_definitions.c.identifier == identifier, field_definitions.c.status == DEFINED, *conditions
    )


def _items_with(identifier: str, *conditions: ColumnElement[bool]) -> Select[Any]:
    return select(field_index.c.content_id).where(
        field_index.c.field_definition_id.in_(_definitions(identifier)), *conditions
    )


def _number(value: q.FieldScalar) -> float | None:
    """The operand as a number: numbers, booleans (0 and 1) and numeric strings."""
    if isinstance(value, bool | int | float):
        return float(value)
    return float(value) if _NUMBER.fullmatch(value.strip()) else None


def _equal(value: q.FieldScalar) -> ColumnElement[bool]:
    """Equal as a number or as a text (REST clients send ``"42"`` for an integer as often as ``42``)."""
    number = _number(value)
    if isinstance(value, bool):
        return field_index.c.number_value == number
    text = field_index.c.string_value == index_string(str(value))
    return text if number is None else or_(field_index.c.number_value == number, text)


def _ordered(op: Callable[[Any, Any], ColumnElement[bool]], value: q.FieldScalar) -> ColumnElement[bool]:
    """A range: numbers compare numerically, anything else as lower-cased text."""
    number = _number(value)
    if number is not None:
        return op(field_index.c.number_value, number)
    return op(field_index.c.string_value, index_string(str(value)))


def _like(pattern: str) -> str:
    return _LIKE_SPECIAL.sub(r"\\\1", index_string(pattern)).replace("*", "%")


_RANGES: dict[str, Callable[[Any, Any], ColumnElement[bool]]] = {
    "LT": lambda column, value: column < value,
    "LTE": lambda column, value: column <= value,
    "GT": lambda column, value: column > value,
    "GTE": lambda column, value: column >= value,
}
_ARITY = {"IN": None, "BETWEEN": 2}  # how many operands; one for the others, any number (>= 1) for IN


def _value_condition(criterion: q.Field) -> ColumnElement[bool]:
    operator, values = criterion.operator, criterion.values
    arity = _ARITY.get(operator, 1)
    if not values or (arity is not None and len(values) != arity):
        wanted = {None: "at least one value", 1: "one value", 2: "two values"}[arity]
        raise InvalidArgument(f"Field criterion '{criterion.identifier}': {operator} takes {wanted}")
    if operator == "EQ":
        return _equal(values[0])
    if operator == "IN":
        return or_(*(_equal(value) for value in values))
    if operator in _RANGES:
        return _ordered(_RANGES[operator], values[0])
    if operator == "BETWEEN":
        return and_(_ordered(_RANGES["GTE"], values[0]), _ordered(_RANGES["LTE"], values[1]))
    if operator == "LIKE":
        return field_index.c.string_value.like(_like(str(values[0])), escape="\\")
    if operator == "CONTAINS":
        inside = field_index.c.string_value.like(f"%{_like(str(values[0]))}%", escape="\\")
        number = _number(values[0])
        partial = inside if number is None else or_(field_index.c.number_value == number, inside)
        whole = field_index.c.field_definition_id.in_(
            _definitions(criterion.identifier, field_definitions.c.field_type.in_(WHOLE_VALUE_TYPES))
        )
        return or_(and_(whole, _equal(values[0])), and_(not_(whole), partial))
    raise InvalidArgument(f"Field criterion '{criterion.identifier}': unknown operator '{operator}'")


def _field(item: FromClause, criterion: q.Field) -> ColumnElement[bool]:
    return item.c.id.in_(
        _items_with(criterion.identifier, field_index.c.is_match, _value_condition(criterion))
    )


def _bounded(column: Any, low: int | None, high: int | None) -> ColumnElement[bool]:
    parts = [column.is_not(None)]
    if low is not None:
        parts.append(column >= low)
    if high is not None:
        parts.append(column <= high)
    return and_(*parts)


def _orientation(criterion: q.ImageOrientation) -> ColumnElement[bool]:
    width, height = field_index.c.width, field_index.c.height
    if criterion.orientation == "landscape":
        return width > height
    if criterion.orientation == "portrait":
        return width < height
    if criterion.orientation == "square":
        return width == height
    raise InvalidArgument(
        f"ImageOrientation '{criterion.orientation}' is not one of {', '.join(ORIENTATIONS)}"
    )


def _image(item: FromClause, identifier: str, condition: ColumnElement[bool]) -> ColumnElement[bool]:
    return item.c.id.in_(_items_with(identifier, condition))


def search_visitors(item: FromClause) -> dict[type[q.Criterion], Callable[[Any], ColumnElement[bool]]]:
    """The compilers of this module's criteria over the content row ``item`` (for criteria.py)."""
    return {
        q.Field: lambda c: _field(item, c),
        q.FullText: lambda c: text_match(item.c.id, c.text),
        q.ImageMimeType: lambda c: _image(
            item, c.field_identifier, field_index.c.mime_type.in_([m.lower() for m in c.mime_types])
        ),
        q.ImageFileSize: lambda c: _image(
            item, c.field_identifier, _bounded(field_index.c.file_size, c.minimum, c.maximum)
        ),
        q.ImageDimensions: lambda c: _image(
            item,
            c.field_identifier,
            and_(_bounded(field_index.c.width, *c.width), _bounded(field_index.c.height, *c.height)),
        ),
        q.ImageOrientation: lambda c: _image(item, c.field_identifier, _orientation(c)),
    }


def field_sort_expressions(
    type_identifier: str, field_identifier: str, item: FromClause, languages: Sequence[str] = ()
) -> tuple[ColumnElement[Any], ColumnElement[Any]]:
    """What SortKey.FIELD orders by: the number, then the text, of the sort key of the field
    ``field_identifier`` of content type ``type_identifier``, in the first of ``languages`` the item has,
    else its main language, else any (NULL for items of other types or with the field empty)."""
    definition = (
        select(field_definitions.c.id)
        .join(
            content_types,
            and_(
                content_types.c.id == field_definitions.c.content_type_id,
                content_types.c.status == DEFINED,
            ),
        )
        .where(
            field_definitions.c.status == DEFINED,
            field_definitions.c.identifier == field_identifier,
            content_types.c.identifier == type_identifier,
        )
    )

    def key(column: Any) -> ColumnElement[Any]:
        def lookup(value: Any, language: Any = None) -> ColumnElement[Any]:
            conditions = [
                field_index.c.content_id == item.c.id,
                field_index.c.field_definition_id.in_(definition),
                field_index.c.is_sort_key,
            ]
            if language is not None:
                conditions.append(field_index.c.language_code == language)
            return select(value).where(*conditions).correlate(item).scalar_subquery()

        # one lookup per language in order of preference (SQLite allows no outer column in a
        # sub-query's ORDER BY, so the preference cannot be an ordering)
        preferred = [lookup(column, code) for code in languages]
        return func.coalesce(*preferred, lookup(column, item.c.main_language_code), lookup(func.min(column)))

    return key(field_index.c.number_value), key(field_index.c.string_value)


def _full_texts(criterion: q.Criterion) -> list[str]:
    """The FullText queries that make an item match ``criterion`` (not those under a NOT)."""
    if isinstance(criterion, q.FullText):
        return [criterion.text]
    if isinstance(criterion, q.LogicalAnd | q.LogicalOr):
        return [text for part in criterion.criteria for text in _full_texts(part)]
    return []


def relevance_scores(criterion: q.Criterion, dialect: str) -> Subquery | None:
    """For SortKey.SCORE and the hits' scores: ``(content_id, score)`` of the items the FullText parts of
    ``criterion`` find (higher is better), to outer-join on ``content_id``; items it lacks score 0. None
    when ``criterion`` has no full text (every hit scores the same). ``dialect``: the connection's."""
    return text_scores(_full_texts(criterion), dialect)
