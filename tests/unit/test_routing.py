"""Route matching, typed parameters, 404/405 with Allow, href building and parsing (DESIGN.md, routes)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pressroom.domain.errors import BadRequest, MethodNotAllowed, NotFound
from pressroom.rest.routes import ROUTES, build_router
from pressroom.rest.routing import Router, make_route

PREFIXES = ["/api/ibexa/v2", "/api/ezp/v2"]


def handler(*_args: Any, **_kwargs: Any) -> None:
    return None


@pytest.fixture
def router() -> Router:
    return Router(
        [
            make_route("GET", "/", handler, "root.load"),
            make_route("GET", "/content/sections", handler, "section.list"),
            make_route("POST", "/content/sections", handler, "section.create"),
            make_route("GET|PATCH|DELETE", "/content/sections/{sectionId:int}", handler, "section.load"),
            make_route("GET|MOVE|COPY|SWAP", "/content/locations/{path:path}", handler, "location.load"),
            make_route("GET", "/content/locations/{path:path}/children", handler, "location.children"),
            make_route("GET", "/languages/{code}", handler, "language.load"),
            make_route("POST", "/user/sessions/{sessionId}/refresh", handler, "session.refresh"),
        ]
    )


def test_match_returns_the_route_and_typed_parameters(router: Router) -> None:
    route, params = router.match("GET", "/content/sections/12")
    assert route.name == "section.load"
    assert params == {"sectionId": 12}
    assert isinstance(params["sectionId"], int)


def test_the_same_path_dispatches_on_the_method(router: Router) -> None:
    assert router.match("GET", "/content/sections")[0].name == "section.list"
    assert router.match("POST", "/content/sections")[0].name == "section.create"


def test_root_matches(router: Router) -> None:
    assert router.match("GET", "/") == (router.by_name["root.load"], {})


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/content/locations/1", "1"),
        ("/content/locations/1/2/59", "1/2/59"),
        ("/content/locations/1/2/59/", "1/2/59"),
    ],
)
def test_path_parameters_are_id_paths_without_slashes_at_the_ends(
    router: Router, path: str, expected: str
) -> None:
    route, params = router.match("GET", path)
    assert route.name == "location.load"
    assert params == {"path": expected}


def test_a_route_after_a_path_parameter_still_matches(router: Router) -> None:
    route, params = router.match("GET", "/content/locations/1/2/children")
    assert route.name == "location.children"
    assert params == {"path": "1/2"}


def test_plain_parameters_are_one_segment(router: Router) -> None:
    assert router.match("GET", "/languages/eng-GB")[1] == {"code": "eng-GB"}
    assert router.match("POST", "/user/sessions/a-b_c/refresh")[1] == {"sessionId": "a-b_c"}
    with pytest.raises(NotFound):
        router.match("GET", "/languages/eng-GB/extra")


@pytest.mark.parametrize(
    "path",
    [
        "/content/sections/abc",
        "/content/sections/-1",
        "/content/sections/1/",
        "/content/sections/",
        "/content/locations/1/x",
        "/content/locations/",
        "/nothing",
        "",
        "/Content/sections",
    ],
)
def test_unknown_paths_are_not_found(router: Router, path: str) -> None:
    with pytest.raises(NotFound) as caught:
        router.match("GET", path)
    assert path in caught.value.message


def test_wrong_method_is_405_with_the_allowed_methods(router: Router) -> None:
    with pytest.raises(MethodNotAllowed) as caught:
        router.match("PUBLISH", "/content/sections/1")
    assert caught.value.allowed == ("GET", "PATCH", "DELETE")
    assert "PUBLISH" in caught.value.message


def test_allowed_merges_every_route_on_the_path(router: Router) -> None:
    assert router.allowed("/content/sections") == ["GET", "POST"]
    assert router.allowed("/content/locations/1/2") == ["GET", "MOVE", "COPY", "SWAP"]
    assert router.allowed("/user/sessions/x/refresh") == ["POST"]
    assert router.allowed("/nothing") == []


def test_allowed_follows_the_declaration_order_with_head_where_a_route_advertises_it() -> None:
    router = Router(
        [
            make_route("POST", "/bookmark/{id:int}", handler, "bookmark.create"),
            make_route("DELETE", "/bookmark/{id:int}", handler, "bookmark.delete"),
            make_route("GET", "/bookmark/{id:int}", handler, "bookmark.load", allow="GET|HEAD"),
        ]
    )
    assert router.allowed("/bookmark/2") == ["POST", "DELETE", "GET", "HEAD"]
    assert router.match("HEAD", "/bookmark/2")[0].name == "bookmark.load"


def test_a_path_two_templates_match_is_allowed_what_the_first_declares() -> None:
    router = Router(
        [
            make_route("GET", "/user/sessions/current", handler, "session.current"),
            make_route("DELETE", "/user/sessions/{sessionId}", handler, "session.delete"),
        ]
    )
    assert router.allowed("/user/sessions/current") == ["GET"]
    assert router.allowed("/user/sessions/abc") == ["DELETE"]
    assert router.match("DELETE", "/user/sessions/current")[0].name == "session.delete"


@pytest.mark.parametrize(("methods", "allow"), [("GET", "GET|POST"), ("POST", "HEAD|POST"), ("GET", "PATCH")])
def test_a_route_advertises_its_methods_and_head_only(methods: str, allow: str) -> None:
    with pytest.raises(ValueError, match="advertises"):
        make_route(methods, "/x", handler, "x.load", allow=allow)


def test_head_is_served_by_the_get_route(router: Router) -> None:
    route, params = router.match("HEAD", "/content/sections/3")
    assert route.name == "section.load"
    assert params == {"sectionId": 3}


def test_head_is_not_allowed_without_get(router: Router) -> None:
    with pytest.raises(MethodNotAllowed) as caught:
        router.match("HEAD", "/user/sessions/x/refresh")
    assert caught.value.allowed == ("POST",)


def test_duplicate_route_names_are_refused() -> None:
    with pytest.raises(ValueError, match=r"duplicate route name section\.load"):
        Router(
            [
                make_route("GET", "/a", handler, "section.load"),
                make_route("GET", "/b", handler, "section.load"),
            ]
        )


# -- href building -----------------------------------------------------------------------------------


def test_path_builds_hrefs_from_route_names(router: Router) -> None:
    assert router.path("section.load", sectionId=5) == "/content/sections/5"
    assert router.path("section.list") == "/content/sections"
    assert router.path("language.load", code="eng-GB") == "/languages/eng-GB"


def test_path_parameters_are_trimmed_when_building(router: Router) -> None:
    assert router.path("location.load", path="/1/2/59/") == "/content/locations/1/2/59"
    assert router.path("location.children", path="1/2") == "/content/locations/1/2/children"


# -- href parsing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", PREFIXES)
def test_parse_href_accepts_both_prefixes(router: Router, prefix: str) -> None:
    assert router.parse_href(f"{prefix}/content/sections/7", "section.load") == (
        "section.load",
        {"sectionId": 7},
    )
    assert router.parse_href(f"{prefix}/content/locations/1/2/59", "location.load") == (
        "location.load",
        {"path": "1/2/59"},
    )


@pytest.mark.parametrize("prefix", PREFIXES)
def test_parse_href_tolerates_a_trailing_slash_on_id_paths_and_a_query(router: Router, prefix: str) -> None:
    assert router.parse_href(f"{prefix}/content/locations/1/2/", "location.load")[1] == {"path": "1/2"}
    assert router.parse_href(f"{prefix}/content/sections/7?x=1", "section.load")[1] == {"sectionId": 7}


def test_parse_href_returns_the_first_matching_name(router: Router) -> None:
    href = "/api/ibexa/v2/content/locations/1/2/children"
    assert router.parse_href(href, "location.load", "location.children") == (
        "location.children",
        {"path": "1/2"},
    )


@pytest.mark.parametrize(
    "href",
    [
        "/content/sections/7",  # no prefix
        "7",  # a bare id
        "/api/ibexa/v2/content/locations/1/2",  # another resource
        "/api/ibexa/v2/content/sections/x",
        "",
    ],
)
def test_parse_href_refuses_other_references_naming_what_was_expected(router: Router, href: str) -> None:
    with pytest.raises(BadRequest) as caught:
        router.parse_href(href, "section.load", what="Section href")
    assert caught.value.message == (
        f"Invalid Section href '{href}': expected a reference like '/api/ibexa/v2/content/sections/1'"
    )


# -- the real route table ----------------------------------------------------------------------------

SAMPLES: dict[str, Any] = {"int": 3, "path": "1/2/3", "": "eng-GB"}


def sample_params(template: str) -> dict[str, Any]:
    """A value of the right type for every parameter of a route template."""
    params = {}
    for name, kind in re.findall(r"\{([A-Za-z_]+)(?::([a-z]+))?\}", template):
        if kind not in SAMPLES:
            pytest.skip(f"no sample value for parameters of kind '{kind}' ({template})")
        params[name] = SAMPLES[kind]
    return params


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.name)
@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_route_href_parses_back_to_its_route(route: Any, prefix: str) -> None:
    router = build_router()
    params = sample_params(route.template)
    path = router.path(route.name, **params)
    assert router.parse_href(prefix + path, route.name) == (route.name, params)
    # HEAD and OPTIONS are served everywhere but advertised only where a route of the template declares
    # them (HEAD on /user/users and /bookmark/{locationId}, as the reference does; OPTIONS nowhere)
    declared = {method for other in ROUTES if other.template == route.template for method in other.allow}
    assert set(route.methods) <= declared
    assert set(router.allowed(path)) == declared
    assert "OPTIONS" not in declared
