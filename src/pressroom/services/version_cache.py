"""The fields and relations of each item's current version, kept per process.

An entry is used only while the item's stamp (``ContentGateway.get_with_current_version``) is the one it
was loaded under: every write to the item, its versions, fields or relations changes the item's revision,
and a change to content types changes the cache epoch, both part of the stamp. So a hot content GET is
one point lookup plus a dictionary hit, in every process; a search's page of hits shares the entries
(``ContentGateway.get_many_current`` reads the same stamps for many items in one statement).

Entries are kept compact (a worker holds one per item read): the names in a field (identifier, language,
type) are interned, shared by every entry, and a value equal to the last one kept for the same field
definition is that same object (an empty or default value repeats from item to item).
"""

from __future__ import annotations

import sys
from collections.abc import Hashable

from pressroom.domain.content import Field, Relation

MAX_ENTRIES = 50_000

Entry = tuple[Hashable, tuple[Field, ...], tuple[Relation, ...]]


class VersionCache:
    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._entries: dict[int, Entry] = {}
        self._max_entries = max_entries
        self._last_values: dict[int, object] = {}  # field definition id -> the last value kept

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
            self._last_values.clear()
        stamp, fields, relations = entry
        self._entries[content_id] = (stamp, tuple(self._compact(field) for field in fields), relations)

    def _compact(self, field: Field) -> Field:
        value = field.value
        last = self._last_values.get(field.field_definition_id)
        if last is not None and type(last) is type(value) and last == value:
            value = last  # the same type, an equal value
        else:
            self._last_values[field.field_definition_id] = value
        intern = sys.intern
        return Field(
            field.id, field.field_definition_id, intern(field.identifier), intern(field.language_code),
            intern(field.field_type), value,
        )  # fmt: skip
