"""Helpers of the URL alias and wildcard functional tests: reading aliases and following lookups."""

from __future__ import annotations

import hashlib
from typing import Any

from tests.helpers import PREFIX, Api, media


def md5(text: str) -> str:
    return hashlib.md5(text.lower().encode(), usedforsecurity=False).hexdigest()


def alias_refs(api: Api, path: str, query: str = "?custom=false") -> list[str]:
    """The alias ids listed for the location at ``path``."""
    response = api.get(f"/content/locations/{path}/urlaliases{query}", accept=media("UrlAliasRefList"))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media("UrlAliasRefList")
    body = response.json()["UrlAliasRefList"]
    assert body["_href"] == f"{PREFIX}/content/locations/{path}/urlaliases"
    return [ref["_href"].rsplit("/", 1)[1] for ref in body["UrlAlias"]]


def alias(api: Api, alias_id: str) -> dict[str, Any]:
    response = api.get(f"/content/urlaliases/{alias_id}", accept=media("UrlAlias"))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()["UrlAlias"]
    return body


def lookup(api: Api, url: str) -> Any:
    return api.get(
        "/content/locations", params={"urlAlias": url}, accept=media("Location"), follow_redirects=False
    )


def redirects_to(api: Api, url: str, path: str) -> None:
    response = lookup(api, url)
    assert response.status_code == 307, response.text
    assert response.headers["location"] == f"{PREFIX}/content/locations/{path}"
