"""Languages in SQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, insert, select

from pressroom.domain.language import Language
from pressroom.storage.sql.cache import EpochCache, TxCache
from pressroom.storage.sql.schema import languages


def _row(row: Any) -> Language:
    return Language(row.id, row.language_code, row.name, bool(row.enabled))


class SqlLanguageGateway:
    def __init__(self, connection: Connection, cache: TxCache | None = None) -> None:
        self.c = connection
        self.cache = cache or TxCache(EpochCache(), connection)

    def list(self) -> list[Language]:
        """Every language, from the process cache (one load per epoch)."""
        return list(self.cache.get("languages", self._load))

    def _load(self) -> tuple[Language, ...]:
        return tuple(_row(r) for r in self.c.execute(select(languages).order_by(languages.c.id)))

    def by_code(self, code: str) -> Language | None:
        return next((language for language in self.list() if language.language_code == code), None)

    def create(self, language: Language) -> None:
        self.cache.changed()
        self.c.execute(insert(languages).values(language_row(language)))


def language_row(language: Language) -> dict[str, Any]:
    return {
        "id": language.id,
        "language_code": language.language_code,
        "name": language.name,
        "enabled": language.enabled,
    }
