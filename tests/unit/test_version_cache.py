"""The per-process cache of each item's current fields: current entries only, compact ones."""

from __future__ import annotations

from pressroom.domain.content import Field
from pressroom.services.version_cache import VersionCache

RICH = '<?xml version="1.0" encoding="UTF-8"?>\n<section xmlns="http://docbook.org/ns/docbook"/>\n'


def fields(content_id: int, name: str) -> tuple[Field, ...]:
    # Strings made at run time, as rows from the database are: equal, but not the same objects.
    def fresh(text: str) -> str:
        return "".join(list(text))

    return (
        Field(content_id * 10, 4, fresh("name"), fresh("eng-GB"), fresh("ezstring"), fresh(name)),
        Field(
            content_id * 10 + 1, 156, fresh("description"), fresh("eng-GB"), fresh("ezrichtext"), fresh(RICH)
        ),
    )


def test_an_entry_is_found_under_its_stamp_only() -> None:
    cache = VersionCache()
    assert not cache.holds(1) and cache.get(1, (1, 1)) is None
    cache.put(1, ((1, 1), fields(1, "Folder 1"), ()))
    assert cache.holds(1)
    entry = cache.get(1, (1, 1))
    assert entry is not None and entry[1] == fields(1, "Folder 1") and entry[2] == ()
    assert cache.get(1, (1, 2)) is None  # written since: the stamp moved on
    assert cache.holds(1)


def test_entries_share_names_and_repeated_values() -> None:
    cache = VersionCache()
    cache.put(1, ((1,), fields(1, "Folder 1"), ()))
    cache.put(2, ((2,), fields(2, "Folder 2"), ()))
    first, second = cache.get(1, (1,)), cache.get(2, (2,))
    assert first is not None and second is not None
    for a, b in zip(first[1], second[1], strict=True):
        assert a.identifier is b.identifier and a.language_code is b.language_code
        assert a.field_type is b.field_type
    assert first[1][1].value is second[1][1].value  # the same default rich text
    assert (first[1][0].value, second[1][0].value) == ("Folder 1", "Folder 2")
    assert second[1] == fields(2, "Folder 2")


def test_a_full_cache_starts_again() -> None:
    cache = VersionCache(max_entries=2)
    for content_id in (1, 2, 3):
        cache.put(content_id, ((content_id,), fields(content_id, f"F{content_id}"), ()))
    assert not cache.holds(1) and not cache.holds(2) and cache.get(3, (3,)) is not None
