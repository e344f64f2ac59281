"""SQL functions whose spelling differs between SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson
from sqlalchemy import Boolean, ColumnElement, Integer, String, bindparam
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement


class json_text(FunctionElement[str]):
    """``json_text(document, key)``: the text stored under ``key`` in a JSON object kept as text, e.g. the
    name of a version in its item's main language. ``key`` is an expression, not client input."""

    type = String()
    name = "json_text"
    inherit_cache = True


@compiles(json_text, "sqlite")
def _json_text_sqlite(element: json_text, compiler: Any, **kw: Any) -> str:
    document, key = (compiler.process(clause, **kw) for clause in element.clauses)
    return f"json_extract({document}, '$.\"' || {key} || '\"')"


@compiles(json_text, "postgresql")
def _json_text_postgresql(element: json_text, compiler: Any, **kw: Any) -> str:
    document, key = (compiler.process(clause, **kw) for clause in element.clauses)
    return f"(CAST({document} AS json) ->> {key})"


class json_value_like(FunctionElement[bool]):
    """``json_value_like(document, pattern)``: some value of a JSON object kept as text, lower-cased,
    is LIKE ``pattern`` (escape character ``\\``), e.g. a version's name in any of its languages. One
    pass over the object's entries (SQLite ``json_each``, PostgreSQL ``json_each_text``): no table of
    names is needed."""

    type = Boolean()
    name = "json_value_like"
    inherit_cache = True
    _is_implicitly_boolean = True  # a predicate: no "= 1" where the dialect lacks booleans


@compiles(json_value_like, "sqlite")
def _json_value_like_sqlite(element: json_value_like, compiler: Any, **kw: Any) -> str:
    document, pattern = (compiler.process(clause, **kw) for clause in element.clauses)
    return (
        f"EXISTS (SELECT 1 FROM json_each({document}) AS json_entry "  # noqa: S608 - compiled clauses
        f"WHERE lower(json_entry.value) LIKE {pattern} ESCAPE '\\')"
    )


@compiles(json_value_like, "postgresql")
def _json_value_like_postgresql(element: json_value_like, compiler: Any, **kw: Any) -> str:
    document, pattern = (compiler.process(clause, **kw) for clause in element.clauses)
    return (
        f"EXISTS (SELECT 1 FROM json_each_text(CAST({document} AS json)) AS json_entry "  # noqa: S608
        f"WHERE lower(json_entry.value) LIKE {pattern} ESCAPE '\\')"
    )


class bytewise(FunctionElement[str]):
    """``bytewise(text)``: ``text`` ordered by its bytes (code points), as SQLite orders text already;
    PostgreSQL would use the database's linguistic collation, and the two would sort names apart."""

    type = String()
    name = "bytewise"
    inherit_cache = True


@compiles(bytewise, "sqlite")
def _bytewise_sqlite(element: bytewise, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(next(iter(element.clauses)), **kw))


@compiles(bytewise, "postgresql")
def _bytewise_postgresql(element: bytewise, compiler: Any, **kw: Any) -> str:
    return f'({compiler.process(next(iter(element.clauses)), **kw)}) COLLATE "C"'


class in_json_array(FunctionElement[bool]):
    """``in_json_array(column, document)``: ``column`` is one of the values (integers or strings) of a
    JSON array kept as text. Bound as one parameter however many values it holds: SQLite takes at most
    32,766 parameters in a statement (its own build; Debian's 250,000), which an ``IN`` list of the
    content of a large subtree passes (``in_values``)."""

    type = Boolean()
    name = "in_json_array"
    inherit_cache = True
    _is_implicitly_boolean = True


@compiles(in_json_array, "sqlite")
def _in_json_array_sqlite(element: in_json_array, compiler: Any, **kw: Any) -> str:
    column, document = (compiler.process(clause, **kw) for clause in element.clauses)
    return f"{column} IN (SELECT json_value.value FROM json_each({document}) AS json_value)"  # noqa: S608


@compiles(in_json_array, "postgresql")
def _in_json_array_postgresql(element: in_json_array, compiler: Any, **kw: Any) -> str:
    target = next(iter(element.clauses))
    column, document = (compiler.process(clause, **kw) for clause in element.clauses)
    value = "CAST(json_value AS bigint)" if isinstance(target.type, Integer) else "json_value"
    return (
        f"{column} IN (SELECT {value} "  # noqa: S608 - compiled clauses
        f"FROM json_array_elements_text(CAST({document} AS json)) AS json_value)"
    )


def in_values(column: Any, values: Iterable[int] | Iterable[str]) -> ColumnElement[bool]:
    """``column IN values`` for any number of values, in one bound parameter (``in_json_array``)."""
    document = orjson.dumps(sorted(set(values))).decode()
    return in_json_array(column, bindparam(None, document, type_=String, unique=True))


class random_hex(FunctionElement[str]):
    """``random_hex()``: 32 random hex digits, new for each row (a fresh remote id in a bulk INSERT)."""

    type = String()
    name = "random_hex"
    inherit_cache = True


@compiles(random_hex, "sqlite")
def _random_hex_sqlite(element: random_hex, compiler: Any, **kw: Any) -> str:
    return "lower(hex(randomblob(16)))"


@compiles(random_hex, "postgresql")
def _random_hex_postgresql(element: random_hex, compiler: Any, **kw: Any) -> str:
    return "md5(random()::text || clock_timestamp()::text)"
