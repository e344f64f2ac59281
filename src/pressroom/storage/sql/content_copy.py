"""Copies of many items at once (copying a subtree): each table's rows of the originals' current versions
are copied in one ``INSERT ... SELECT``, joined to a table of (original id, copy id) pairs bound as one
JSON parameter, so that the number of statements does not grow with the number of items."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import (
    Connection,
    Integer,
    String,
    and_,
    false,
    func,
    insert,
    literal,
    select,
    text,
)

from pressroom.domain.content import CONTENT_STATUS_CODES, PUBLISHED, VERSION_STATUS_CODES
from pressroom.storage.sql.content import FIELD_SEQUENCE
from pressroom.storage.sql.content_type import ts
from pressroom.storage.sql.schema import (
    content,
    content_fields,
    content_versions,
    field_index,
    relations,
    search_text,
)
from pressroom.storage.sql.sequences import new_row_ids, reserve

# One row per copy: [original id, copy id, copy remote id, copy main location id].
_PAIRS = {
    "sqlite": (
        "SELECT CAST(json_extract(pair.value, '$[0]') AS INTEGER) AS old_id, "
        "CAST(json_extract(pair.value, '$[1]') AS INTEGER) AS new_id, "
        "json_extract(pair.value, '$[2]') AS remote_id, "
        "CAST(json_extract(pair.value, '$[3]') AS INTEGER) AS main_location_id "
        "FROM json_each(:copy_pairs) AS pair"
    ),
    "postgresql": (
        "SELECT CAST(pair ->> 0 AS integer) AS old_id, CAST(pair ->> 1 AS integer) AS new_id, "
        "pair ->> 2 AS remote_id, CAST(pair ->> 3 AS integer) AS main_location_id "
        "FROM json_array_elements(CAST(:copy_pairs AS json)) AS pair"
    ),
}


def _of_current(row: Any, item: str = "content_id", version: str = "version_no") -> Any:
    """The rows of an original's current version (``row``: a table's columns)."""
    return and_(row[item] == content.c.id, row[version] == content.c.current_version_no)


class SqlContentCopyGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def new_content_ids(self, count: int) -> list[int]:
        return new_row_ids(self.c, "content", count)

    def copy_items(self, copies: Sequence[tuple[int, int, str, int]], owner_id: int, now: datetime) -> None:
        """Published copies of items, each of its original's current version: ``copies`` holds (original
        id, copy id, copy remote id, copy main location id). A copy has the original's type, section,
        languages, names, fields (new field ids), search index and relations (to the same items), version
        1 created by ``owner_id`` now, and ``owner_id`` as its owner. A fixed number of statements."""
        if not copies:
            return
        pairs = (
            text(_PAIRS[self.c.dialect.name])
            .bindparams(copy_pairs=orjson.dumps([list(c) for c in copies]).decode())
            .columns(old_id=Integer, new_id=Integer, remote_id=String, main_location_id=Integer)
            .subquery("copy_pair")
        )
        moment = ts(now)
        original = content.c
        self.c.execute(
            insert(content).from_select(
                [
                    "id", "content_type_id", "section_id", "owner_id", "remote_id", "main_language_code",
                    "always_available", "status", "is_hidden", "current_version_no", "version_counter",
                    "main_location_id", "modified", "published", "revision", "name_key",
                ],
                select(
                    pairs.c.new_id, original.content_type_id, original.section_id, literal(owner_id),
                    pairs.c.remote_id, original.main_language_code, original.always_available,
                    literal(CONTENT_STATUS_CODES[PUBLISHED]), false(), literal(1), literal(1),
                    pairs.c.main_location_id, literal(moment), literal(moment), literal(2),
                    original.name_key,
                ).select_from(content.join(pairs, original.id == pairs.c.old_id)),
            )
        )  # fmt: skip
        current = content.join(pairs, content.c.id == pairs.c.old_id)
        version = content_versions.c
        self.c.execute(
            insert(content_versions).from_select(
                [
                    "content_id", "version_no", "status", "creator_id", "created", "modified",
                    "initial_language_code", "language_codes", "names",
                ],
                select(
                    pairs.c.new_id, literal(1), literal(VERSION_STATUS_CODES[PUBLISHED]), literal(owner_id),
                    literal(moment), literal(moment), version.initial_language_code, version.language_codes,
                    version.names,
                ).select_from(
                    content_versions.join(current, _of_current(version))
                ),
            )
        )  # fmt: skip
        self._copy_fields(pairs, current)
        index_columns = [c.name for c in field_index.c if c.name != "content_id"]
        self.c.execute(
            insert(field_index).from_select(
                ["content_id", *index_columns],
                select(pairs.c.new_id, *(field_index.c[name] for name in index_columns)).select_from(
                    field_index.join(pairs, field_index.c.content_id == pairs.c.old_id)
                ),
            )
        )
        self.c.execute(
            insert(search_text).from_select(
                ["content_id", "body"],
                select(pairs.c.new_id, search_text.c.body).select_from(
                    search_text.join(pairs, search_text.c.content_id == pairs.c.old_id)
                ),
            )
        )
        relation = relations.c
        self.c.execute(
            insert(relations).from_select(
                ["source_content_id", "source_version_no", "destination_content_id", "type",
                 "source_field_definition_id"],
                select(
                    pairs.c.new_id, literal(1), relation.destination_content_id, relation.type,
                    relation.source_field_definition_id,
                ).select_from(
                    relations.join(current, _of_current(relation, "source_content_id", "source_version_no"))
                ).order_by(relation.id),
            )
        )  # fmt: skip

    def _copy_fields(self, pairs: Any, current: Any) -> None:
        """The fields of the originals' current versions, each with a new id (a block of the field id
        counter, handed out in the order of (copy, original field id))."""
        field = content_fields.c
        source = content_fields.join(current, _of_current(field))
        count = int(self.c.execute(select(func.count()).select_from(source)).scalar_one())
        if not count:
            return
        first = reserve(self.c, FIELD_SEQUENCE, count) - count + 1
        number = func.row_number().over(order_by=(pairs.c.new_id, field.id))
        self.c.execute(
            insert(content_fields).from_select(
                ["content_id", "version_no", "id", "field_definition_id", "language_code", "field_type",
                 "value", "file_id"],
                select(
                    pairs.c.new_id, literal(1), number + (first - 1), field.field_definition_id,
                    field.language_code, field.field_type, field.value, field.file_id,
                ).select_from(source),
            )
        )  # fmt: skip
