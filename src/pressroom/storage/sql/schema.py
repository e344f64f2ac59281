"""The tables, one schema for SQLite and PostgreSQL. Timestamps are integer Unix seconds (UTC)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
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
    sqlite_autoincrement=True,  # never reuse the id of a deleted row: old hrefs must not change meaning
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

# Bumped when the user logs out: a JWT carries the epoch it was issued in and is dead once it changes.
token_epochs = Table(
    "token_epochs",
    metadata,
    Column("user_id", Integer, ForeignKey("users.content_id", ondelete="CASCADE"), primary_key=True),
    Column("epoch", Integer, nullable=False),
)

# Failed logins per key ("pair:<login and client>", "login:<login>" or "address:<client>"), shared by every
# process on the database.
login_failures = Table(
    "login_failures",
    metadata,
    Column("key", String(200), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("last_failure_at", Integer, nullable=False),
    Column("blocked_until", Integer, nullable=False),
)
Index("ix_login_failures_last_failure_at", login_failures.c.last_failure_at)

# Named counters for ids that are shared across rows with composite keys (content type and field
# definition ids are the same for the DEFINED and DRAFT rows). Incremented with UPDATE ... RETURNING.
sequences = Table(
    "sequences",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", BigInteger, nullable=False),
)

# --- content model -----------------------------------------------------------------------------------
content_type_groups = Table(
    "content_type_groups",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("identifier", String(255), nullable=False, unique=True),
    Column("created", Integer, nullable=False),
    Column("modified", Integer, nullable=False),
    Column("creator_id", Integer, nullable=False),
    Column("modifier_id", Integer, nullable=False),
    sqlite_autoincrement=True,
)

content_types = Table(
    "content_types",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("status", Integer, primary_key=True, autoincrement=False),  # 0 DEFINED, 1 DRAFT
    Column("identifier", String(255), nullable=False),
    Column("remote_id", String(100), nullable=False),
    Column("names", Text, nullable=False),  # JSON {languageCode: text}
    Column("descriptions", Text, nullable=False),
    Column("created", Integer, nullable=False),
    Column("modified", Integer, nullable=False),
    Column("creator_id", Integer, nullable=False),
    Column("modifier_id", Integer, nullable=False),
    Column("url_alias_schema", Text, nullable=False, default=""),
    Column("name_schema", Text, nullable=False, default=""),
    Column("is_container", Boolean, nullable=False, default=False),
    Column("main_language_code", String(20), nullable=False),
    Column("default_always_available", Boolean, nullable=False, default=True),
    Column("default_sort_field", Integer, nullable=False, default=1),
    Column("default_sort_order", Integer, nullable=False, default=1),
)
Index("ix_content_types_identifier", content_types.c.identifier)
Index("ix_content_types_remote_id", content_types.c.remote_id)

content_type_group_links = Table(
    "content_type_group_links",
    metadata,
    Column("content_type_id", Integer, primary_key=True, autoincrement=False),
    Column("status", Integer, primary_key=True, autoincrement=False),
    Column(
        "group_id",
        Integer,
        ForeignKey("content_type_groups.id"),
        primary_key=True,
        autoincrement=False,
    ),
)

field_definitions = Table(
    "field_definitions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("status", Integer, primary_key=True, autoincrement=False),
    Column("content_type_id", Integer, nullable=False),
    Column("identifier", String(50), nullable=False),
    Column("field_type", String(50), nullable=False),
    Column("field_group", String(255), nullable=False, default=""),
    Column("position", Integer, nullable=False, default=0),
    Column("is_translatable", Boolean, nullable=False, default=True),
    Column("is_required", Boolean, nullable=False, default=False),
    Column("is_info_collector", Boolean, nullable=False, default=False),
    Column("is_searchable", Boolean, nullable=False, default=True),
    Column("is_thumbnail", Boolean, nullable=False, default=False),
    Column("default_value", Text, nullable=True),  # JSON
    Column("names", Text, nullable=False),
    Column("descriptions", Text, nullable=False),
    Column("field_settings", Text, nullable=False),
    Column("validator_configuration", Text, nullable=False),
)
Index("ix_field_definitions_type", field_definitions.c.content_type_id, field_definitions.c.status)

# --- content items, versions, fields, relations, locations ---------------------------------------
# Sort keys compare byte-wise on PostgreSQL too ("C"), as SQLite compares text.
NAME_KEY = String(255).with_variant(String(255, collation="C"), "postgresql")

content = Table(
    "content",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("content_type_id", Integer, nullable=False),
    Column("section_id", Integer, ForeignKey("sections.id"), nullable=False),
    Column("owner_id", Integer, nullable=False),
    Column("remote_id", String(100), nullable=False, unique=True),
    Column("main_language_code", String(20), nullable=False),
    Column("always_available", Boolean, nullable=False, default=False),
    Column("status", Integer, nullable=False),  # 0 DRAFT, 1 PUBLISHED, 2 TRASHED
    Column("is_hidden", Boolean, nullable=False, default=False),
    Column("current_version_no", Integer, nullable=False),
    # The last version number handed out; bumped with UPDATE ... RETURNING (a row lock).
    Column("version_counter", Integer, nullable=False, default=0),
    Column("main_location_id", Integer, nullable=True),
    Column("modified", Integer, nullable=False),
    Column("published", Integer, nullable=True),
    Column("revision", Integer, nullable=False, default=0),  # bumped on every write: feeds the ETag
    # The ContentName sort key: the current version's name in the main language, lower-cased, its first
    # 255 characters (storage/sql/content.py keeps it; NULL without a name in that language).
    Column("name_key", NAME_KEY, nullable=True),
    sqlite_autoincrement=True,
)
# By type, with what a count or a type aggregation reads of the rows (status, id): they are answered from
# the index alone (counting the 6,700 products among 20,000 children read 32,000 rows of content before).
Index("ix_content_type", content.c.content_type_id, content.c.status, content.c.id)
Index("ix_content_name_key", content.c.name_key)
Index("ix_content_section", content.c.section_id)
# DateMetadata criteria and date sort clauses: a range of publication or modification dates.
Index("ix_content_published", content.c.published)
Index("ix_content_modified", content.c.modified)

content_versions = Table(
    "content_versions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("content_id", Integer, ForeignKey("content.id", ondelete="CASCADE"), nullable=False),
    Column("version_no", Integer, nullable=False),
    Column("status", Integer, nullable=False),  # 0 DRAFT, 1 PUBLISHED, 3 ARCHIVED
    Column("creator_id", Integer, nullable=False),
    Column("created", Integer, nullable=False),
    Column("modified", Integer, nullable=False),
    Column("initial_language_code", String(20), nullable=False),
    Column("language_codes", String(255), nullable=False),  # comma-joined
    Column("names", Text, nullable=False),  # JSON {languageCode: name}
    UniqueConstraint("content_id", "version_no", name="uq_content_versions_no"),
    sqlite_autoincrement=True,
)
Index("ix_content_versions_creator", content_versions.c.creator_id, content_versions.c.status)

content_fields = Table(
    "content_fields",
    metadata,
    Column("content_id", Integer, ForeignKey("content.id", ondelete="CASCADE"), primary_key=True),
    Column("version_no", Integer, primary_key=True, autoincrement=False),
    Column("id", Integer, primary_key=True, autoincrement=False),  # same id in every version
    Column("field_definition_id", Integer, nullable=False),
    Column("language_code", String(20), nullable=False),
    Column("field_type", String(50), nullable=False),
    Column("value", Text, nullable=True),  # JSON of the normalized stored value
    # The stored file the value references (binary field types): who may read a file, and whether any
    # version still needs it, are answered through this index.
    Column("file_id", String(255), nullable=True),
)
Index("ix_content_fields_file", content_fields.c.file_id)

# --- search index (storage/sql/field_index.py): the current version of every item ever published ------
# Field values (domain/search_index.py): a row is the field's sort key, one of its match values, or both.
# Text is lower-cased; PostgreSQL compares it byte-wise ("C"), as SQLite does, so that LIKE 'ab%' and
# ranges use the index and both databases sort alike.
INDEX_STRING = String(255).with_variant(String(255, collation="C"), "postgresql")

field_index = Table(
    "field_index",
    metadata,
    Column("content_id", Integer, ForeignKey("content.id", ondelete="CASCADE"), nullable=False),
    Column("field_definition_id", Integer, nullable=False),
    Column("language_code", String(20), nullable=False),
    Column("is_sort_key", Boolean, nullable=False),
    Column("is_match", Boolean, nullable=False),
    Column("string_value", INDEX_STRING, nullable=True),
    Column("number_value", Float(53), nullable=True),
    # images only (the Image criteria)
    Column("mime_type", String(100), nullable=True),
    Column("file_size", BigInteger, nullable=True),
    Column("width", Integer, nullable=True),
    Column("height", Integer, nullable=True),
)
Index("ix_field_index_content", field_index.c.content_id, field_index.c.field_definition_id)
Index("ix_field_index_number", field_index.c.field_definition_id, field_index.c.number_value)
Index("ix_field_index_string", field_index.c.field_definition_id, field_index.c.string_value)

# Full text: one row of normalised words per item. The engines' own indexes live outside this metadata
# (created by the revision, see FULL_TEXT_OBJECTS): an FTS5 table kept by triggers on SQLite, a generated
# tsvector column with a GIN index on PostgreSQL.
search_text = Table(
    "search_text",
    metadata,
    Column("content_id", Integer, ForeignKey("content.id", ondelete="CASCADE"), primary_key=True),
    Column("body", Text, nullable=False),
)
FULL_TEXT_OBJECTS = frozenset({"search_text_fts", "tsv", "ix_search_text_tsv"})


def is_managed(name: str | None, type_: str, _parent_names: object = None) -> bool:
    """Whether the schema comparison (Alembic) should look at a database object: not the full-text
    engines' own tables, columns and indexes (FTS5 also makes ``search_text_fts_*`` shadow tables)."""
    if name is None:
        return True
    return not (name in FULL_TEXT_OBJECTS or name.startswith("search_text_fts_"))


relations = Table(
    "relations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source_content_id", Integer, ForeignKey("content.id", ondelete="CASCADE"), nullable=False),
    Column("source_version_no", Integer, nullable=False),
    Column("destination_content_id", Integer, ForeignKey("content.id", ondelete="CASCADE"), nullable=False),
    Column("type", Integer, nullable=False),  # bit mask: 1 COMMON, 2 EMBED, 4 LINK, 8 ATTRIBUTE, 16 ASSET
    Column("source_field_definition_id", Integer, nullable=True),
    sqlite_autoincrement=True,
)
Index("ix_relations_source", relations.c.source_content_id, relations.c.source_version_no)
Index("ix_relations_destination", relations.c.destination_content_id)

# Location paths ("/1/2/59/") compare as byte strings: subtrees are ranges on them (criteria.prefix_range),
# so PostgreSQL must not order them by a linguistic collation that ignores the slashes. 2000 characters
# hold a tree about 180 levels deep and stay under PostgreSQL's B-tree entry limit.
PATH = String(2000).with_variant(String(2000, collation="C"), "postgresql")

locations = Table(
    "locations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("parent_id", Integer, nullable=False),
    Column("content_id", Integer, ForeignKey("content.id"), nullable=True),  # NULL: the virtual root
    Column("path_string", PATH, nullable=False),
    Column("depth", Integer, nullable=False),
    Column("priority", Integer, nullable=False, default=0),
    Column("hidden", Boolean, nullable=False, default=False),
    Column("invisible", Boolean, nullable=False, default=False),
    Column("remote_id", String(100), nullable=False, unique=True),
    Column("sort_field", Integer, nullable=False, default=1),
    Column("sort_order", Integer, nullable=False, default=1),
    # Copies of the item's search keys, kept by the database (storage/sql/item_keys.py): a search below
    # one parent filters, sorts and counts from ix_locations_parent_type / _name alone.
    Column("content_type_id", Integer, nullable=True),
    Column("published", Integer, nullable=True),
    Column("name_key", NAME_KEY, nullable=True),
    sqlite_autoincrement=True,
)
# Each index also holds what a search reads of the locations it finds, so that it answers alone (an index-
# only scan): the item of each child or subtree location (ParentLocationId, Subtree: a search reads 20,000
# children in a few ms instead of fetching each row), the visibility of each location of an item.
Index("ix_locations_parent", locations.c.parent_id, locations.c.path_string, locations.c.content_id)
Index("ix_locations_content", locations.c.content_id, locations.c.hidden, locations.c.invisible)
Index("ix_locations_path", locations.c.path_string, locations.c.content_id)
Index(
    "ix_locations_parent_type",
    locations.c.parent_id,
    locations.c.content_type_id,
    locations.c.published,
    locations.c.content_id,
)
Index("ix_locations_parent_name", locations.c.parent_id, locations.c.name_key, locations.c.content_id)

# Trashed locations: the location row as it was (same id, so a restored item and its trashed children find
# each other again), kept while its content has no location left. Deleting the content drops its items.
trash = Table(
    "trash",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("parent_id", Integer, nullable=False),
    Column("content_id", Integer, ForeignKey("content.id", ondelete="CASCADE"), nullable=False),
    Column("path_string", PATH, nullable=False),
    Column("depth", Integer, nullable=False),
    Column("priority", Integer, nullable=False),
    Column("hidden", Boolean, nullable=False),
    Column("invisible", Boolean, nullable=False),
    Column("remote_id", String(100), nullable=False),
    Column("sort_field", Integer, nullable=False),
    Column("sort_order", Integer, nullable=False),
    Column("trashed", Integer, nullable=False),
)
Index("ix_trash_content", trash.c.content_id)
Index("ix_trash_parent", trash.c.parent_id)

# Where a never-published item goes on its first publish.
pending_locations = Table(
    "pending_locations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("content_id", Integer, ForeignKey("content.id", ondelete="CASCADE"), nullable=False),
    Column("parent_id", Integer, nullable=False),
    Column("priority", Integer, nullable=False, default=0),
    Column("hidden", Boolean, nullable=False, default=False),
    Column("remote_id", String(100), nullable=False),
    Column("sort_field", Integer, nullable=False),
    Column("sort_order", Integer, nullable=False),
)
Index("ix_pending_locations_content", pending_locations.c.content_id)

# --- object states and bookmarks ---------------------------------------------------------------------
object_state_groups = Table(
    "object_state_groups",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("identifier", String(64), nullable=False, unique=True),
    Column("default_language_code", String(20), nullable=False),
    Column("names", Text, nullable=False),  # JSON {languageCode: text}, in input order
    Column("descriptions", Text, nullable=False),
    sqlite_autoincrement=True,
)

object_states = Table(
    "object_states",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("group_id", Integer, ForeignKey("object_state_groups.id", ondelete="CASCADE"), nullable=False),
    Column("identifier", String(64), nullable=False),
    Column("priority", Integer, nullable=False),
    Column("default_language_code", String(20), nullable=False),
    Column("names", Text, nullable=False),
    Column("descriptions", Text, nullable=False),
    UniqueConstraint("group_id", "identifier", name="uq_object_states_identifier"),
    sqlite_autoincrement=True,
)

# Explicit assignments only: an item without a row for a group is in that group's default state.
content_object_states = Table(
    "content_object_states",
    metadata,
    Column("content_id", Integer, ForeignKey("content.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "group_id",
        Integer,
        ForeignKey("object_state_groups.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    ),
    Column("state_id", Integer, ForeignKey("object_states.id", ondelete="CASCADE"), nullable=False),
)
Index("ix_content_object_states_state", content_object_states.c.state_id)

bookmarks = Table(
    "bookmarks",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),  # insertion order of the list
    Column("user_id", Integer, nullable=False),
    Column("location_id", Integer, ForeignKey("locations.id", ondelete="CASCADE"), nullable=False),
    UniqueConstraint("user_id", "location_id", name="uq_bookmarks_user_location"),
    sqlite_autoincrement=True,
)
Index("ix_bookmarks_location", bookmarks.c.location_id)

# --- image variations: renditions made on first request, kept beside the original file ---------------
image_variations = Table(
    "image_variations",
    metadata,
    Column("original_file_id", String(255), primary_key=True),
    Column("variation", String(64), primary_key=True),
    Column("file_id", String(255), nullable=False),
    Column("width", Integer, nullable=False),
    Column("height", Integer, nullable=False),
    Column("file_size", Integer, nullable=False),
    Column("mime_type", String(100), nullable=False),
)

# --- URL aliases and wildcards (domain/url_alias.py) ------------------------------------------------
# One row per path segment, keyed below its parent node by the md5 of the lower-cased text.
url_aliases = Table(
    "url_aliases",
    metadata,
    Column("parent", Integer, primary_key=True, autoincrement=False),
    Column("text_md5", String(32), primary_key=True),
    Column("text", Text, nullable=False),
    Column("node", Integer, nullable=False),
    Column("action", String(255), nullable=False),  # eznode:<location id> | module:<resource> | nop:
    Column("location_id", Integer, nullable=True),  # the id in an eznode: action, for joins and deletes
    Column("is_original", Boolean, nullable=False),
    Column("is_custom", Boolean, nullable=False),
    Column("forward", Boolean, nullable=False),
    Column("always_available", Boolean, nullable=False),
    Column("language_codes", String(255), nullable=False),  # comma-joined
)
Index("ix_url_aliases_location", url_aliases.c.location_id)
Index("ix_url_aliases_node", url_aliases.c.node)

url_wildcards = Table(
    "url_wildcards",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source_url", Text, nullable=False, unique=True),  # cleaned: "/old/*"
    Column("destination_url", Text, nullable=False),
    Column("forward", Boolean, nullable=False),
    sqlite_autoincrement=True,
)

# --- roles, policies, role assignments ---------------------------------------------------------------
roles = Table(
    "roles",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("identifier", String(255), nullable=False),
    Column("status", Integer, nullable=False, default=0),  # 0 DEFINED, 1 DRAFT
    Column("original_id", Integer, nullable=True),  # the role a draft was made from (None: a new role)
    sqlite_autoincrement=True,
)
Index("ix_roles_identifier", roles.c.identifier)

policies = Table(
    "policies",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("role_id", Integer, ForeignKey("roles.id", ondelete="CASCADE"), nullable=False),
    Column("module", String(50), nullable=False),
    Column("function", String(50), nullable=False),
    Column("limitations", Text, nullable=False, default="[]"),  # JSON [[identifier, [value, ...]], ...]
    Column("original_id", Integer, nullable=True),  # a draft's copy of a published policy
    sqlite_autoincrement=True,
)
Index("ix_policies_role", policies.c.role_id)

role_assignments = Table(
    "role_assignments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("role_id", Integer, ForeignKey("roles.id", ondelete="CASCADE"), nullable=False),
    Column("assignee_id", Integer, nullable=False),  # content id of a user or a user group
    Column("limitation_identifier", String(50), nullable=True),  # Section | Subtree | None
    Column("limitation_values", Text, nullable=True),  # JSON [value, ...]
    sqlite_autoincrement=True,
)
Index("ix_role_assignments_assignee", role_assignments.c.assignee_id)
Index("ix_role_assignments_role", role_assignments.c.role_id)

# --- events (domain/event.py) ----------------------------------------------------------------------------
# A 64-bit id that is SQLite's rowid there (BIGINT PRIMARY KEY is not an alias of the rowid on SQLite).
_EVENT_ID = BigInteger().with_variant(Integer, "sqlite")

# The outbox: one row per write, appended in the write's transaction. ``tx`` is the writing transaction's
# id on PostgreSQL (0 on SQLite, whose writers commit one at a time): readers go in (tx, id) order.
events = Table(
    "events",
    metadata,
    Column("id", _EVENT_ID, primary_key=True, autoincrement=True),
    Column("tx", BigInteger, nullable=False, default=0),
    Column("type", String(100), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("user_id", Integer, nullable=True),
    Column("content_id", Integer, nullable=True),
    Column("subject", String(200), nullable=True),
    Column("data", Text, nullable=False),  # JSON object
    sqlite_autoincrement=True,
)
Index("ix_events_order", events.c.tx, events.c.id)
Index("ix_events_created_at", events.c.created_at)

# Where each consumer of the log (webhook fan-out, the broker publisher, the HTTP cache purger) stands.
event_cursors = Table(
    "event_cursors",
    metadata,
    Column("consumer", String(100), primary_key=True),
    Column("tx", BigInteger, nullable=False),
    Column("event_id", BigInteger, nullable=False),
    Column("updated_at", Float, nullable=False),
)

webhooks = Table(
    "webhooks",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("url", Text, nullable=False),
    Column("secret", String(200), nullable=False),
    Column("event_types", Text, nullable=False),  # JSON list; empty: every type
    Column("subtree", String(255), nullable=True),
    Column("enabled", Boolean, nullable=False),
    Column("disabled_reason", Text, nullable=True),
    Column("failed_in_a_row", Integer, nullable=False, default=0),
    Column("created_at", Integer, nullable=False),
    sqlite_autoincrement=True,
)

webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    Column("id", _EVENT_ID, primary_key=True, autoincrement=True),
    Column("webhook_id", Integer, ForeignKey("webhooks.id", ondelete="CASCADE"), nullable=False),
    Column("event_id", BigInteger, nullable=False),
    Column("ordering_key", String(200), nullable=False),  # deliveries of one key go out in order
    Column("status", String(10), nullable=False),  # pending | delivered | failed
    Column("attempts", Integer, nullable=False, default=0),
    Column("next_attempt_at", Float, nullable=False),
    Column("claimed_until", Float, nullable=False, default=0),
    Column("last_status", Integer, nullable=True),
    Column("last_error", Text, nullable=True),
    Column("delivered_at", Float, nullable=True),
    Column("created_at", Float, nullable=False),
    sqlite_autoincrement=True,
)
Index("ix_webhook_deliveries_due", webhook_deliveries.c.status, webhook_deliveries.c.next_attempt_at)
Index(
    "ix_webhook_deliveries_order",
    webhook_deliveries.c.webhook_id,
    webhook_deliveries.c.ordering_key,
    webhook_deliveries.c.id,
)
Index("ix_webhook_deliveries_event", webhook_deliveries.c.event_id)

# --- OAuth 2.0 (services/oauth.py) -----------------------------------------------------------------------
oauth_clients = Table(
    "oauth_clients",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("redirect_uris", Text, nullable=False),  # JSON list, matched exactly
    Column("secret_hash", String(128), nullable=True),  # None: a public client
    Column("user_id", Integer, ForeignKey("users.content_id", ondelete="CASCADE"), nullable=True),
    Column("created_at", Integer, nullable=False),
)

oauth_codes = Table(
    "oauth_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("client_id", String(64), ForeignKey("oauth_clients.id", ondelete="CASCADE"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.content_id", ondelete="CASCADE"), nullable=False),
    Column("redirect_uri", Text, nullable=False),
    Column("scope", String(200), nullable=False),
    Column("code_challenge", String(128), nullable=True),
    Column("code_challenge_method", String(10), nullable=True),
    Column("family_id", String(64), nullable=False),
    Column("used", Boolean, nullable=False, default=False),
    Column("expires_at", Integer, nullable=False),
)
Index("ix_oauth_codes_expires_at", oauth_codes.c.expires_at)

oauth_refresh_tokens = Table(
    "oauth_refresh_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("family_id", String(64), nullable=False),
    Column("client_id", String(64), ForeignKey("oauth_clients.id", ondelete="CASCADE"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.content_id", ondelete="CASCADE"), nullable=False),
    Column("scope", String(200), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("used", Boolean, nullable=False, default=False),
    Column("expires_at", Integer, nullable=False),
)
Index("ix_oauth_refresh_tokens_family", oauth_refresh_tokens.c.family_id)
Index("ix_oauth_refresh_tokens_expires_at", oauth_refresh_tokens.c.expires_at)

# Revoked access tokens ("jti:<id>") and token families ("family:<id>"), kept until what they name expires.
oauth_revocations = Table(
    "oauth_revocations",
    metadata,
    Column("key", String(100), primary_key=True),
    Column("expires_at", Integer, nullable=False),
)
Index("ix_oauth_revocations_expires_at", oauth_revocations.c.expires_at)

# Access token signing keys; the private key encrypted with a key derived from the server secret.
oauth_keys = Table(
    "oauth_keys",
    metadata,
    Column("kid", String(64), primary_key=True),
    Column("private_key", Text, nullable=False),
    Column("public_jwk", Text, nullable=False),
    Column("created_at", Integer, nullable=False),
)
