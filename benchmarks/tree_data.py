"""Grow a large tree straight in the database: published folders with one location each, in three bulk
INSERTs. Creating 10,000 items through the API takes minutes; the tree benchmark and the statement-count
tests of subtree moves need them in a second."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import orjson
from sqlalchemy import Connection, func, insert, select

from pressroom.storage.sql import schema
from pressroom.storage.sql.install import reset_sequences

FOLDER = 1
ADMIN = 14


@dataclass(frozen=True, slots=True)
class GrownTree:
    root_id: int  # the top location of the new subtree
    root_path: str  # its path string
    location_ids: list[int]  # every new location, top first
    content_ids: list[int]


def grow_tree(
    connection: Connection,
    parent_path: str,
    count: int,
    fanout: int,
    *,
    section_id: int = 1,
    name: str = "Item",
) -> GrownTree:
    """``count`` published folders below the location at ``parent_path``: the first is the root of the
    new subtree and location ``i`` hangs below location ``(i - 1) // fanout``, so ``fanout >= count - 1``
    gives one parent with ``count - 1`` children."""
    parent = connection.execute(
        select(schema.locations.c.id, schema.locations.c.depth).where(
            schema.locations.c.path_string == parent_path
        )
    ).one()
    first_content = int(connection.execute(select(func.max(schema.content.c.id))).scalar_one()) + 1
    first_location = int(connection.execute(select(func.max(schema.locations.c.id))).scalar_one()) + 1
    now = int(time.time())
    paths: list[str] = []
    depths: list[int] = []
    parents: list[int] = []
    for i in range(count):
        above = (i - 1) // fanout if i else -1
        parents.append(first_location + above if i else parent.id)
        paths.append(f"{paths[above] if i else parent_path}{first_location + i}/")
        depths.append(depths[above] + 1 if i else parent.depth + 1)
    content_ids = [first_content + i for i in range(count)]
    location_ids = [first_location + i for i in range(count)]
    connection.execute(
        insert(schema.content),
        [
            {
                "id": content_ids[i],
                "content_type_id": FOLDER,
                "section_id": section_id,
                "owner_id": ADMIN,
                "remote_id": uuid.uuid4().hex,
                "main_language_code": "eng-GB",
                "always_available": True,
                "status": 1,
                "is_hidden": False,
                "current_version_no": 1,
                "version_counter": 1,
                "main_location_id": location_ids[i],
                "modified": now + i,
                "published": now + i,
                "revision": 0,
            }
            for i in range(count)
        ],
    )
    connection.execute(
        insert(schema.content_versions),
        [
            {
                "content_id": content_ids[i],
                "version_no": 1,
                "status": 1,
                "creator_id": ADMIN,
                "created": now,
                "modified": now,
                "initial_language_code": "eng-GB",
                "language_codes": "eng-GB",
                "names": orjson.dumps({"eng-GB": f"{name} {count - i:06d}"}).decode(),
            }
            for i in range(count)
        ],
    )
    connection.execute(
        insert(schema.locations),
        [
            {
                "id": location_ids[i],
                "parent_id": parents[i],
                "content_id": content_ids[i],
                "path_string": paths[i],
                "depth": depths[i],
                "priority": i % 7,
                "hidden": False,
                "invisible": False,
                "remote_id": uuid.uuid4().hex,
                "sort_field": 1,
                "sort_order": 1,
            }
            for i in range(count)
        ],
    )
    if connection.dialect.name == "postgresql":
        reset_sequences(connection)
    return GrownTree(location_ids[0], paths[0], location_ids, content_ids)
