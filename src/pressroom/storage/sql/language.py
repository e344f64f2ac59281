"""Languages in SQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from pressroom.domain.language import Language
from pressroom.storage.sql.schema import languages


def _row(row: Any) -> Language:
    return Language(row.id, row.language_code, row.name, bool(row.enabled))


class SqlLanguageGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def list(self) -> list[Language]:
        return [_row(r) for r in self.c.execute(select(languages).order_by(languages.c.id))]

    def by_code(self, code: str) -> Language | None:
        row = self.c.execute(select(languages).where(languages.c.language_code == code)).first()
        return _row(row) if row else None
