"""Surrogate keys (cache tags) for a shared HTTP cache, in the reference's short vocabulary.

An answer carries the keys of everything it shows (``rest/httpcache.py``); a committed write purges the keys
of everything it changed (:func:`event_keys`, from the event log), so a cached answer is never kept past the
write that changed it. The vocabulary:

``c<id>`` a content item, ``cv<id>`` its version list, ``ct<id>`` a content type, ``l<id>`` a location,
``pl<id>`` the children of a location, ``p<id>`` anything below location ``id`` (every ancestor of a location
is one), ``r<id>`` answers listing relations to item ``id``, ``rl<id>`` those to location ``id``, ``s<id>`` a
section, ``ctg<id>`` a content type group, ``osg<id>`` / ``os<id>`` object state groups and states, ``u<id>``
a user, ``ro<id>`` a role; ``s-list``, ``ct-list``, ``os-list`` and ``ua`` every list of sections, content
types, object states and URL aliases; ``ez-all`` every answer and ``ez-user-context-hash`` every cached
user-context hash (what a change of rights purges: the old hashes become unreachable).

The user-context hash (:func:`context_hash`) names a set of rights: equal for callers with equal grants,
different otherwise. Rights that depend on who the caller is (owner or group limitations) cannot be shared;
the hash of such a caller is its own, and its answers are not stored at all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from pressroom.domain.event import TYPE_PREFIX, Event
from pressroom.domain.role import Grant

ALL = "ez-all"
USER_CONTEXT = "ez-user-context-hash"
# Limitations decided by the caller's own identity (its id, its groups): rights no hash can share.
PERSONAL_LIMITATIONS = frozenset(("Owner", "Group", "ParentOwner", "ParentGroup", "ChangeOwner", "MemberOf"))

# Event families whose writes change a subtree (visibility, place, existence of everything below).
_SUBTREE = frozenset(
    (
        "content.deleted",
        "content.hidden",
        "content.revealed",
        "location.moved",
        "location.swapped",
        "location.hidden",
        "location.revealed",
        "location.deleted",
        "location.updated",
        "trash.trashed",
        "trash.restored",
    )
)
# Subjects of non-content events -> the key of the thing and the collective key of its lists.
_SUBJECTS: Mapping[str, tuple[str, str | None]] = {
    "section": ("s", "s-list"),
    "content_type": ("ct", "ct-list"),
    "content_type_group": ("ctg", "ct-list"),
    "object_state": ("os", "os-list"),
    "object_state_group": ("osg", "os-list"),
    "url_alias": ("ua", "ua"),
    "url_wildcard": ("uw", None),  # not cached: named so that its writes purge nothing else
    "user": ("u", None),
    "user_group": ("c", None),
    "role": ("ro", None),
}
# Families whose writes change somebody's rights: every cached hash is asked again.
_RIGHTS = ("role.", "user.", "user_group.", "location.", "trash.", "content.deleted")


def location_keys(location_id: int, parent_id: int | None, path: str | None) -> set[str]:
    """``l`` of the location, ``pl`` of its parent, ``p`` of every location on its path (itself too)."""
    keys = {f"l{location_id}"}
    ancestors = [int(part) for part in (path or "").strip("/").split("/") if part.isdigit()]
    if parent_id is None and len(ancestors) > 1:
        parent_id = ancestors[-2]
    if parent_id is not None and parent_id != location_id:
        keys.add(f"pl{parent_id}")
    keys.update(f"p{ancestor}" for ancestor in ancestors)
    return keys


def event_keys(event: Event) -> set[str]:
    """The keys a committed write invalidates. An event this does not know purges everything."""
    kind = event.type.removeprefix(TYPE_PREFIX)
    data = event.data
    keys: set[str] = set()
    content_id = event.content_id if event.content_id is not None else data.get("contentId")
    if isinstance(content_id, int):
        keys.update((f"c{content_id}", f"cv{content_id}", f"r{content_id}"))
    if isinstance(data.get("contentTypeId"), int) and kind.startswith("content_type."):
        keys.add(f"ct{data['contentTypeId']}")
    if isinstance(data.get("sectionId"), int) and kind.startswith("section."):
        keys.add(f"s{data['sectionId']}")
    for location in _locations(data):  # the location and its parent's children; p<id>: what is below
        named = location_keys(location["id"], location.get("parentId"), location.get("path"))
        keys |= {key for key in named if not key.startswith("p") or key.startswith("pl")}
        keys.add(f"rl{location['id']}")
        if kind in _SUBTREE:
            keys.add(f"p{location['id']}")
    if isinstance(data.get("oldParentId"), int):
        keys.add(f"pl{data['oldParentId']}")
    if kind.startswith(("content.", "location.", "trash.", "url_alias.")):
        keys.add("ua")  # aliases follow names and places
    keys |= _subject_keys(event.subject)
    if kind.startswith(_RIGHTS):
        keys.add(USER_CONTEXT)
    if not keys:
        keys.add(ALL)
    return keys


def _locations(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = data.get("locations")
    if not isinstance(found, list):
        return []
    return [item for item in found if isinstance(item, Mapping) and isinstance(item.get("id"), int)]


def _subject_keys(subject: str | None) -> set[str]:
    kind, _, ident = (subject or "").partition("/")
    known = _SUBJECTS.get(kind)
    if known is None or not ident.isdigit():
        return {known[1]} if known is not None and known[1] else set()
    prefix, collective = known
    keys = {f"{prefix}{ident}"}
    if kind in ("user", "user_group"):
        keys.add(f"c{ident}")  # users and groups are content items too
    if collective:
        keys.add(collective)
    return keys


def keys_header(keys: Iterable[str]) -> str:
    """The ``xkey`` header value: each key once, in a stable order, ``ez-all`` always."""
    return " ".join(sorted({*keys, ALL}))


def is_personal(grants: Iterable[Grant]) -> bool:
    """Whether rights depend on who holds them (a limitation like Owner: self)."""
    for grant in grants:
        limitations = grant.policy.limitations
        if grant.assignment_limitation is not None:
            limitations = (*limitations, grant.assignment_limitation)
        if any(limitation.identifier in PERSONAL_LIMITATIONS for limitation in limitations):
            return True
    return False


def context_hash(grants: Iterable[Grant], user_id: int) -> str:
    """A name for the rights ``grants`` give: order does not matter, ids of roles and policies do not
    either (two roles granting the same thing give one hash). Personal rights hash with the user id."""
    grants = tuple(grants)
    lines = sorted(
        "|".join(
            (
                grant.policy.module,
                grant.policy.function,
                ";".join(
                    sorted(
                        f"{lim.identifier}={','.join(sorted(lim.values))}" for lim in grant.policy.limitations
                    )
                ),
                _limitation_text(grant),
            )
        )
        for grant in grants
    )
    if is_personal(grants):
        lines.append(f"user={user_id}")
    return hashlib.sha256("\n".join(dict.fromkeys(lines)).encode()).hexdigest()[:32]


def _limitation_text(grant: Grant) -> str:
    limitation = grant.assignment_limitation
    return "" if limitation is None else f"{limitation.identifier}={','.join(sorted(limitation.values))}"
