"""Languages installed in the repository (read-only through the API)."""

from __future__ import annotations

from pressroom.domain.errors import NotFound
from pressroom.domain.language import Language
from pressroom.storage.spi import Store


class LanguageService:
    def __init__(self, store: Store) -> None:
        self.store = store

    def list(self) -> list[Language]:
        with self.store.read() as tx:
            return tx.languages.list()

    def load(self, code: str) -> Language:
        with self.store.read() as tx:
            language = tx.languages.by_code(code)
        if language is None:
            raise NotFound.of("Language", code)
        return language
