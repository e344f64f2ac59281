"""Helpers shared by the functional tests: section input bodies, ErrorMessage checks, session login."""

from __future__ import annotations

import uuid
from typing import Any
from xml.sax.saxutils import escape

import httpx
import orjson

from tests.helpers import PREFIX, Api, media, xml

ADMIN_PASSWORD = "publish"  # the clean install's (install.md §8)


def unique(stem: str = "section") -> str:
    """An identifier no other test uses (tests may share a live server's database)."""
    return f"{stem}_{uuid.uuid4().hex[:10]}"


def section_input(identifier: str | None, name: str | None, fmt: str = "json") -> str:
    """A SectionInput body; ``None`` leaves the key out."""
    values = {k: v for k, v in (("identifier", identifier), ("name", name)) if v is not None}
    if fmt == "json":
        return orjson.dumps({"SectionInput": values}).decode()
    inner = "".join(f"<{k}>{escape(v)}</{k}>" for k, v in values.items())
    return f"<SectionInput>{inner}</SectionInput>"


def create_section(
    api: Api,
    identifier: str,
    name: str = "A section",
    *,
    fmt: str = "json",
    vendor: str = "ibexa",
    **kwargs: Any,
) -> httpx.Response:
    """POST /content/sections with a SectionInput in ``fmt``; the answer is asked for in JSON."""
    kwargs.setdefault("accept", media("Section", "json", vendor))
    return api.post(
        "/content/sections",
        body=section_input(identifier, name, fmt),
        content_type=media("SectionInput", fmt, vendor),
        **kwargs,
    )


def section_identifiers(api: Api) -> list[str]:
    response = api.get("/content/sections", accept=media("SectionList"))
    assert response.status_code == 200
    return [s["identifier"] for s in response.json()["SectionList"]["Section"]]


def error_message(
    response: httpx.Response, status: int, fmt: str = "json", vendor: str = "ibexa"
) -> dict[str, Any]:
    """Assert an ErrorMessage answer (shapes-users.md §14) and return its fields."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == media("ErrorMessage", fmt, vendor)
    if fmt == "json":
        body: dict[str, Any] = response.json()["ErrorMessage"]
        assert body["_media-type"] == media("ErrorMessage", fmt, vendor)
    else:
        root = xml(response)
        assert root.tag == "ErrorMessage"
        assert root.get("media-type") == media("ErrorMessage", fmt, vendor)
        body = {child.tag: child.text for child in root}
        body["errorCode"] = int(body["errorCode"])
    assert body["errorCode"] == status
    return body


def login(
    client: Any, login: str = "admin", password: str = ADMIN_PASSWORD, *, prefix: str = PREFIX, **kwargs: Any
) -> httpx.Response:
    """POST /user/sessions without credentials; the client's cookie jar is emptied afterwards so that
    tests send the session cookie explicitly (``cookie_of``)."""
    response = Api(client, prefix, auth=None).post(
        "/user/sessions",
        body={"SessionInput": {"login": login, "password": password}},
        content_type=media("SessionInput"),
        accept=media("Session"),
        **kwargs,
    )
    client.cookies.clear()
    return response


def session_of(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    session: dict[str, Any] = response.json()["Session"]
    return session


def cookie_of(session: dict[str, Any]) -> dict[str, str]:
    """The Cookie header a client builds from a Session body (auth.md §4)."""
    return {"Cookie": f"{session['name']}={session['identifier']}"}
