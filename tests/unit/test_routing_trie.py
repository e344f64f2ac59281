"""The router's segment trie answers exactly what trying every route's regex in declaration order answers:
for every template of the real table instantiated with edge values, and for random paths (issue 29)."""

from __future__ import annotations

import random
from typing import Any

from pressroom.domain.errors import MethodNotAllowed, NotFound
from pressroom.domain.integers import MAX_ID
from pressroom.rest.routes import ROUTES
from pressroom.rest.routing import Route, Router, make_route, template_parameters

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "COPY", "MOVE", "SWAP", "PUBLISH", "OPTIONS")

SAMPLES: dict[str | None, tuple[str, ...]] = {
    "int": (
        "1", "0", "007", "59", str(MAX_ID), str(MAX_ID + 1), "9999999999", "12345678901", "", "a", "1a", "-1",
    ),
    "path": (
        "1", "1/2/59", "1/2/59/", "1//2", "1/2/", f"1/{MAX_ID + 1}", f"{MAX_ID}/2", "12345678901/2",
        "1/12345678901", "", "/1", "1/a", "1/2/children",
    ),
    "file": ("ab/cd/0123abcdef/a.pdf", "ab/cd/x%20y.pdf", "a%2Fb", "..", "a b", "a/", "", "é"),
    None: ("eng-GB", "123", "12345678901", str(MAX_ID + 1), "a.b", "a%20b", "", "a\n", "current", "é"),
}  # fmt: skip
SUFFIXES = ("", "/", "//", "\n", "/\n", "/x", "/1")


class Reference:
    """The straightforward matcher: every route's regex in declaration order."""

    def __init__(self, routes: list[Route]) -> None:
        self.routes = routes

    def candidates(self, path: str) -> list[tuple[Route, dict[str, Any]]]:
        found = []
        for route in self.routes:
            match = route.regex.match(path)
            if match is None:
                continue
            try:
                params = {name: convert(match.group(name)) for name, convert in route.converters}
            except ValueError:
                continue
            found.append((route, params))
        return found

    def allowed(self, candidates: list[tuple[Route, dict[str, Any]]]) -> list[str]:
        methods: list[str] = []
        for route, _ in candidates:
            if route.template == candidates[0][0].template:
                methods.extend(method for method in route.allow if method not in methods)
        return methods

    def match(self, method: str, candidates: list[tuple[Route, dict[str, Any]]]) -> Any:
        if not candidates:
            return "404"
        for route, params in candidates:
            if method in route.methods or ("GET" if method == "HEAD" else method) in route.methods:
                return route.name, params
        return "405", tuple(self.allowed(candidates))


def answer(router: Router, method: str, path: str) -> Any:
    try:
        route, params = router.match(method, path)
    except NotFound:
        return "404"
    except MethodNotAllowed as error:
        return "405", error.allowed
    return route.name, params


def instantiate(template: str, rng: random.Random, vary: int | None) -> str:
    """The template with each parameter replaced by a sample: parameter ``vary`` by a random one, the others
    by their first (a valid value)."""
    parts = []
    position = 0
    for index, (name, kind) in enumerate(template_parameters(template)):
        marker = "{" + name + (f":{kind}" if kind else "") + "}"
        start = template.index(marker, position)
        parts.append(template[position:start])
        samples = SAMPLES[kind]
        parts.append(rng.choice(samples) if vary is None or index == vary else samples[0])
        position = start + len(marker)
    parts.append(template[position:])
    return "".join(parts)


def paths_of(routes: list[Route], rng: random.Random) -> list[str]:
    paths = ["", "/", "//", "\n", "/\n"]
    for route in routes:
        parameters = template_parameters(route.template)
        for vary in range(len(parameters)):
            for sample in SAMPLES[parameters[vary][1]]:
                fixed = route.template
                for index, (name, kind) in enumerate(parameters):
                    value = sample if index == vary else SAMPLES[kind][0]
                    fixed = fixed.replace("{" + name + (f":{kind}" if kind else "") + "}", value, 1)
                paths.extend(fixed + suffix for suffix in SUFFIXES)
        paths.extend(instantiate(route.template, rng, None) + rng.choice(SUFFIXES) for _ in range(5))
        paths.extend(route.template + suffix for suffix in SUFFIXES)  # the braces as literal text
    words = sorted({word for route in routes for word in route.template.split("/")} | set(SAMPLES[None]))
    for _ in range(1500):  # random walks over the templates' own words and sample values
        segments = [rng.choice(words) for _ in range(rng.randint(0, 7))]
        paths.append("/" + "/".join(segments) + rng.choice(SUFFIXES))
    return paths


def assert_same(routes: list[Route], seed: int) -> None:
    router, reference = Router(routes), Reference(routes)
    for path in paths_of(routes, random.Random(seed)):
        candidates = reference.candidates(path)
        assert router.allowed(path) == reference.allowed(candidates), path
        for method in METHODS:
            assert answer(router, method, path) == reference.match(method, candidates), (method, path)


def test_the_route_table_matches_as_the_reference_does() -> None:
    assert_same(list(ROUTES), seed=29)


def handler(*_args: Any, **_kwargs: Any) -> None:
    return None


def test_overlapping_templates_keep_the_declaration_order() -> None:
    """A name, an id and a literal at the same place, a parameter spanning segments before a literal and
    a file id: whichever the trie walks first, the first declared wins."""
    routes = [
        make_route("GET", "/things/{name}/a", handler, "name.a"),
        make_route("GET|PATCH", "/things/{id:int}", handler, "id.load"),
        make_route("POST", "/things/current", handler, "current.post"),
        make_route("GET|DELETE", "/things/{name}", handler, "name.load"),
        make_route("GET", "/things/{id:int}/a", handler, "id.a"),
        make_route("COPY", "/tree/{path:path}/a", handler, "tree.a"),
        make_route("GET|MOVE", "/tree/{path:path}", handler, "tree.load"),
        make_route("GET", "/tree/1/a", handler, "tree.literal"),
        make_route("GET", "/tree/x{name}", handler, "tree.mixed"),
        make_route("GET", "/files/{fileId:file}", handler, "file.load"),
        make_route("GET", "/files/{name}", handler, "file.name"),
    ]
    for seed in range(5):
        assert_same(routes, seed)
    router = Router(routes)
    assert router.match("GET", "/things/5")[0].name == "id.load"
    assert router.match("DELETE", "/things/5")[0].name == "name.load"
    assert router.match("GET", "/things/12345678901")[1] == {"name": "12345678901"}
    assert router.allowed("/things/5") == ["GET", "PATCH"]
    assert router.match("GET", "/tree/1/a")[0].name == "tree.literal"
    assert router.match("COPY", "/tree/1/a")[0].name == "tree.a"
    assert router.match("GET", "/tree/1/2/")[1] == {"path": "1/2"}
    assert router.match("GET", "/files/a%2Fb")[1] == {"fileId": "a/b"}
    assert router.match("GET", "/things/current\n")[0].name == "name.load"
