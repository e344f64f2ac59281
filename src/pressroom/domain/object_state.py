"""Object states: groups of mutually exclusive states an item is in (e.g. ``ez_lock``: not locked / locked).

An item is in exactly one state of every group. Until a state is assigned to it explicitly, an item is in
its group's default state: the one with the lowest priority. Storing only explicit assignments keeps
creating content and adding a group free of writes to every item.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class _Described:
    """What groups and states share: an identifier and names/descriptions per language."""

    id: int
    identifier: str
    default_language_code: str
    names: dict[str, str]
    descriptions: dict[str, str]

    @property
    def language_codes(self) -> list[str]:
        return list(self.names)


@dataclass(frozen=True, slots=True)
class ObjectStateGroup(_Described):
    pass


@dataclass(frozen=True, slots=True)
class ObjectState(_Described):
    group_id: int
    priority: int


@dataclass(frozen=True, slots=True)
class ObjectStateInput:
    """Create (``identifier``, ``default_language_code`` and ``names`` required) or update (None: keep).

    ``priority`` is used by states only.
    """

    identifier: str | None = None
    default_language_code: str | None = None
    names: dict[str, str] | None = None
    descriptions: dict[str, str] | None = None
    priority: int | None = None
