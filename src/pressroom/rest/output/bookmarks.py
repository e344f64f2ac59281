"""The BookmarkList visitor (shapes-content.md §15).

The reference writes the item's href key as ``__href`` in JSON; we write ``_href`` like every other
reference (spec/README.md: do not copy bugs no client can depend on).
"""

from __future__ import annotations

from dataclasses import dataclass

from pressroom.rest.output.location import location_body
from pressroom.rest.output.visitor import Out, Representation, visits
from pressroom.rest.output.writers import Items
from pressroom.services.bookmark import BookmarkPage


@dataclass(frozen=True, slots=True)
class BookmarkList:
    page: BookmarkPage


@visits(BookmarkList, "BookmarkList")
def visit_bookmark_list(out: Out, value: BookmarkList) -> Representation:
    media = out.media("Bookmark")
    body = {
        "_media-type": out.media("BookmarkList"),
        "count": value.page.total,
        "items": Items(
            "Bookmark",
            [
                {
                    "_media-type": media,
                    "_href": out.url("bookmark.load", locationId=location.id),
                    "Location": location_body(out, location),
                }
                for location in value.page.locations
            ],
        ),
    }
    return Representation("BookmarkList", "BookmarkList", body)
