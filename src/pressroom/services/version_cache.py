"""The fields and relations of each item's current version, kept per process.

An entry is used only while the item's stamp (``ContentGateway.get_with_current_version``) is the one it
was loaded under: every write to the item, its versions, fields or relations changes the item's revision,
and a change to content types changes the cache epoch, both part of the stamp. So a hot content GET is
one point lookup plus a dictionary hit, in every process.
"""

from __future__ import annotations

from collections.abc import Hashable

from pressroom.domain.content import Field, Relation

MAX_ENTRIES = 50_000

Entry = tuple[Hashable, tuple[Field, ...], tuple[Relation, ...]]


class VersionCache:
    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._entries: dict[int, Entry] = {}
        self._max_entries = max_entries

    def holds(self, content_id: int) -> bool:
        """Whether an entry for the item is here, current or not: a reader that finds none asks for the
        fields with the item, and one that finds one expects it to be current."""
        return content_id in self._entries

    def get(self, content_id: int, stamp: Hashable) -> Entry | None:
        entry = self._entries.get(content_id)
        return entry if entry is not None and entry[0] == stamp else None

    def put(self, content_id: int, entry: Entry) -> None:
        if len(self._entries) >= self._max_entries:
            self._entries.clear()  # rare and cheap to refill; no bookkeeping on the hot path
        self._entries[content_id] = entry
