"""Route matching and href building.

A route template is a path below the API prefix with typed parameters: ``{id:int}`` (digits),
``{path:path}`` (a slash-separated id path such as ``1/2/59``), ``{id:file}`` (a stored file id such as
``ab/cd/<hex>/a.pdf``, URL-decoded) and ``{name}`` (one segment). Route names (``noun.verb``) build
hrefs, and the same templates parse the hrefs clients send in bodies and headers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from pressroom.domain.errors import BadRequest, MethodNotAllowed, NotFound
from pressroom.domain.integers import MAX_ID
from pressroom.rest.media import strip_prefix

_PARAM = re.compile(r"\{([A-Za-z_]+)(?::(int|path|file))?\}")
# Ids are stored as 32-bit integers: a larger one names no stored resource, so the route does not match
# (404 like any unknown path) instead of overflowing in the database driver. The regex bounds the
# length, the converters the value.
_ID = r"[0-9]{1,10}"
_PATTERNS = {
    None: r"[^/]+",
    "int": _ID,
    "path": rf"{_ID}(?:/{_ID})*/?",
    "file": r"[A-Za-z0-9._~%-]+(?:/[A-Za-z0-9._~%-]+)*",
}


def _convert_int(text: str) -> int:
    value = int(text)
    if value > MAX_ID:
        raise ValueError(text)
    return value


def _convert_path(text: str) -> str:
    path = text.strip("/")
    for part in path.split("/"):
        _convert_int(part)
    return path


def _convert_str(text: str) -> str:
    return text


def _convert_file(text: str) -> str:
    return unquote(text)


_CONVERTERS: dict[str | None, Callable[[str], Any]] = {
    None: _convert_str,
    "int": _convert_int,
    "path": _convert_path,
    "file": _convert_file,
}


@dataclass(frozen=True, slots=True)
class Route:
    methods: tuple[str, ...]
    template: str
    handler: Callable[..., Any]
    name: str
    regex: re.Pattern[str] = field(compare=False)
    converters: tuple[tuple[str, Callable[[str], Any]], ...] = field(compare=False)

    def format(self, params: dict[str, Any]) -> str:
        def replace(match: re.Match[str]) -> str:
            value = params[match.group(1)]
            return str(value).strip("/") if match.group(2) == "path" else str(value)

        return _PARAM.sub(replace, self.template)


def make_route(methods: str, template: str, handler: Callable[..., Any], name: str) -> Route:
    converters = []
    pattern = "^"
    position = 0
    for match in _PARAM.finditer(template):
        pattern += re.escape(template[position : match.start()])
        pattern += f"(?P<{match.group(1)}>{_PATTERNS[match.group(2)]})"
        converters.append((match.group(1), _CONVERTERS[match.group(2)]))
        position = match.end()
    pattern += re.escape(template[position:]) + "$"
    return Route(tuple(methods.split("|")), template, handler, name, re.compile(pattern), tuple(converters))


def _first_segment(path: str) -> str:
    return path.split("/", 2)[1] if path.count("/") else ""


class Router:
    def __init__(self, routes: Iterable[Route]) -> None:
        self.routes = list(routes)
        self.by_name: dict[str, Route] = {}
        self._by_segment: dict[str, list[Route]] = {}
        for route in self.routes:
            if route.name in self.by_name:
                raise ValueError(f"duplicate route name {route.name}")
            self.by_name[route.name] = route
            self._by_segment.setdefault(_first_segment(route.template), []).append(route)

    def _candidates(self, path: str) -> list[tuple[Route, dict[str, Any]]]:
        found = []
        for route in self._by_segment.get(_first_segment(path), ()):
            match = route.regex.match(path)
            if match is not None:
                try:
                    params = {name: convert(match.group(name)) for name, convert in route.converters}
                except ValueError:  # an id no resource can have
                    continue
                found.append((route, params))
        return found

    def allowed(self, path: str) -> list[str]:
        """The methods the matching routes declare, in declaration order (OPTIONS ``Allow`` and 405).

        HEAD (served by every GET route) and OPTIONS (answered for every route) are not advertised: the
        reference lists exactly what a route declares, and clients compare the header by string.
        """
        methods: list[str] = []
        for route, _ in self._candidates(path):
            for method in route.methods:
                if method not in methods:
                    methods.append(method)
        return methods

    def match(self, method: str, path: str) -> tuple[Route, dict[str, Any]]:
        candidates = self._candidates(path)
        if not candidates:
            raise NotFound(f"No resource at '{path}'")
        lookup = "GET" if method == "HEAD" else method
        for route, params in candidates:
            if method in route.methods or lookup in route.methods:
                return route, params
        raise MethodNotAllowed(f"Method {method} is not allowed on '{path}'", self.allowed(path))

    def path(self, name: str, **params: Any) -> str:
        return self.by_name[name].format(params)

    def parse_href(self, href: str, *names: str, what: str = "href") -> tuple[str, dict[str, Any]]:
        """Resolve a full href (with any REST prefix) to one of the named routes and its parameters.

        Raises BadRequest naming ``what`` when the href has no prefix or names another resource.
        """
        path = strip_prefix(href.split("?", 1)[0])
        if path is not None:
            for name in names:
                route = self.by_name[name]
                match = route.regex.match(path)
                if match is None and route.template.endswith("{path:path}"):
                    match = route.regex.match(path.rstrip("/"))
                if match is not None:
                    try:
                        return name, {key: convert(match.group(key)) for key, convert in route.converters}
                    except ValueError:  # an id no resource can have
                        break
        raise BadRequest(f"Invalid {what} '{href}': expected a reference like '{self._example(names[0])}'")

    def _example(self, name: str) -> str:
        return "/api/ibexa/v2" + _PARAM.sub("1", self.by_name[name].template)
