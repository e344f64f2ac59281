"""Helpers of the content functional tests: ContentCreate / VersionUpdate bodies in JSON and XML,
creating and publishing items, and reading them back."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

import httpx
import orjson

from pressroom.services.language import LanguageService
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.helpers import PREFIX, Api, media

FOLDER = 1
ARTICLE = 2
USER_GROUP = 3
USER = 4
ROOT = "1/2"  # the content tree root location
INTRO = (
    '<?xml version="1.0" encoding="UTF-8"?><section xmlns="http://docbook.org/ns/docbook" '
    'version="5.0-variant ezpublish-1.0"><para>Intro</para></section>'
)


def field(identifier: str, value: Any, language: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"fieldDefinitionIdentifier": identifier, "fieldValue": value}
    if language:
        item["languageCode"] = language
    return item


def _xml_value(value: Any) -> str:
    if isinstance(value, dict):
        return "".join(f'<value key="{escape(k)}">{_xml_value(v)}</value>' for k, v in value.items())
    if isinstance(value, list):
        return "".join(f"<value>{_xml_value(v)}</value>" for v in value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return escape(str(value))


def _xml_element(name: str, value: Any) -> str:
    if name == "fieldValue":
        return f"<fieldValue>{_xml_value(value)}</fieldValue>"
    if isinstance(value, dict):
        attrs = "".join(f' {k[1:]}="{escape(str(v))}"' for k, v in value.items() if k.startswith("_"))
        inner = "".join(_xml_element(k, v) for k, v in value.items() if not k.startswith("_"))
        return f"<{name}{attrs}>{inner}</{name}>"
    if isinstance(value, list):
        return "".join(_xml_element(name, item) for item in value)
    if isinstance(value, bool):
        return f"<{name}>{'true' if value else 'false'}</{name}>"
    return f"<{name}>{escape(str(value))}</{name}>"


def encode(root: str, data: dict[str, Any], fmt: str) -> str:
    """A request body: ``{root: data}`` in JSON, or the same tree in XML."""
    if fmt == "json":
        return orjson.dumps({root: data}).decode()
    return _xml_element(root, data)


def content_create(
    fields: list[dict[str, Any]],
    *,
    type_id: int = FOLDER,
    parent: str | None = ROOT,
    language: str = "eng-GB",
    prefix: str = PREFIX,
    **extra: Any,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ContentType": {"_href": f"{prefix}/content/types/{type_id}"},
        "mainLanguageCode": language,
    }
    if parent is not None:
        data["LocationCreate"] = {
            "ParentLocation": {"_href": f"{prefix}/content/locations/{parent}"},
            "priority": 0,
            "hidden": False,
            "sortField": "PATH",
            "sortOrder": "ASC",
        }
    data.update(extra)
    data["fields"] = {"field": fields}
    return data


def post_content(
    api: Api, data: dict[str, Any], fmt: str = "json", accept: str = "ContentInfo", vendor: str = "ibexa"
) -> httpx.Response:
    return api.post(
        "/content/objects",
        body=encode("ContentCreate", data, fmt),
        content_type=media("ContentCreate", fmt, vendor),
        accept=media(accept, fmt, vendor),
    )


def create_folder(
    api: Api, name: str = "A folder", parent: str | None = ROOT, **extra: Any
) -> dict[str, Any]:
    """A draft folder; returns its ContentInfo (JSON)."""
    response = post_content(api, content_create([field("name", name)], parent=parent, **extra))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()["Content"]
    return body


def publish(api: Api, content_id: int, version_no: int = 1) -> None:
    response = api.request("PUBLISH", f"/content/objects/{content_id}/versions/{version_no}")
    assert response.status_code == 204, response.text


def published_folder(api: Api, name: str = "A folder", parent: str = ROOT, **extra: Any) -> dict[str, Any]:
    """A published folder; returns its ContentInfo after publishing."""
    created = create_folder(api, name, parent, **extra)
    publish(api, created["_id"])
    return content_info(api, created["_id"])


def content_info(api: Api, content_id: int) -> dict[str, Any]:
    response = api.get(f"/content/objects/{content_id}", accept=media("ContentInfo"))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()["Content"]
    return body


def version(api: Api, content_id: int, version_no: int, query: str = "") -> dict[str, Any]:
    response = api.get(f"/content/objects/{content_id}/versions/{version_no}{query}", accept=media("Version"))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()["Version"]
    return body


def field_values(version_body: dict[str, Any]) -> dict[tuple[str, str], Any]:
    """``{(identifier, language): fieldValue}`` of a Version body."""
    return {
        (f["fieldDefinitionIdentifier"], f["languageCode"]): f["fieldValue"]
        for f in version_body["Fields"]["field"]
    }


def main_location_path(info: dict[str, Any]) -> str:
    """``"1/2/54"`` from a ContentInfo's MainLocation href."""
    href: str = info["MainLocation"]["_href"]
    return href.split("/content/locations/", 1)[1]


def new_draft(api: Api, content_id: int) -> int:
    response = api.request("COPY", f"/content/objects/{content_id}/currentversion", accept=media("Version"))
    assert response.status_code == 201, response.text
    number: int = response.json()["Version"]["VersionInfo"]["versionNo"]
    return number


def update_version(
    api: Api, content_id: int, version_no: int, fields: list[dict[str, Any]], fmt: str = "json", **extra: Any
) -> httpx.Response:
    data = {**extra, "fields": {"field": fields}}
    return api.patch(
        f"/content/objects/{content_id}/versions/{version_no}",
        body=encode("VersionUpdate", data, fmt),
        content_type=media("VersionUpdate", fmt),
        accept=media("Version", fmt),
    )


def install_language(database_url: str, code: str = "ger-DE") -> None:
    """Install one more language the way `pressroom add-language` does (not possible over HTTP)."""
    engine = make_engine(database_url)
    try:
        LanguageService(SqlStore(engine)).add(code)
    finally:
        engine.dispose()
