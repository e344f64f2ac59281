"""oauth: clients, authorization codes, refresh tokens, revocations and access token signing keys

Revision ID: a7c31e9d4b60
Revises: 5e1f0a7c2b93
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "a7c31e9d4b60"
down_revision = "5e1f0a7c2b93"
branch_labels = None
depends_on = None

_USER = "users.content_id"
_CLIENT = "oauth_clients.id"


def upgrade() -> None:
    op.create_table(
        "oauth_clients",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("redirect_uris", sa.Text(), nullable=False),
        sa.Column("secret_hash", sa.String(128), nullable=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey(_USER, ondelete="CASCADE"), nullable=True),
        sa.Column("created_at", sa.Integer(), nullable=False),
    )
    op.create_table(
        "oauth_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("client_id", sa.String(64), sa.ForeignKey(_CLIENT, ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey(_USER, ondelete="CASCADE"), nullable=False),
        sa.Column("redirect_uri", sa.Text(), nullable=False),
        sa.Column("scope", sa.String(200), nullable=False),
        sa.Column("code_challenge", sa.String(128), nullable=True),
        sa.Column("code_challenge_method", sa.String(10), nullable=True),
        sa.Column("family_id", sa.String(64), nullable=False),
        sa.Column("used", sa.Boolean(), nullable=False),
        sa.Column("expires_at", sa.Integer(), nullable=False),
    )
    op.create_index("ix_oauth_codes_expires_at", "oauth_codes", ["expires_at"])
    op.create_table(
        "oauth_refresh_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("family_id", sa.String(64), nullable=False),
        sa.Column("client_id", sa.String(64), sa.ForeignKey(_CLIENT, ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey(_USER, ondelete="CASCADE"), nullable=False),
        sa.Column("scope", sa.String(200), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("used", sa.Boolean(), nullable=False),
        sa.Column("expires_at", sa.Integer(), nullable=False),
    )
    op.create_index("ix_oauth_refresh_tokens_family", "oauth_refresh_tokens", ["family_id"])
    op.create_index("ix_oauth_refresh_tokens_expires_at", "oauth_refresh_tokens", ["expires_at"])
    op.create_table(
        "oauth_revocations",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("expires_at", sa.Integer(), nullable=False),
    )
    op.create_index("ix_oauth_revocations_expires_at", "oauth_revocations", ["expires_at"])
    op.create_table(
        "oauth_keys",
        sa.Column("kid", sa.String(64), primary_key=True),
        sa.Column("private_key", sa.Text(), nullable=False),
        sa.Column("public_jwk", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("oauth_keys")
    op.drop_table("oauth_revocations")
    op.drop_table("oauth_refresh_tokens")
    op.drop_table("oauth_codes")
    op.drop_table("oauth_clients")
