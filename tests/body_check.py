"""Every JSON body the tests send or receive, held to the document's schemas (rest/body_schemas.py).

The schemas are declared beside, not generated from, the parsers and visitors; this is what keeps them
from drifting: a body the server accepted must be valid against its input schema, and every answer of a
type with a schema must be valid against it, in every test that goes through ``tests.helpers.Api``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import httpx
import orjson
from jsonschema import Draft202012Validator

from pressroom.rest.body_schemas import INPUTS, OUTPUTS

_JSON_MEDIA = re.compile(r"^application/vnd\.[a-z]+\.api\.([A-Za-z]+)\+json\b")


class SchemaMismatch(AssertionError):
    """A real body and its schema disagree: fix whichever of the two is wrong."""


@cache
def _validator(schema_id: str) -> Draft202012Validator:
    kind, name = schema_id.split(":", 1)
    schema = INPUTS[name][0] if kind == "input" else OUTPUTS[name]
    return Draft202012Validator(schema)


def _check(kind: str, name: str, body: Any) -> None:
    if not isinstance(body, dict) or len(body) != 1:
        raise SchemaMismatch(f"a {kind} {name} body is not an object with one root element: {body!r:.300}")
    errors = _validator(f"{kind}:{name}").iter_errors(next(iter(body.values())))
    found = sorted(
        f"'{'/'.join(str(part) for part in error.absolute_path)}': {error.message}" for error in errors
    )
    if found:
        raise SchemaMismatch(f"{kind} {name} does not fit its schema at " + "; ".join(found))


def check_bodies(content_type: str | None, content: Any, response: httpx.Response) -> None:
    """Raise :class:`SchemaMismatch` when an accepted request or an answer does not fit its schema."""
    sent = _JSON_MEDIA.match(content_type or "")
    if sent and sent.group(1) in INPUTS and isinstance(content, bytes) and response.status_code < 400:
        _check("input", sent.group(1), orjson.loads(content))
    answered = _JSON_MEDIA.match(response.headers.get("content-type", ""))
    if answered and answered.group(1) in OUTPUTS and response.content:
        _check("output", answered.group(1), response.json())
