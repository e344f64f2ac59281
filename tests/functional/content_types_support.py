"""Helpers for the content model tests: input bodies, creating types and drafts, reading them back."""

from __future__ import annotations

from typing import Any

import httpx

from tests.functional.support import unique
from tests.helpers import Api, media


def names(text: str, language: str = "eng-GB") -> dict[str, Any]:
    return {"value": [{"_languageCode": language, "#text": text}]}


def field(identifier: str, field_type: str = "ezstring", **extra: Any) -> dict[str, Any]:
    """A FieldDefinitionCreate body (the inner object)."""
    return {"identifier": identifier, "fieldType": field_type, "names": names(identifier.title()), **extra}


def type_create(
    identifier: str | None = None, fields: list[dict[str, Any]] | None = None, **extra: Any
) -> Any:
    """A ContentTypeCreate body with a title field and ``nameSchema`` ``<title>`` unless told otherwise."""
    body: dict[str, Any] = {
        "identifier": identifier or unique("type"),
        "mainLanguageCode": "eng-GB",
        "names": names("A type"),
        "nameSchema": "<title>",
        "FieldDefinitions": {"FieldDefinition": [field("title")] if fields is None else fields},
        **extra,
    }
    return {"ContentTypeCreate": body}


def create_type(
    api: Api, body: Any, group: int = 1, *, publish: str | None = None, vendor: str = "ibexa"
) -> httpx.Response:
    """POST /content/typegroups/{group}/types; JSON in and out."""
    query = "" if publish is None else f"?publish={publish}"
    return api.post(
        f"/content/typegroups/{group}/types{query}",
        body=body,
        content_type=media("ContentTypeCreate", vendor=vendor),
        accept=media("ContentType", vendor=vendor),
    )


def new_type(api: Api, *, publish: bool = True, **kwargs: Any) -> dict[str, Any]:
    """Create a type (published unless told otherwise) and return its ContentType body."""
    response = create_type(api, type_create(**kwargs), publish="true" if publish else None)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()["ContentType"]
    return created


def new_draft(api: Api, type_id: int, update: dict[str, Any] | None = None) -> httpx.Response:
    """POST /content/types/{id} with a ContentTypeUpdate: a draft of a defined type."""
    return api.post(
        f"/content/types/{type_id}",
        body={"ContentTypeUpdate": update or {}},
        content_type=media("ContentTypeUpdate"),
        accept=media("ContentType"),
    )


def get_json(api: Api, path: str, name: str) -> Any:
    """GET with Accept ``name`` (JSON); asserts 200 and returns the body under the root key."""
    response = api.get(path, accept=media(name))
    assert response.status_code == 200, response.text
    root = next(iter(response.json()))
    return response.json()[root]


def status_of(api: Api, path: str) -> int:
    return api.get(path, accept=media("ContentType")).status_code


def type_ids(api: Api, query: str = "") -> list[int]:
    return [t["id"] for t in get_json(api, f"/content/types{query}", "ContentTypeInfoList")["ContentType"]]


def publish(api: Api, type_id: int, **kwargs: Any) -> Any:
    return api.request("PUBLISH", f"/content/types/{type_id}/draft", accept=media("ContentType"), **kwargs)
