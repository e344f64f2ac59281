"""Route matching and href building.

A route template is a path below the API prefix with typed parameters: ``{id:int}`` (digits),
``{path:path}`` (a slash-separated id path such as ``1/2/59``), ``{id:file}`` (a stored file id such as
``ab/cd/<hex>/a.pdf``, URL-decoded) and ``{name}`` (one segment). Route names (``noun.verb``) build
hrefs, and the same templates parse the hrefs clients send in bodies and headers.

A route also declares what its operation reads and answers beyond its path: the input media types it
accepts, the query parameters it reads, the error statuses it answers besides the common ones, and (only
where the handler's return type cannot say it) its success responses. The request enforces the first two
(rest/request.py), the application the responses (rest/app.py), and the OpenAPI document is generated from
them (rest/openapi.py), so the description cannot drift from what handlers do.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
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


def template_parameters(template: str) -> list[tuple[str, str | None]]:
    """The parameters of a route template in order: (name, converter kind or None)."""
    return [(match.group(1), match.group(2)) for match in _PARAM.finditer(template)]


def pattern_of(kind: str | None) -> str:
    """The regular expression a path parameter of this converter kind matches."""
    return _PATTERNS[kind]


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
class QueryParam:
    name: str
    integer: bool = False


def parse_query_spec(spec: str) -> tuple[QueryParam, ...]:
    """``"offset:int limit:int identifier"`` -> the query parameters a route reads (``:int`` for integers)."""
    params = []
    for word in spec.split():
        name, _, kind = word.partition(":")
        if kind not in ("", "int"):
            raise ValueError(f"unknown query parameter kind in '{word}'")
        params.append(QueryParam(name, kind == "int"))
    return tuple(params)


@dataclass(frozen=True, slots=True)
class Route:
    methods: tuple[str, ...]
    template: str
    handler: Callable[..., Any]
    name: str
    regex: re.Pattern[str] = field(compare=False)
    converters: tuple[tuple[str, Callable[[str], Any]], ...] = field(compare=False)
    accepts: tuple[str, ...] = ()  # input media type names (``SectionInput``) the body may be
    query: tuple[QueryParam, ...] = ()  # query parameters the handler reads
    errors: tuple[int, ...] = ()  # error statuses besides the ones every operation of its kind answers
    # Success status -> output media type names, for handlers whose return type does not say it (None:
    # derived from the return type, see rest/declared.py).
    responses: tuple[tuple[int, tuple[str, ...]], ...] | None = None
    # What OPTIONS advertises for the route, in order: its methods, and HEAD where the reference declares
    # HEAD as a route of its own (HEAD is served by every GET route either way).
    allow: tuple[str, ...] = ()

    def reads(self, query_name: str) -> bool:
        return any(param.name == query_name for param in self.query)

    def format(self, params: dict[str, Any]) -> str:
        parts = []
        for literal, name, is_path in _pieces(self.template):
            parts.append(literal)
            if name is not None:
                value = str(params[name])
                parts.append(value.strip("/") if is_path else value)
        return "".join(parts)


@cache
def _pieces(template: str) -> tuple[tuple[str, str | None, bool], ...]:
    """A template split once into (text before a parameter, the parameter's name or None at the end,
    whether it is a path): formatting hrefs is on every rendered representation's path."""
    pieces: list[tuple[str, str | None, bool]] = []
    start = 0
    for match in _PARAM.finditer(template):
        pieces.append((template[start : match.start()], match.group(1), match.group(2) == "path"))
        start = match.end()
    pieces.append((template[start:], None, False))
    return tuple(pieces)


def _index(entry: tuple[int, Route]) -> int:
    return entry[0]


def _format_string(template: str) -> str:
    """``/content/objects/{contentId:int}`` -> ``/content/objects/{contentId}`` (literal braces doubled)."""
    return "".join(
        literal.replace("{", "{{").replace("}", "}}") + ("" if name is None else f"{{{name}}}")
        for literal, name, _ in _pieces(template)
    )


def make_route(
    methods: str,
    template: str,
    handler: Callable[..., Any],
    name: str,
    *,
    accepts: str = "",
    query: str = "",
    errors: tuple[int, ...] = (),
    responses: dict[int, str] | None = None,
    allow: str = "",
) -> Route:
    """A route; ``accepts`` and ``query`` are space-separated names, ``responses`` maps a success status
    to space-separated output media type names ("" for no body), ``allow`` (``"HEAD|GET"``) the methods
    OPTIONS advertises when they are not just ``methods``: these and HEAD, in the reference's order."""
    method_list = tuple(methods.split("|"))
    advertised = tuple(allow.split("|")) if allow else method_list
    if sorted(set(advertised) - {"HEAD"}) != sorted(method_list) or (
        "HEAD" in advertised and "GET" not in method_list
    ):
        raise ValueError(f"route {name} advertises {allow}, not its methods {methods} (and HEAD with GET)")
    converters = []
    pattern = "^"
    position = 0
    for match in _PARAM.finditer(template):
        pattern += re.escape(template[position : match.start()])
        pattern += f"(?P<{match.group(1)}>{_PATTERNS[match.group(2)]})"
        converters.append((match.group(1), _CONVERTERS[match.group(2)]))
        position = match.end()
    pattern += re.escape(template[position:]) + "$"
    return Route(
        method_list,
        template,
        handler,
        name,
        re.compile(pattern),
        tuple(converters),
        accepts=tuple(accepts.split()),
        query=parse_query_spec(query),
        errors=errors,
        responses=None
        if responses is None
        else tuple((status, tuple(media.split())) for status, media in responses.items()),
        allow=advertised,
    )


class _Node:
    """A node of the route trie: the path segments walked so far lead here."""

    __slots__ = ("literals", "parameter", "rest", "routes")

    def __init__(self) -> None:
        self.literals: dict[str, _Node] = {}  # the next segment is this text
        self.parameter: _Node | None = None  # the next segment holds a one-segment parameter
        self.routes: list[tuple[int, Route]] = []  # (declaration index, route) of the templates ending here
        # Templates whose next segment holds a parameter spanning segments ({path:path}, {id:file}): their
        # regex decides whatever follows.
        self.rest: list[tuple[int, Route]] = []


def _insert(root: _Node, index: int, route: Route) -> None:
    node = root
    for segment in route.template.split("/"):
        kinds = [kind for _, kind in template_parameters(segment)]
        if "path" in kinds or "file" in kinds:
            node.rest.append((index, route))
            return
        if kinds:
            node.parameter = node.parameter or _Node()
            node = node.parameter
        else:
            node = node.literals.setdefault(segment, _Node())
    node.routes.append((index, route))


class Router:
    def __init__(self, routes: Iterable[Route]) -> None:
        self.routes = list(routes)
        self.by_name: dict[str, Route] = {}
        # Matching walks a trie of the templates' segments to the few routes whose regex can match the
        # path, so its cost does not grow with the table: trying the regex of every route sharing the
        # path's first segment was a hundred for /content/objects/{contentId}.
        self._trie = _Node()
        for index, route in enumerate(self.routes):
            if route.name in self.by_name:
                raise ValueError(f"duplicate route name {route.name}")
            self.by_name[route.name] = route
            _insert(self._trie, index, route)
        # Hrefs are built on every rendered representation (a content item has a dozen): a route without
        # path parameters is formatted by one str.format_map of its template.
        self._formats = {
            route.name: _format_string(route.template)
            for route in self.routes
            if not any(is_path for _, _, is_path in _pieces(route.template))
        }

    def _routes_for(self, path: str) -> list[tuple[int, Route]]:
        """The routes whose regex can match the path, a superset of those that do, in declaration order.

        A one-segment parameter takes any segment here (even an empty one: the regex decides), and a final
        newline is dropped: ``$`` matches before one, so the regex of ``/content/sections`` matches the path
        followed by a newline (and a final ``{name}`` may take the newline in)."""
        segments = (path[:-1] if path.endswith("\n") else path).split("/")
        end = len(segments)
        found: list[tuple[int, Route]] = []
        walk = [(self._trie, 0)]
        while walk:
            node, depth = walk.pop()
            found += node.rest
            if depth == end:
                found += node.routes
                continue
            literal = node.literals.get(segments[depth])
            if literal is not None:
                walk.append((literal, depth + 1))
            if node.parameter is not None:
                walk.append((node.parameter, depth + 1))
        if len(found) > 1:
            found.sort(key=_index)
        return found

    def _candidates(self, path: str) -> Iterator[tuple[Route, dict[str, Any]]]:
        """The routes matching the path with their converted parameters, in declaration order."""
        for _, route in self._routes_for(path):
            match = route.regex.match(path)
            if match is not None:
                try:
                    params = {name: convert(match.group(name)) for name, convert in route.converters}
                except ValueError:  # an id no resource can have
                    continue
                yield route, params

    def allowed(self, path: str) -> list[str]:
        """The methods the routes of the path's template advertise, in declaration order (OPTIONS
        ``Allow`` and 405): clients compare the header by string, so the table declares them in the
        reference's order (spec/options-allow.tsv).

        HEAD (served by every GET route) is advertised only where a route says so, OPTIONS (answered for
        every route) never. A path two templates match (``/user/sessions/current`` also matches
        ``/user/sessions/{sessionId}``) answers the methods of the first: the reference answers OPTIONS
        per template.
        """
        methods: list[str] = []
        template = None
        for route, _ in self._candidates(path):
            template = template or route.template
            if route.template == template:
                methods.extend(method for method in route.allow if method not in methods)
        return methods

    def match(self, method: str, path: str) -> tuple[Route, dict[str, Any]]:
        lookup = "GET" if method == "HEAD" else method
        found = False
        for route, params in self._candidates(path):
            if method in route.methods or lookup in route.methods:
                return route, params
            found = True
        if not found:
            raise NotFound(f"No resource at '{path}'")
        raise MethodNotAllowed(f"Method {method} is not allowed on '{path}'", self.allowed(path))

    def path(self, name: str, **params: Any) -> str:
        simple = self._formats.get(name)
        if simple is not None:
            return simple.format_map(params)
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
