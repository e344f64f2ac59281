"""Schema migrations (Alembic): the schema of a database is the one its revisions built.

A new database is created by running every revision, so the migrations are exercised by every install
and test; ``tests/storage/test_migrations.py`` fails when ``schema.py`` and the revisions disagree, so a
schema change comes with its revision (``python -m pressroom.storage.sql.migrate revision "message"``
writes one from the difference).
"""

from __future__ import annotations

import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

from pressroom.storage.sql.engine import make_engine

_DIRECTORY = Path(__file__).with_name("migrations")


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(_DIRECTORY))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision this code knows."""
    revision = ScriptDirectory.from_config(_config()).get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> str | None:
    """The revision of the database on ``connection`` (None: never migrated)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection) -> None:
    """Bring the database on ``connection`` to :func:`head`, inside the caller's transaction."""
    command.upgrade(_config(connection), "head")


def is_current(engine: Engine) -> bool:
    with engine.connect() as connection:
        return current(connection) == head()


def _write_revision(message: str, url: str) -> None:
    """Write a new revision from the difference between ``schema.py`` and a database at head."""
    engine = make_engine(url)
    with engine.begin() as connection:
        upgrade(connection)
        command.revision(_config(connection), message=message, autogenerate=True)


if __name__ == "__main__":  # python -m pressroom.storage.sql.migrate revision "message" [sqlite-url]
    if len(sys.argv) < 3 or sys.argv[1] != "revision":
        raise SystemExit('usage: python -m pressroom.storage.sql.migrate revision "message" [database url]')
    _write_revision(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "sqlite:///var/migrations.db")
