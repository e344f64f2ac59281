"""URL alias work done inside the caller's transaction: generating the aliases of locations from their
content's names (on publish, rename, new location, move, swap, recovery), removing them with their
locations, building paths and resolving them (domain/url_alias.py explains the model).

The tree code calls ``refresh_location_aliases`` after a location got a new parent or another content
item (move: the moved location only, its subtree follows; swap: both at once; a location back from the
trash), and ``remove_subtree_aliases`` (before the rows go) when locations are deleted or trashed. Copies
are published, and publishing makes their aliases.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from pressroom.domain.content import ContentInfo, Field, VersionInfo
from pressroom.domain.content_type import ContentType
from pressroom.domain.location import Location
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.url_alias import (
    CONTENT_ROOT_LOCATION_ID,
    NOP,
    ROOT_NODE,
    TOP_LOCATION_IDS,
    AliasEntry,
    UrlAlias,
    location_action,
    slugify,
    split_path,
    text_md5,
)
from pressroom.services.content_fields import schema_names
from pressroom.storage.spi import Tx

Key = tuple[int, str]  # (parent node, text md5)
MAX_DEPTH = 64  # a path longer than this is a cycle in damaged data, not a real path


def segment_names(content_type: ContentType, version: VersionInfo, fields: Sequence[Field]) -> dict[str, str]:
    """The segment source per language of a version: the type's URL alias schema when it has one (and
    it gives a text), else the version's name."""
    if not content_type.url_alias_schema:
        return dict(version.names)
    values = {(f.field_definition_id, f.language_code): f.value for f in fields}
    names = schema_names(content_type, content_type.url_alias_schema, version.language_codes, values)
    return {code: names[code] or version.names.get(code, "") for code in names}


def _current_names(tx: Tx, info: ContentInfo) -> dict[str, str]:
    version = tx.content.get_version(info.id, info.current_version_no)
    content_type = tx.content_types.get(info.content_type_id)
    if version is None or content_type is None:
        return {}
    fields = tx.content.load_fields(info.id, version.version_no) if content_type.url_alias_schema else []
    return segment_names(content_type, version, fields)


def _reusable(entry: AliasEntry, action: str) -> bool:
    """May a generated segment of the location with ``action`` take this key? Its own entries, history
    and placeholders may be taken; current entries of others and custom aliases may not."""
    if entry.is_custom:
        return False
    return entry.action in (action, NOP) or not entry.is_original


def refresh_location_aliases(
    tx: Tx, location_ids: Iterable[int], names: Mapping[int, dict[str, str]] | None = None
) -> None:
    """(Re)generate the aliases of these locations from their content's current names (``names`` by
    content id, when the caller has them at hand; ``segment_names`` makes them).

    Each location keeps its node, so the paths below it follow. A segment it no longer has becomes
    history (an old path still resolves); a name taken below the same parent gets a numeric suffix
    ("Foo2"). All given locations give up their segments before any is placed, so two locations that
    swapped content may take each other's names.

    Concurrent writers (siblings renamed alike and published at once) never make each other fail: a key
    is claimed, or taken over from the entry read, only if no writer got to it since it was read;
    otherwise the segment looks again at what is there now and takes the next suffix if it must.
    """
    located = [
        found for i in sorted(set(location_ids)) if (found := tx.locations.get(i, UNRESTRICTED)) is not None
    ]
    refresh_aliases(tx, located, names or {})


def refresh_aliases(
    tx: Tx,
    located: Sequence[Location],
    names: Mapping[int, dict[str, str]],
    infos: Mapping[int, ContentInfo] | None = None,
    new: bool = False,
) -> dict[int, int]:
    """``refresh_location_aliases`` of locations the caller holds, with their content's ``infos`` when
    it has them (as they are now) and ``new``: the locations were created in this transaction, so no
    entry leads to them yet. Returns the node of each location (and of their parents) as known here."""
    located = [loc for loc in located if loc.content_id is not None and loc.id != CONTENT_ROOT_LOCATION_ID]
    if not located:
        return {}
    located.sort(key=lambda loc: (loc.depth, loc.id))
    if infos is None:
        infos = tx.content.get_many(loc.content_id for loc in located if loc.content_id is not None)
    # The entries of the locations and of their parents (for the parents' nodes), in one query.
    own_ids = set() if new else {loc.id for loc in located}
    wanted = own_ids | ({loc.parent_id for loc in located} - TOP_LOCATION_IDS)
    found = tx.url_aliases.of_locations(sorted(wanted), custom=False, original_only=False) if wanted else []
    own = [e for e in found if e.location_id in own_ids]
    stored = {(e.parent, e.text_md5): e for e in own}
    state = {key: replace(e, is_original=False) for key, e in stored.items()}
    nodes = {e.location_id: e.node for e in own if e.location_id is not None}
    for entry in found:
        if entry.location_id is not None and entry.location_id not in own_ids:
            nodes.setdefault(entry.location_id, entry.node)
    known = dict(names)
    for location in located:
        assert location.content_id is not None
        info = infos.get(location.content_id)
        if info is None or not info.is_published:
            continue
        if info.id not in known:
            known[info.id] = _current_names(tx, info)
        parent = ROOT_NODE if location.parent_id in TOP_LOCATION_IDS else nodes.get(location.parent_id)
        # A parent without aliases (none is made without one) puts the segment at the top level.
        _place(tx, location, info, known[info.id], parent or ROOT_NODE, state, stored, nodes, new=new)
    for key, entry in state.items():
        if stored.get(key) != entry:
            tx.url_aliases.save(entry)
    return nodes


def alias_new_subtree(
    tx: Tx, made: Sequence[Location], infos: Mapping[int, ContentInfo], names: Mapping[int, dict[str, str]]
) -> None:
    """The aliases of a subtree of locations that no entry leads to (``made``: its top first, then top
    down; a copied subtree, or one back from the trash, whose entries went with it), as
    ``refresh_aliases`` makes them one location at a time, in a fixed number of statements.
    The top's segments are claimed beside what its parent holds already; every other location lies
    below a node made here, which no entry but those worked out here can hold, so that their segments
    (with the suffixes siblings named alike take, in the same order) are worked out in memory and
    inserted at once."""
    if not made:
        return
    nodes = refresh_aliases(tx, made[:1], names, infos, new=True)
    fresh = iter(tx.url_aliases.new_nodes(len(made) - 1))
    entries: dict[Key, AliasEntry] = {}
    for location in made[1:]:
        info = infos.get(location.content_id or 0)
        if info is None or not info.is_published:
            continue
        parent = nodes.get(location.parent_id)
        if parent is None:  # a parent without aliases: its segments go at the top level, beside others
            nodes.update(refresh_aliases(tx, [location], names, infos, new=True))
            continue
        action = location_action(location.id)
        segments = names.get(info.id, {})
        for language in sorted(segments, key=lambda code: (code != info.main_language_code, code)):
            base = slugify(segments[language])
            always_available = info.always_available and language == info.main_language_code
            counter = 1
            while True:
                text = base if counter == 1 else f"{base}{counter}"
                key = (parent, text_md5(text))
                existing = entries.get(key)
                if existing is None:
                    if location.id not in nodes:
                        nodes[location.id] = next(fresh)
                    node = nodes[location.id]
                    entries[key] = _original(key, text, node, action, always_available, language)
                    break
                if existing.action == action:  # another language of this location, same text
                    entries[key] = replace(existing, language_codes=(*existing.language_codes, language))
                    break
                counter += 1  # a sibling's current entry: never reusable
    tx.url_aliases.insert_many(list(entries.values()))


CHUNK = 10_000  # ids per statement where a list grows with a subtree (SQLite takes 32,766 parameters)


def infos_of(tx: Tx, locations: Iterable[Location]) -> dict[int, ContentInfo]:
    """The items of these locations, read in one statement per 10,000 (SQLite's own build takes at most
    32,766 parameters in one)."""
    ids = sorted({loc.content_id for loc in locations if loc.content_id is not None})
    found: dict[int, ContentInfo] = {}
    for start in range(0, len(ids), CHUNK):
        found.update(tx.content.get_many(ids[start : start + CHUNK]))
    return found


def current_segment_names(tx: Tx, infos: Mapping[int, ContentInfo]) -> dict[int, dict[str, str]]:
    """The segment sources (``segment_names``) of the current versions of items, by content id: their
    names, or what their type's alias schema makes of their fields (read, in one query, for those items
    only)."""
    names = {info.id: dict(info.names) for info in infos.values()}
    types = {t: tx.content_types.get(t) for t in {info.content_type_id for info in infos.values()}}
    schematic = [
        info
        for info in infos.values()
        if (t := types[info.content_type_id]) is not None and t.url_alias_schema
    ]
    if schematic:
        keys = [(info.id, info.current_version_no) for info in schematic]
        versions, fields = tx.content.get_versions(keys), tx.content.load_fields_of(keys)
        for info in schematic:
            key, content_type = (info.id, info.current_version_no), types[info.content_type_id]
            if key in versions and content_type is not None:
                names[info.id] = segment_names(content_type, versions[key], fields[key])
    return names


def _place(
    tx: Tx,
    location: Location,
    info: ContentInfo,
    names: dict[str, str],
    parent: int,
    state: dict[Key, AliasEntry],
    stored: dict[Key, AliasEntry],
    nodes: dict[int, int],
    *,
    new: bool,
) -> None:
    """Claim one segment per language below ``parent`` (main language first), in ``state``. A key no
    entry holds is inserted at once, and one held by an entry of another location that may be reused is
    taken over at once, each only if no concurrent writer got to it since it was read (what is written
    is noted in ``stored``); when one did, the key is looked at again. With ``new``, the location was
    created in this transaction, so no entry leads to it: a key is claimed first and looked up only when
    it is taken."""
    action = location_action(location.id)
    languages = sorted(names, key=lambda code: (code != info.main_language_code, code))
    for language in languages:
        base = slugify(names[language])
        always_available = info.always_available and language == info.main_language_code
        counter = 1
        while True:
            text = base if counter == 1 else f"{base}{counter}"
            key = (parent, text_md5(text))
            existing = state.get(key)
            if existing is None and not new:
                existing = tx.url_aliases.get(*key)
            if existing is None:
                node = nodes.get(location.id) or tx.url_aliases.new_node()
                entry = _original(key, text, node, action, always_available, language)
                if tx.url_aliases.claim(entry):
                    nodes[location.id] = node
                    state[key] = stored[key] = entry
                    break
                existing = tx.url_aliases.get(*key)  # what a concurrent writer put there
                if existing is None:
                    continue  # and removed since
            if existing.action == action and existing.is_original:
                # Another language of this location already took the same text.
                codes = (*existing.language_codes, language)
                state[key] = replace(existing, language_codes=codes)
                break
            if _reusable(existing, action):
                if location.id not in nodes:
                    adopt = existing.node if existing.action == NOP else None
                    nodes[location.id] = adopt or tx.url_aliases.new_node()
                entry = _original(key, text, nodes[location.id], action, always_available, language)
                if key in stored:  # an entry of these locations, read with them: written at the end
                    state[key] = entry
                    break
                if tx.url_aliases.take_over(existing, entry):
                    state[key] = stored[key] = entry
                    break
                continue  # a concurrent writer changed the entry: look at it again
            counter += 1


def _original(
    key: Key, text: str, node: int, action: str, always_available: bool, language: str
) -> AliasEntry:
    """The generated, current entry of a segment in one language."""
    return AliasEntry(
        parent=key[0],
        text_md5=key[1],
        text=text,
        node=node,
        action=action,
        is_original=True,
        is_custom=False,
        forward=False,
        always_available=always_available,
        language_codes=(language,),
    )


def remove_subtree_aliases(tx: Tx, path_strings: Sequence[str]) -> None:
    """Drop every entry leading to a location in these subtrees (deleted or trashed). Call it before
    the locations are deleted: the entries are found through them."""
    tx.url_aliases.delete_of_subtrees(path_strings)


# -- reading --------------------------------------------------------------------------------------------
def with_paths(tx: Tx, entries: Sequence[AliasEntry]) -> list[UrlAlias]:
    """The entries with their full paths, the ancestors loaded one level at a time."""
    by_node: dict[int, list[AliasEntry]] = {}
    wanted = {e.parent for e in entries} - {ROOT_NODE}
    for _ in range(MAX_DEPTH):
        if not wanted:
            break
        for row in tx.url_aliases.of_nodes(wanted):
            by_node.setdefault(row.node, []).append(row)
        wanted = {row.parent for node in wanted for row in by_node.get(node, ())}
        wanted -= set(by_node) | {ROOT_NODE}
    return [UrlAlias(entry, _path(entry, by_node)) for entry in entries]


def _path(entry: AliasEntry, by_node: dict[int, list[AliasEntry]]) -> str:
    language = entry.language_codes[0] if entry.language_codes else ""
    texts = [entry.text]
    parent = entry.parent
    for _ in range(MAX_DEPTH):
        candidates = by_node.get(parent)
        if parent == ROOT_NODE or not candidates:
            break
        best = min(candidates, key=lambda e: (not e.is_original, language not in e.language_codes, e.text))
        texts.append(best.text)
        parent = best.parent
    return "/" + "/".join(text for text in reversed(texts) if text)


def resolve(tx: Tx, path: str) -> AliasEntry | None:
    """The entry at ``path`` (any case; history included), one lookup per segment."""
    entry = None
    parent = ROOT_NODE
    for segment in split_path(path) or [""]:
        entry = tx.url_aliases.get(parent, text_md5(segment))
        if entry is None:
            return None
        parent = entry.node
    return entry


def lookup(tx: Tx, url: str) -> AliasEntry | None:
    """The entry at ``url``; when there is none, the entry at the first URL wildcard's translation."""
    entry = resolve(tx, url)
    if entry is not None:
        return entry
    for wildcard in tx.url_wildcards.list():
        target = wildcard.translate(url)
        if target is not None:
            return resolve(tx, target)
    return None
