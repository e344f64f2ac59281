"""SQL functions whose spelling differs between SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, String
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
