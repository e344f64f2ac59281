"""Content items, their versions, fields and relations, and the structs that create and change them.

A content item has numbered versions. A version is a DRAFT (editable), PUBLISHED (at most one per item)
or ARCHIVED (a former published version). The *current* version is the published one, or the first
draft while the item was never published. Fields hold normalized stored values (see
``domain/fieldtypes/base.py``), one per field definition and language of the version.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import datetime

from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.location import LocationCreate

# Version statuses and their stored codes (the reference's: 0 draft, 1 published, 3 archived).
DRAFT = "DRAFT"
PUBLISHED = "PUBLISHED"
ARCHIVED = "ARCHIVED"
VERSION_STATUS_CODES = {DRAFT: 0, PUBLISHED: 1, ARCHIVED: 3}
# Content statuses: DRAFT (never published), PUBLISHED, TRASHED.
TRASHED = "TRASHED"
CONTENT_STATUS_CODES = {DRAFT: 0, PUBLISHED: 1, TRASHED: 2}

# Relation types are a bit mask, as in the reference.
COMMON = 1
EMBED = 2
LINK = 4
ATTRIBUTE = 8  # a field relation
ASSET = 16
RELATION_TYPE_NAMES = (
    (COMMON, "COMMON"),
    (EMBED, "EMBED"),
    (LINK, "LINK"),
    (ATTRIBUTE, "ATTRIBUTE"),
    (ASSET, "ASSET"),
)


def relation_type_names(mask: int) -> str:
    """``9`` -> ``"COMMON,ATTRIBUTE"``."""
    return ",".join(name for bit, name in RELATION_TYPE_NAMES if mask & bit)


@dataclass(frozen=True, slots=True)
class ContentInfo:
    """Version-independent metadata; ``names`` are those of the current version."""

    id: int
    content_type_id: int
    remote_id: str
    section_id: int
    owner_id: int
    main_language_code: str
    always_available: bool
    status: str  # DRAFT | PUBLISHED | TRASHED
    is_hidden: bool
    current_version_no: int
    modification_date: datetime
    published_date: datetime | None
    main_location_id: int | None
    main_location_path: str | None  # "/1/2/59/"
    names: dict[str, str]
    revision: int  # bumped by every write to the item: the ETag changes with it

    @property
    def name(self) -> str:
        return self.names.get(self.main_language_code) or next(iter(self.names.values()), "")

    def translated_name(self, languages: tuple[str, ...] = ()) -> str:
        for code in languages:
            if self.names.get(code):
                return self.names[code]
        return self.name

    @property
    def is_published(self) -> bool:
        return self.status == PUBLISHED


@dataclass(frozen=True, slots=True)
class VersionInfo:
    id: int
    content_id: int
    version_no: int
    status: str  # DRAFT | PUBLISHED | ARCHIVED
    creator_id: int
    creation_date: datetime
    modification_date: datetime
    initial_language_code: str
    language_codes: tuple[str, ...]
    names: dict[str, str]

    @property
    def is_draft(self) -> bool:
        return self.status == DRAFT


@dataclass(frozen=True, slots=True)
class Field:
    """One field value in one language; ``id`` is the same in every version of the item."""

    id: int
    field_definition_id: int
    identifier: str
    language_code: str
    field_type: str
    value: JsonValue


@dataclass(frozen=True, slots=True)
class LockedVersion:
    """What a writer working on one version of an item reads in one statement, the item locked."""

    info: ContentInfo
    version: VersionInfo | None  # None: the item has no such version
    stored_relations: bool  # the version holds relations derived from its field values
    fields: list[Field]


@dataclass(frozen=True, slots=True)
class CurrentItem:
    """An item as a content GET reads it in one statement: its current version (None when it has no
    version row) and a stamp that changes with anything either shows; with the version's fields, and
    whether it holds relations, when the reader asked for them."""

    info: ContentInfo
    version: VersionInfo | None
    stamp: Hashable
    fields: list[Field] | None = None
    has_relations: bool = True


@dataclass(frozen=True, slots=True)
class Relation:
    id: int
    source_content_id: int
    source_version_no: int
    destination_content_id: int
    type: int  # bit mask of COMMON, EMBED, LINK, ATTRIBUTE, ASSET
    source_field_definition_id: int | None = None
    source_field_identifier: str | None = None


@dataclass(frozen=True, slots=True)
class Version:
    """A version with its fields and relations, and the item it belongs to."""

    content: ContentInfo
    info: VersionInfo
    fields: tuple[Field, ...]
    relations: tuple[Relation, ...]
    # Changes whenever anything above could (None: not known): what a representation cache keys on.
    stamp: Hashable | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class FieldInput:
    """A field value as a client sent it: the raw wire value, parsed by the field type later."""

    identifier: str
    language_code: str | None
    value: JsonValue


@dataclass(frozen=True, slots=True)
class ContentCreate:
    content_type_id: int
    main_language_code: str
    fields: tuple[FieldInput, ...]
    locations: tuple[LocationCreate, ...] = ()
    section_id: int | None = None
    owner_id: int | None = None
    remote_id: str | None = None
    always_available: bool | None = None
    modification_date: datetime | None = None


@dataclass(frozen=True, slots=True)
class ContentUpdate:
    """Metadata changes; None leaves a value unchanged."""

    main_language_code: str | None = None
    section_id: int | None = None
    main_location_id: int | None = None
    owner_id: int | None = None
    always_available: bool | None = None
    remote_id: str | None = None
    modification_date: datetime | None = None
    published_date: datetime | None = None


@dataclass(frozen=True, slots=True)
class VersionUpdate:
    fields: tuple[FieldInput, ...] = ()
    initial_language_code: str | None = None
    modification_date: datetime | None = None


@dataclass(frozen=True, slots=True)
class NewContent:
    """The row of a content item to insert (the service fills in every value)."""

    content_type_id: int
    remote_id: str
    section_id: int
    owner_id: int
    main_language_code: str
    always_available: bool
    modification_date: datetime


@dataclass(frozen=True, slots=True)
class NewVersion:
    content_id: int
    version_no: int
    creator_id: int
    creation_date: datetime
    initial_language_code: str
    language_codes: tuple[str, ...]
    names: dict[str, str]
