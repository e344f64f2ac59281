"""rest/httpcache.cache_headers: the keys header stays within what proxies read, and carries Surrogate-Key
(Fastly's header) only when asked."""

from __future__ import annotations

from typing import NoReturn

from pressroom.domain.location import Location
from pressroom.rest.httpcache import MAX_KEYS_HEADER, PRIVATE, cache_headers
from pressroom.rest.output.location import LocationRefList


def _children(count: int) -> LocationRefList:
    return LocationRefList(
        "LocationList",
        "/api/ibexa/v2/content/locations/1/2/children",
        [
            Location(100 + n, 2, 1000 + n, f"/1/2/{100 + n}/", 2, 0, False, False, f"r{n}", "path", "ASC")
            for n in range(count)
        ],
    )


def _no_rights() -> NoReturn:
    raise AssertionError("a request without a hash costs no read of rights")


def _headers(count: int, surrogate_key: bool = False) -> dict[str, str]:
    params = {"path": "1/2"}
    found = cache_headers(
        200, "location.children", params, _children(count), _no_rights, None, 60, surrogate_key
    )
    return dict(found)


def test_a_list_showing_too_many_keys_is_not_shared() -> None:
    small = _headers(20)
    assert small["cache-control"] == "public, max-age=0, s-maxage=60"
    assert {"l100", "c1000", "pl2", "ez-all"} <= set(small["xkey"].split())
    assert "surrogate-key" not in small
    large = _headers(1000)  # ~15 KB of keys: Varnish would refuse the header line
    assert large == {"cache-control": PRIVATE}
    assert len(" ".join(f"l{100 + n} c{1000 + n}" for n in range(1000))) > MAX_KEYS_HEADER


def test_surrogate_key_repeats_the_keys_when_asked() -> None:
    found = _headers(3, surrogate_key=True)
    assert found["surrogate-key"] == found["xkey"]
