"""Translations over HTTP: multilingual create and edit, ?languages filters, and deleting a translation
from an item or from a draft (service-description.md content endpoints: 403, 406, 409)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.functional.content_support import (
    ARTICLE,
    INTRO,
    USER_GROUP,
    content_create,
    content_info,
    field,
    field_values,
    new_draft,
    post_content,
    publish,
    update_version,
    version,
)
from tests.functional.support import error_message
from tests.helpers import PREFIX, Api, media, xml


def bilingual(api: Api, name: str = "House", german_name: str = "Haus") -> dict[str, Any]:
    data = content_create([field("name", name), field("name", german_name, "ger-DE")])
    response = post_content(api, data)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()["Content"]
    return body


def translations(api: Api, content_id: int, version_no: int) -> list[dict[str, Any]]:
    info = version(api, content_id, version_no)["VersionInfo"]
    languages: list[dict[str, Any]] = info["VersionTranslationInfo"]["Language"]
    return languages


def test_create_in_two_languages(api: Api, german: str) -> None:
    info = bilingual(api)
    body = version(api, info["_id"], 1)
    assert body["VersionInfo"]["languageCodes"] == "eng-GB,ger-DE"
    assert body["VersionInfo"]["names"]["value"] == [
        {"_languageCode": "eng-GB", "#text": "House"},
        {"_languageCode": "ger-DE", "#text": "Haus"},
    ]
    values = field_values(body)
    assert (values[("name", "eng-GB")], values[("name", "ger-DE")]) == ("House", "Haus")
    languages = translations(api, info["_id"], 1)
    assert languages[0] == {"languageCode": "eng-GB"}
    assert languages[1]["DeleteTranslation"]["_href"] == (
        f"{PREFIX}/content/objects/{info['_id']}/versions/1/translations/ger-DE"
    )


def test_languages_filter_on_content_and_version(api: Api, german: str) -> None:
    info = bilingual(api)
    response = api.get(f"/content/objects/{info['_id']}?languages=ger-DE", accept=media("Content"))
    content = response.json()["Content"]
    assert content["Name"] == "House" and content["TranslatedName"] == "Haus"
    fields = content["CurrentVersion"]["Version"]["Fields"]["field"]
    assert {f["languageCode"] for f in fields} == {"ger-DE"}
    filtered = version(api, info["_id"], 1, "?languages=eng-GB")
    assert {f["languageCode"] for f in filtered["Fields"]["field"]} == {"eng-GB"}


def test_non_translatable_field_in_another_language_is_400(api: Api, german: str) -> None:
    data = content_create(
        [
            field("title", "Story"),
            field("intro", {"xml": INTRO}),
            field("title", "Geschichte", "ger-DE"),
            field("intro", {"xml": INTRO}, "ger-DE"),
            field("enable_comments", True, "ger-DE"),
        ],
        type_id=ARTICLE,
    )
    response = post_content(api, data)
    error_message(response, 400)
    [detail] = response.json()["ErrorMessage"]["errorDetails"]["fields"]
    assert (detail["_fieldIdentifier"], detail["errors"][0]["type"]) == ("enable_comments", "NotTranslatable")


def test_non_translatable_value_is_shared_by_every_language(api: Api, german: str) -> None:
    data = content_create(
        [
            field("title", "Story"),
            field("intro", {"xml": INTRO}),
            field("enable_comments", True),
            field("title", "Geschichte", "ger-DE"),
            field("intro", {"xml": INTRO}, "ger-DE"),
        ],
        type_id=ARTICLE,
    )
    info = post_content(api, data).json()["Content"]
    values = field_values(version(api, info["_id"], 1))
    assert values[("enable_comments", "eng-GB")] is True and values[("enable_comments", "ger-DE")] is True


def test_a_new_translation_needs_its_required_fields(api: Api, german: str) -> None:
    data = content_create([field("name", "English only")], type_id=USER_GROUP, parent="1/5")
    draft = post_content(api, data).json()["Content"]  # the name of a user group has no default value
    response = update_version(api, draft["_id"], 1, [field("description", "Kurz", "ger-DE")])
    error_message(response, 400)
    [detail] = response.json()["ErrorMessage"]["errorDetails"]["fields"]
    assert (detail["_fieldIdentifier"], detail["_languageCode"]) == ("name", "ger-DE")
    added = update_version(api, draft["_id"], 1, [field("name", "Nur Englisch", "ger-DE")])
    assert added.status_code == 200
    assert added.json()["Version"]["VersionInfo"]["languageCodes"] == "eng-GB,ger-DE"


def test_edit_with_initial_language_code(api: Api, german: str) -> None:
    info = bilingual(api)
    response = update_version(api, info["_id"], 1, [field("name", "Gebäude")], initialLanguageCode="ger-DE")
    assert response.status_code == 200
    body = response.json()["Version"]
    assert body["VersionInfo"]["initialLanguageCode"] == "ger-DE"
    assert field_values(body)[("name", "ger-DE")] == "Gebäude"
    assert field_values(body)[("name", "eng-GB")] == "House"


# -- delete a translation from a draft ---------------------------------------------------------------


def test_delete_translation_from_a_draft(api: Api, german: str) -> None:
    info = bilingual(api)
    path = f"/content/objects/{info['_id']}/versions/1/translations"
    assert api.delete(f"{path}/ger-DE").status_code == 204
    body = version(api, info["_id"], 1)
    assert body["VersionInfo"]["languageCodes"] == "eng-GB"
    assert {f["languageCode"] for f in body["Fields"]["field"]} == {"eng-GB"}
    error_message(api.delete(f"{path}/ger-DE", accept=media("Version")), 406)
    error_message(api.delete(f"{path}/eng-GB", accept=media("Version")), 409)


def test_delete_translation_from_a_published_version_is_403(api: Api, german: str) -> None:
    info = bilingual(api)
    publish(api, info["_id"])
    response = api.delete(
        f"/content/objects/{info['_id']}/versions/1/translations/ger-DE", accept=media("Version")
    )
    error_message(response, 403)


# -- delete a translation from the item --------------------------------------------------------------


def test_delete_translation_from_every_version(api: Api, german: str) -> None:
    info = bilingual(api)
    publish(api, info["_id"])
    draft = new_draft(api, info["_id"])
    assert api.delete(f"/content/objects/{info['_id']}/translations/ger-DE").status_code == 204
    for number in (1, draft):
        assert version(api, info["_id"], number)["VersionInfo"]["languageCodes"] == "eng-GB"
    response = api.delete(f"/content/objects/{info['_id']}/translations/ger-DE", accept=media("ContentInfo"))
    error_message(response, 406)


def test_delete_the_main_translation_is_409(api: Api, german: str) -> None:
    info = bilingual(api)
    response = api.delete(
        f"/content/objects/{info['_id']}/translations/eng-GB", accept=media("ContentInfo", "xml")
    )
    error_message(response, 409, "xml")
    assert xml(response).findtext("errorCode") == "409"


def set_main_language(api: Api, content_id: int, code: str) -> None:
    response = api.patch(
        f"/content/objects/{content_id}",
        body={"ContentUpdate": {"mainLanguageCode": code}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
    )
    assert response.status_code == 200, response.text


def version_numbers(api: Api, content_id: int) -> list[int]:
    response = api.get(f"/content/objects/{content_id}/versions", accept=media("VersionList"))
    return [item["VersionInfo"]["versionNo"] for item in response.json()["VersionList"]["VersionItem"]]


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_deleting_a_translation_deletes_the_versions_that_have_only_it(
    api: Api, german: str, fmt: str
) -> None:
    """An archived version 1 in eng-GB only, after ger-DE became the main language: deleting eng-GB
    from the item deletes version 1 (204), as the reference does."""
    english = post_content(api, content_create([field("name", "House")])).json()["Content"]
    content_id = english["_id"]
    publish(api, content_id)
    draft = new_draft(api, content_id)
    assert update_version(api, content_id, draft, [field("name", "Haus", "ger-DE")]).status_code == 200
    publish(api, content_id, draft)
    set_main_language(api, content_id, "ger-DE")
    assert version(api, content_id, 1)["VersionInfo"]["languageCodes"] == "eng-GB"
    response = api.delete(
        f"/content/objects/{content_id}/translations/eng-GB", accept=media("ContentInfo", fmt)
    )
    assert response.status_code == 204, response.text
    assert response.content == b""
    assert version_numbers(api, content_id) == [draft]
    error_message(api.get(f"/content/objects/{content_id}/versions/1", accept=media("Version")), 404)
    current = version(api, content_id, draft)
    assert current["VersionInfo"]["languageCodes"] == "ger-DE"
    assert {f["languageCode"] for f in current["Fields"]["field"]} == {"ger-DE"}
    # the main translation of the item stays undeletable
    main = api.delete(f"/content/objects/{content_id}/translations/ger-DE", accept=media("ContentInfo", fmt))
    assert error_message(main, 409, fmt)["errorDescription"] == (
        f"'ger-DE' is the main translation of content {content_id}"
    )


def test_the_only_translation_of_a_draft_goes_with_its_draft(api: Api, german: str) -> None:
    info = bilingual(api)
    publish(api, info["_id"])
    draft = new_draft(api, info["_id"])
    set_main_language(api, info["_id"], "ger-DE")
    assert (
        api.delete(f"/content/objects/{info['_id']}/versions/{draft}/translations/eng-GB").status_code == 204
    )
    set_main_language(api, info["_id"], "eng-GB")
    assert api.delete(f"/content/objects/{info['_id']}/translations/ger-DE").status_code == 204
    assert version_numbers(api, info["_id"]) == [1]
    assert content_info(api, info["_id"])["mainLanguageCode"] == "eng-GB"
    assert version(api, info["_id"], 1)["VersionInfo"]["languageCodes"] == "eng-GB"


def test_deleting_a_translation_drops_the_relations_only_it_held(api: Api, german: str) -> None:
    linked = (
        '<section xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'version="5.0-variant ezpublish-1.0"><para><link xlink:href="ezcontent://41">Medien</link></para></section>'
    )
    data = content_create(
        [
            field("title", "Story"),
            field("intro", {"xml": INTRO}),
            field("title", "Geschichte", "ger-DE"),
            field("intro", {"xml": linked}, "ger-DE"),
        ],
        type_id=ARTICLE,
    )
    draft = post_content(api, data).json()["Content"]
    path = f"/content/objects/{draft['_id']}/versions/1"
    [link] = version(api, draft["_id"], 1)["Relations"]["Relation"]
    assert (link["RelationType"], link["DestinationContent"]["_href"]) == (
        "LINK",
        f"{PREFIX}/content/objects/41",
    )
    assert api.delete(f"{path}/translations/ger-DE").status_code == 204
    assert version(api, draft["_id"], 1)["Relations"]["Relation"] == []
