"""What is known of the renditions made of image files, in SQL."""

from __future__ import annotations

from sqlalchemy import Connection, bindparam, delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from pressroom.domain.image_variation import StoredVariation
from pressroom.storage.sql.functions import in_values
from pressroom.storage.sql.schema import image_variations

_GET = select(image_variations).where(
    image_variations.c.original_file_id == bindparam("original"),
    image_variations.c.variation == bindparam("variation"),
)


class SqlImageVariationGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def get(self, original_file_id: str, variation: str) -> StoredVariation | None:
        row = self.c.execute(_GET, {"original": original_file_id, "variation": variation}).first()
        if row is None:
            return None
        return StoredVariation(row.file_id, row.width, row.height, row.file_size, row.mime_type)

    def add(self, original_file_id: str, variation: str, stored: StoredVariation) -> None:
        """Record a rendition; a concurrent request that recorded the same one first wins quietly."""
        insert = pg_insert if self.c.dialect.name == "postgresql" else sqlite_insert
        self.c.execute(
            insert(image_variations)
            .values(
                original_file_id=original_file_id,
                variation=variation,
                file_id=stored.file_id,
                width=stored.width,
                height=stored.height,
                file_size=stored.file_size,
                mime_type=stored.mime_type,
            )
            .on_conflict_do_nothing()
        )

    def forget(self, original_file_ids: list[str]) -> list[str]:
        """Drop what is known of the renditions of these originals; returns their file ids (RETURNING)."""
        if not original_file_ids:
            return []
        query = delete(image_variations).where(
            in_values(image_variations.c.original_file_id, original_file_ids)
        )
        return [row.file_id for row in self.c.execute(query.returning(image_variations.c.file_id))]
