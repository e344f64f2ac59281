"""Visitors for locations and location lists (spec/shapes-content.md §10)."""

from __future__ import annotations

from typing import Any, Literal

from pressroom.domain.location import Location, TrashItem
from pressroom.rest.output.content import content_body, content_ref
from pressroom.rest.output.lists import ItemList, list_kind
from pressroom.rest.output.visitor import Out, Representation, visits

# A trash item is a location without the keys that only a location in the tree has (shapes §11).
_NOT_IN_TRASH = frozenset({"Children", "UrlAliases", "explicitlyHidden"})


def location_ref(out: Out, location: Location) -> dict[str, Any]:
    return out.ref("Location", "location.load", path=location.path)


def location_body(out: Out, location: Location) -> dict[str, Any]:
    href = out.url("location.load", path=location.path)
    parent_path = location.path_string.rstrip("/").rsplit("/", 1)[0]
    parent: dict[str, Any] = {"_media-type": out.media("Location")}
    if location.parent_id != location.id and parent_path:
        parent["_href"] = out.url("location.load", path=parent_path)
    body: dict[str, Any] = {
        "_media-type": out.media("Location"),
        "_href": href,
        "id": location.id,
        "priority": location.priority,
        "hidden": location.hidden or bool(location.content_info and location.content_info.is_hidden),
        "invisible": location.invisible,
        "explicitlyHidden": location.hidden,
        "ParentLocation": parent,
        "pathString": location.path_string,
        "depth": location.depth,
        "childCount": location.child_count,
        "remoteId": location.remote_id,
        "Children": {"_media-type": out.media("LocationList"), "_href": href + "/children"},
    }
    if location.content_id is not None:
        body["Content"] = content_ref(out, location.content_id, "Content")
    body["sortField"] = location.sort_field
    body["sortOrder"] = location.sort_order
    body["UrlAliases"] = {"_media-type": out.media("UrlAliasRefList"), "_href": href + "/urlaliases"}
    if location.content_info is not None:
        info = location.content_info
        body["ContentInfo"] = {
            **content_ref(out, info.id),
            "Content": content_body(out, info, "ContentInfo"),
        }
    return body


@visits(Location, "Location")
def visit_location(out: Out, value: Location) -> Representation:
    return Representation.single("Location", location_body(out, value), value, patch="LocationUpdate")


# References to locations, or (the ``Locations`` representation) whole Location objects.
LocationRefList = ItemList[Literal["LocationList"], Location]
LocationObjects = ItemList[Literal["Locations"], Location]
list_kind("LocationList", "Location", location_ref)
list_kind("Locations", "Location", location_body)


def trash_item_body(out: Out, item: TrashItem) -> dict[str, Any]:
    body = location_body(out, item.location)
    body["_media-type"] = out.media("TrashItem")
    body["_href"] = out.url("trash.load", trashItemId=item.location.id)
    return {key: value for key, value in body.items() if key not in _NOT_IN_TRASH}


@visits(TrashItem, "TrashItem")
def visit_trash_item(out: Out, value: TrashItem) -> Representation:
    return Representation.single("TrashItem", trash_item_body(out, value), value)


TrashList = ItemList[Literal["Trash"], TrashItem]
list_kind("Trash", "TrashItem", trash_item_body)
