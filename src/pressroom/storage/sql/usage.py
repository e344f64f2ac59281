"""Cross-aggregate "is this still referenced?" queries, kept in one place."""

from __future__ import annotations

from sqlalchemy import Connection, Table, exists, select

from pressroom.storage.sql import schema


def _referenced(connection: Connection, table: Table | None, column: str, value: object) -> bool:
    if table is None:
        return False
    return bool(connection.execute(select(exists().where(table.c[column] == value))).scalar())


def section_in_use(connection: Connection, section_id: int) -> bool:
    """A section is in use while a content item is assigned to it."""
    return _referenced(connection, schema.metadata.tables.get("content"), "section_id", section_id)


def content_type_has_instances(connection: Connection, type_id: int) -> bool:
    """A content type has instances while a content item is of that type."""
    return _referenced(connection, schema.metadata.tables.get("content"), "content_type_id", type_id)
