"""Installed languages are the operator's choice (issue 13, item 4): ``pressroom init --languages``,
``PRESSROOM_LANGUAGES`` and ``pressroom add-language``, then read and used over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.cli import main
from tests.conftest import make_settings
from tests.functional.content_support import content_create, field, field_values, post_content, version
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'repository.db'}"


def open_api(url: str, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(url, tmp_path), initialise_empty=False)) as client:
        yield client


def languages(client: TestClient) -> list[dict[str, Any]]:
    response = Api(client).get("/languages", accept=media("LanguageList"))
    assert response.status_code == 200
    found: list[dict[str, Any]] = response.json()["LanguageList"]["Language"]
    return found


def language(code: str, language_id: int, name: str) -> Any:
    return {
        "_media-type": media("Language"),
        "_href": f"{PREFIX}/languages/{code}",
        "languageId": language_id,
        "languageCode": code,
        "name": name,
    }


def test_init_installs_the_languages_named(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "--database-url", url, "--languages", "eng-GB,pol-PL"]) == 0
    for client in open_api(url, tmp_path):
        assert languages(client) == [
            language("eng-GB", 2, "English (United Kingdom)"),
            language("pol-PL", 4, "Polish (polski)"),
        ]
        # a client adds a Polish translation to an item
        data = content_create([field("name", "House"), field("name", "Dom", "pol-PL")])
        created = post_content(Api(client), data)
        assert created.status_code == 201, created.text
        body = version(Api(client), created.json()["Content"]["_id"], 1)
        assert body["VersionInfo"]["languageCodes"] == "eng-GB,pol-PL"
        assert field_values(body)[("name", "pol-PL")] == "Dom"


def test_the_languages_setting_is_used_by_init(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRESSROOM_LANGUAGES", "ger-DE, fre-FR")
    assert main(["init", "--database-url", url]) == 0
    for client in open_api(url, tmp_path):
        assert [(lang["languageCode"], lang["languageId"]) for lang in languages(client)] == [
            ("eng-GB", 2),
            ("ger-DE", 4),
            ("fre-FR", 8),
        ]


def test_init_refuses_a_malformed_code(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "--database-url", url, "--languages", "eng-GB,polish"]) == 2
    assert "Invalid language code 'polish'" in capsys.readouterr().err
    assert main(["add-language", "pol-PL", "--database-url", url]) == 2  # nothing was installed
    assert "not initialised" in capsys.readouterr().err


def test_add_language_to_an_existing_repository(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "--database-url", url]) == 0
    assert main(["add-language", "pol-PL", "--database-url", url]) == 0
    assert "pol-PL 'Polish (polski)' installed with id 4" in capsys.readouterr().out
    assert main(["add-language", "ita-IT", "--name", "Italiano", "--database-url", url]) == 0
    assert main(["add-language", "pol-PL", "--database-url", url]) == 2
    assert "'pol-PL' is already installed" in capsys.readouterr().err
    for client in open_api(url, tmp_path):
        assert languages(client) == [
            language("eng-GB", 2, "English (United Kingdom)"),
            language("pol-PL", 4, "Polish (polski)"),
            language("ita-IT", 8, "Italiano"),
        ]
        response = Api(client, EZ_PREFIX).get("/languages/ita-IT", accept=media("Language", "xml", "ez"))
        root = xml(response)
        assert root.tag == "Language"
        assert root.get("href") == f"{EZ_PREFIX}/languages/ita-IT"
        assert [(child.tag, child.text) for child in root] == [
            ("languageId", "8"),
            ("languageCode", "ita-IT"),
            ("name", "Italiano"),
        ]
