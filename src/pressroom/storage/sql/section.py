"""Sections in SQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, select, update

from pressroom.domain.section import Section, SectionCreate, SectionUpdate
from pressroom.storage.sql.cache import EpochCache, TxCache
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import sections
from pressroom.storage.sql.usage import section_in_use

# Hot reads keep their statements built once: constructing a select costs more than running it on SQLite.
_BY_ID = select(sections).where(sections.c.id == bindparam("id"))
_PREPARED_BY_ID = Prepared(_BY_ID)
_LOCK_BY_ID = _BY_ID.with_for_update()  # SQLite ignores it: its writers queue on BEGIN IMMEDIATE
_BY_IDENTIFIER = select(sections).where(sections.c.identifier == bindparam("identifier"))


def _row(row: Any) -> Section:
    return Section(row.id, row.identifier, row.name)


class SqlSectionGateway:
    def __init__(self, connection: Connection, cache: TxCache | None = None) -> None:
        self.c = connection
        self.cache = cache or TxCache(EpochCache(), connection)

    def list(self) -> list[Section]:
        return [_row(r) for r in self.c.execute(select(sections).order_by(sections.c.id))]

    def get(self, section_id: int) -> Section | None:
        return self.cache.get(("section", section_id), lambda: self._get(section_id))

    def _get(self, section_id: int) -> Section | None:
        row = _PREPARED_BY_ID.first(self.c, {"id": section_id})
        return _row(row) if row else None

    def lock(self, section_id: int) -> Section | None:
        """The section, its row locked until the transaction ends (an If-Match check holds till commit)."""
        row = self.c.execute(_LOCK_BY_ID, {"id": section_id}).first()
        return _row(row) if row else None

    def by_identifier(self, identifier: str) -> Section | None:
        row = self.c.execute(_BY_IDENTIFIER, {"identifier": identifier}).first()
        return _row(row) if row else None

    def create(self, struct: SectionCreate) -> Section:
        self.cache.changed()
        result = self.c.execute(
            insert(sections).values(identifier=struct.identifier, name=struct.name).returning(sections.c.id)
        )
        return Section(result.scalar_one(), struct.identifier, struct.name)

    def update(self, section_id: int, struct: SectionUpdate) -> Section:
        values = {
            k: v for k, v in (("identifier", struct.identifier), ("name", struct.name)) if v is not None
        }
        if values:
            self.cache.changed()
            self.c.execute(update(sections).where(sections.c.id == section_id).values(**values))
        section = self.get(section_id)
        assert section is not None
        return section

    def delete(self, section_id: int) -> None:
        self.cache.changed()
        self.c.execute(delete(sections).where(sections.c.id == section_id))

    def is_used(self, section_id: int) -> bool:
        return section_in_use(self.c, section_id)
