"""Cross-origin requests (CORS): off unless ``PRESSROOM_CORS_ORIGINS`` lists the origins a browser may call
from.

A listed origin gets its own origin back with credentials allowed (the session cookie and Authorization may
travel); ``*`` in the list lets any other origin read answers without credentials. A preflight (OPTIONS with
``Origin`` and ``Access-Control-Request-Method``) is answered with the methods the route declares, the
custom ones (PUBLISH, COPY, MOVE, SWAP) included, and the request headers the API reads. Every answer of a
server with CORS on varies by ``Origin``, so a cache never hands one origin's answer to another.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.datastructures import Headers

ANY_ORIGIN = "*"

# Request headers the API reads; a browser asks before sending any that is not CORS-safelisted.
ALLOWED_HEADERS = (
    "Accept",
    "Authorization",
    "Content-Type",
    "Destination",
    "If-Match",
    "If-None-Match",
    "X-CSRF-Token",
    "X-Expected-User",
    "X-HTTP-Method-Override",
    "X-Siteaccess",
)
# Response headers a script may read besides the safelisted ones.
EXPOSED_HEADERS = ("Accept-Patch", "Allow", "ETag", "Location", "Retry-After")
PREFLIGHT_MAX_AGE_SECONDS = 600

Header = tuple[str, str]


def is_preflight(method: str, headers: Headers) -> bool:
    """An OPTIONS a browser sends before a cross-origin request (not one a client sends for ``Allow``)."""
    return method == "OPTIONS" and "origin" in headers and "access-control-request-method" in headers


class Cors:
    def __init__(self, origins: Sequence[str]) -> None:
        self.any_origin = ANY_ORIGIN in origins
        self.origins = frozenset(origin.rstrip("/") for origin in origins if origin != ANY_ORIGIN)

    @property
    def enabled(self) -> bool:
        return self.any_origin or bool(self.origins)

    def response_headers(self, headers: Headers) -> list[Header]:
        """The CORS headers of an ordinary answer (success or error) to a request from ``Origin``."""
        if not self.enabled:
            return []
        granted = self._grant(headers.get("origin"))
        if granted:
            granted.append(("access-control-expose-headers", ",".join(EXPOSED_HEADERS)))
        return [("vary", "Origin"), *granted]

    def preflight_headers(self, headers: Headers, allowed_methods: Sequence[str]) -> list[Header]:
        """The CORS headers of a preflight answer; none for an origin that is not allowed."""
        if not self.enabled:
            return []
        granted = self._grant(headers.get("origin"))
        if granted:
            granted += [
                ("access-control-allow-methods", ",".join(allowed_methods)),
                ("access-control-allow-headers", ",".join(ALLOWED_HEADERS)),
                ("access-control-max-age", str(PREFLIGHT_MAX_AGE_SECONDS)),
            ]
        return [("vary", "Origin"), *granted]

    def _grant(self, origin: str | None) -> list[Header]:
        if origin is None:
            return []
        if origin in self.origins:
            return [("access-control-allow-origin", origin), ("access-control-allow-credentials", "true")]
        if self.any_origin:
            return [("access-control-allow-origin", ANY_ORIGIN)]
        return []
