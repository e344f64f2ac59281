"""The items a rich text document relates to: links (``<link xlink:href="ezcontent://52">``) are LINK
relations, embeds (``<ezembed>``, ``<ezembedinline>``) EMBED relations. An ``ezlocation://`` href names a
location, whose content the service resolves."""

from __future__ import annotations

import re
from functools import lru_cache

from pressroom.domain.content import EMBED, LINK
from pressroom.domain.fieldtypes.base import RelationTarget
from pressroom.domain.fieldtypes.ezrichtext_convert import DOCBOOK_NS, XLINK_NS
from pressroom.domain.fieldtypes.ezrichtext_xml import CACHED_SIZE, stored_tree
from pressroom.domain.integers import MAX_ID, parse_int

_KINDS = {
    f"{{{DOCBOOK_NS}}}link": LINK,
    f"{{{DOCBOOK_NS}}}ezembed": EMBED,
    f"{{{DOCBOOK_NS}}}ezembedinline": EMBED,
}
_HREF_ATTRIBUTE = f"{{{XLINK_NS}}}href"
# As the reference reads them: scheme, id, then an optional #fragment ("ezcontent://52#anchor").
_HREF = re.compile(r"(ezcontent|ezlocation)://([0-9]+)(?:#.*)?\s*", re.DOTALL)


def docbook_relations(docbook: str) -> list[RelationTarget]:
    """LINK and EMBED targets of a stored DocBook document, in document order, each once."""
    return list(_cached_relations(docbook) if len(docbook) <= CACHED_SIZE else _relations(docbook))


def _relations(docbook: str) -> tuple[RelationTarget, ...]:
    found: list[RelationTarget] = []
    for element in stored_tree(docbook, "rich text").iter(*_KINDS):
        match = _HREF.fullmatch(element.get(_HREF_ATTRIBUTE) or "")
        target = parse_int(match.group(2)) if match else None
        if match is None or target is None or target > MAX_ID:  # names nothing that can exist
            continue
        found.append(RelationTarget(_KINDS[element.tag], target, match.group(1) == "ezlocation"))
    return tuple(dict.fromkeys(found))


_cached_relations = lru_cache(maxsize=512)(_relations)
