"""The OpenAPI 3.1 document of one dialect, generated from the route table and what it declares.

Paths are the route templates (converters become parameter schemas). OpenAPI names only the standard
methods, so a custom one (COPY, MOVE, PUBLISH, SWAP) is described as the POST it is also sent as, with
``X-HTTP-Method-Override`` naming it and the verb in ``x-http-method``. When several operations of one
path share the POST slot (a real POST and custom methods, or several custom methods), they are described
as one POST operation whose ``x-http-methods`` lists each, with the union of their inputs and answers.
Every GET path also lists HEAD (the same answers, headers only). Summaries and descriptions come from
rest/route_texts.py; each description ends with what the operation's error statuses mean.

Schemas: an input or output media type's JSON form is an object with one key, its root element. The
main inputs and outputs have full schemas, and each input an example (rest/body_schemas.py); the others
only require what every representation has (``_media-type`` for outputs).
"""

from __future__ import annotations

from typing import Any

import orjson

from pressroom.config import Dialect
from pressroom.domain.integers import MAX_ID
from pressroom.rest.body_schemas import EXAMPLE_PREFIX, INPUTS, OUTPUTS
from pressroom.rest.declared import RAW, error_statuses, success_responses
from pressroom.rest.errors import REASONS
from pressroom.rest.output.visitor import registered_outputs
from pressroom.rest.route_texts import ERRORS, TEXTS
from pressroom.rest.routing import Route, Router, pattern_of, template_parameters

VERSION = "3.1.0"
STANDARD = {"GET": "get", "POST": "post", "PATCH": "patch", "DELETE": "delete", "PUT": "put"}
FORMATS = ("json", "xml")
_ERROR = "ErrorMessage"


def _plain_schema(media_type: str) -> dict[str, Any]:
    """A JSON batch (``application/cloudevents-batch+json``) is a list of objects; anything else text."""
    if media_type.endswith("+json"):
        return {"type": "array", "items": {"type": "object"}}
    return {"type": "string"}


def path_of(template: str) -> str:
    """``/content/objects/{contentId:int}`` -> ``/content/objects/{contentId}``."""
    for name, kind in template_parameters(template):
        template = template.replace("{" + name + (f":{kind}" if kind else "") + "}", "{" + name + "}")
    return template


def _path_schema(kind: str | None) -> dict[str, Any]:
    if kind == "int":
        return {"type": "integer", "minimum": 0, "maximum": MAX_ID}
    return {"type": "string", "pattern": "^" + pattern_of(kind) + "$"}


def _path_parameters(route: Route) -> list[dict[str, Any]]:
    return [
        {"name": name, "in": "path", "required": True, "schema": _path_schema(kind)}
        for name, kind in template_parameters(route.template)
    ]


def _query_parameters(route: Route) -> list[dict[str, Any]]:
    return [
        {
            "name": param.name,
            "in": "query",
            "required": False,
            "schema": {"type": "integer"} if param.integer else {"type": "string"},
        }
        for param in route.query
    ]


class _Builder:
    def __init__(self, router: Router, dialect: Dialect) -> None:
        self.router = router
        self.dialect = dialect
        self.inputs: set[str] = set()
        self.errors: set[int] = set()

    def media(self, name: str, fmt: str) -> str:
        return f"application/vnd.{self.dialect.vendor}.api.{name}+{fmt}"

    def content(self, names: tuple[str, ...], prefix: str) -> dict[str, Any]:
        content: dict[str, Any] = {}
        for name in names:
            for fmt in FORMATS:
                ref = f"#/components/schemas/{prefix}{name}{'' if fmt == 'json' else '.xml'}"
                content[self.media(name, fmt)] = {"schema": {"$ref": ref}}
                if prefix and fmt == "json" and name in INPUTS:
                    content[self.media(name, fmt)]["example"] = self.example(name)
        return content

    def responses(self, routes: list[Route], errors: set[int]) -> dict[str, Any]:
        answers: dict[int, list[str]] = {}
        bodiless: set[int] = set()
        for route in routes:
            for status, names in success_responses(route).items():
                known = answers.setdefault(status, [])
                known.extend(name for name in names if name not in known)
                if not names:
                    bodiless.add(status)
            errors.update(error_statuses(route))
        described: dict[str, Any] = {}
        for status in sorted(answers):
            if status in bodiless and answers[status]:
                # operations sharing this POST answer it with and without a body: the body is not declared
                described[str(status)] = self.success(status, ())
                described[str(status)]["description"] += (
                    " (a body, " + " or ".join(answers[status]) + ", for some of the methods)"
                )
            else:
                described[str(status)] = self.success(status, tuple(answers[status]))
        for status in sorted(errors - set(answers)):
            self.errors.add(status)
            described[str(status)] = {"$ref": f"#/components/responses/Error{status}"}
        return described

    def error_responses(self) -> dict[str, Any]:
        return {
            f"Error{status}": {
                "description": _error_text(status) + " (an ErrorMessage says why)",
                "content": self.content((_ERROR,), ""),
            }
            for status in sorted(self.errors)
        }

    def success(self, status: int, names: tuple[str, ...]) -> dict[str, Any]:
        response: dict[str, Any] = {"description": _DESCRIPTIONS.get(status, REASONS.get(status, "Answer"))}
        if RAW in names:
            response["content"] = {RAW: {"schema": {"type": "string", "format": "binary"}}}
        elif names and all("/" in name for name in names):  # plain media types, not the API's own
            response["content"] = {name: {"schema": _plain_schema(name)} for name in names}
        elif names:
            response["content"] = self.content(names, "")
        if status in (201, 301, 307):
            response["headers"] = {"Location": {"schema": {"type": "string"}, "required": status != 201}}
        return response

    def operation(self, pairs: list[tuple[str, Route]]) -> dict[str, Any]:
        """One operation for the (method, route) pairs sharing a path and an OpenAPI method."""
        verbs = [verb for verb, _ in pairs]
        routes = list(dict.fromkeys(route for _, route in pairs))
        custom = [verb for verb in verbs if verb not in STANDARD]
        parameters = _path_parameters(routes[0])
        seen = {parameter["name"] for parameter in parameters}
        for route in routes:
            for parameter in _query_parameters(route):
                if parameter["name"] not in seen:
                    seen.add(parameter["name"])
                    parameters.append(parameter)
        if custom:
            parameters.append(
                {
                    "name": "X-HTTP-Method-Override",
                    "in": "header",
                    "required": len(custom) == len(verbs),
                    "description": "The method this POST stands for (" + ", ".join(custom) + ")",
                    "schema": {"type": "string", "enum": custom},
                }
            )
        if any(verb in ("COPY", "MOVE", "SWAP") for verb in custom):
            parameters.append(
                {
                    "name": "Destination",
                    "in": "header",
                    "required": False,
                    "description": "The href of the destination",
                    "schema": {"type": "string"},
                }
            )
        if any(412 in route.errors for route in routes):
            parameters.append(
                {
                    "name": "If-Match",
                    "in": "header",
                    "required": False,
                    "description": "The ETag the resource must still have",
                    "schema": {"type": "string"},
                }
            )
        # a POST whose override names no method of the path is a 405
        responses = self.responses(routes, {405} if custom else set())
        described: dict[str, Any] = {
            "operationId": "+".join(route.name for route in routes),
            "tags": sorted({route.name.split(".", 1)[0] for route in routes}),
            "summary": "; ".join(TEXTS[route.name][0] for _, route in pairs),
            "description": _description(pairs, responses),
            "parameters": parameters,
            "responses": responses,
        }
        if len(pairs) > 1:
            described["x-http-methods"] = [
                {"method": verb, "operationId": route.name} for verb, route in pairs
            ]
        elif custom:
            described["x-http-method"] = custom[0]
        accepts = [name for route in routes for name in route.accepts]
        if accepts:
            self.inputs.update(accepts)
            described["requestBody"] = {
                "required": all(route.accepts for route in routes),
                "content": self.content(tuple(dict.fromkeys(accepts)), "Input."),
            }
        return described

    def paths(self) -> dict[str, Any]:
        slots: dict[str, dict[str, list[tuple[str, Route]]]] = {}
        for route in self.router.routes:
            for method in route.methods:
                slot = slots.setdefault(path_of(route.template), {})
                slot.setdefault(_slot(method), []).append((method, route))
        described: dict[str, Any] = {}
        for path, item in slots.items():
            operations = {key: self.operation(pairs) for key, pairs in item.items()}
            if "get" in operations:
                operations["head"] = _head(operations["get"])
            described[path] = operations
        return described

    def schemas(self) -> dict[str, Any]:
        schemas: dict[str, Any] = {}
        for media, root in registered_outputs():
            schemas[media] = _json_schema(root, OUTPUTS.get(media, _REPRESENTATION))
            schemas[media + ".xml"] = _xml_schema(root)
        for name in sorted(self.inputs):
            schemas["Input." + name] = _json_schema(name, INPUTS[name][0] if name in INPUTS else _ANY_OBJECT)
            schemas["Input." + name + ".xml"] = _xml_schema(name)
        schemas[_ERROR] = _json_schema(_ERROR, OUTPUTS[_ERROR])
        schemas[_ERROR + ".xml"] = _xml_schema(_ERROR)
        return dict(sorted(schemas.items()))

    def example(self, name: str) -> Any:
        """The example of an input, its hrefs under this dialect's prefix."""
        raw = orjson.dumps({name: INPUTS[name][1]}).decode()
        return orjson.loads(raw.replace(EXAMPLE_PREFIX, self.dialect.prefix))


# What is known of a representation or input without a schema of its own.
_REPRESENTATION: dict[str, Any] = {
    "type": "object",
    "required": ["_media-type"],
    "properties": {"_media-type": {"type": "string"}},
}
_ANY_OBJECT: dict[str, Any] = {"type": "object"}

_DESCRIPTIONS = {
    200: "OK",
    201: "Created; Location names the new resource",
    204: "Done, no content",
    301: "Moved permanently; Location names the resource",
    307: "Redirect; Location names the resource",
}


def _description(pairs: list[tuple[str, Route]], responses: dict[str, Any]) -> str:
    """What the operation does, who may call it, and what each of its error statuses means."""
    if len(pairs) == 1:
        text = TEXTS[pairs[0][1].name][1]
    else:
        text = "\n\n".join(f"**{verb}**: {TEXTS[route.name][1]}" for verb, route in pairs)
    errors = [int(status) for status in responses if int(status) >= 400]
    lines = "\n".join(f"- {status} {_error_text(status)}" for status in errors)
    return f"{text}\n\nErrors:\n{lines}"


def _error_text(status: int) -> str:
    return f"{REASONS[status]}: {ERRORS[status]}"


def _head(get: dict[str, Any]) -> dict[str, Any]:
    """HEAD answers what GET answers, headers only (every GET route serves it)."""
    responses = {
        status: {"description": _error_text(int(status))}
        if "$ref" in response
        else {key: value for key, value in response.items() if key != "content"}
        for status, response in get["responses"].items()
    }
    return {
        **get,
        "operationId": get["operationId"] + ".head",
        "summary": get["summary"] + " (headers only)",
        "description": "The headers GET answers (status, ETag, Content-Type...), without the body.\n\n"
        + get["description"],
        "responses": responses,
    }


def _slot(method: str) -> str:
    return STANDARD.get(method, "post")


def _json_schema(root: str, inner: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": [root],
        "properties": {root: inner},
        "additionalProperties": False,
    }


def _xml_schema(root: str) -> dict[str, Any]:
    return {"type": "object", "xml": {"name": root}, "additionalProperties": True}


def security_schemes(
    auth_methods: tuple[str, ...], session_cookie: str, oidc_issuer: str = ""
) -> dict[str, Any]:
    """The security schemes of the active authentication methods (``PRESSROOM_AUTH_METHODS``); ``oidc``
    points at the external provider's discovery document."""
    schemes: dict[str, dict[str, Any]] = {
        "basic": {"basic": {"type": "http", "scheme": "basic"}},
        "jwt": {
            "jwt": {
                "type": "http",
                "scheme": "bearer",
                "bearerFormat": "JWT",
                "description": "A token from POST /user/token/jwt",
            }
        },
        "session": {
            "session": {
                "type": "apiKey",
                "in": "cookie",
                "name": session_cookie,
                "description": (
                    "The session cookie from POST /user/sessions (Session.name names it; its name depends "
                    "on the siteaccess). Unsafe methods also need the csrf scheme."
                ),
            },
            "csrf": {
                "type": "apiKey",
                "in": "header",
                "name": "X-CSRF-Token",
                "description": "Session.csrfToken, sent with the session cookie on POST, PATCH, PUT, DELETE",
            },
        },
        "oauth": {
            "oauth": {
                "type": "oauth2",
                "description": (
                    "An access token of this server's OAuth 2.0 authorization server (metadata at "
                    "/.well-known/oauth-authorization-server); scope read allows only GET, HEAD and OPTIONS"
                ),
                "flows": {
                    "authorizationCode": {
                        "authorizationUrl": "/authorize",
                        "tokenUrl": "/token",
                        "refreshUrl": "/token",
                        "scopes": OAUTH_SCOPES,
                    },
                    "clientCredentials": {"tokenUrl": "/token", "scopes": OAUTH_SCOPES},
                },
            }
        },
        "certificate": {
            "certificate": {
                "type": "mutualTLS",
                "description": "A client certificate verified by the TLS-terminating proxy in front",
            }
        },
        "oidc": {
            "oidc": {
                "type": "openIdConnect",
                "openIdConnectUrl": oidc_issuer.rstrip("/") + "/.well-known/openid-configuration",
                "description": "An access token of the external OpenID Connect provider, sent as Bearer",
            }
        },
    }
    return {name: scheme for method in auth_methods for name, scheme in schemes[method].items()}


OAUTH_SCOPES = {"default": "the user's own rights", "read": "the user's rights, for safe methods only"}
_REQUIREMENTS: tuple[tuple[str, dict[str, list[str]]], ...] = (
    ("certificate", {"certificate": []}),
    ("basic", {"basic": []}),
    ("jwt", {"jwt": []}),
    ("oidc", {"oidc": []}),
    ("oauth", {"oauth": ["default"]}),
    ("session", {"session": [], "csrf": []}),
)


def document(
    router: Router,
    dialect: Dialect,
    auth_methods: tuple[str, ...],
    session_cookie: str,
    oidc_issuer: str = "",
) -> dict[str, Any]:
    """The OpenAPI document of the API as served under ``dialect``'s prefix, with the security schemes of
    the active authentication methods (``session_cookie``: the cookie name of the default siteaccess,
    ``oidc_issuer``: the external provider's)."""
    builder = _Builder(router, dialect)
    paths = builder.paths()
    schemes = security_schemes(auth_methods, session_cookie, oidc_issuer)
    security = [requirement for method, requirement in _REQUIREMENTS if method in auth_methods] + [{}]
    if "session" in auth_methods or "oauth" in auth_methods:
        # reads need the session cookie only: X-CSRF-Token guards the unsafe methods; an access token of
        # scope read does for them
        reading: list[dict[str, list[str]]] = [
            {name: scopes for name, scopes in requirement.items() if name != "csrf"}
            for requirement in security
        ]
        if "oauth" in auth_methods:
            reading.insert(-1, {"oauth": ["read"]})
        for item in paths.values():
            for key in ("get", "head"):
                if key in item:
                    item[key]["security"] = reading
    return {
        "openapi": VERSION,
        "info": {
            "title": f"Pressroom REST API ({dialect.vendor} dialect)",
            "version": "2",
            "description": (
                "The Ibexa / eZ Platform REST API v2 as Pressroom serves it. Media types name a "
                "representation and a format (+json or +xml); custom methods may also be sent as POST with "
                "X-HTTP-Method-Override."
            ),
        },
        "servers": [{"url": dialect.prefix}],
        "paths": paths,
        "components": {
            "schemas": builder.schemas(),
            "responses": builder.error_responses(),
            "securitySchemes": schemes,
        },
        "security": security,
    }
