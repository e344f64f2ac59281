"""Languages (install.md §1) and the country list (shapes-users.md §13, service-description.md)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.functional.support import error_message
from tests.helpers import EZ_PREFIX, PREFIX, Api, media, xml

ENG_GB = {
    "_media-type": media("Language"),
    "_href": f"{PREFIX}/languages/eng-GB",
    "languageId": 2,
    "languageCode": "eng-GB",
    "name": "English (United Kingdom)",
}


def countries(api: Api) -> list[dict[str, Any]]:
    response = api.get("/services/countries", accept=media("CountryList"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("CountryList")
    body = response.json()["CountryList"]
    assert body["_media-type"] == media("CountryList")
    assert "_href" not in body
    entries: list[dict[str, Any]] = body["Country"]
    return entries


# -- languages ---------------------------------------------------------------------------------------


def test_language_list(api: Api) -> None:
    response = api.get("/languages", accept=media("LanguageList"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("LanguageList")
    assert response.json() == {
        "LanguageList": {
            "_media-type": media("LanguageList"),
            "_href": f"{PREFIX}/languages",
            "Language": [ENG_GB],
        }
    }


def test_language_load(api: Api) -> None:
    response = api.get("/languages/eng-GB", accept=media("Language"))
    assert response.status_code == 200
    assert response.headers["content-type"] == media("Language")
    assert response.headers["etag"]
    assert response.json() == {"Language": ENG_GB}


def test_language_load_in_xml_and_the_ez_dialect(client: TestClient) -> None:
    response = Api(client, EZ_PREFIX).get("/languages/eng-GB", accept=media("Language", "xml", "ez"))
    root = xml(response)
    assert root.get("href") == f"{EZ_PREFIX}/languages/eng-GB"
    assert root.get("media-type") == media("Language", "xml", "ez")
    assert [(child.tag, child.text) for child in root] == [
        ("languageId", "2"),
        ("languageCode", "eng-GB"),
        ("name", "English (United Kingdom)"),
    ]


@pytest.mark.parametrize("code", ["fre-FR", "eng-gb", "xxx"])
def test_unknown_language_is_404(api: Api, code: str) -> None:
    response = api.get(f"/languages/{code}", accept=media("Language"))
    assert (
        error_message(response, 404)["errorDescription"]
        == f"Could not find 'Language' with identifier '{code}'"
    )


# -- countries ---------------------------------------------------------------------------------------


def test_country_list_has_every_iso_country_in_name_order(api: Api) -> None:
    entries = countries(api)
    assert len(entries) == 249
    assert [c["Alpha2"] for c in entries[:5]] == ["AF", "AX", "AL", "DZ", "AS"]
    assert entries[0] == {
        "_media-type": media("Country"),
        "_id": "AF",
        "name": "Afghanistan",
        "Alpha2": "AF",
        "Alpha3": "AFG",
        "Numeric": "004",
        "IDC": "93",
    }
    assert entries[1]["name"] == "Åland Islands"
    assert len({c["Alpha2"] for c in entries}) == 249


@pytest.mark.parametrize(
    ("alpha2", "alpha3", "numeric", "idc", "name"),
    [
        ("NO", "NOR", "578", "47", "Norway"),
        ("DE", "DEU", "276", "49", "Germany"),
        ("US", "USA", "840", "1", "United States"),
        ("GB", "GBR", "826", "44", "United Kingdom"),
        ("JP", "JPN", "392", "81", "Japan"),
    ],
)
def test_country_codes(api: Api, alpha2: str, alpha3: str, numeric: str, idc: str, name: str) -> None:
    by_code = {c["_id"]: c for c in countries(api)}
    assert by_code[alpha2] == {
        "_media-type": media("Country"),
        "_id": alpha2,
        "name": name,
        "Alpha2": alpha2,
        "Alpha3": alpha3,
        "Numeric": numeric,
        "IDC": idc,
    }


def test_country_values_are_strings(api: Api) -> None:
    for country in countries(api):
        for key in ("_id", "name", "Alpha2", "Alpha3", "Numeric", "IDC"):
            assert isinstance(country[key], str), (country, key)
        assert country["_id"] == country["Alpha2"]
        assert len(country["Alpha3"]) == 3
        assert country["IDC"] == "" or country["IDC"].isdigit()


def test_country_list_in_xml(api: Api) -> None:
    response = api.get("/services/countries", accept=media("CountryList", "xml"))
    assert response.headers["content-type"] == media("CountryList", "xml")
    root = xml(response)
    assert root.tag == "CountryList"
    assert root.get("href") is None
    entries = root.findall("Country")
    assert len(entries) == 249
    norway = next(c for c in entries if c.get("id") == "NO")
    assert norway.get("media-type") == media("Country", "xml")
    assert [(child.tag, child.text) for child in norway] == [
        ("name", "Norway"),
        ("Alpha2", "NO"),
        ("Alpha3", "NOR"),
        ("Numeric", "578"),
        ("IDC", "47"),
    ]


def test_country_list_needs_no_credentials(client: TestClient) -> None:
    response = Api(client, EZ_PREFIX, auth=None).get("/services/countries", accept="application/json")
    assert response.status_code == 200
    assert response.headers["content-type"] == media("CountryList", vendor="ez")
    assert len(response.json()["CountryList"]["Country"]) == 249
