"""Who the client is behind a trusted reverse proxy (``PRESSROOM_TRUSTED_PROXIES``).

Only when the TCP peer is a trusted proxy are ``X-Forwarded-For`` (the client's address) and
``X-Forwarded-Proto`` (whether it used HTTPS) believed, and so are the client certificate headers it sets
(rest/certificate.py); from any other peer all are ignored, so that a client cannot pick its own address to
dodge the login throttle, nor name its own certificate. ``X-Forwarded-For`` is walked from the right
(each proxy appends the address it saw) past the hops that are trusted proxies themselves; anything in it
that is not an address leaves the peer as the client.
"""

from __future__ import annotations

import ipaddress
from collections.abc import MutableMapping
from typing import Any, NamedTuple

from pressroom.config import Network

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class Client(NamedTuple):
    address: str | None  # for the login throttle and the access log
    https: bool  # the client used HTTPS: the session cookie is Secure
    proxied: bool = False  # the TCP peer is a trusted proxy: the headers it sets are believed


def client_of(scope: MutableMapping[str, Any], trusted: tuple[Network, ...]) -> Client:
    peer = scope.get("client")
    address = str(peer[0]) if peer else None
    https = scope.get("scheme") == "https"
    if not trusted or address is None or not _is_trusted(_parse(address), trusted):
        return Client(address, https)
    forwarded_for: list[str] = []
    proto: str | None = None
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            forwarded_for.append(bytes(value).decode("latin-1"))
        elif name == b"x-forwarded-proto":
            proto = bytes(value).decode("latin-1")
    if proto is not None and proto.rsplit(",", 1)[-1].strip().lower() == "https":
        https = True
    return Client(_forwarded_client(forwarded_for, trusted) or address, https, proxied=True)


def _forwarded_client(lines: list[str], trusted: tuple[Network, ...]) -> str | None:
    """The rightmost hop that is not a trusted proxy (the leftmost when all are); None when there is no
    hop or the walk meets something that is not an address."""
    hops = [hop.strip() for hop in ",".join(lines).split(",")]
    leftmost: Address | None = None
    for hop in reversed(hops):
        ip = _parse(hop)
        if ip is None:
            return None
        if not _is_trusted(ip, trusted):
            return str(ip)
        leftmost = ip
    return str(leftmost) if leftmost is not None else None


def _parse(text: str) -> Address | None:
    """An address as proxies write it: ``192.0.2.1``, ``2001:db8::1``, with a port ``192.0.2.1:4711`` or
    ``[2001:db8::1]:4711``; an IPv4-mapped IPv6 address is its IPv4 address."""
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _is_trusted(ip: Address | None, trusted: tuple[Network, ...]) -> bool:
    return ip is not None and any(ip in network for network in trusted)
