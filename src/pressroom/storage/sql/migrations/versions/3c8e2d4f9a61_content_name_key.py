"""content name sort key and the indexes of the search's common pages (issue 29)

``content.name_key``: the ContentName sort key (the current version's name in the main language,
lower-cased), stored and indexed so that sorting by name reads a column instead of parsing every
candidate's JSON names; computed here for the items already there.

The indexes of locations by parent, by item and by path, and of content by type, also hold the columns a
search reads of the rows they find (the item; the visibility; status and id), so that they answer
without reading the rows.

Revision ID: 3c8e2d4f9a61
Revises: a7c31e9d4b60
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from pressroom.storage.sql.functions import json_text

# The tables as this revision knows them (not as schema.py may describe them later).
_NAME_KEY = sa.String(255).with_variant(sa.String(255, collation="C"), "postgresql")
_content = sa.table(
    "content",
    sa.column("id", sa.Integer),
    sa.column("main_language_code", sa.String),
    sa.column("current_version_no", sa.Integer),
    sa.column("name_key", _NAME_KEY),
)
# index of a table: (its columns before, after)
_COVERING = {
    "ix_content_type": (["content_type_id"], ["content_type_id", "status", "id"]),
    "ix_locations_parent": (["parent_id", "path_string"], ["parent_id", "path_string", "content_id"]),
    "ix_locations_content": (["content_id"], ["content_id", "hidden", "invisible"]),
    "ix_locations_path": (["path_string"], ["path_string", "content_id"]),
}
_versions = sa.table(
    "content_versions",
    sa.column("content_id", sa.Integer),
    sa.column("version_no", sa.Integer),
    sa.column("names", sa.Text),
)

revision = "3c8e2d4f9a61"
down_revision = "a7c31e9d4b60"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("content", sa.Column("name_key", _NAME_KEY, nullable=True))
    name = sa.func.lower(json_text(_versions.c.names, _content.c.main_language_code))
    key = (
        sa.select(sa.func.substr(name, 1, 255))
        .where(
            _versions.c.content_id == _content.c.id,
            _versions.c.version_no == _content.c.current_version_no,
        )
        .scalar_subquery()
    )
    op.execute(_content.update().values(name_key=key))
    op.create_index("ix_content_name_key", "content", ["name_key"], unique=False)
    for index, (_before, after) in _COVERING.items():
        table = "content" if index.startswith("ix_content") else "locations"
        op.drop_index(index, table_name=table)
        op.create_index(index, table, after, unique=False)


def downgrade() -> None:
    for index, (before, _after) in _COVERING.items():
        table = "content" if index.startswith("ix_content") else "locations"
        op.drop_index(index, table_name=table)
        op.create_index(index, table, before, unique=False)
    op.drop_index("ix_content_name_key", table_name="content")
    with op.batch_alter_table("content") as batch:
        batch.drop_column("name_key")
