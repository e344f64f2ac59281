"""Rows of other aggregates put straight into a database, for tests of "is it still used?" rules."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import Boolean, Integer, String, insert

from pressroom.storage.sql import schema
from pressroom.storage.sql.engine import make_engine


def insert_content_of_type(database_url: str, type_id: int) -> None:
    """Put a bare content row of the type straight into the database (content items are another issue:
    every NOT NULL column without default gets a plausible value)."""
    table = schema.metadata.tables["content"]
    values: dict[str, Any] = {"content_type_id": type_id}
    for column in table.columns:
        if column.name in values or column.nullable or column.default is not None or column.primary_key:
            continue
        if isinstance(column.type, Boolean):
            values[column.name] = False
        elif isinstance(column.type, Integer):
            values[column.name] = 1
        elif isinstance(column.type, String):
            values[column.name] = f"row-{uuid.uuid4().hex}" if column.unique else "eng-GB"
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.execute(insert(table).values(**values))
    engine.dispose()
