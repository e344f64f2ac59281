"""Location inputs: LocationUpdate bodies and the ``Destination`` header of COPY, MOVE, SWAP and restore."""

from __future__ import annotations

from pressroom.domain.content_type import SORT_FIELDS, SORT_ORDERS
from pressroom.domain.errors import BadRequest
from pressroom.domain.location import LocationUpdate
from pressroom.rest.input.content import choice
from pressroom.rest.input.node import Node
from pressroom.rest.input.registry import Refs, parses
from pressroom.rest.routing import Router

TRASH = "trash.list"


@parses("LocationUpdate")
def parse_location_update(node: Node, _refs: Refs) -> LocationUpdate:
    return LocationUpdate(
        priority=node.opt_integer("priority"),
        hidden=node.opt_boolean("hidden"),
        remote_id=node.opt_string("remoteId") or None,
        sort_field=choice(node, "sortField", SORT_FIELDS),
        sort_order=choice(node, "sortOrder", SORT_ORDERS),
    )


def destination(raw: str | None, router: Router, *routes: str) -> tuple[str, str] | None:
    """The route name and location path (empty for the trash) the ``Destination`` header names; None
    when the header is absent. BadRequest when it names anything else."""
    header = (raw or "").strip()
    if not header:
        return None
    name, params = router.parse_href(header, *routes, what="Destination header")
    return name, str(params.get("path", ""))


def location_destination(raw: str | None, router: Router) -> str:
    """The location path a COPY or SWAP names in its (required) ``Destination`` header."""
    found = destination(raw, router, "location.load")
    if found is None:
        raise BadRequest("The Destination header is missing; it must be a location href")
    return found[1]
