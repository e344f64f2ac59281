"""Rendered representations kept per process, for values that carry a ``cache_key``.

A value's ``cache_key`` is built by the service from a stamp that changes whenever anything the value
shows could change (see ``services/version_cache.py``), so an entry never needs invalidating: a changed
value gets a new key, and the oldest entries go when the cache is full. The key adds the dialect and format.

Bodies are kept compressed (zlib, fastest level): a content item's JSON or XML shrinks about four times, so
the cache holds every item of a 10,000-item repository in both formats in about 25 MB instead of 90, and
inflating a body on a hit costs a few microseconds, against the hundreds a rendering costs. Bodies too small
to gain are kept as they are. The size limit counts what is kept, plus a fixed charge per entry for the key
and the bookkeeping, so it bounds the memory the cache really takes. Hits and misses are counted in
``/metrics`` (``pressroom_representation_cache_lookups_total``).
"""

from __future__ import annotations

import zlib
from collections.abc import Hashable

from pressroom.metrics import cache_lookups

Rendered = tuple[str | None, bytes, tuple[tuple[bytes, bytes], ...]]  # ETag, body, headers
# What an entry holds: ETag, the body (compressed when ``packed``), headers, packed.
_Kept = tuple[str | None, bytes, tuple[tuple[bytes, bytes], ...], bool]

PACK_FROM = 512  # bytes: smaller bodies are kept as they are
ENTRY_OVERHEAD = 200  # bytes charged per entry: its key, tuples and dictionary slot
SHARED_HEADERS = 4096  # distinct header lines kept once for all entries (then the set starts again)
LENGTH = b"content-length"


class RepresentationCache:
    def __init__(self, max_bytes: int) -> None:
        self._entries: dict[Hashable, _Kept] = {}
        self._bytes = 0
        self._max_bytes = max_bytes
        self._hit, self._miss = cache_lookups()
        # Header lines are mostly the same for every entry (type, Vary, Cache-Control): each is kept once.
        self._lines: dict[tuple[bytes, bytes], tuple[bytes, bytes]] = {}

    @property
    def size(self) -> int:
        """The bytes charged for what is kept now."""
        return self._bytes

    def get(self, key: Hashable) -> Rendered | None:
        kept = self._entries.get(key)
        if kept is None:
            self._miss.inc()
            return None
        self._hit.inc()
        etag, body, headers, packed = kept
        if packed:
            body = zlib.decompress(body)
        return etag, body, (*headers, (LENGTH, b"%d" % len(body)))

    def put(self, key: Hashable, rendered: Rendered) -> None:
        replaced = self._entries.pop(key, None)
        if replaced is not None:
            self._bytes -= _charge(replaced)
        etag, body, headers = rendered
        packed = len(body) >= PACK_FROM
        kept = (etag, _pack(body) if packed else body, self._shared(headers), packed)
        size = _charge(kept)
        if self._bytes + size > self._max_bytes:
            self._drop_oldest(self._max_bytes * 3 // 4 - size)
        self._entries[key] = kept
        self._bytes += size

    def _shared(self, headers: tuple[tuple[bytes, bytes], ...]) -> tuple[tuple[bytes, bytes], ...]:
        """The header lines, each the one instance kept for all entries; Content-Length is left out (the
        body says it when the entry is read)."""
        lines = self._lines
        if len(lines) > SHARED_HEADERS:
            lines.clear()
        return tuple(lines.setdefault(line, line) for line in headers if line[0] != LENGTH)

    def _drop_oldest(self, target: int) -> None:
        """Forget the oldest entries (dicts keep insertion order) until at most ``target`` bytes are kept:
        a quarter of the cache at a time, so a full cache costs no bookkeeping per hit and most of what
        is hot survives."""
        victims = []
        for key, kept in self._entries.items():
            if self._bytes <= target:
                break
            victims.append(key)
            self._bytes -= _charge(kept)
        for key in victims:
            del self._entries[key]


def _pack(body: bytes) -> bytes:
    """The fastest level, with a smaller hash table than zlib's default (memLevel 5, not 8): the table is
    cleared for every body, and for bodies of a few KB that took a sixth of the work for the same size."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 15, 5)
    return packer.compress(body) + packer.flush()


def _charge(kept: _Kept) -> int:
    return len(kept[1]) + sum(len(name) + len(value) for name, value in kept[2]) + ENTRY_OVERHEAD
