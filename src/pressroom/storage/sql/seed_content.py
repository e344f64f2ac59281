"""Clean-install content items, versions, fields and locations (spec/install.md §6-§7), exact ids.

Field values are written in their wire form and normalized by their field type, as client input is.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, insert

from pressroom.domain.content import CONTENT_STATUS_CODES, PUBLISHED, VERSION_STATUS_CODES
from pressroom.domain.content_type import SORT_FIELDS, SORT_ORDERS
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.storage.sql.content import refresh_name_keys
from pressroom.storage.sql.content_type import SqlContentTypeGateway, dumps
from pressroom.storage.sql.schema import content, content_fields, content_versions, locations
from pressroom.storage.sql.sequences import ensure_at_least

ADMIN = 14
ENG = "eng-GB"
DOCBOOK = '<?xml version="1.0" encoding="UTF-8"?>\n<section xmlns="http://docbook.org/ns/docbook" version="5.0-variant ezpublish-1.0">{}</section>\n'
NEXT_FIELD_ID = 181


def _ts(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())


def _richtext(*paragraphs: str) -> dict[str, Any]:
    return {"xml": DOCBOOK.format("".join(f"<para>{p}</para>" for p in paragraphs))}


def _account(login: str, email: str, max_login: int) -> dict[str, Any]:
    """The login side lives in the ``users`` table; the field value mirrors it (no password)."""
    return {"login": login, "email": email, "enabled": True, "maxLogin": max_login}


def _group(name_id: int, description_id: int, name: str, description: str) -> dict[str, tuple[int, Any]]:
    return {"name": (name_id, name), "description": (description_id, description)}


def _folder(first_id: int, name: str) -> dict[str, tuple[int, Any]]:
    return {
        "name": (first_id, name),
        "short_name": (first_id + 1, ""),
        "short_description": (first_id + 2, None),
        "description": (first_id + 3, None),
    }


def _user(
    ids: tuple[int, int, int, int, int], first: str, last: str, account: dict[str, Any]
) -> dict[str, Any]:
    first_id, last_id, account_id, signature_id, image_id = ids
    return {
        "first_name": (first_id, first),
        "last_name": (last_id, last),
        "user_account": (account_id, account),
        "signature": (signature_id, ""),
        "image": (image_id, None),
    }


# content id, type, section, remote id, version no, version row id, published, modified, name, fields
CONTENT: list[tuple[int, int, int, str, int, int, str, str, str, dict[str, tuple[int, Any]]]] = [
    (1, 1, 1, "9459d3c29e15006e45197295722c7ade", 9, 506, "2015-11-30T13:10:46", "2015-11-30T13:10:46",
     "Ibexa Platform", {
         "name": (1, "Ibexa Platform"),
         "short_name": (2, "Ibexa Platform"),
         "short_description": (3, _richtext('<emphasis role="strong">You are now ready to start your project.</emphasis>')),
         "description": (4, _richtext(
             "This is the clean installation coming with Ibexa Platform.",
             "It's a bare-bones setup of the Platform, an excellent foundation to build upon if you want to "
             "start your project from scratch.",
         )),
     }),
    (4, 3, 2, "f5c88a2209584891056f987fd965b0ba", 1, 4, "2002-10-06T15:19:56", "2002-10-06T15:19:56",
     "Users", _group(8, 7, "Users", "Main group")),
    (10, 4, 2, "faaeb9be3bd98ed09f606fc16d144eca", 2, 474, "2002-10-06T16:11:05", "2003-12-23T11:53:25",
     "Anonymous User", _user((19, 20, 21, 177, 179), "Anonymous", "User",
                             _account("anonymous", "anonymous@link.invalid", 1000))),
    (11, 3, 2, "5f7f0bdb3381d6a461d8c29ff53d908f", 1, 439, "2002-10-06T16:12:26", "2002-10-06T16:12:26",
     "Guest accounts", _group(22, 23, "Guest accounts", "")),
    (12, 3, 2, "9b47a45624b023b1a76c73b74d704acf", 1, 440, "2002-10-06T16:12:55", "2002-10-06T16:12:55",
     "Administrator users", _group(24, 25, "Administrator users", "")),
    (13, 3, 2, "3c160cca19fb135f83bd02d911f04db2", 1, 441, "2002-10-06T16:13:14", "2002-10-06T16:13:14",
     "Editors", _group(26, 27, "Editors", "")),
    (14, 4, 2, "1bb4fe25487f05527efa8bfd394cecc7", 3, 499, "2002-10-06T16:13:50", "2011-03-25T14:07:04",
     "Administrator User", _user((28, 29, 30, 178, 180), "Administrator", "User",
                                 _account("admin", "admin@link.invalid", 10))),
    (41, 1, 3, "a6e35cbcb7cd6ae4b691f3eee30cd262", 1, 472, "2003-08-12T13:37:37", "2003-08-12T13:37:37",
     "Media", _folder(94, "Media")),
    (42, 3, 2, "15b256dbea2ae72418ff5facc999e8f9", 1, 473, "2003-12-23T11:52:10", "2003-12-23T11:52:10",
     "Anonymous users", _group(100, 101, "Anonymous users", "User group for the anonymous user")),
    (49, 1, 3, "e7ff633c6b8e0fd3531e74c6e712bead", 1, 488, "2004-03-25T13:09:57", "2004-03-25T13:09:57",
     "Images", _folder(102, "Images")),
    (50, 1, 3, "732a5acd01b51a6fe6eab448ad4138a9", 1, 489, "2004-03-25T13:10:20", "2004-03-25T13:10:20",
     "Files", _folder(106, "Files")),
    (51, 1, 3, "09082deb98662a104f325aaa8c4933d3", 1, 490, "2004-03-25T13:10:33", "2004-03-25T13:10:33",
     "Multimedia", _folder(110, "Multimedia")),
]  # fmt: skip

# location id, content id (None: the virtual root), parent id, path, remote id, sort field
LOCATIONS: list[tuple[int, int | None, int, str, str, str]] = [
    (1, None, 1, "/1/", "629709ba256fe317c3ddcee35453a96a", "PATH"),
    (2, 1, 1, "/1/2/", "f3e90596361e31d496d4026eb624c983", "PRIORITY"),
    (5, 4, 1, "/1/5/", "3f6d92f8044aed134f32153517850f5a", "PATH"),
    (12, 11, 5, "/1/5/12/", "602dcf84765e56b7f999eaafd3821dd3", "PATH"),
    (13, 12, 5, "/1/5/13/", "769380b7aa94541679167eab817ca893", "PATH"),
    (14, 13, 5, "/1/5/14/", "f7dda2854fc68f7c8455d9cb14bd04a9", "PATH"),
    (15, 14, 13, "/1/5/13/15/", "e5161a99f733200b9ed4e80f9c16187b", "PATH"),
    (43, 41, 1, "/1/43/", "75c715a51699d2d309a924eca6a95145", "NAME"),
    (44, 42, 5, "/1/5/44/", "4fdf0072da953bb276c0c7e0141c5c9b", "NAME"),
    (45, 10, 44, "/1/5/44/45/", "2cf8343bee7b482bab82b269d8fecd76", "NAME"),
    (51, 49, 43, "/1/43/51/", "1b26c0454b09bb49dfb1b9190ffd67cb", "NAME"),
    (52, 50, 43, "/1/43/52/", "0b113a208f7890f9ad3c24444ff5988c", "NAME"),
    (53, 51, 43, "/1/43/53/", "4f18b82c75f10aad476cae5adf98c11f", "NAME"),
]


def load_content(connection: Connection) -> None:
    """Insert the clean-install items (after the content types), then their locations."""
    types = SqlContentTypeGateway(connection)
    main_locations = {cid: lid for lid, cid, *_ in LOCATIONS if cid is not None}
    items, versions, fields = [], [], []
    for cid, type_id, section, remote_id, version_no, row_id, published, modified, name, values in CONTENT:
        content_type = types.get(type_id)
        assert content_type is not None
        items.append(
            {
                "id": cid,
                "content_type_id": type_id,
                "section_id": section,
                "owner_id": ADMIN,
                "remote_id": remote_id,
                "main_language_code": ENG,
                "always_available": content_type.default_always_available,
                "status": CONTENT_STATUS_CODES[PUBLISHED],
                "is_hidden": False,
                "current_version_no": version_no,
                "version_counter": version_no,
                "main_location_id": main_locations[cid],
                "modified": _ts(modified),
                "published": _ts(published),
                "revision": 0,
            }
        )
        versions.append(
            {
                "id": row_id,
                "content_id": cid,
                "version_no": version_no,
                "status": VERSION_STATUS_CODES[PUBLISHED],
                "creator_id": ADMIN,
                "created": _ts(published),
                "modified": _ts(modified),
                "initial_language_code": ENG,
                "language_codes": ENG,
                "names": dumps({ENG: name}),
            }
        )
        for definition in content_type.field_definitions:
            field_id, wire = values[definition.identifier]
            field_type = get_field_type(definition.field_type)
            value = field_type.with_owner(field_type.from_wire(wire), cid)
            fields.append(
                {
                    "content_id": cid,
                    "version_no": version_no,
                    "id": field_id,
                    "field_definition_id": definition.id,
                    "language_code": ENG,
                    "field_type": definition.field_type,
                    "value": None if value is None else dumps(value),
                }
            )
    connection.execute(insert(content), items)
    connection.execute(insert(content_versions), versions)
    refresh_name_keys(connection)
    connection.execute(insert(content_fields), fields)
    connection.execute(
        insert(locations),
        [
            {
                "id": lid,
                "parent_id": parent,
                "content_id": cid,
                "path_string": path,
                "depth": path.count("/") - 2,
                "priority": 0,
                "hidden": False,
                "invisible": False,
                "remote_id": remote_id,
                "sort_field": SORT_FIELDS[sort_field],
                "sort_order": SORT_ORDERS["ASC"],
            }
            for lid, cid, parent, path, remote_id, sort_field in LOCATIONS
        ],
    )
    ensure_at_least(connection, "content_field", NEXT_FIELD_ID - 1)
