"""The item's search keys on its locations: ``locations.content_type_id``, ``published`` and ``name_key``
are copies of the item's columns, so that a search below one parent filters, sorts and counts from one
index of ``locations`` (``storage/sql/search.py``) instead of fetching every child's item.

The database keeps them, by triggers, whatever statement writes the rows: a location takes its item's
values when it is inserted (placing, copying, restoring from the trash) or gets another item (swap); an
item's locations follow when one of its values changes (publishing renames it: ``name_key``). An item's
type never changes, but the trigger covers it too. ``pressroom check`` reports a location whose copies
differ from its item (``storage/sql/integrity.py``, ``location-item-keys``).
"""

from __future__ import annotations

from sqlalchemy import Connection, text

COPIED = ("content_type_id", "published", "name_key")  # the columns of content copied, same names

_SQLITE_TAKE = (
    "UPDATE locations SET (content_type_id, published, name_key) = "
    "(SELECT content_type_id, published, name_key FROM content WHERE content.id = NEW.content_id) "
    "WHERE id = NEW.id;"
)
_SQLITE_DDL = (
    "CREATE TRIGGER locations_item_keys_insert AFTER INSERT ON locations "
    "WHEN NEW.content_id IS NOT NULL BEGIN " + _SQLITE_TAKE + " END",
    "CREATE TRIGGER locations_item_keys_swap AFTER UPDATE OF content_id ON locations "
    "BEGIN " + _SQLITE_TAKE + " END",
    "CREATE TRIGGER content_item_keys AFTER UPDATE OF content_type_id, published, name_key ON content "
    "WHEN OLD.content_type_id IS NOT NEW.content_type_id OR OLD.published IS NOT NEW.published "
    "OR OLD.name_key IS NOT NEW.name_key BEGIN "
    "UPDATE locations SET content_type_id = NEW.content_type_id, published = NEW.published, "
    "name_key = NEW.name_key WHERE content_id = NEW.id; END",
)
_POSTGRES_DDL = (
    "CREATE OR REPLACE FUNCTION locations_item_keys() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "SELECT content_type_id, published, name_key INTO NEW.content_type_id, NEW.published, NEW.name_key "
    "FROM content WHERE content.id = NEW.content_id; RETURN NEW; END $$",
    "CREATE TRIGGER locations_item_keys BEFORE INSERT OR UPDATE OF content_id ON locations "
    "FOR EACH ROW EXECUTE FUNCTION locations_item_keys()",
    "CREATE OR REPLACE FUNCTION content_item_keys() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "UPDATE locations SET content_type_id = NEW.content_type_id, published = NEW.published, "
    "name_key = NEW.name_key WHERE content_id = NEW.id; RETURN NULL; END $$",
    "CREATE TRIGGER content_item_keys AFTER UPDATE OF content_type_id, published, name_key ON content "
    "FOR EACH ROW WHEN (OLD.content_type_id IS DISTINCT FROM NEW.content_type_id "
    "OR OLD.published IS DISTINCT FROM NEW.published OR OLD.name_key IS DISTINCT FROM NEW.name_key) "
    "EXECUTE FUNCTION content_item_keys()",
)
_SQLITE_DROP = (
    "DROP TRIGGER IF EXISTS locations_item_keys_insert",
    "DROP TRIGGER IF EXISTS locations_item_keys_swap",
    "DROP TRIGGER IF EXISTS content_item_keys",
)
_POSTGRES_DROP = (
    "DROP TRIGGER IF EXISTS locations_item_keys ON locations",
    "DROP TRIGGER IF EXISTS content_item_keys ON content",
    "DROP FUNCTION IF EXISTS locations_item_keys()",
    "DROP FUNCTION IF EXISTS content_item_keys()",
)


def create_item_key_triggers(connection: Connection) -> None:
    for statement in _POSTGRES_DDL if connection.dialect.name == "postgresql" else _SQLITE_DDL:
        connection.execute(text(statement))


def drop_item_key_triggers(connection: Connection) -> None:
    for statement in _POSTGRES_DROP if connection.dialect.name == "postgresql" else _SQLITE_DROP:
        connection.execute(text(statement))
