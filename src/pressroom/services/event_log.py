"""What services append to the event log (domain/event.py): one event per write, in the write's transaction.

A content event's payload names what a consumer acts on without calling back: the item, its type and
section, the version and languages concerned, and its locations (ids and path strings). Services pass the
locations they already hold; without them the item's main location stands for them, so recording an event
costs the one INSERT and no read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pressroom.domain.content import ContentInfo
from pressroom.domain.content_type import ContentType
from pressroom.domain.event import NewEvent
from pressroom.domain.location import Location
from pressroom.storage.spi import Tx


def location_payload(locations: Iterable[Location]) -> list[dict[str, Any]]:
    return [
        {"id": location.id, "parentId": location.parent_id, "path": location.path_string}
        for location in locations
    ]


def content_payload(
    info: ContentInfo,
    *,
    version_no: int | None = None,
    languages: Iterable[str] | None = None,
    locations: Iterable[Location] | None = None,
) -> dict[str, Any]:
    if locations is not None:
        placed = location_payload(locations)
    elif info.main_location_id is not None and info.main_location_path:
        placed = [{"id": info.main_location_id, "path": info.main_location_path}]
    else:
        placed = []
    return {
        "contentId": info.id,
        "remoteId": info.remote_id,
        "contentTypeId": info.content_type_id,
        "sectionId": info.section_id,
        "ownerId": info.owner_id,
        "versionNo": version_no if version_no is not None else info.current_version_no,
        "languages": sorted(languages) if languages is not None else [info.main_language_code],
        "mainLocationId": info.main_location_id,
        "locations": placed,
        "name": info.name,
    }


def record_content(
    tx: Tx,
    kind: str,
    user_id: int | None,
    info: ContentInfo,
    *,
    version_no: int | None = None,
    languages: Iterable[str] | None = None,
    locations: Iterable[Location] | None = None,
    **extra: Any,
) -> None:
    """Append ``kind`` (``content.published``, ``location.moved``, ...) about the item ``info``."""
    data = content_payload(info, version_no=version_no, languages=languages, locations=locations)
    data.update(extra)
    tx.events.append(NewEvent(kind, user_id, info.id, f"content/{info.id}", data))


# location.update's event by what it did to ``hidden`` (None: left it)
LOCATION_UPDATES = {None: "location.updated", True: "location.hidden", False: "location.revealed"}


def record_location(
    tx: Tx,
    kind: str,
    user_id: int | None,
    location: Location,
    *,
    locations: Iterable[Location] | None = None,
    **extra: Any,
) -> None:
    """Append ``kind`` about the item at ``location`` (loaded with its content info), naming ``locations``
    (the location itself by default); about the location alone where it holds no item (the root)."""
    placed = [location] if locations is None else list(locations)
    if location.content_info is None:
        record(tx, kind, user_id, f"location/{location.id}", {"locations": location_payload(placed), **extra})
    else:
        record_content(tx, kind, user_id, location.content_info, locations=placed, **extra)


def record_type(tx: Tx, kind: str, user_id: int | None, content_type: ContentType, **extra: Any) -> None:
    """Append ``kind`` about a content type (its defined form or its draft, as ``status`` says)."""
    data = {
        "contentTypeId": content_type.id,
        "identifier": content_type.identifier,
        "status": content_type.status,
        "groupIds": list(content_type.group_ids),
    }
    record(tx, kind, user_id, f"content_type/{content_type.id}", {**data, **extra})


def record(tx: Tx, kind: str, user_id: int | None, subject: str, data: Mapping[str, Any]) -> None:
    """Append an event about something that is not a content item (``section/3``, ``role/7``, ...)."""
    tx.events.append(NewEvent(kind, user_id, None, subject, dict(data)))
