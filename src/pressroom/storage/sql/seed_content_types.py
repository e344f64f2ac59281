"""Clean-install content type groups and content types (spec/install.md §4-§5), with their exact ids.

Field definition settings name only what the install sets; the field types fill in their defaults.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, insert

from pressroom.domain.content_type import DEFINED, ContentType, FieldDefinition
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.storage.sql.content_type import SqlContentTypeGateway
from pressroom.storage.sql.schema import content_type_groups
from pressroom.storage.sql.sequences import ensure_at_least

ADMIN = 14
ENG = "eng-GB"


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


GROUPS = [
    (1, "Content", "2002-09-05T09:08:48", "2002-10-06T16:35:06"),
    (2, "Users", "2002-09-05T09:09:01", "2002-10-06T16:35:13"),
    (3, "Media", "2002-09-14T13:22:23", "2002-10-06T16:35:20"),
]


def _string(max_length: int | None) -> dict[str, Any]:
    return {"StringLengthValidator": {"minStringLength": 0, "maxStringLength": max_length}}


def _richtext(rows: int) -> dict[str, Any]:
    return {"numRows": rows}


def _megabytes(size: int) -> dict[str, Any]:
    return {"FileSizeValidator": {"maxFileSize": size}}


# (id, identifier, name, field type, position, required, searchable, translatable, thumbnail,
#  default value, settings, validators)
Definition = tuple[int, str, str, str, int, bool, bool, bool, bool, Any, dict[str, Any], dict[str, Any]]

TYPES: list[dict[str, Any]] = [
    {
        "id": 1, "identifier": "folder", "name": "Folder", "group": 1,
        "remote_id": "a3d405b81be900468eb153d774f4f0d2", "name_schema": "<short_name|name>",
        "is_container": True, "always_available": True, "sort_field": "PATH",
        "created": "2002-06-18T09:21:38", "modified": "2015-11-29T21:14:32",
        "fields": [
            (4, "name", "Name", "ezstring", 1, True, True, True, False, "Folder", {}, _string(255)),
            (155, "short_name", "Short name", "ezstring", 2, False, True, True, False, None, {}, _string(100)),
            (119, "short_description", "Short description", "ezrichtext", 3, False, True, True, False, None,
             _richtext(5), {}),
            (156, "description", "Description", "ezrichtext", 4, False, True, True, False, None, _richtext(20), {}),
        ],
    },
    {
        "id": 2, "identifier": "article", "name": "Article", "group": 1,
        "remote_id": "c15b600eb9198b1924063b5a68758232", "name_schema": "<short_title|title>",
        "is_container": True, "always_available": False, "sort_field": "PATH",
        "created": "2002-06-18T09:21:38", "modified": "2004-04-20T09:56:29",
        "fields": [
            (1, "title", "Title", "ezstring", 0, True, True, True, True, "New article", {}, _string(255)),
            (152, "short_title", "Short title", "ezstring", 2, False, True, True, False, None, {}, _string(255)),
            (153, "author", "Author", "ezauthor", 3, False, False, True, False, None,
             {"defaultAuthor": 1}, {}),
            (120, "intro", "Intro", "ezrichtext", 4, True, True, True, False, None, _richtext(10), {}),
            (121, "body", "Body", "ezrichtext", 5, False, True, True, False, None, _richtext(20), {}),
            (123, "enable_comments", "Enable comments", "ezboolean", 6, False, False, False, False, False, {}, {}),
            (154, "image", "Image", "ezobjectrelation", 7, False, True, True, False, None, {}, {}),
        ],
    },
    {
        "id": 3, "identifier": "user_group", "name": "User group", "group": 2,
        "remote_id": "25b4268cdcd01921b808a0d854b877ef", "name_schema": "<name>",
        "is_container": True, "always_available": True, "sort_field": "PATH",
        "created": "2002-06-18T09:21:38", "modified": "2003-03-24T08:32:23",
        "fields": [
            (6, "name", "Name", "ezstring", 1, True, True, True, False, None, {}, _string(255)),
            (7, "description", "Description", "ezstring", 2, False, True, True, False, None, {}, _string(255)),
        ],
    },
    {
        "id": 4, "identifier": "user", "name": "User", "group": 2,
        "remote_id": "40faa822edc579b02c25f6bb7beec3ad", "name_schema": "<first_name> <last_name>",
        "is_container": False, "always_available": True, "sort_field": "PATH",
        "created": "2002-06-18T09:21:38", "modified": "2004-04-15T08:39:24",
        "fields": [
            (8, "first_name", "First name", "ezstring", 1, True, True, True, False, None, {}, _string(255)),
            (9, "last_name", "Last name", "ezstring", 2, True, True, True, False, None, {}, _string(255)),
            (12, "user_account", "User account", "ezuser", 3, True, False, False, False, None,
             {"RequireUniqueEmail": False, "UsernamePattern": "^[^@]+$"},
             {"PasswordValueValidator": {
                 "requireAtLeastOneUpperCaseCharacter": True,
                 "requireAtLeastOneLowerCaseCharacter": True,
                 "requireAtLeastOneNumericCharacter": True,
                 "requireAtLeastOneNonAlphanumericCharacter": False,
                 "minLength": 10,
             }}),
            (179, "signature", "Signature", "eztext", 4, False, True, True, False, None, {"textRows": 10}, {}),
            (180, "image", "Image", "ezimage", 5, False, False, True, True, None, {}, _megabytes(10)),
        ],
    },
    {
        "id": 5, "identifier": "image", "name": "Image", "group": 3,
        "remote_id": "f6df12aa74e36230eb675f364fccd25a", "name_schema": "<name>",
        "is_container": False, "always_available": True, "sort_field": "PATH",
        "created": "2002-09-08T11:36:32", "modified": "2003-03-24T08:33:04",
        "fields": [
            (116, "name", "Name", "ezstring", 1, True, True, True, False, None, {}, _string(150)),
            (117, "caption", "Caption", "ezrichtext", 2, False, True, True, False, None, _richtext(10), {}),
            (118, "image", "Image", "ezimage", 3, False, True, True, True, None, {}, _megabytes(10)),
        ],
    },
    {
        "id": 12, "identifier": "file", "name": "File", "group": 3,
        "remote_id": "637d58bfddf164627bdfd265733280a0", "name_schema": "<name>",
        "is_container": False, "always_available": True, "sort_field": "PATH",
        "created": "2003-05-08T09:17:52", "modified": "2003-05-08T09:21:09",
        "fields": [
            (146, "name", "Name", "ezstring", 1, True, True, True, False, "New file", {}, _string(None)),
            (147, "description", "Description", "ezrichtext", 2, False, True, True, False, None, _richtext(10), {}),
            (148, "file", "File", "ezbinaryfile", 3, True, False, True, False, None, {}, {}),
        ],
    },
]  # fmt: skip

NEXT_CONTENT_TYPE_ID = 13
NEXT_FIELD_DEFINITION_ID = 181


def _definition(row: Definition) -> FieldDefinition:
    (fid, identifier, name, field_type, position, required, searchable, translatable, thumbnail,
     default, settings, validators) = row  # fmt: skip
    kind = get_field_type(field_type)
    settings, validators = kind.normalize_definition(settings, validators)
    return FieldDefinition(
        id=fid,
        identifier=identifier,
        field_type=field_type,
        field_group="content",
        position=position,
        is_translatable=translatable,
        is_required=required,
        is_searchable=searchable,
        is_thumbnail=thumbnail,
        default_value=kind.from_wire(default),
        names={ENG: name},
        descriptions={},
        field_settings=settings,
        validator_configuration=validators,
    )


def load_content_types(connection: Connection) -> None:
    connection.execute(
        insert(content_type_groups),
        [
            {
                "id": gid,
                "identifier": identifier,
                "created": int(_utc(created).timestamp()),
                "modified": int(_utc(modified).timestamp()),
                "creator_id": ADMIN,
                "modifier_id": ADMIN,
            }
            for gid, identifier, created, modified in GROUPS
        ],
    )
    gateway = SqlContentTypeGateway(connection)
    for spec in TYPES:
        gateway.save(
            ContentType(
                id=spec["id"],
                status=DEFINED,
                identifier=spec["identifier"],
                remote_id=spec["remote_id"],
                names={ENG: spec["name"]},
                descriptions={},
                creation_date=_utc(spec["created"]),
                modification_date=_utc(spec["modified"]),
                creator_id=ADMIN,
                modifier_id=ADMIN,
                url_alias_schema="",
                name_schema=spec["name_schema"],
                is_container=spec["is_container"],
                main_language_code=ENG,
                default_always_available=spec["always_available"],
                default_sort_field=spec["sort_field"],
                default_sort_order="ASC",
                group_ids=(spec["group"],),
                field_definitions=tuple(_definition(row) for row in spec["fields"]),
            )
        )
    ensure_at_least(connection, "content_type", NEXT_CONTENT_TYPE_ID - 1)
    ensure_at_least(connection, "field_definition", NEXT_FIELD_DEFINITION_ID - 1)
