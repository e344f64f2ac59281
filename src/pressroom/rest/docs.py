"""The API description, outside authentication: ``{prefix}/openapi.json`` for each dialect and a docs page
at ``/docs`` rendered by Swagger UI from the installed ``swagger-ui-py`` package (its static assets are
served from here: the page loads nothing from elsewhere)."""

from __future__ import annotations

from importlib import resources

import orjson

from pressroom.config import Settings
from pressroom.rest.auth import cookie_name_for
from pressroom.rest.openapi import document
from pressroom.rest.operations import Answer
from pressroom.rest.routing import Router

DOCS = "/docs"
DOCUMENT = "/openapi.json"
_INIT = "pressroom-docs.js"
# The Swagger UI files the page loads, and their types (nothing else of the package is served).
_ASSETS = {
    "swagger-ui.css": "text/css; charset=utf-8",
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
    "favicon-32x32.png": "image/png",
}
_ASSET_CACHE = (("cache-control", "public, max-age=86400"),)

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Pressroom REST API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/pressroom-docs.js"></script>
</body>
</html>
"""


def _init_script(urls: list[dict[str, str]]) -> bytes:
    # validatorUrl null: Swagger UI would otherwise ask a public validator about the document.
    # defaultModelExpandDepth: an opened body schema shows its properties, not a collapsed root element.
    return (
        "window.ui = SwaggerUIBundle({\n"
        f"  urls: {orjson.dumps(urls).decode()},\n"
        '  dom_id: "#swagger-ui",\n'
        "  deepLinking: true,\n"
        "  validatorUrl: null,\n"
        "  defaultModelExpandDepth: 4,\n"
        "  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],\n"
        '  layout: "StandaloneLayout"\n'
        "});\n"
    ).encode()


class ApiDocs:
    """Answers the description paths; everything is made once, on first request."""

    def __init__(self, settings: Settings, router: Router) -> None:
        self.router = router
        self.auth_methods = settings.auth_methods
        self.session_cookie = cookie_name_for(settings.default_siteaccess)
        self.oidc_issuer = settings.oidc_issuer
        self.dialects = {dialect.prefix + DOCUMENT: dialect for dialect in settings.dialects}
        self.urls = [{"url": path, "name": dialect.vendor} for path, dialect in self.dialects.items()]
        self._made: dict[str, Answer] = {}

    def handles(self, path: str) -> bool:
        return path in self.dialects or path in (DOCS, DOCS + "/") or path.startswith(DOCS + "/")

    def answer(self, path: str) -> Answer:
        made = self._made.get(path)
        if made is None:
            made = self._make(path)
            if made.status == 200:
                self._made[path] = made
        return made

    def _make(self, path: str) -> Answer:
        if path in self.dialects:
            body = orjson.dumps(
                document(
                    self.router, self.dialects[path], self.auth_methods, self.session_cookie, self.oidc_issuer
                )
            )
            return Answer(200, "application/json", body, (("cache-control", "no-cache"),))
        if path in (DOCS, DOCS + "/"):
            return Answer(200, "text/html; charset=utf-8", _PAGE.encode())
        name = path[len(DOCS) + 1 :]
        if name == _INIT:
            return Answer(200, "text/javascript; charset=utf-8", _init_script(self.urls))
        if name in _ASSETS:
            asset = resources.files("swagger_ui").joinpath("static", name).read_bytes()
            return Answer(200, _ASSETS[name], asset, _ASSET_CACHE)
        return Answer(404, "text/plain; charset=utf-8", b"Not found\n")
