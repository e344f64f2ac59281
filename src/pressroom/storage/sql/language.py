"""Languages in SQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, insert, select

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

    def create(self, language: Language) -> None:
        self.c.execute(insert(languages).values(language_row(language)))


def language_row(language: Language) -> dict[str, Any]:
    return {
        "id": language.id,
        "language_code": language.language_code,
        "name": language.name,
        "enabled": language.enabled,
    }
