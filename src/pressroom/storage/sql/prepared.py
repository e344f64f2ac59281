"""Statements of the hot paths, compiled once per dialect and run on the driver's cursor.

SQLAlchemy's ``Connection.execute`` recomputes the cache key of the whole statement tree and builds an
execution context on every call: ~250 µs for the content GET's point lookup on a 2-core box, against
~20 µs for the driver itself. A :class:`Prepared` statement pays the compilation once per dialect and
then only binds parameters, runs the driver and maps rows, keeping everything else SQLAlchemy gives:

- bind and result processors of the column types run as SQLAlchemy would run them;
- listeners of ``before_cursor_execute`` are called (the statement counter of ``/metrics`` and the tests);
- a driver error is handed to SQLAlchemy's own handling, so it arrives wrapped (``IntegrityError``,
  ``OperationalError``) and a lost connection invalidates the pool, exactly as for ``execute``;
- it runs in the connection's transaction (begun by ``storage/sql/engine.py``).

Only for statements without expanding ``IN`` parameters (an ``IN`` over constants is fine): their SQL
text would depend on the values. An
INSERT or UPDATE is compiled for each set of parameter names it is run with, as SQLAlchemy does (the
columns it sets are those named), with the scalar defaults of the columns left out.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Connection
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import ValuesBase
from sqlalchemy.sql.elements import ClauseElement


class _Compiled(NamedTuple):
    sql: str
    positional: tuple[str, ...] | None  # parameter names in order (qmark/format drivers), else named
    defaults: dict[str, Any]  # values bound in the statement itself (literals, constants)
    binders: dict[str, Callable[[Any], Any]]
    row: Callable[..., Any] | None  # the row type (attribute access by column name)
    results: tuple[tuple[int, Callable[[Any], Any]], ...]  # (column index, result processor)


class Prepared:
    """A Core statement run without SQLAlchemy's per-execution work (see the module docstring)."""

    __slots__ = ("_by_key", "_keyed", "statement")

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._keyed = isinstance(statement, ValuesBase)  # the columns set come from the parameters
        self._by_key: dict[Hashable, _Compiled] = {}

    def first(self, connection: Connection, params: Mapping[str, Any]) -> Any:
        rows = self._run(connection, params)
        return rows[0] if rows else None

    def all(self, connection: Connection, params: Mapping[str, Any]) -> list[Any]:
        return self._run(connection, params)

    def execute(self, connection: Connection, params: Mapping[str, Any]) -> int:
        """Run a statement that returns no rows; the number of rows it changed."""
        cursor = self._cursor(connection, self._compiled(connection, params), [params], many=False)
        count = int(cursor.rowcount)
        cursor.close()
        return count

    def execute_many(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        if rows:
            self._cursor(connection, self._compiled(connection, rows[0]), rows, many=True).close()

    def _run(self, connection: Connection, params: Mapping[str, Any]) -> list[Any]:
        compiled = self._compiled(connection, params)
        cursor = self._cursor(connection, compiled, [params], many=False)
        try:
            fetched = cursor.fetchall()
        except Exception as error:
            connection._handle_dbapi_exception(error, compiled.sql, None, cursor, None)
        cursor.close()
        row, results = compiled.row, compiled.results
        assert row is not None, "a statement that returns rows"
        if not results:
            return [row(*values) for values in fetched]
        converted = []
        for fetched_row in fetched:
            values = list(fetched_row)
            for index, convert in results:
                values[index] = convert(values[index])
            converted.append(row(*values))
        return converted

    def _cursor(
        self,
        connection: Connection,
        compiled: _Compiled,
        rows: Iterable[Mapping[str, Any]],
        *,
        many: bool,
    ) -> Any:
        bound = [_bind(compiled, params) for params in rows]
        arguments: Any = bound if many else bound[0]
        for listener in connection.dispatch.before_cursor_execute:
            listener(connection, None, compiled.sql, arguments, None, many)
        cursor = None
        try:
            cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            if many:
                cursor.executemany(compiled.sql, arguments)
            else:
                cursor.execute(compiled.sql, arguments)
        except Exception as error:
            connection._handle_dbapi_exception(error, compiled.sql, arguments, cursor, None)
        return cursor

    def _compiled(self, connection: Connection, params: Mapping[str, Any]) -> _Compiled:
        dialect = connection.dialect
        key: Hashable = (dialect.name, frozenset(params)) if self._keyed else dialect.name
        found = self._by_key.get(key)
        if found is None:
            names = sorted(params) if self._keyed else None
            found = self._by_key[key] = _compile(self.statement, dialect, names)
        return found


def _bind(compiled: _Compiled, params: Mapping[str, Any]) -> Any:
    values = {**compiled.defaults, **params} if compiled.defaults else dict(params)
    for name, binder in compiled.binders.items():
        values[name] = binder(values.get(name))
    if compiled.positional is None:
        return values
    return tuple(values.get(name) for name in compiled.positional)


def _compile(statement: ClauseElement, dialect: Dialect, names: list[str] | None) -> _Compiled:
    compiled = statement.compile(dialect=dialect, column_keys=names)
    assert isinstance(compiled, SQLCompiler)
    if any(bind.expanding and bind.required for bind in compiled.binds.values()):
        raise TypeError("a Prepared statement cannot have expanding IN parameters")
    # Literal-execute values (constants of the statement) are rendered into the text once.
    expanded = compiled._process_parameters_for_postcompile(compiled.construct_params(_check=False))
    required = {bind.key for bind in compiled.binds.values() if bind.required}
    defaults = {
        name: value
        for name, value in expanded.parameters.items()
        if name not in required and value is not None
    }
    for defaulted in compiled.insert_prefetch:  # columns the statement leaves to their defaults
        defaults[defaulted.key] = _scalar(defaulted.default)
    for defaulted in compiled.update_prefetch:
        defaults[defaulted.key] = _scalar(defaulted.onupdate)
    binders: dict[str, Callable[[Any], Any]] = {
        name: binder
        for name, binder in (compiled._bind_processors or {}).items()
        if name in expanded.parameters and callable(binder)
    }
    row: Callable[..., Any] | None = None
    results: list[tuple[int, Callable[[Any], Any]]] = []
    if compiled._result_columns:
        names = [column.keyname for column in compiled._result_columns]
        row = namedtuple("Row", names, rename=True)  # type: ignore[misc, no-redef]
        for index, column in enumerate(compiled._result_columns):
            processor = column.type._cached_result_processor(dialect, None)
            if processor is not None:
                results.append((index, processor))
    positional = tuple(expanded.positiontup) if expanded.positiontup is not None else None
    return _Compiled(expanded.statement, positional, defaults, binders, row, tuple(results))


def _scalar(default: Any) -> Any:
    if default is None or not default.is_scalar:
        raise TypeError("a Prepared statement supports scalar column defaults only")
    return default.arg
