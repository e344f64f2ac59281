"""The per-process cache of rendered representations: bounded in bytes (what it keeps, compressed, plus a
charge per entry), oldest entries dropped first, hits and misses counted in /metrics."""

import os
import re
from pathlib import Path

from pressroom.app import create_app
from pressroom.config import settings_from_env
from pressroom.metrics import render_metrics
from pressroom.rest.output.cache import ENTRY_OVERHEAD, PACK_FROM, RepresentationCache

HEADERS = ((b"content-type", b"application/json"),)
CHARGE = ENTRY_OVERHEAD + sum(len(name) + len(value) for name, value in HEADERS)


def _rendered(size: int) -> tuple[str, bytes, tuple[tuple[bytes, bytes], ...]]:
    """A body that does not compress (random bytes), so its charge is about its size."""
    return ('"tag"', os.urandom(size), HEADERS)


def test_a_full_cache_drops_its_oldest_entries_and_keeps_the_newest() -> None:
    cache = RepresentationCache(max_bytes=10 * (100 + CHARGE))  # ten small bodies, kept as they are
    for n in range(10):
        cache.put(n, _rendered(100))
    assert all(cache.get(n) is not None for n in range(10))
    cache.put(10, _rendered(100))  # over the limit: shrink to three quarters, the new entry included
    kept = [n for n in range(11) if cache.get(n) is not None]
    assert kept == [4, 5, 6, 7, 8, 9, 10]


def test_replacing_an_entry_counts_its_bytes_once() -> None:
    cache = RepresentationCache(max_bytes=2 * (400 + CHARGE))
    for _ in range(50):
        cache.put("same", _rendered(400))
    assert cache.size == 400 + CHARGE
    cache.put("other", _rendered(400))
    assert cache.get("same") is not None
    assert cache.get("other") is not None


def test_an_entry_larger_than_the_cache_leaves_only_itself() -> None:
    cache = RepresentationCache(max_bytes=1000)
    cache.put("small", _rendered(10))
    cache.put("large", _rendered(2000))
    assert cache.get("small") is None
    assert cache.get("large") is not None


def test_bodies_are_kept_compressed_and_come_back_whole() -> None:
    cache = RepresentationCache(max_bytes=1 << 20)
    body = b"".join(
        b'{"_href": "/api/ibexa/v2/content/objects/%d", "_media-type": "x"},' % n for n in range(2000)
    )
    cache.put("big", ('"e"', body, HEADERS))
    assert cache.size < len(body) // 4
    assert cache.get("big") == ('"e"', body, (*HEADERS, (b"content-length", b"%d" % len(body))))
    small = b'{"a": 1}'
    assert len(small) < PACK_FROM
    cache.put("small", (None, small, ()))
    assert cache.get("small") == (None, small, ((b"content-length", b"%d" % len(small)),))


def test_entries_share_their_header_lines_and_leave_the_length_out() -> None:
    cache = RepresentationCache(max_bytes=1 << 20)
    for n in range(2):
        headers = ((b"content-type", b"application/json"), (b"content-length", b"%d" % (10 + n)))
        cache.put(
            n, (None, os.urandom(10 + n), tuple((bytes(name), bytes(value)) for name, value in headers))
        )
    first, second = cache.get(0), cache.get(1)
    assert first is not None and second is not None
    assert first[2][0] is second[2][0]  # one instance of the same line
    assert [line[1] for line in (first[2][-1], second[2][-1])] == [b"10", b"11"]


def _lookups(result: str) -> float:
    found = re.search(
        rf'^pressroom_representation_cache_lookups_total{{result="{result}"}} (\S+)$',
        render_metrics().decode(),
        re.M,
    )
    return float(found.group(1)) if found else 0.0


def test_hits_and_misses_are_counted_in_the_metrics() -> None:
    cache = RepresentationCache(max_bytes=1 << 20)
    hits, misses = _lookups("hit"), _lookups("miss")
    assert cache.get("absent") is None
    cache.put("present", _rendered(10))
    assert cache.get("present") is not None
    assert cache.get("present") is not None
    assert (_lookups("hit") - hits, _lookups("miss") - misses) == (2.0, 1.0)


def test_the_size_is_a_setting_in_megabytes(tmp_path: Path) -> None:
    settings = settings_from_env(
        {"PRESSROOM_REPRESENTATION_CACHE_MB": "2", "PRESSROOM_DATABASE_URL": f"sqlite:///{tmp_path}/db"}
    )
    assert settings.representation_cache_mb == 2
    cache = create_app(settings).representations
    for n in range(2):
        cache.put(n, _rendered(900 * 1024))
    assert cache.get(0) is not None and cache.get(1) is not None
    cache.put(2, _rendered(300 * 1024))  # past two megabytes: the oldest goes
    assert cache.get(0) is None
    assert cache.get(1) is not None and cache.get(2) is not None
    assert cache.size <= 2 * 1024 * 1024
