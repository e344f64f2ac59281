"""Shared-cache headers: which answers a reverse proxy may keep, for whom, and under which surrogate keys.

A cacheable answer is a 200/304 to a ``GET``/``HEAD`` of a route in :data:`ROUTE_KEYS`. It gets
``Cache-Control: public, max-age=0, s-maxage=<ttl>``, ``Vary`` on ``Accept`` and ``X-User-Context-Hash``,
and an ``xkey`` header: the keys of the route's parameters and of what the value shows
(``domain/cache_tags.py``); the same keys in ``Surrogate-Key`` too when a Fastly endpoint is configured
(Fastly reads that header; emitting it only then keeps the answers of a Varnish-only setup small). A
request that presents a hash (``X-User-Context-Hash``, set by the proxy) gets
a shareable answer only when the hash is the caller's own and its rights are not personal; one without a
hash came past no proxy doing the hash flow, and its answer costs no read of the caller's rights. Every
other answer, errors included (a 404 would otherwise outlive the create that ends it), is
``private, no-store``.

``GET /_fos_user_context_hash`` (the path the reference's VCL asks) answers the caller's hash, kept per
credential (``Vary: Cookie, Authorization``) for ``user_context_hash_ttl``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import cookie_parser

from pressroom.config import Settings
from pressroom.domain.cache_tags import USER_CONTEXT, context_hash, is_personal, keys_header, location_keys
from pressroom.domain.content import ContentInfo, Version
from pressroom.domain.errors import MethodNotAllowed
from pressroom.domain.location import Location
from pressroom.domain.user import User
from pressroom.rest.auth import identify
from pressroom.rest.forwarded import Client
from pressroom.rest.output.content import ContentView, VersionList
from pressroom.rest.output.lists import ItemList
from pressroom.services.container import Services
from pressroom.services.permissions import Permissions
from pressroom.storage.purge import uses_surrogate_key

USER_CONTEXT_PATH = "/_fos_user_context_hash"
HASH_HEADER = "x-user-context-hash"
PRIVATE = "private, no-store"
# Bytes of keys an answer may carry: Varnish refuses a header line past 8 KB (http_resp_hdr_len), Fastly
# reads 16 KB of Surrogate-Key. An answer showing more (a list of hundreds of items) is not shared.
MAX_KEYS_HEADER = 8000


def _int(name: str, prefix: str) -> Callable[[Mapping[str, Any]], list[str]]:
    return lambda params: [f"{prefix}{params[name]}"]


def _leading(name: str, prefix: str) -> Callable[[Mapping[str, Any]], list[str]]:
    """An id such as ``"42-7-3"`` (image ids): the item is its first number."""

    def keys(params: Mapping[str, Any]) -> list[str]:
        head = str(params[name]).split("-", 1)[0]
        return [f"{prefix}{head}"] if head.isdigit() else []

    return keys


def _location(params: Mapping[str, Any]) -> list[str]:
    path = str(params["path"]).strip("/")
    last = path.rsplit("/", 1)[-1]
    return [f"l{last}", f"pl{last}"] if last.isdigit() else []


def _none(_params: Mapping[str, Any]) -> list[str]:
    return []


# Cacheable routes -> the keys their path parameters name (what the value shows is added to them).
ROUTE_KEYS: Mapping[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "section.list": lambda _: ["s-list"],
    "section.load": _int("sectionId", "s"),
    "content_type_group.list": lambda _: ["ct-list"],
    "content_type_group.load": _int("groupId", "ctg"),
    "content_type_group.types": lambda params: [f"ctg{params['groupId']}", "ct-list"],
    "content_type.list": lambda _: ["ct-list"],
    "content_type.load": _int("typeId", "ct"),
    "content_type.groups": lambda params: [f"ct{params['typeId']}", "ct-list"],
    "field_definition.list": _int("typeId", "ct"),
    "field_definition.load": _int("typeId", "ct"),
    "field_definition.by_identifier": _int("typeId", "ct"),
    "content.load": _int("contentId", "c"),
    "version.list": lambda params: [f"c{params['contentId']}", f"cv{params['contentId']}"],
    "version.load": lambda params: [f"c{params['contentId']}", f"cv{params['contentId']}"],
    "relation.list": lambda params: [f"c{params['contentId']}", f"cv{params['contentId']}"],
    "relation.load": lambda params: [f"c{params['contentId']}", f"cv{params['contentId']}"],
    "content.locations": _int("contentId", "c"),
    "content.object_states": lambda params: [f"c{params['contentId']}", "os-list"],
    "location.load": _location,
    "location.children": _location,
    "location.url_aliases": lambda params: [*_location(params), "ua"],
    "object_state_group.list": lambda _: ["os-list"],
    "object_state_group.load": lambda params: [f"osg{params['groupId']}", "os-list"],
    "object_state.list": lambda params: [f"osg{params['groupId']}", "os-list"],
    "object_state.load": lambda params: [f"os{params['stateId']}", "os-list"],
    "url_alias.list": lambda _: ["ua"],
    "url_alias.load": lambda _: ["ua"],
    "image.variation": _leading("imageId", "c"),
    "image.asset": _leading("assetId", "c"),
    "language.list": _none,
    "language.load": _none,
    "country.list": _none,
}


def value_keys(value: Any) -> set[str]:
    """The keys of what a handler's value shows: items, their types and sections, locations (with
    their ancestors), relation targets."""
    keys: set[str] = set()
    if isinstance(value, ContentView):
        value = value.version
    if isinstance(value, Version):
        keys |= _info_keys(value.content)
        keys.add(f"cv{value.content.id}")
        keys.update(f"r{relation.destination_content_id}" for relation in value.relations)
    elif isinstance(value, ContentInfo):
        keys |= _info_keys(value)
    elif isinstance(value, VersionList):
        keys |= _info_keys(value.content)
        keys.add(f"cv{value.content.id}")
    elif isinstance(value, Location):
        keys |= _location_value_keys(value)
    elif isinstance(value, ItemList) and value.media in ("LocationList", "Locations"):
        for location in value.items:
            keys |= _location_value_keys(location)
    return keys


def _info_keys(info: ContentInfo) -> set[str]:
    keys = {f"c{info.id}", f"ct{info.content_type_id}", f"s{info.section_id}"}
    if info.main_location_id is not None:
        keys |= location_keys(info.main_location_id, None, info.main_location_path)
    return keys


def _location_value_keys(location: Location) -> set[str]:
    keys = location_keys(location.id, location.parent_id, location.path_string)
    if location.content_id is not None:
        keys.add(f"c{location.content_id}")
    if location.content_info is not None:
        keys |= _info_keys(location.content_info)
    return keys


class CallerRights:
    """The hash of a caller's rights, and whether answers to it may be shared at all."""

    __slots__ = ("hash", "shareable")

    def __init__(self, permissions: Permissions, user: User) -> None:
        grants = permissions.grants(user)
        self.hash = context_hash(grants, user.id)
        self.shareable = not is_personal(grants)


def cache_headers(
    status: int, route_name: str | None, params: Mapping[str, Any], value: Any,
    rights: Callable[[], CallerRights], presented_hash: str | None, ttl: int, surrogate_key: bool = False,
    *, anonymous: bool = True,
) -> list[tuple[str, str]]:  # fmt: skip
    """The Cache-Control, Vary and xkey headers of a ``GET``/``HEAD`` answer, and ``Surrogate-Key`` (the
    same keys, for Fastly) when ``surrogate_key`` is on. A logged-in caller's answer is shared only under
    the hash a proxy doing the hash flow presented, and only when it is the caller's: without one, a
    proxy that keys answers by the hash alone (or one that does not do the flow at all) would file it
    where anonymous readers look."""
    route_keys = ROUTE_KEYS.get(route_name or "")
    if route_keys is None or ttl <= 0 or status not in (200, 304):
        return [("cache-control", PRIVATE)]
    if presented_hash is None:
        if not anonymous:
            return [("cache-control", PRIVATE)]
    else:  # through a proxy doing the hash flow: checked (costs no read otherwise)
        caller = rights()
        if not caller.shareable or presented_hash != caller.hash:
            return [("cache-control", PRIVATE)]
    keys = keys_header({*route_keys(params), *value_keys(value)})
    if len(keys) > MAX_KEYS_HEADER:  # a proxy would refuse the answer, or keep it past a purge it missed
        return [("cache-control", PRIVATE)]
    headers = [
        ("cache-control", f"public, max-age=0, s-maxage={ttl}"),
        ("vary", "X-User-Context-Hash"),
        ("xkey", keys),
    ]
    if surrogate_key:
        headers.append(("surrogate-key", keys))
    return headers


async def user_context_answer(
    services: Services, settings: Settings, method: str, headers: Headers, client: Client
) -> list[tuple[str, str]]:
    """The headers of the ``/_fos_user_context_hash`` answer (its body is empty): the caller is identified
    from the rows (never a process cache), and the answer kept per credential."""
    if method not in ("GET", "HEAD"):
        raise MethodNotAllowed(f"{USER_CONTEXT_PATH} answers GET and HEAD", ("GET", "HEAD"))
    cookies = cookie_parser(headers.get("cookie", ""))
    caller = await identify(
        services.auth, settings, headers, cookies, "GET", "user_context_hash", client,
        oauth=services.oauth, cached=False,
    )  # fmt: skip
    rights = CallerRights(services.permissions, caller.user)
    ttl = settings.user_context_hash_ttl
    return [
        ("content-type", "application/vnd.fos.user-context-hash"),
        ("x-user-context-hash", rights.hash),
        ("cache-control", f"max-age={ttl}" if ttl > 0 else "no-store"),
        ("vary", "Cookie, Authorization"),
        ("xkey", USER_CONTEXT),
        *([("surrogate-key", USER_CONTEXT)] if uses_surrogate_key(settings.http_cache_purge) else []),
        ("content-length", "0"),
    ]
