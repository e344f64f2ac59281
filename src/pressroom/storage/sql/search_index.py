"""Writing the search index: field index rows and full text of published items.

Publishing writes an item's index in the transaction of the publish: one DELETE of its old field rows
(skipped on a first publish), one INSERT of the new rows and one upsert of its text. Deleting an item
cascades to both tables. :func:`rebuild` indexes items from what is stored (the clean install, the
revision that created the index, the benchmark's bulk load), a batch at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import islice
from typing import Any

from sqlalchemy import Connection, and_, delete, insert, select
from sqlalchemy.dialects import postgresql, sqlite

from pressroom.domain.content import VERSION_STATUS_CODES
from pressroom.domain.search_index import FieldIndexRow, ItemIndex, index_item
from pressroom.progress import NO_PROGRESS, Progress
from pressroom.storage.sql.cache import EpochCache, TxCache
from pressroom.storage.sql.content import SqlContentGateway
from pressroom.storage.sql.content_type import SqlContentTypeGateway
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import content, content_versions, field_index, search_text

PUBLISHED = VERSION_STATUS_CODES["PUBLISHED"]
BATCH = 500


def _row(content_id: int, row: FieldIndexRow) -> dict[str, Any]:
    image = row.image
    return {
        "content_id": content_id,
        "field_definition_id": row.field_definition_id,
        "language_code": row.language_code,
        "is_sort_key": row.is_sort_key,
        "is_match": row.is_match,
        "string_value": row.string_value,
        "number_value": row.number_value,
        "mime_type": image.mime_type.lower() if image and image.mime_type else None,
        "file_size": image.file_size if image else None,
        "width": image.width if image else None,
        "height": image.height if image else None,
    }


class SqlSearchIndexGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def put(self, items: Sequence[ItemIndex], *, fresh: bool = False) -> None:
        """Replace the index of ``items`` (``fresh``: they have none yet, nothing to delete)."""
        if not items:
            return
        if not fresh:
            self.c.execute(
                delete(field_index).where(field_index.c.content_id.in_([i.content_id for i in items]))
            )
        _INSERT_ROWS.execute_many(self.c, [_row(item.content_id, row) for item in items for row in item.rows])
        texts = [{"content_id": item.content_id, "body": item.text} for item in items]
        _put_text(self.c.dialect.name).execute_many(self.c, texts)

    def reindex_type(self, content_type_id: int) -> int:
        return rebuild(self.c, content_type_id)


_INSERT_ROWS = Prepared(insert(field_index))


@lru_cache(maxsize=2)
def _put_text(dialect_name: str) -> Prepared:
    """The upsert of an item's text, built once per dialect."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    upsert = dialect.insert(search_text)
    return Prepared(
        upsert.on_conflict_do_update(index_elements=["content_id"], set_={"body": upsert.excluded.body})
    )


def _batches(ids: Iterable[int]) -> Iterator[list[int]]:
    iterator = iter(ids)
    while batch := list(islice(iterator, BATCH)):
        yield batch


def rebuild(
    connection: Connection, content_type_id: int | None = None, progress: Progress = NO_PROGRESS
) -> int:
    """Index the current version of every item (of the type ``content_type_id`` when given) whose current
    version is published (trashed ones too); returns how many were indexed."""
    cache = TxCache(EpochCache(), connection)
    versions_of, types = SqlContentGateway(connection, cache), SqlContentTypeGateway(connection, cache)
    current = and_(
        content_versions.c.content_id == content.c.id,
        content_versions.c.version_no == content.c.current_version_no,
        content_versions.c.status == PUBLISHED,
    )
    query = select(content.c.id).select_from(content.join(content_versions, current)).order_by(content.c.id)
    if content_type_id is not None:
        query = query.where(content.c.content_type_id == content_type_id)
    gateway = SqlSearchIndexGateway(connection)
    count = 0
    ids = list(connection.execute(query).scalars())
    with progress.phase("search index", len(ids), "items") as advance:
        for batch in _batches(ids):
            count += _index(batch, versions_of, types, gateway)
            advance(len(batch))
    return count


def _index(
    batch: list[int],
    versions_of: SqlContentGateway,
    types: SqlContentTypeGateway,
    gateway: SqlSearchIndexGateway,
) -> int:
    """Index one batch of items; returns how many were indexed (items of a missing type are not)."""
    infos = versions_of.get_many(batch)
    keys = [(content_id, infos[content_id].current_version_no) for content_id in batch]
    versions = versions_of.get_versions(keys)
    fields = versions_of.load_fields_of(keys)
    indexes = []
    for key in keys:
        content_type = types.get(infos[key[0]].content_type_id)
        if content_type is not None:
            indexes.append(index_item(key[0], content_type, versions[key].names, fields[key]))
    gateway.put(indexes)
    return len(indexes)
