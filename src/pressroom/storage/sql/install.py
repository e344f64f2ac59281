"""Schema creation and the clean-install data set (spec/install.md), with its exact ids."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import orjson
from sqlalchemy import Connection, Engine, delete, func, insert, inspect, select, text

from pressroom.domain.language import Language
from pressroom.domain.passwords import UNUSABLE_HASH, hash_password
from pressroom.storage.sql import schema
from pressroom.storage.sql.engine import transaction
from pressroom.storage.sql.full_text import drop_engine_index
from pressroom.storage.sql.language import language_row
from pressroom.storage.sql.migrate import upgrade
from pressroom.storage.sql.search_index import rebuild as rebuild_search_index
from pressroom.storage.sql.seed_content import load_content
from pressroom.storage.sql.seed_content_types import load_content_types
from pressroom.storage.sql.seed_roles import load_roles
from pressroom.storage.sql.seed_url_aliases import load_url_aliases

# install.md §1; an install may add more (``pressroom init --languages``)
CLEAN_LANGUAGES = (Language(2, "eng-GB", "English (United Kingdom)", True),)
SECTIONS = [(1, "standard", "Standard"), (2, "users", "Users"), (3, "media", "Media")]
# The lock group (install.md §3): group 2, not 1; every item starts in "not_locked" (the default state).
OBJECT_STATE_GROUPS = [(2, "ez_lock", "Lock")]
OBJECT_STATES = [(1, 2, "not_locked", "Not locked", 0), (2, 2, "locked", "Locked", 1)]
# content id, login, email, max_login
USERS = [(10, "anonymous", "anonymous@link.invalid", 1000), (14, "admin", "admin@link.invalid", 10)]
# The reference seeds anonymous with admin's hash (install.md §8); here it gets one no password matches.
ANONYMOUS_ID = 10


class DatabaseNotEmpty(Exception):
    """`init` found tables with data and was not asked to overwrite them."""


def is_initialised(engine: Engine) -> bool:
    if not inspect(engine).has_table("settings"):
        return False
    with transaction(engine, write=False) as connection:
        marker = connection.execute(
            select(schema.settings.c.value).where(schema.settings.c.name == "installed")
        ).scalar()
    return marker is not None


def _has_data(connection: Connection) -> bool:
    inspector = inspect(connection)
    existing = [t for t in schema.metadata.sorted_tables if inspector.has_table(t.name)]
    return any(connection.execute(select(func.count()).select_from(t)).scalar() for t in existing)


def create_schema(engine: Engine, *, force: bool) -> None:
    """Empty tables of the current schema; DatabaseNotEmpty for a database with data unless ``force``
    (which drops every table first)."""
    with engine.begin() as connection:
        replace_schema(connection, force=force)


def replace_schema(connection: Connection, *, force: bool) -> None:
    """:func:`create_schema` inside the caller's transaction, which a failure later in it undoes whole
    (DDL is transactional on SQLite and PostgreSQL)."""
    if _has_data(connection):
        if not force:
            raise DatabaseNotEmpty("The database already holds data; pass --force to wipe and reinstall it")
        drop_engine_index(connection)
        schema.metadata.drop_all(connection)
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    upgrade(connection)


def initialise(
    engine: Engine,
    admin_password: str,
    *,
    force: bool = False,
    languages: Sequence[Language] = CLEAN_LANGUAGES,
    file_store: str | None = None,
) -> None:
    """Create the schema and load the clean install with ``languages`` (eng-GB first), recording where
    its files live when ``file_store`` is given.

    Refuses a database with data unless ``force``."""
    create_schema(engine, force=force)
    with transaction(engine, write=True) as connection:
        load_clean_install(connection, admin_password, languages)
        if file_store is not None:
            record_file_store(connection, file_store)
        if connection.dialect.name == "postgresql":
            reset_sequences(connection)


def load_clean_install(connection: Connection, admin_password: str, languages: Sequence[Language]) -> None:
    password_hash = hash_password(admin_password)
    connection.execute(insert(schema.languages), [language_row(language) for language in languages])
    connection.execute(
        insert(schema.sections), [{"id": i, "identifier": ident, "name": n} for i, ident, n in SECTIONS]
    )
    connection.execute(
        insert(schema.users),
        [
            {
                "content_id": cid,
                "login": login,
                "login_normalized": login.lower(),
                "email": email,
                "password_hash": UNUSABLE_HASH if cid == ANONYMOUS_ID else password_hash,
                "enabled": True,
                "max_login": max_login,
            }
            for cid, login, email, max_login in USERS
        ],
    )
    load_content_types(connection)
    load_content(connection)
    rebuild_search_index(connection)
    load_object_states(connection)
    load_url_aliases(connection)
    load_roles(connection)
    connection.execute(
        insert(schema.settings),
        [
            {"name": "installed", "value": "clean"},
            {"name": "secret_key", "value": secrets.token_urlsafe(48)},
        ],
    )


FILE_STORE = "file_store"  # the settings row naming where the repository's files live


def recorded_file_store(connection: Connection) -> str | None:
    """Where the repository's files live (an s3:// URL or an absolute directory), if recorded."""
    query = select(schema.settings.c.value).where(schema.settings.c.name == FILE_STORE)
    value: str | None = connection.execute(query).scalar()
    return value


def record_file_store(connection: Connection, location: str | None) -> None:
    """Record ``location`` as the repository's file store (None: forget the record)."""
    connection.execute(delete(schema.settings).where(schema.settings.c.name == FILE_STORE))
    if location is not None:
        connection.execute(insert(schema.settings).values(name=FILE_STORE, value=location))


def load_object_states(connection: Connection) -> None:
    def texts(text: str) -> str:
        return orjson.dumps({"eng-GB": text}).decode()

    connection.execute(
        insert(schema.object_state_groups),
        [
            {
                "id": i,
                "identifier": ident,
                "default_language_code": "eng-GB",
                "names": texts(name),
                "descriptions": texts(""),
            }
            for i, ident, name in OBJECT_STATE_GROUPS
        ],
    )
    connection.execute(
        insert(schema.object_states),
        [
            {
                "id": i,
                "group_id": g,
                "identifier": ident,
                "priority": prio,
                "default_language_code": "eng-GB",
                "names": texts(name),
                "descriptions": texts(""),
            }
            for i, g, ident, name, prio in OBJECT_STATES
        ],
    )


def reset_sequences(connection: Connection) -> None:
    """After explicit ids, move PostgreSQL sequences past them (SQLite does this by itself)."""
    for table in schema.metadata.sorted_tables:
        for column in table.primary_key.columns:
            if column.autoincrement is True:
                connection.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "  # noqa: S608
                        f"COALESCE((SELECT MAX({column.name}) FROM {table.name}), 0) + 1, false)"
                    )
                )
