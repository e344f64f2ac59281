"""Request limits against hostile bodies (issue 15): the body limit depends on the caller and the input
media type and is applied before the body is read; a stalled body is a 408; the decoded tree is bounded."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.rest.input.decoders import LIMITS
from tests.conftest import make_settings
from tests.functional.support import error_message, section_identifiers
from tests.helpers import PREFIX, Api, media

CLEAN_SECTIONS = ["standard", "users", "media"]


def padded(root: str, size: int) -> bytes:
    return orjson.dumps({root: {"identifier": "padded", "name": "x" * size}})


def refused(api: Api, path: str, root: str, body: bytes | str, fmt: str = "json") -> str:
    """POST a body that must be a 413; return the ErrorMessage description."""
    response = api.post(path, body=body, content_type=media(root, fmt), accept="application/json")
    description: str = error_message(response, 413)["errorDescription"]
    return description


def test_an_anonymous_body_over_64_kib_is_413(client: TestClient) -> None:
    body = padded("SessionInput", 70 * 1024)
    description = refused(Api(client, auth=None), "/user/sessions", "SessionInput", body)
    assert description == "The request body exceeds 65536 bytes, the limit for anonymous callers"


def test_a_logged_in_body_without_files_over_1_mib_is_413(api: Api) -> None:
    description = refused(api, "/content/sections", "SectionInput", padded("SectionInput", 1024 * 1024))
    assert description == "The request body exceeds 1048576 bytes, the limit for input that carries no files"
    assert section_identifiers(api) == CLEAN_SECTIONS


@pytest.mark.parametrize("content_type", [media("ContentCreate"), "application/json"])
def test_inputs_that_carry_files_keep_the_large_limit(api: Api, content_type: str) -> None:
    body = orjson.dumps({"ContentCreate": {"padding": "x" * (2 * 1024 * 1024)}})
    response = api.post("/content/objects", body=body, content_type=content_type, accept=media("Content"))
    # read and decoded in full: the answer is about the content, not the size
    assert error_message(response, 400)["errorDescription"].startswith("Missing")


def test_a_body_with_too_many_attributes_is_413_naming_the_limit(api: Api) -> None:
    attributes = " ".join(f'a{i}="x"' for i in range(LIMITS.attributes + 1))
    body = f"<SectionInput {attributes}><identifier>x</identifier><name>x</name></SectionInput>"
    description = refused(api, "/content/sections", "SectionInput", body, "xml")
    assert description == f"An XML element has more than {LIMITS.attributes} attributes"
    assert section_identifiers(api) == CLEAN_SECTIONS


def test_a_body_of_many_empty_elements_is_413_naming_the_limit(api: Api) -> None:
    body = b"<SectionInput>" + b"<a/>" * (LIMITS.elements + 1) + b"</SectionInput>"
    description = refused(api, "/content/sections", "SectionInput", body, "xml")
    assert description == f"The XML document has more than {LIMITS.elements} elements"


def test_a_body_that_stops_arriving_is_408(sqlite_url: str, tmp_path: Path) -> None:
    """The ASGI application called directly: its receive() never delivers the rest of the body."""
    app = create_app(make_settings(sqlite_url, tmp_path, body_read_timeout_seconds=0.05))
    sent: list[dict[str, Any]] = []
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": b'{"SessionInput": ', "more_body": True}
        await asyncio.sleep(3600)
        raise AssertionError("the body read should have timed out")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": f"{PREFIX}/user/sessions",
        "query_string": b"",
        "headers": [
            (b"content-type", media("SessionInput").encode()),
            (b"accept", b"application/json"),
            (b"content-length", b"100"),
        ],
        "client": ("192.0.2.9", 1234),
    }
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 408
    body = orjson.loads(sent[1]["body"])["ErrorMessage"]
    assert body["errorMessage"] == "Request Timeout"
    assert body["errorDescription"] == "The request body did not arrive within 0.05 seconds"
