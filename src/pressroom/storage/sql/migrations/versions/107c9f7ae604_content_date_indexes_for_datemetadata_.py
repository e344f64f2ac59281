"""content date indexes for DateMetadata and date sorts

A DateMetadata criterion is a range of ``content.published`` or ``content.modified``; without an index
every search with one read the whole table (and SQLite drove it from another criterion's full list).

Revision ID: 107c9f7ae604
Revises: d0570759674c
"""

from __future__ import annotations

from alembic import op

revision = "107c9f7ae604"
down_revision = "d0570759674c"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_content_modified", "content", ["modified"], unique=False)
    op.create_index("ix_content_published", "content", ["published"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_content_published", table_name="content")
    op.drop_index("ix_content_modified", table_name="content")
