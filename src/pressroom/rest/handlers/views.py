"""Search views: ``POST /views`` runs a ViewInput and answers the View; the deprecated ``POST
/content/views`` does the same under 301 with Location /views, as the reference does.

Stored views (``GET /views``, ``/views/{identifier}`` and its ``/results``) are not implemented by the
reference, which answers them 501 with an ErrorMessage (endpoints-content.tsv); so does this server. The
View's hrefs still name them, as the reference's do."""

from __future__ import annotations

from typing import NoReturn

from pressroom.domain.errors import NotImplementedHere
from pressroom.rest.input.view import view_input
from pressroom.rest.output.view import View
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import WithHeaders


def _run(req: RestRequest) -> View:
    request = req.input(view_input)
    search = req.services.search
    if request.locations:
        return View(request.identifier, search.find_locations(req.user, request.query))
    return View(request.identifier, search.find_content(req.user, request.query))


def create_view(req: RestRequest) -> View:
    """Search: the content items (ContentQuery, or Query in ViewInput 1.0) or locations (LocationQuery)
    matching the view's criteria that the caller may read, a page of them, with aggregations."""
    return _run(req)


def create_view_deprecated(req: RestRequest) -> WithHeaders:
    """Deprecated alias of POST /views: the same View, under 301 with Location /views."""
    return WithHeaders(_run(req), status=301, headers={"Location": req.url("view.create")})


def stored_views(req: RestRequest, viewId: str | None = None) -> NoReturn:
    """Stored views: named by the API and by every View's hrefs, implemented by neither (501)."""
    raise NotImplementedHere("Stored views are not implemented; run a search with POST /views")
