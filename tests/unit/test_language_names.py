"""Language codes, ids and names of installed languages (domain.language, services.language)."""

from __future__ import annotations

import pytest

from pressroom.domain.errors import Forbidden
from pressroom.domain.language import MAX_LANGUAGE_ID, installation_order, next_language_id
from pressroom.services.language import language_name, languages_to_install


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("eng-GB", "English (United Kingdom)"),
        ("eng-US", "English (American)"),
        ("pol-PL", "Polish (polski)"),
        ("ger-DE", "German"),
        ("eng-AU", "English (Australia)"),
        ("ger-AT", "German (Austria)"),  # the bibliographic ISO 639-2 code eZ uses
        ("cze-CZ", "Czech (Czechia)"),
        ("ita-IT", "Italian (Italy)"),
        ("por-BR", "Portuguese (Brazil)"),
        ("ita-XX", "Italian"),  # no such country
        ("qqq-PL", "qqq-PL"),  # no such language
    ],
)
def test_names(code: str, name: str) -> None:
    assert language_name(code) == name


def test_ids_are_the_next_bit() -> None:
    assert next_language_id([]) == 2
    assert next_language_id([2]) == 4
    assert next_language_id([2, 4, 8]) == 16
    assert next_language_id([2, 16]) == 32  # after the highest, as the reference does, gaps stay
    with pytest.raises(Forbidden, match="Maximum number of languages"):
        next_language_id([MAX_LANGUAGE_ID])


def test_an_install_starts_with_eng_gb_once() -> None:
    assert installation_order(["pol-PL", "eng-GB", "pol-PL", "ger-DE"]) == ["eng-GB", "pol-PL", "ger-DE"]
    installed = languages_to_install(["pol-PL", "fre-FR"])
    assert [(lang.id, lang.language_code) for lang in installed] == [
        (2, "eng-GB"),
        (4, "pol-PL"),
        (8, "fre-FR"),
    ]
    assert installed[2].name == "French (France)"
