"""events: the outbox written with every write, consumer cursors, webhook subscriptions and deliveries

Revision ID: 5e1f0a7c2b93
Revises: 107c9f7ae604
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "5e1f0a7c2b93"
down_revision = "107c9f7ae604"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("tx", sa.BigInteger(), nullable=False),
        sa.Column("type", sa.String(100), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("content_id", sa.Integer(), nullable=True),
        sa.Column("subject", sa.String(200), nullable=True),
        sa.Column("data", sa.Text(), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_events_order", "events", ["tx", "id"])
    op.create_index("ix_events_created_at", "events", ["created_at"])
    op.create_table(
        "event_cursors",
        sa.Column("consumer", sa.String(100), primary_key=True),
        sa.Column("tx", sa.BigInteger(), nullable=False),
        sa.Column("event_id", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("secret", sa.String(200), nullable=False),
        sa.Column("event_types", sa.Text(), nullable=False),
        sa.Column("subtree", sa.String(255), nullable=True),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("disabled_reason", sa.Text(), nullable=True),
        sa.Column("failed_in_a_row", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Integer(), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column(
            "webhook_id", sa.Integer(), sa.ForeignKey("webhooks.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("event_id", sa.BigInteger(), nullable=False),
        sa.Column("ordering_key", sa.String(200), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.Float(), nullable=False),
        sa.Column("claimed_until", sa.Float(), nullable=False),
        sa.Column("last_status", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("delivered_at", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["status", "next_attempt_at"])
    op.create_index("ix_webhook_deliveries_order", "webhook_deliveries", ["webhook_id", "ordering_key", "id"])
    op.create_index("ix_webhook_deliveries_event", "webhook_deliveries", ["event_id"])


def downgrade() -> None:
    op.drop_table("webhook_deliveries")
    op.drop_table("webhooks")
    op.drop_table("event_cursors")
    op.drop_table("events")
