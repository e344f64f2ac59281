"""The tables, one schema for SQLite and PostgreSQL. Timestamps are integer Unix seconds (UTC)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

settings = Table(
    "settings",
    metadata,
    Column("name", String(100), primary_key=True),
    Column("value", Text, nullable=False),
)

languages = Table(
    "languages",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),  # bit flag
    Column("language_code", String(20), nullable=False, unique=True),
    Column("name", String(255), nullable=False),
    Column("enabled", Boolean, nullable=False, default=True),
)

sections = Table(
    "sections",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("identifier", String(255), nullable=False, unique=True),
    Column("name", String(255), nullable=False),
)

users = Table(
    "users",
    metadata,
    Column("content_id", Integer, primary_key=True, autoincrement=False),
    Column("login", String(150), nullable=False),
    Column("login_normalized", String(150), nullable=False, unique=True),
    Column("email", String(150), nullable=False),
    Column("password_hash", String(255), nullable=False),
    Column("enabled", Boolean, nullable=False, default=True),
    Column("max_login", Integer, nullable=False, default=0),
    Column("password_updated_at", Integer, nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.content_id", ondelete="CASCADE"), nullable=False),
    Column("csrf_token", String(64), nullable=False),
    Column("created_at", Integer, nullable=False),
    Column("expires_at", Integer, nullable=False),
)
Index("ix_sessions_expires_at", sessions.c.expires_at)
