"""Languages installed in the repository: read through the API, added by the operator (CLI, settings)."""

from __future__ import annotations

from collections.abc import Iterable

import pycountry

from pressroom.domain.errors import Forbidden, InvalidArgument, NotFound
from pressroom.domain.language import (
    Language,
    check_language_code,
    installation_order,
    next_language_id,
)
from pressroom.domain.user import User
from pressroom.storage.spi import Store

MAX_NAME_LENGTH = 255  # the column's

# The names the reference installs under for common codes; other codes get language + country.
KNOWN_NAMES = {
    "eng-GB": "English (United Kingdom)",
    "eng-US": "English (American)",
    "ger-DE": "German",
    "fre-FR": "French (France)",
    "pol-PL": "Polish (polski)",
    "esl-ES": "Spanish (Spain)",  # eZ's code for Spanish: "esl" is another language in ISO 639-3
}


def language_name(code: str) -> str:
    """A display name for a ``<lang>-<REGION>`` code: the reference's for common codes, else derived
    from ISO 639 (bibliographic codes such as ``ger`` first, as eZ codes use them) and ISO 3166."""
    if code in KNOWN_NAMES:
        return KNOWN_NAMES[code]
    lang, _, region = check_language_code(code).partition("-")
    language = pycountry.languages.get(bibliographic=lang) or pycountry.languages.get(alpha_3=lang)
    country = pycountry.countries.get(alpha_2=region)
    if language is None:
        return code
    if country is None:
        return str(language.name)
    return f"{language.name} ({getattr(country, 'common_name', None) or country.name})"


def languages_to_install(codes: Iterable[str]) -> list[Language]:
    """The language rows of a new repository: eng-GB with id 2, then the given codes with 4, 8, ..."""
    result: list[Language] = []
    for code in installation_order(codes):
        language_id = next_language_id(language.id for language in result)
        result.append(Language(language_id, code, language_name(code), True))
    return result


class LanguageService:
    def __init__(self, store: Store) -> None:
        self.store = store

    def list(self, viewer: User) -> list[Language]:
        with self.store.read(caller=viewer.request) as tx:
            return tx.languages.list()

    def load(self, viewer: User, code: str) -> Language:
        with self.store.read(caller=viewer.request) as tx:
            language = tx.languages.by_code(code)
        if language is None:
            raise NotFound.of("Language", code)
        return language

    def add(self, code: str, name: str | None = None) -> Language:
        """Install one more language (operator command; not exposed over HTTP)."""
        check_language_code(code)
        name = (name or "").strip() or language_name(code)
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidArgument(f"Language name is longer than {MAX_NAME_LENGTH} characters")
        with self.store.write() as tx:
            existing = tx.languages.list()
            if any(language.language_code == code for language in existing):
                raise Forbidden(f"Language '{code}' is already installed")
            language = Language(next_language_id(lang.id for lang in existing), code, name, True)
            tx.languages.create(language)
        return language
