"""Alembic environment: always run on the connection the caller hands over (``pressroom migrate``, the
install, the tests); there is no alembic.ini and no URL here."""

from __future__ import annotations

from alembic import context

from pressroom.storage.sql.schema import is_managed, metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
    compare_type=True,
    include_name=is_managed,  # not the full-text engines' own objects
)
with context.begin_transaction():
    context.run_migrations()
