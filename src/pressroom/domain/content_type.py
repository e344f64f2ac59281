"""Content type groups, content types (defined and draft) and field definitions.

A content type has at most two states side by side: DEFINED (what content uses) and DRAFT (being edited).
Both share the type id and the field definition ids, as in the reference; publishing a draft replaces
the defined state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

DEFINED = "DEFINED"
DRAFT = "DRAFT"
STATUS_CODES = {DEFINED: 0, DRAFT: 1}

# Location sort fields and orders: wire names and the stored codes of the reference.
SORT_FIELDS = {
    "PATH": 1,
    "PUBLISHED": 2,
    "MODIFIED": 3,
    "SECTION": 4,
    "DEPTH": 5,
    "CLASS_IDENTIFIER": 6,
    "CLASS_NAME": 7,
    "PRIORITY": 8,
    "NAME": 9,
    "MODIFIED_SUBNODE": 10,
    "NODE_ID": 11,
    "CONTENTOBJECT_ID": 12,
}
SORT_FIELD_NAMES = {code: name for name, code in SORT_FIELDS.items()}
SORT_ORDERS = {"ASC": 1, "DESC": 0}
SORT_ORDER_NAMES = {code: name for name, code in SORT_ORDERS.items()}


@dataclass(frozen=True, slots=True)
class ContentTypeGroup:
    id: int
    identifier: str
    created: datetime
    modified: datetime
    creator_id: int
    modifier_id: int


@dataclass(frozen=True, slots=True)
class FieldDefinition:
    id: int
    identifier: str
    field_type: str
    field_group: str = ""
    position: int = 0
    is_translatable: bool = True
    is_required: bool = False
    is_info_collector: bool = False
    is_searchable: bool = True
    is_thumbnail: bool = False
    default_value: Any = None
    names: dict[str, str] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    field_settings: dict[str, Any] = field(default_factory=dict)
    validator_configuration: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ContentType:
    id: int
    status: str  # DEFINED | DRAFT
    identifier: str
    remote_id: str
    names: dict[str, str]
    descriptions: dict[str, str]
    creation_date: datetime
    modification_date: datetime
    creator_id: int
    modifier_id: int
    url_alias_schema: str
    name_schema: str
    is_container: bool
    main_language_code: str
    default_always_available: bool
    default_sort_field: str  # a key of SORT_FIELDS
    default_sort_order: str  # ASC | DESC
    group_ids: tuple[int, ...]
    field_definitions: tuple[FieldDefinition, ...]

    def field_definition(self, identifier: str) -> FieldDefinition | None:
        for definition in self.field_definitions:
            if definition.identifier == identifier:
                return definition
        return None


@dataclass(frozen=True, slots=True)
class FieldDefinitionInput:
    """Create or update struct for a field definition; None leaves a value unchanged on update."""

    identifier: str | None = None
    field_type: str | None = None
    field_group: str | None = None
    position: int | None = None
    is_translatable: bool | None = None
    is_required: bool | None = None
    is_info_collector: bool | None = None
    is_searchable: bool | None = None
    is_thumbnail: bool | None = None
    default_value: Any = None
    has_default_value: bool = False  # an explicit null default is a value too
    names: dict[str, str] | None = None
    descriptions: dict[str, str] | None = None
    field_settings: dict[str, Any] | None = None
    validator_configuration: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ContentTypeInput:
    """ContentTypeCreate / ContentTypeUpdate; None leaves a value unchanged on update."""

    identifier: str | None = None
    remote_id: str | None = None
    names: dict[str, str] | None = None
    descriptions: dict[str, str] | None = None
    url_alias_schema: str | None = None
    name_schema: str | None = None
    is_container: bool | None = None
    main_language_code: str | None = None
    default_always_available: bool | None = None
    default_sort_field: str | None = None
    default_sort_order: str | None = None
    modification_date: datetime | None = None
    field_definitions: tuple[FieldDefinitionInput, ...] = ()
