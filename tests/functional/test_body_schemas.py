"""The document's body schemas and examples against the real server: each example of an input is valid
against its schema and accepted by its operation, and the answers validate against their output schemas
(tests.helpers.Api checks every JSON body of a type with a schema, here and in every other test)."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator
from starlette.testclient import TestClient

from pressroom.rest.body_schemas import INPUTS, OUTPUTS
from tests.body_check import SchemaMismatch, check_bodies
from tests.helpers import Api, media

JSON = "+json"


def _examples(spec: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in spec["paths"].values():
        for operation in item.values():
            for content_type, content in operation.get("requestBody", {}).get("content", {}).items():
                if "example" in content:
                    found[content_type.split(".api.")[1].removesuffix(JSON)] = content["example"]
    return found


def test_every_main_input_has_a_valid_example_in_the_document(client: TestClient) -> None:
    spec = client.get("/api/ezp/v2/openapi.json").json()
    examples = _examples(spec)
    assert set(examples) == set(INPUTS)
    for name, example in examples.items():
        schema = spec["components"]["schemas"]["Input." + name]
        assert list(Draft202012Validator(schema).iter_errors(example)) == [], name
        assert "/api/ibexa/v2" not in str(example)  # hrefs under the dialect's own prefix
    for name in OUTPUTS:
        assert spec["components"]["schemas"][name]["properties"] != {}, name


class Examples:
    """Sends the document's examples to their operations, as admin, answers in JSON."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.examples = _examples(api.get("/openapi.json").json())

    def send(self, method: str, path: str, name: str, accept: str, status: int) -> dict[str, Any]:
        version = "; version=1.1" if name == "ViewInput" else ""
        answer = self.api.request(
            method,
            path,
            body=self.examples[name],
            content_type=media(name) + version,
            accept=media(accept),
        )
        assert answer.status_code == status, (name, answer.text)
        assert answer.headers["content-type"].startswith(media(accept))  # so Api checked it
        body: dict[str, Any] = next(iter(answer.json().values()))
        return body


def test_every_example_is_accepted_and_answered_as_its_schemas_say(api: Api) -> None:
    send = Examples(api).send
    content = send("POST", "/content/objects", "ContentCreate", "Content", 201)
    item = f"/content/objects/{content['_id']}"
    send("PATCH", item + "/versions/1", "VersionUpdate", "Version", 200)
    send("PATCH", item, "ContentUpdate", "ContentInfo", 200)
    assert api.request("PUBLISH", item + "/versions/1").status_code == 204
    send("POST", item + "/locations", "LocationCreate", "Location", 201)
    send("PATCH", "/content/locations/1/2", "LocationUpdate", "Location", 200)
    created = send("POST", "/content/typegroups/1/types", "ContentTypeCreate", "ContentType", 201)
    draft = f"/content/types/{created['id']}/draft/fieldDefinitions"
    send("POST", draft, "FieldDefinitionCreate", "FieldDefinition", 201)
    send("POST", "/content/types/1", "ContentTypeUpdate", "ContentType", 201)
    user = send("POST", "/user/groups/1/5/users", "UserCreate", "User", 201)
    send("PATCH", "/user/users/14", "UserUpdate", "User", 200)
    role = send("POST", "/user/roles", "RoleInput", "Role", 201)
    send("POST", role["_href"].removeprefix("/api/ibexa/v2") + "/policies", "PolicyCreate", "Policy", 201)
    send("POST", f"/user/users/{user['_id']}/roles", "RoleAssignInput", "RoleAssignmentList", 200)
    view = send("POST", "/views", "ViewInput", "View", 200)
    assert view["Result"]["count"] >= 1
    anonymous = Examples(Api(api.client, auth=None)).send
    anonymous("POST", "/user/sessions", "SessionInput", "Session", 201)
    api.client.cookies.clear()  # the session's cookie would ask for its CSRF token
    anonymous("POST", "/user/token/jwt", "JWTInput", "JWT", 200)


def test_a_body_that_drifts_from_its_schema_is_caught(api: Api) -> None:
    answer = api.get("/content/sections/1")  # no schema: not checked
    check_bodies(None, None, answer)
    role = api.get("/user/roles/1", accept=media("Role"))
    renamed = {"Role": {**role.json()["Role"], "Identifier": "x"}}
    drifted = type(role)(200, headers=role.headers, json=renamed)
    with pytest.raises(SchemaMismatch, match="Identifier"):  # a visitor renaming a key
        check_bodies(None, None, drifted)
    accepted = type(role)(201)
    with pytest.raises(SchemaMismatch, match="login"):  # a parser reading a key the schema lacks
        check_bodies(media("SessionInput"), b'{"SessionInput": {"user": "a", "password": "b"}}', accepted)
