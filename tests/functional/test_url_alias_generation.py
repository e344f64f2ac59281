"""Aliases generated per language and from a type's URL alias schema (the Ibexa urlAliasSchema)."""

from __future__ import annotations

from typing import Any

from tests.functional.content_support import (
    content_create,
    field,
    main_location_path,
    post_content,
    publish,
)
from tests.functional.content_types_support import field as definition
from tests.functional.content_types_support import new_type
from tests.functional.support import unique
from tests.functional.url_alias_support import alias, alias_refs, md5, redirects_to
from tests.helpers import Api, media


def published(api: Api, fields: list[dict[str, Any]], **kwargs: Any) -> str:
    """Create and publish an item; its main location path."""
    response = post_content(api, content_create(fields, **kwargs))
    assert response.status_code == 201, response.text
    content_id = response.json()["Content"]["_id"]
    publish(api, content_id)
    info = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo")).json()["Content"]
    return main_location_path(info)


def test_one_alias_per_language(api: Api, german: str) -> None:
    house = unique("House")
    path = published(api, [field("name", house), field("name", f"{house} Haus", german)])
    refs = alias_refs(api, path)
    assert sorted(refs) == sorted([f"0-{md5(house)}", f"0-{md5(house + '-Haus')}"])
    english, deutsch = alias(api, f"0-{md5(house)}"), alias(api, f"0-{md5(house + '-Haus')}")
    assert (english["languageCodes"], english["path"]) == ("eng-GB", f"/{house}")
    assert (deutsch["languageCodes"], deutsch["path"]) == ("ger-DE", f"/{house}-Haus")
    assert (english["alwaysAvailable"], deutsch["alwaysAvailable"]) == (True, False)
    redirects_to(api, f"/{house}-haus", path)


def test_the_same_text_in_two_languages_is_one_alias(api: Api, german: str) -> None:
    name = unique("Same")
    path = published(api, [field("name", name), field("name", name, german)])
    assert alias_refs(api, path) == [f"0-{md5(name)}"]
    assert alias(api, f"0-{md5(name)}")["languageCodes"] == "eng-GB,ger-DE"


def test_removing_a_translation_retires_its_alias(api: Api, german: str) -> None:
    name = unique("Pair")
    response = post_content(api, content_create([field("name", name), field("name", f"{name}-de", german)]))
    content_id = response.json()["Content"]["_id"]
    publish(api, content_id)
    path = main_location_path(
        api.get(f"/content/objects/{content_id}", accept=media("ContentInfo")).json()["Content"]
    )
    assert api.delete(f"/content/objects/{content_id}/translations/{german}").status_code == 204
    assert alias_refs(api, path) == [f"0-{md5(name)}"]
    assert alias(api, f"0-{md5(name + '-de')}")["isHistory"] is True
    redirects_to(api, f"/{name}-de", path)


def test_the_url_alias_schema_names_the_segment(api: Api) -> None:
    content_type = new_type(
        api,
        fields=[definition("title"), definition("slug")],
        nameSchema="<title>",
        urlAliasSchema="<slug|title>",
    )
    slug = unique("short")
    with_slug = published(
        api, [field("title", "A long title"), field("slug", slug)], type_id=content_type["id"]
    )
    assert alias(api, alias_refs(api, with_slug)[0])["path"] == f"/{slug}"
    title = unique("Only title")
    without = published(api, [field("title", title)], type_id=content_type["id"])
    assert alias(api, alias_refs(api, without)[0])["path"] == "/" + title.replace(" ", "-")
