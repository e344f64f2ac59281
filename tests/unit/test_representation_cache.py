"""The per-process cache of rendered representations: bounded in bytes, oldest entries dropped first."""

from pathlib import Path

from pressroom.app import create_app
from pressroom.config import settings_from_env
from pressroom.rest.output.cache import RepresentationCache


def _rendered(size: int) -> tuple[str, bytes, tuple[tuple[bytes, bytes], ...]]:
    return ('"tag"', b"x" * size, ())


def test_a_full_cache_drops_its_oldest_entries_and_keeps_the_newest() -> None:
    cache = RepresentationCache(max_bytes=1000)
    for n in range(10):
        cache.put(n, _rendered(100))
    assert all(cache.get(n) is not None for n in range(10))
    cache.put(10, _rendered(100))  # over the limit: shrink to three quarters, the new entry included
    kept = [n for n in range(11) if cache.get(n) is not None]
    assert kept == [4, 5, 6, 7, 8, 9, 10]


def test_replacing_an_entry_counts_its_bytes_once() -> None:
    cache = RepresentationCache(max_bytes=1000)
    for _ in range(50):
        cache.put("same", _rendered(400))
    cache.put("other", _rendered(400))
    assert cache.get("same") is not None
    assert cache.get("other") is not None


def test_an_entry_larger_than_the_cache_leaves_only_itself() -> None:
    cache = RepresentationCache(max_bytes=1000)
    cache.put("small", _rendered(10))
    cache.put("large", _rendered(2000))
    assert cache.get("small") is None
    assert cache.get("large") is not None


def test_the_size_is_a_setting_in_megabytes(tmp_path: Path) -> None:
    settings = settings_from_env(
        {"PRESSROOM_REPRESENTATION_CACHE_MB": "2", "PRESSROOM_DATABASE_URL": f"sqlite:///{tmp_path}/db"}
    )
    assert settings.representation_cache_mb == 2
    cache = create_app(settings).representations
    for n in range(2):
        cache.put(n, _rendered(1024 * 1024 - 1))
    assert cache.get(0) is not None and cache.get(1) is not None
    cache.put(2, _rendered(3))  # one byte over two megabytes
    assert cache.get(0) is None
    assert cache.get(2) is not None
