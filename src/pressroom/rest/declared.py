"""What each operation of the route table answers, derived from what the code already says.

Success responses come from the handler's return type (checked by mypy against what it returns): a value
type answers 200 in the media type its visitor declares (rest/output/visitor.py), ``Created[X]`` 201
(with X's representation, or no body for ``Created[None]``), ``NoContent`` 204, ``Redirect`` 307 and
``RawBody`` a stored file under its own type. A handler whose return type cannot say it (``Empty``,
``WithHeaders``) has its responses declared in the route table; the application refuses to send a
success answer its route does not declare (rest/app.py).

Error statuses: those every operation can answer, those of operations that read a body, and the ones the
route table adds (``errors=``).
"""

from __future__ import annotations

import types
import typing
from typing import Any

from pressroom.rest.output.lists import ItemList
from pressroom.rest.output.visitor import output_of
from pressroom.rest.responses import Created, NoContent, RawBody, Redirect, Stream
from pressroom.rest.routing import Route

RAW = "*/*"  # a stored file, answered under its own media type

# Every operation: a bad parameter or header (400), bad credentials (401), no permission (403), too many
# failed logins (429, any request may carry a password), the database not answering (503).
COMMON_ERRORS = (400, 401, 403, 429, 503)
# Operations that read a body: it came too slowly (408), too large (413), of a type not accepted (415).
BODY_ERRORS = (408, 413, 415)

Responses = dict[int, tuple[str, ...]]


class UndeclaredResponse(TypeError):
    """A handler's return type does not say what it answers, and its route does not declare it."""


def success_responses(route: Route) -> Responses:
    """Success status -> output media type names (empty: no body; ``RAW``: a stored file)."""
    if route.responses is not None:
        return dict(route.responses)
    returned = typing.get_type_hints(route.handler)["return"]
    found: dict[int, list[str]] = {}
    for status, media in _outcomes(route, returned):
        names = found.setdefault(status, [])
        if media is not None and media not in names:
            names.append(media)
    return {status: tuple(names) for status, names in found.items()}


def _members(kind: Any) -> tuple[Any, ...]:
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return typing.get_args(kind)
    return (kind,)


def _outcomes(route: Route, returned: Any) -> list[tuple[int, str | None]]:
    outcomes: list[tuple[int, str | None]] = []
    for kind in _members(returned):
        if typing.get_origin(kind) is Created:
            for value in _members(typing.get_args(kind)[0]):
                if value is type(None):
                    outcomes.append((201, None))
                else:
                    outcomes.extend((201, media) for media in _media(route, value))
        elif kind is NoContent:
            outcomes.append((204, None))
        elif kind is Redirect:
            outcomes.append((307, None))
        elif kind is RawBody or kind is Stream:
            outcomes.append((200, RAW))
        else:
            outcomes.extend((200, media) for media in _media(route, kind))
    return outcomes


def _media(route: Route, kind: Any) -> tuple[str, ...]:
    if typing.get_origin(kind) is ItemList:  # ItemList[Literal["SectionList"], Section]
        return typing.get_args(typing.get_args(kind)[0])
    output = output_of(kind) if isinstance(kind, type) else None
    if output is None:
        raise UndeclaredResponse(
            f"route {route.name}: its handler returns {kind!r}, which does not say what it answers; "
            "declare responses= in the route table"
        )
    return output.media


def error_statuses(route: Route) -> tuple[int, ...]:
    statuses = set(COMMON_ERRORS) | set(route.errors)
    if "{" in route.template or route.query:
        statuses.add(404)  # what the path or a query parameter names does not exist (or is not visible)
    if route.accepts:
        statuses.update(BODY_ERRORS)
    return tuple(sorted(statuses))


def declared_responses(routes: typing.Iterable[Route]) -> dict[str, Responses]:
    """The success responses of every route by name; raises for a route whose answers are unknown."""
    return {route.name: success_responses(route) for route in routes}
