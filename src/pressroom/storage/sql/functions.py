"""SQL functions whose spelling differs between SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import String
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
