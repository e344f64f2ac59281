"""A large repository for the search benchmark, written straight through the storage layer.

Three content types (story, product, event) beside the clean install's folder; a tree five levels deep
below the content root (10, 100, 1,000 and 5,000 folders, then the leaves, about 15 below each folder of
the fourth level) and an archive folder with 20,000 direct children. Half the leaves have a German
translation beside the English one. Items, versions, fields and locations go in with bulk INSERTs; the
search index is built with the same code publish uses (``domain/search_index.py`` and the index
gateway), a batch of items per statement.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, func, insert, select

from pressroom.domain.content import Field
from pressroom.domain.content_type import ContentType, ContentTypeInput, FieldDefinitionInput
from pressroom.domain.language import Language
from pressroom.domain.search_index import index_item
from pressroom.domain.user import User
from pressroom.services.content_type import ContentTypeService
from pressroom.services.permissions import Permissions
from pressroom.storage.sql import schema
from pressroom.storage.sql.content import FIELD_SEQUENCE, refresh_name_keys
from pressroom.storage.sql.engine import transaction
from pressroom.storage.sql.install import reset_sequences
from pressroom.storage.sql.search_index import SqlSearchIndexGateway
from pressroom.storage.sql.sequences import reserve
from pressroom.storage.sql.store import SqlStore

ADMIN = User(id=14, login="admin", email="admin@link.invalid", enabled=True)
ENGLISH, GERMAN = "eng-GB", "ger-DE"
FOLDER_TYPE = 1
COLOURS = ["red", "green", "blue", "black", "white", "yellow"]
TYPES: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "story": [("title", "ezstring", {}), ("intro", "eztext", {}), ("tags", "ezkeyword", {})],
    "product": [
        ("title", "ezstring", {}),
        ("description", "eztext", {}),
        ("price", "ezfloat", {}),
        ("colour", "ezselection", {"options": COLOURS}),
    ],
    "event": [("title", "ezstring", {}), ("summary", "eztext", {}), ("starts", "ezdatetime", {})],
}
FANOUTS = (10, 10, 10, 5)  # folders per parent on levels 1-4 below the content root
LEAVES_PER_FOLDER = 15
ARCHIVE_CHILDREN = 20_000
BATCH = 2_000
START = 1_600_000_000  # publication dates spread over three years from here


@dataclass(slots=True)
class Repository:
    """What the queries need to know about the generated data."""

    types: dict[str, ContentType]
    archive_location: int = 0
    level1_paths: list[str] = field(default_factory=list)
    level4_locations: list[int] = field(default_factory=list)
    items: int = 0
    seconds: float = 0.0
    index_seconds: float = 0.0


def vocabulary(rng: random.Random, size: int = 5_000) -> list[str]:
    syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"]
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    return sorted(words)


class Text:
    """Words drawn with a Zipf-like frequency, so a full-text query can be frequent or rare."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.words = vocabulary(rng)
        self.weights = [1.0 / (rank + 1) for rank in range(len(self.words))]

    def __call__(self, count: int) -> str:
        return " ".join(self.rng.choices(self.words, self.weights, k=count))


def create_types(engine: Engine) -> dict[str, ContentType]:
    store = SqlStore(engine)
    with store.write() as tx:
        tx.languages.create(Language(4, GERMAN, "Deutsch", True))
    service = ContentTypeService(store, Permissions(store))
    types = {}
    for identifier, fields in TYPES.items():
        definitions = tuple(
            FieldDefinitionInput(
                identifier=name,
                field_type=field_type,
                position=position,
                names={ENGLISH: name},
                field_settings=settings or None,
            )
            for position, (name, field_type, settings) in enumerate(fields, start=1)
        )
        struct = ContentTypeInput(
            identifier=identifier,
            names={ENGLISH: identifier.title()},
            main_language_code=ENGLISH,
            name_schema="<title>",
            field_definitions=definitions,
        )
        types[identifier] = service.create(ADMIN, 1, struct, publish=True)
    return {**types, **load_types(engine, ())}


def load_types(engine: Engine, identifiers: tuple[str, ...] = tuple(TYPES)) -> dict[str, ContentType]:
    """The folder type and the types ``create_types`` made (in a repository generated before)."""
    with SqlStore(engine).read() as tx:
        folder = tx.content_types.get(FOLDER_TYPE)
        found = {identifier: tx.content_types.by_identifier(identifier) for identifier in identifiers}
    assert folder is not None and all(found.values()), "a repository generate() filled"
    return {**{key: value for key, value in found.items() if value is not None}, "folder": folder}


@dataclass(slots=True)
class _Node:
    parent: int  # location id
    path: str
    depth: int
    type: str


class _Writer:
    """Buffers the rows of new items and writes them a batch at a time."""

    def __init__(self, connection: Connection, types: dict[str, ContentType], rng: random.Random) -> None:
        self.c = connection
        self.types = types
        self.rng = rng
        self.text = Text(rng)
        self.next_content = int(connection.execute(select(func.max(schema.content.c.id))).scalar_one()) + 1
        self.next_location = int(connection.execute(select(func.max(schema.locations.c.id))).scalar_one()) + 1
        self.rows: dict[str, list[dict[str, Any]]] = {
            "content": [],
            "versions": [],
            "fields": [],
            "locations": [],
        }
        self.indexes: list[Any] = []
        self.index_seconds = 0.0
        self.count = 0

    def _values(self, kind: str, language: str) -> dict[str, Any]:
        text, rng = self.text, self.rng
        if kind == "folder":
            return {"name": text(2).title()}
        values: dict[str, Any] = {"title": text(rng.randint(3, 5)).capitalize()}
        if kind == "story":
            values["intro"] = text(rng.randint(20, 40))
            values["tags"] = sorted(set(text(3).split()))
        elif kind == "product":
            values["description"] = text(rng.randint(20, 40))
            values["price"] = round(rng.uniform(1, 1000), 2)
            values["colour"] = [rng.randrange(len(COLOURS))]
        else:
            values["summary"] = text(rng.randint(20, 40))
            values["starts"] = START + rng.randrange(3 * 365 * 86400)
        if language == GERMAN:  # a translation keeps the numbers, says the rest in other words
            values = {key: text(len(value.split())) if key != "title" and isinstance(value, str) else value
                      for key, value in values.items()}  # fmt: skip
            values["title"] = text(rng.randint(3, 5)).capitalize()
        return values

    def add(self, node: _Node) -> int:
        """Queue a published item with one location below ``node.parent``; returns the location id."""
        content_id, location_id = self.next_content, self.next_location
        self.next_content += 1
        self.next_location += 1
        content_type = self.types[node.type]
        languages = [ENGLISH] + ([GERMAN] if node.type != "folder" and self.rng.random() < 0.5 else [])
        published = START + self.rng.randrange(3 * 365 * 86400)
        definitions = {d.identifier: d for d in content_type.field_definitions}
        fields: list[Field] = []
        names = {}
        for language in languages:
            values = self._values(node.type, language)
            names[language] = values.get("title") or values["name"]
            for identifier, value in values.items():
                definition = definitions[identifier]
                fields.append(Field(0, definition.id, identifier, language, definition.field_type, value))
        self.rows["content"].append(
            {
                "id": content_id, "content_type_id": content_type.id, "section_id": 1, "owner_id": ADMIN.id,
                "remote_id": uuid.uuid4().hex, "main_language_code": ENGLISH, "always_available": True,
                "status": 1, "is_hidden": False, "current_version_no": 1, "version_counter": 1,
                "main_location_id": location_id, "modified": published, "published": published, "revision": 0,
            }
        )  # fmt: skip
        self.rows["versions"].append(
            {
                "content_id": content_id, "version_no": 1, "status": 1, "creator_id": ADMIN.id,
                "created": published, "modified": published, "initial_language_code": ENGLISH,
                "language_codes": ",".join(languages), "names": orjson.dumps(names).decode(),
            }
        )  # fmt: skip
        self.rows["fields"].extend(
            {
                "content_id": content_id, "version_no": 1, "id": 0,
                "field_definition_id": f.field_definition_id, "language_code": f.language_code,
                "field_type": f.field_type,
                "value": orjson.dumps(f.value).decode(), "file_id": None,
            }
            for f in fields
        )  # fmt: skip
        self.rows["locations"].append(
            {
                "id": location_id, "parent_id": node.parent, "content_id": content_id,
                "path_string": f"{node.path}{location_id}/", "depth": node.depth, "priority": 0,
                "hidden": False, "invisible": False, "remote_id": uuid.uuid4().hex, "sort_field": 2,
                "sort_order": 1,
            }
        )  # fmt: skip
        started = time.perf_counter()
        self.indexes.append(index_item(content_id, content_type, names, fields))
        self.index_seconds += time.perf_counter() - started
        self.count += 1
        if len(self.rows["content"]) >= BATCH:
            self.flush()
        return location_id

    def flush(self) -> None:
        field_rows = self.rows["fields"]
        if field_rows:
            last = reserve(self.c, FIELD_SEQUENCE, len(field_rows))
            for offset, row in enumerate(field_rows):
                row["id"] = last - len(field_rows) + 1 + offset
        for name, table in (
            ("content", schema.content),
            ("versions", schema.content_versions),
            ("fields", schema.content_fields),
            ("locations", schema.locations),
        ):
            if self.rows[name]:
                self.c.execute(insert(table), self.rows[name])
                self.rows[name] = []
        started = time.perf_counter()
        SqlSearchIndexGateway(self.c).put(self.indexes, fresh=True)
        self.index_seconds += time.perf_counter() - started
        self.indexes = []


def refresh_statistics(engine: Engine) -> None:
    """Fresh planner statistics after a bulk write, and on PostgreSQL a VACUUM as well: it marks the
    written pages all-visible, without which an index-only scan (a count of 20,000 children from
    ``ix_locations_parent_type``) still visits every row's page. An operator's step after a bulk load;
    autovacuum would get there later."""
    if engine.dialect.name == "postgresql":
        raw = engine.raw_connection()  # VACUUM runs outside a transaction: psycopg's own autocommit
        try:
            raw.rollback()
            raw.driver_connection.autocommit = True  # type: ignore[union-attr]
            raw.driver_connection.execute("VACUUM ANALYZE")  # type: ignore[union-attr]
        finally:
            raw.driver_connection.autocommit = False  # type: ignore[union-attr]
            raw.close()
        return
    with engine.connect() as connection:
        connection.exec_driver_sql("ANALYZE")
        connection.commit()


def generate(
    engine: Engine,
    *,
    fanouts: tuple[int, ...] = FANOUTS,
    leaves: int = LEAVES_PER_FOLDER,
    archive_children: int = ARCHIVE_CHILDREN,
    seed: int = 9,
) -> Repository:
    """Fill an initialised, otherwise empty repository; returns what the queries need."""
    started = time.perf_counter()
    types = create_types(engine)
    rng = random.Random(seed)
    repository = Repository(types)
    with transaction(engine, write=True) as connection:
        writer = _Writer(connection, types, rng)
        level = [(2, "/1/2/", 1)]  # location id, path, depth of the content root
        for fanout in fanouts:
            below = []
            for parent, path, depth in level:
                for _ in range(fanout):
                    location = writer.add(_Node(parent, path, depth + 1, "folder"))
                    below.append((location, f"{path}{location}/", depth + 1))
            level = below
            repository.level1_paths = repository.level1_paths or [path for _, path, _ in level]
        repository.level4_locations = [location for location, _, _ in level]
        leaf_types = ["story", "product", "event"]
        for parent, path, depth in level:
            for _ in range(leaves):
                writer.add(_Node(parent, path, depth + 1, rng.choice(leaf_types)))
        archive = writer.add(_Node(2, "/1/2/", 2, "folder"))
        repository.archive_location = archive
        for _ in range(archive_children):
            writer.add(_Node(archive, f"/1/2/{archive}/", 3, rng.choice(leaf_types)))
        writer.flush()
        refresh_name_keys(connection)
        if connection.dialect.name == "postgresql":
            reset_sequences(connection)
        repository.items = writer.count
        repository.index_seconds = writer.index_seconds
    refresh_statistics(engine)
    repository.seconds = time.perf_counter() - started
    return repository
