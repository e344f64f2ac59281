"""Helpers of the location tree and trash tests: small published trees, reading locations back, and the
COPY / MOVE / SWAP requests as clients send them (POST + X-HTTP-Method-Override, or the real method)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.functional.content_support import main_location_path, published_folder
from tests.helpers import EZ_PREFIX, PREFIX, Api, media


def folder_at(api: Api, name: str, parent: str = "1/2", **extra: Any) -> str:
    """Publish a folder below ``parent``; returns its location path (``"1/2/60"``)."""
    return main_location_path(published_folder(api, name, parent, **extra))


def small_tree(api: Api, stem: str, parent: str = "1/2") -> dict[str, str]:
    """``top`` with children ``a`` and ``b``, and ``a1`` below ``a``: their paths by name."""
    top = folder_at(api, f"{stem} top", parent)
    a = folder_at(api, f"{stem} a", top)
    return {"top": top, "a": a, "b": folder_at(api, f"{stem} b", top), "a1": folder_at(api, f"{stem} a1", a)}


def location(api: Api, path: str, fmt: str = "json") -> dict[str, Any]:
    response = api.get(f"/content/locations/{path}", accept=media("Location", fmt))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()["Location"]
    return body


def status_of(api: Api, path: str) -> int:
    return api.get(f"/content/locations/{path}", accept=media("Location")).status_code


def relocate(
    api: Api, method: str, path: str, destination: str | None, *, override: bool = True, prefix: str = PREFIX
) -> httpx.Response:
    """COPY / MOVE / SWAP ``path`` with ``destination`` (a path below ``/content/``, e.g.
    ``locations/1/43`` or ``trash``) in the Destination header, sent as clients do: POST with
    X-HTTP-Method-Override, or the method itself when ``override`` is False."""
    headers = {"Destination": f"{prefix}/content/{destination}"} if destination is not None else {}
    if override:
        headers["X-HTTP-Method-Override"] = method
    vendor = "ez" if prefix == EZ_PREFIX else "ibexa"
    return api.request(
        "POST" if override else method,
        f"/content/locations/{path}",
        headers=headers,
        accept=media("Location", "json", vendor),  # errors come back in JSON
    )


def path_of(href: str) -> str:
    """``"1/2/59"`` from a location href (any prefix)."""
    return href.split("/content/locations/", 1)[1]


def child_paths(api: Api, path: str, query: str = "") -> list[str]:
    response = api.get(f"/content/locations/{path}/children{query}", accept=media("LocationList"))
    assert response.status_code == 200, response.text
    return [path_of(item["_href"]) for item in response.json()["LocationList"]["Location"]]


def add_location(api: Api, content_id: int, parent: str) -> str:
    """Give the content another location below ``parent``; returns the new location's href."""
    response = api.post(
        f"/content/objects/{content_id}/locations",
        body={
            "LocationCreate": {
                "ParentLocation": {"_href": f"{PREFIX}/content/locations/{parent}"},
                "sortField": "PATH",
                "sortOrder": "ASC",
            }
        },
        content_type=media("LocationCreate"),
    )
    assert response.status_code == 201, response.text
    href: str = response.headers["location"]
    return href
