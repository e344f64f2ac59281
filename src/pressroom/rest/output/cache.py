"""Rendered representations kept per process, for values that carry a ``cache_key``.

A value's ``cache_key`` is built by the service from a stamp that changes whenever anything the value
shows could change (see ``services/version_cache.py``), so an entry never needs invalidating: a changed
value gets a new key, and the oldest entries go when the cache is full. The key adds the dialect and format.
"""

from __future__ import annotations

from collections.abc import Hashable

Rendered = tuple[str | None, bytes, tuple[tuple[bytes, bytes], ...]]  # ETag, body, headers


class RepresentationCache:
    def __init__(self, max_bytes: int) -> None:
        self._entries: dict[Hashable, Rendered] = {}
        self._bytes = 0
        self._max_bytes = max_bytes

    def get(self, key: Hashable) -> Rendered | None:
        return self._entries.get(key)

    def put(self, key: Hashable, rendered: Rendered) -> None:
        replaced = self._entries.pop(key, None)
        if replaced is not None:
            self._bytes -= len(replaced[1])
        size = len(rendered[1])
        if self._bytes + size > self._max_bytes:
            self._drop_oldest(self._max_bytes * 3 // 4 - size)
        self._entries[key] = rendered
        self._bytes += size

    def _drop_oldest(self, target: int) -> None:
        """Forget the oldest entries (dicts keep insertion order) until at most ``target`` bytes are kept:
        a quarter of the cache at a time, so a full cache costs no bookkeeping per hit and most of what
        is hot survives."""
        victims = []
        for key, (_, body, _) in self._entries.items():
            if self._bytes <= target:
                break
            victims.append(key)
            self._bytes -= len(body)
        for key in victims:
            del self._entries[key]
