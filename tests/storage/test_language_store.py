"""Adding languages (install.md §1: ids are bit flags 2, 4, 8, ...), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pressroom.domain.errors import Forbidden, InvalidArgument
from pressroom.domain.language import Language
from pressroom.domain.user import User
from pressroom.services.language import LanguageService
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore

ENG_GB = Language(2, "eng-GB", "English (United Kingdom)", True)
VIEWER = User(14, "admin", "admin@link.invalid", True)  # no request: the list is read without one


@pytest.fixture
def service(database_url: str) -> Iterator[LanguageService]:
    engine = make_engine(database_url)
    yield LanguageService(SqlStore(engine))
    engine.dispose()


def test_added_languages_take_the_next_bit(service: LanguageService) -> None:
    polish = service.add("pol-PL")
    german = service.add("ger-DE", "Deutsch")
    assert polish == Language(4, "pol-PL", "Polish (polski)", True)
    assert german == Language(8, "ger-DE", "Deutsch", True)
    assert service.list(VIEWER) == [ENG_GB, polish, german]
    assert service.load(VIEWER, "pol-PL") == polish


def test_an_installed_language_is_not_added_twice(service: LanguageService) -> None:
    service.add("pol-PL")
    with pytest.raises(Forbidden, match="'pol-PL' is already installed"):
        service.add("pol-PL", "Polish")
    assert [language.language_code for language in service.list(VIEWER)] == ["eng-GB", "pol-PL"]


@pytest.mark.parametrize("code", ["pl", "pol_PL", "POL-pl", "pol-PL'; --", ""])
def test_a_malformed_code_is_refused(service: LanguageService, code: str) -> None:
    with pytest.raises(InvalidArgument, match="expected the form 'pol-PL'"):
        service.add(code)
    assert service.list(VIEWER) == [ENG_GB]


def test_a_name_longer_than_the_column_is_refused(service: LanguageService) -> None:
    with pytest.raises(InvalidArgument, match="longer than 255"):
        service.add("pol-PL", "x" * 256)
    assert service.list(VIEWER) == [ENG_GB]
