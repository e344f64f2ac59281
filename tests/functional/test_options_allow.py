"""OPTIONS answers ``Allow`` in the order the reference declares each path's methods, with HEAD exactly
where the reference declares it (issue 25 item 2). Clients compare the header by string.

options_allow.tsv is a copy of spec/options-allow.tsv: every path the reference routes, with its methods
in the reference's order.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.helpers import EZ_PREFIX, PREFIX, Api

TABLE = Path(__file__).with_name("options_allow.tsv")
# A value for each placeholder of the table that our routes accept (ids where the name does not say).
SAMPLES = {
    "locationPath": "1/2",
    "groupPath": "12",  # a one-id group path; /user/users/{userId}/groups/{groupPath} takes a location id
    "languageCode": "eng-GB",
    "imageId": "1-2-3",
    "variationIdentifier": "small",
    "fieldDefinitionIdentifier": "name",
    "sessionId": "abc",
    "urlAliasId": "0-abc",
    "viewId": "mine",
}


def rows() -> list[tuple[str, str]]:
    lines = TABLE.read_text().splitlines()
    return [tuple(line.split("\t")) for line in lines if line and not line.startswith("#")]  # type: ignore[misc]


def concrete(template: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda match: SAMPLES.get(match.group(1), "1"), template)


def test_the_table_covers_the_reference() -> None:
    table = rows()
    assert len(table) == 82
    assert ("/content/objects/{contentId}", "PATCH,GET,DELETE,COPY") in table
    assert ("/user/users", "HEAD,GET") in table


@pytest.mark.parametrize("prefix", [PREFIX, EZ_PREFIX], ids=["ibexa", "ez"])
def test_options_answers_every_path_in_the_reference_order(client: TestClient, prefix: str) -> None:
    api = Api(client, prefix, auth=None)
    wrong = []
    for template, expected in rows():
        response = api.request("OPTIONS", concrete(template))
        answer = (response.status_code, response.headers.get("allow"))
        if answer != (200, expected):
            wrong.append((template, expected, answer))
    assert wrong == []


@pytest.mark.parametrize("path", ["/user/users?login=admin", "/bookmark/2"])
def test_the_advertised_head_answers_as_get_without_a_body(api: Api, path: str) -> None:
    if path.startswith("/bookmark"):
        assert api.post(path).status_code == 201
    get, head = api.get(path), api.request("HEAD", path)
    assert (head.status_code, head.content) == (get.status_code, b"")
    assert head.headers.get("content-length") == get.headers.get("content-length")
