"""search: the item's type, publication date and name key copied onto its locations (issue 29)

A search below one parent (the children of a folder) filters by type and sorts by date or name; with
these columns on ``locations`` the page and its count read one index, ``ix_locations_parent_type`` or
``ix_locations_parent_name``, without fetching the 20,000 items of a large folder.

The copies are kept by the database (``storage/sql/item_keys.py``): a location takes its item's values
when it is written or gets another item (swap), and an item's locations follow when its values change.
``pressroom check`` reports a location whose copies differ (``location-item-keys``).

Revision ID: 8b4f2c6d1e57
Revises: 3c8e2d4f9a61
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from pressroom.storage.sql.item_keys import create_item_key_triggers, drop_item_key_triggers

_NAME_KEY = sa.String(255).with_variant(sa.String(255, collation="C"), "postgresql")
_content = sa.table(
    "content",
    sa.column("id", sa.Integer),
    sa.column("content_type_id", sa.Integer),
    sa.column("published", sa.Integer),
    sa.column("name_key", _NAME_KEY),
)
_locations = sa.table(
    "locations",
    sa.column("content_id", sa.Integer),
    sa.column("content_type_id", sa.Integer),
    sa.column("published", sa.Integer),
    sa.column("name_key", _NAME_KEY),
)

revision = "8b4f2c6d1e57"
down_revision = "3c8e2d4f9a61"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("locations", sa.Column("content_type_id", sa.Integer(), nullable=True))
    op.add_column("locations", sa.Column("published", sa.Integer(), nullable=True))
    op.add_column("locations", sa.Column("name_key", _NAME_KEY, nullable=True))

    def of_item(name: str) -> sa.ScalarSelect[object]:
        column = _content.c[name]
        return sa.select(column).where(_content.c.id == _locations.c.content_id).scalar_subquery()

    op.execute(
        _locations.update()
        .where(_locations.c.content_id.is_not(None))
        .values(
            content_type_id=of_item("content_type_id"),
            published=of_item("published"),
            name_key=of_item("name_key"),
        )
    )
    op.create_index(
        "ix_locations_parent_type",
        "locations",
        ["parent_id", "content_type_id", "published", "content_id"],
        unique=False,
    )
    op.create_index(
        "ix_locations_parent_name", "locations", ["parent_id", "name_key", "content_id"], unique=False
    )
    create_item_key_triggers(op.get_bind())


def downgrade() -> None:
    drop_item_key_triggers(op.get_bind())
    op.drop_index("ix_locations_parent_name", table_name="locations")
    op.drop_index("ix_locations_parent_type", table_name="locations")
    for name in ("name_key", "published", "content_type_id"):
        op.drop_column("locations", name)
