"""The single route table: (methods, path below the prefix, handler, name). Names build hrefs."""

from __future__ import annotations

from pressroom.rest.handlers import basics, sessions
from pressroom.rest.routing import Route, Router, make_route

ROUTES: list[Route] = [
    make_route("GET", "/", basics.load_root, "root.load"),
    # sections
    make_route("GET", "/content/sections", basics.list_sections, "section.list"),
    make_route("POST", "/content/sections", basics.create_section, "section.create"),
    make_route("GET", "/content/sections/{sectionId:int}", basics.load_section, "section.load"),
    make_route("PATCH", "/content/sections/{sectionId:int}", basics.update_section, "section.update"),
    make_route("DELETE", "/content/sections/{sectionId:int}", basics.delete_section, "section.delete"),
    # languages and countries
    make_route("GET", "/languages", basics.list_languages, "language.list"),
    make_route("GET", "/languages/{code}", basics.load_language, "language.load"),
    make_route("GET", "/services/countries", basics.list_countries, "country.list"),
    # sessions, tokens, current user
    make_route("POST", "/user/sessions", sessions.create_session, "session.create"),
    make_route("GET", "/user/sessions/current", sessions.current_session, "session.current"),
    make_route("POST", "/user/sessions/{sessionId}/refresh", sessions.refresh_session, "session.refresh"),
    make_route("DELETE", "/user/sessions/{sessionId}", sessions.delete_session, "session.delete"),
    make_route("POST", "/user/token/jwt", sessions.create_token, "token.create"),
    make_route("GET", "/user/current", sessions.current_user, "user.current"),
]


def build_router() -> Router:
    return Router(ROUTES)
