"""Full text, one interface over two engines: SQLite FTS5 and PostgreSQL's tsvector with a GIN index.

``search_text`` holds each indexed item's words (``domain/search_index.py`` normalises them, so both
engines see the same tokens). The engine index is derived from it inside the database, in the same
statement that writes the row: on SQLite an external-content FTS5 table kept by triggers, on PostgreSQL a
generated ``tsvector`` column (configuration ``simple``: no stemming, no stop words). Deleting an item
cascades to its row and so to the engine index.

:class:`TextMatch` is an SQL expression rendered for the dialect of the connection that runs it, so a
criterion compiles without knowing the database. A query is the AND of its words; a word written with a
trailing ``*`` matches as a prefix. Relevance is FTS5's ``bm25`` (negated: higher is better) or
``ts_rank``, computed in one pass over the matches (:func:`text_scores`): FTS5 can only rank the rows
of the query that runs the MATCH, so a score looked up item by item would run the query once per item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    BindParameter,
    Boolean,
    ColumnElement,
    Connection,
    String,
    Subquery,
    TypeDecorator,
    bindparam,
    column,
    false,
    func,
    literal_column,
    select,
    table,
    text,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.visitors import InternalTraversal

from pressroom.domain.search_index import query_words

Words = tuple[tuple[str, bool], ...]

_SQLITE_DDL = (
    "CREATE VIRTUAL TABLE search_text_fts USING fts5("
    "body, content='search_text', content_rowid='content_id', tokenize='unicode61')",
    "CREATE TRIGGER search_text_fts_insert AFTER INSERT ON search_text BEGIN "
    "INSERT INTO search_text_fts(rowid, body) VALUES (new.content_id, new.body); END",
    "CREATE TRIGGER search_text_fts_delete AFTER DELETE ON search_text BEGIN "
    "INSERT INTO search_text_fts(search_text_fts, rowid, body) VALUES ('delete', old.content_id, old.body); "
    "END",
    "CREATE TRIGGER search_text_fts_update AFTER UPDATE ON search_text BEGIN "
    "INSERT INTO search_text_fts(search_text_fts, rowid, body) VALUES ('delete', old.content_id, old.body); "
    "INSERT INTO search_text_fts(rowid, body) VALUES (new.content_id, new.body); END",
)
_POSTGRES_DDL = (
    "ALTER TABLE search_text ADD COLUMN tsv tsvector "
    "GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED",
    "CREATE INDEX ix_search_text_tsv ON search_text USING gin (tsv)",
)


def create_engine_index(connection: Connection) -> None:
    """Create the engine's index over ``search_text`` (which must exist, and be empty on SQLite)."""
    ddl = _POSTGRES_DDL if connection.dialect.name == "postgresql" else _SQLITE_DDL
    for statement in ddl:
        connection.execute(text(statement))


def drop_engine_index(connection: Connection) -> None:
    """Drop what ``create_engine_index`` made outside the metadata (before dropping every table)."""
    if connection.dialect.name == "sqlite":
        connection.execute(text("DROP TABLE IF EXISTS search_text_fts"))


def _fts5_query(words: Words, any_word: bool = False) -> str:
    return (" OR " if any_word else " ").join(f'"{word}"' + ("*" if prefix else "") for word, prefix in words)


def _tsquery(words: Words, any_word: bool = False) -> str:
    return (" | " if any_word else " & ").join(word + (":*" if prefix else "") for word, prefix in words)


class _Query(TypeDecorator[Words]):
    """Words bound as the dialect's query syntax: FTS5 ``"a" "pub"*`` or tsquery ``a & pub:*``."""

    impl = String
    cache_ok = True

    def process_bind_param(self, value: Words | None, dialect: Any) -> str | None:
        if value is None:
            return None
        return _tsquery(value) if dialect.name == "postgresql" else _fts5_query(value)


_fts = table("search_text_fts", column("rowid"), column("search_text_fts"))
_pg = table("search_text", column("content_id"), column("tsv"))
_SIMPLE: ColumnElement[Any] = literal_column("'simple'")


class _FullText(ColumnElement[Any]):
    inherit_cache = True
    _traverse_internals = [
        ("item_id", InternalTraversal.dp_clauseelement),
        ("query", InternalTraversal.dp_clauseelement),
    ]

    def __init__(self, item_id: ColumnElement[Any], words: Words) -> None:
        self.item_id = item_id
        self.query: BindParameter[Words] = bindparam(None, words, type_=_Query())


class TextMatch(_FullText):
    """True for the items whose words contain every query word."""

    inherit_cache = True
    type = Boolean()
    _is_implicitly_boolean = True  # a predicate: no "= 1" where the dialect lacks booleans


@compiles(TextMatch, "sqlite")
def _match_sqlite(element: TextMatch, compiler: SQLCompiler, **kw: Any) -> str:
    matching = select(_fts.c.rowid).where(_fts.c.search_text_fts.op("MATCH")(element.query))
    return "(" + compiler.process(element.item_id.in_(matching), **kw) + ")"


@compiles(TextMatch, "postgresql")
def _match_postgres(element: TextMatch, compiler: SQLCompiler, **kw: Any) -> str:
    # = ANY(ARRAY(...)): the matches are found once, by the GIN index, whatever the rest of the query;
    # as IN (...) the planner may instead walk the items in id order testing each one's tsvector
    ts_query = func.to_tsquery(_SIMPLE, element.query)
    matching = select(_pg.c.content_id).where(_pg.c.tsv.op("@@")(ts_query)).scalar_subquery()
    return f"({compiler.process(element.item_id, **kw)} = ANY(ARRAY{compiler.process(matching, **kw)}))"


def text_match(item_id: ColumnElement[Any], query: str) -> ColumnElement[bool]:
    """The items whose full text has every word of ``query``; none when it has no word."""
    words = tuple(query_words(query))
    return TextMatch(item_id, words) if words else false()


def text_scores(queries: Sequence[str], dialect: str) -> Subquery | None:
    """``(content_id, score)`` of the items with any word of the full-text ``queries``, scored in one
    pass of the engine's index (to be joined to the items, not run per item); None without a word."""
    words = tuple(dict.fromkeys(word for query in queries for word in query_words(query)))
    if not words:
        return None
    if dialect == "postgresql":
        ts_query = func.to_tsquery(_SIMPLE, bindparam(None, _tsquery(words, any_word=True)))
        ranked = select(
            _pg.c.content_id.label("content_id"), func.ts_rank(_pg.c.tsv, ts_query).label("score")
        )
        return ranked.where(_pg.c.tsv.op("@@")(ts_query)).subquery("text_scores")
    match = _fts.c.search_text_fts.op("MATCH")(bindparam(None, _fts5_query(words, any_word=True)))
    bm25 = -func.bm25(literal_column("search_text_fts"))
    return select(_fts.c.rowid.label("content_id"), bm25.label("score")).where(match).subquery("text_scores")
