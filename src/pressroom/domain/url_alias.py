"""URL aliases and URL wildcards.

Aliases form a tree of path segments. An *entry* is one segment: it sits below the entry node
``parent`` (0 at the top) and is keyed there by the md5 of its lower-cased text, so lookups ignore case.
Entries that stand for the same place share a ``node`` id: the segments of one location in several
languages, and its history (the segments it had before a rename or a move). A child entry names its
parent by node id, so when a location is renamed or moved only its own segment changes and the paths of
the subtree follow; an old path still resolves through the history entry, which keeps the node id.

An entry's ``action`` says where it leads: ``eznode:<location id>``, ``module:<resource>`` for global
aliases, or ``nop:`` for a segment that only holds others up. The REST id of an entry is
``<parent>-<md5>``.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass

from pressroom.domain.integers import parse_int

ROOT_NODE = 0
CONTENT_ROOT_LOCATION_ID = 2  # its alias is the empty segment "" (the path "/")
TOP_LOCATION_IDS = frozenset({1, CONTENT_ROOT_LOCATION_ID})  # their children sit at the top level
NOP = "nop:"
LOCATION_PREFIX = "eznode:"

LOCATION = "LOCATION"
RESOURCE = "RESOURCE"
VIRTUAL = "VIRTUAL"

_REST_ID = re.compile(r"^([0-9]{1,10})-([a-f0-9]{32})$")
_RESOURCE = re.compile(r"^[A-Za-z0-9_]+:.+$")
# A run of characters that may not stand in a path segment (anything but letters, digits, "_", ".",
# "~", "-"), and the separator they become.
_UNSAFE = re.compile(r"[^\w.~-]+", re.UNICODE)
_DASHES = re.compile(r"-{2,}")
SEGMENT_LENGTH = 200


def text_md5(text: str) -> str:
    return hashlib.md5(text.lower().encode(), usedforsecurity=False).hexdigest()


def slugify(name: str, default: str = "_1") -> str:
    """A name as a path segment: ``"Administrator users"`` -> ``"Administrator-users"``. Case is kept;
    characters not allowed in a segment become ``-``; an empty result is ``default``."""
    text = unicodedata.normalize("NFC", name)
    text = _UNSAFE.sub("-", text)
    text = _DASHES.sub("-", text).strip("-.")[:SEGMENT_LENGTH].strip("-.")
    return text or default


def split_path(path: str) -> list[str]:
    """``"/a/b/"`` -> ``["a", "b"]``; ``"/"`` -> ``[]``."""
    return [part for part in path.strip("/ ").split("/") if part]


def location_action(location_id: int) -> str:
    return f"{LOCATION_PREFIX}{location_id}"


def is_resource(text: str) -> bool:
    """``module:content/search`` and the like: a scheme, a colon, a target."""
    return bool(_RESOURCE.match(text))


@dataclass(frozen=True, slots=True)
class AliasEntry:
    """One stored segment (see the module docstring)."""

    parent: int
    text_md5: str
    text: str
    node: int
    action: str
    is_original: bool  # False: history (the segment a location had before)
    is_custom: bool  # made by a client, not generated from a name
    forward: bool  # a custom alias that redirects
    always_available: bool
    language_codes: tuple[str, ...]

    @property
    def rest_id(self) -> str:
        return f"{self.parent}-{self.text_md5}"

    @property
    def location_id(self) -> int | None:
        if self.action.startswith(LOCATION_PREFIX):
            return int(self.action[len(LOCATION_PREFIX) :])
        return None

    @property
    def kind(self) -> str:
        if self.action.startswith(LOCATION_PREFIX):
            return LOCATION
        return VIRTUAL if self.action == NOP else RESOURCE


def parse_rest_id(alias_id: str) -> tuple[int, str] | None:
    """``"2-e578..."`` -> ``(2, "e578...")``; None for anything else."""
    match = _REST_ID.match(alias_id)
    if match is None or int(match.group(1)) >= 2**31:
        return None
    return int(match.group(1)), match.group(2)


@dataclass(frozen=True, slots=True)
class UrlAlias:
    """An entry as clients see it, with its full path."""

    entry: AliasEntry
    path: str  # "/Users/Editors"

    @property
    def id(self) -> str:
        return self.entry.rest_id


@dataclass(frozen=True, slots=True)
class UrlAliasCreate:
    """A custom alias: of a location (``location_id``), or global (``resource``)."""

    path: str
    language_code: str
    location_id: int | None = None
    resource: str | None = None
    always_available: bool = False
    forward: bool = False


@dataclass(frozen=True, slots=True)
class UrlWildcard:
    id: int
    source_url: str  # "/old/*"
    destination_url: str  # "/new/{1}"
    forward: bool

    def translate(self, url: str) -> str | None:
        """The destination for ``url`` when it matches the source pattern (``*`` takes any text,
        ``{n}`` in the destination is the n-th match), else None."""
        parts = [re.escape(part) for part in self.source_url.strip("/").split("*")]
        match = re.fullmatch("(.*?)".join(parts), url.strip("/"), re.DOTALL)
        if match is None:
            return None
        groups = match.groups()
        return re.sub(r"\{(\d+)\}", lambda m: groups[int(m.group(1)) - 1], self.destination_url)


@dataclass(frozen=True, slots=True)
class UrlWildcardCreate:
    source_url: str
    destination_url: str
    forward: bool


_PLACEHOLDER = re.compile(r"\{(\d+)\}")


def clean_url(url: str) -> str:
    """``" old/* "`` -> ``"/old/*"``: one leading slash, none trailing."""
    return "/" + url.strip("/ ")


def placeholders_fit(source_url: str, destination_url: str) -> bool:
    """Every ``{n}`` of the destination names one of the source's ``*`` (counting from 1)."""
    stars = source_url.count("*")
    return all(1 <= (parse_int(n) or 0) <= stars for n in _PLACEHOLDER.findall(destination_url))
