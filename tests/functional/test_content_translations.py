"""Translations over HTTP: multilingual create and edit, ?languages filters, and deleting a translation
from an item or from a draft (service-description.md content endpoints: 403, 406, 409)."""

from __future__ import annotations

from typing import Any

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


def test_delete_the_only_translation_of_a_version_is_409(api: Api, german: str) -> None:
    info = bilingual(api)
    publish(api, info["_id"])
    draft = new_draft(api, info["_id"])
    to_german = api.patch(
        f"/content/objects/{info['_id']}",
        body={"ContentUpdate": {"mainLanguageCode": "ger-DE"}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
    )
    assert to_german.status_code == 200
    assert (
        api.delete(f"/content/objects/{info['_id']}/versions/{draft}/translations/eng-GB").status_code == 204
    )
    back = api.patch(
        f"/content/objects/{info['_id']}",
        body={"ContentUpdate": {"mainLanguageCode": "eng-GB"}},
        content_type=media("ContentUpdate"),
        accept=media("ContentInfo"),
    )
    assert back.status_code == 200
    response = api.delete(f"/content/objects/{info['_id']}/translations/ger-DE", accept=media("ContentInfo"))
    error_message(response, 409)
    assert content_info(api, info["_id"])["mainLanguageCode"] == "eng-GB"
    assert version(api, info["_id"], 1)["VersionInfo"]["languageCodes"] == "eng-GB,ger-DE"
