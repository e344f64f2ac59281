"""The migrations build exactly the schema of schema.py, on SQLite and PostgreSQL: a schema change without
its revision fails here (write one with ``python -m pressroom.storage.sql.migrate revision "why"``)."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text

from pressroom.cli import main
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.migrate import current, head, is_current
from pressroom.storage.sql.schema import is_managed, metadata


def test_an_installed_database_is_at_head_with_nothing_missing(database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.connect() as connection:
        assert current(connection) == head()
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "include_name": is_managed}
        )
        assert compare_metadata(context, metadata) == []
    engine.dispose()


def test_migrate_brings_an_old_database_to_head(tmp_path: Path, sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'older'"))
    assert not is_current(engine)
    # An unknown revision cannot be upgraded from: migrate says so and fails.
    assert main(["migrate", "--database-url", sqlite_url]) == 2
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = :head"), {"head": head()})
    assert main(["migrate", "--database-url", sqlite_url]) == 0
    assert is_current(engine)
    engine.dispose()
