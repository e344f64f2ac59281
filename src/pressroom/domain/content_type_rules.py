"""Rules of the content model: building and checking content types and field definitions.

Field definitions are checked by their field type (settings, validators, default value); errors name the
definition and the key at fault. Name and URL alias schemas may only name field definitions of the type.
Nothing here does I/O: uniqueness against stored types is the service's business.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

from pressroom.domain.content_type import (
    SORT_FIELDS,
    SORT_ORDERS,
    ContentType,
    ContentTypeInput,
    FieldDefinition,
    FieldDefinitionInput,
)
from pressroom.domain.errors import BadRequest, InvalidArgument
from pressroom.domain.fieldtypes.base import FieldType
from pressroom.domain.fieldtypes.registry import get_field_type

TYPE_IDENTIFIER = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$")
FIELD_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,49}$")
GROUP_IDENTIFIER_MAX = 255
_PLACEHOLDER = re.compile(r"<([^<>]*)>")
_GROUP = re.compile(r"\(([^()]*<[^()]*)\)")
_GROUP_MARK = "\x00"
SCHEMAS = (("nameSchema", "name_schema"), ("urlAliasSchema", "url_alias_schema"))


def check_group_identifier(identifier: str) -> str:
    identifier = identifier.strip()
    if not identifier or len(identifier) > GROUP_IDENTIFIER_MAX:
        raise InvalidArgument(
            f"The content type group identifier must be 1 to {GROUP_IDENTIFIER_MAX} characters long"
        )
    return identifier


def check_type_identifier(identifier: str) -> str:
    if not TYPE_IDENTIFIER.match(identifier):
        raise InvalidArgument(
            f"Invalid content type identifier '{identifier}': use letters, digits, '_', '.' or '-'"
        )
    return identifier


def sort_field(text: str) -> str:
    name = text.strip().upper()
    if name not in SORT_FIELDS:
        raise InvalidArgument(f"Invalid defaultSortField '{text}': expected one of {', '.join(SORT_FIELDS)}")
    return name


def sort_order(text: str) -> str:
    name = text.strip().upper()
    if name not in SORT_ORDERS:
        raise InvalidArgument(f"Invalid defaultSortOrder '{text}': expected ASC or DESC")
    return name


@contextmanager
def about_definition(identifier: str) -> Iterator[None]:
    """Prefix an InvalidArgument raised by a field type with the field definition it concerns."""
    try:
        yield
    except InvalidArgument as error:
        raise InvalidArgument(f"Field definition '{identifier}': {error.message}") from None


def field_type_of(identifier: str, field_type: str) -> FieldType:
    with about_definition(identifier):
        return get_field_type(field_type)


def _merge_validators(current: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(current)
    for name, config in given.items():
        base = merged.get(name)
        if isinstance(base, dict) and isinstance(config, dict):
            merged[name] = {**base, **config}
        else:
            merged[name] = config
    return merged


def build_field_definition(fd_id: int, struct: FieldDefinitionInput, position: int) -> FieldDefinition:
    """A new field definition from FieldDefinitionCreate; raises BadRequest / InvalidArgument."""
    if not struct.identifier:
        raise BadRequest("Missing 'identifier' element for FieldDefinitionCreate.")
    if not struct.field_type:
        raise BadRequest(f"Missing 'fieldType' element for field definition '{struct.identifier}'.")
    identifier = struct.identifier
    if not FIELD_IDENTIFIER.match(identifier):
        raise InvalidArgument(
            f"Invalid field definition identifier '{identifier}': use letters, digits and '_' "
            "(at most 50 characters), not starting with a digit"
        )
    kind = field_type_of(identifier, struct.field_type)
    blank = FieldDefinition(
        id=fd_id,
        identifier=identifier,
        field_type=kind.identifier,
        position=position,
        field_settings=kind.default_settings(),
        validator_configuration=kind.default_validators(),
    )
    return update_field_definition(blank, replace(struct, identifier=None), new=True)


def update_field_definition(
    current: FieldDefinition, struct: FieldDefinitionInput, *, new: bool = False
) -> FieldDefinition:
    """Apply FieldDefinitionUpdate (None leaves a value unchanged); settings merge into the current ones."""
    identifier = struct.identifier if struct.identifier is not None else current.identifier
    if not FIELD_IDENTIFIER.match(identifier):
        raise InvalidArgument(f"Invalid field definition identifier '{identifier}'")
    if not new and struct.field_type is not None and struct.field_type != current.field_type:
        kind = field_type_of(current.identifier, struct.field_type)
        if kind.identifier != current.field_type:
            raise BadRequest(f"The field type of field definition '{current.identifier}' cannot be changed")
    kind = field_type_of(current.identifier, current.field_type)
    with about_definition(identifier):
        settings, validators = kind.normalize_definition(
            {**current.field_settings, **(struct.field_settings or {})},
            _merge_validators(current.validator_configuration, struct.validator_configuration or {}),
        )
        default = current.default_value
        if struct.has_default_value:  # an explicit null clears the default
            default = None if struct.default_value is None else kind.from_wire(struct.default_value)
    searchable = struct.is_searchable if struct.is_searchable is not None else current.is_searchable
    return FieldDefinition(
        id=current.id,
        identifier=identifier,
        field_type=current.field_type,
        field_group=_pick(struct.field_group, current.field_group),
        position=_pick(struct.position, current.position),
        is_translatable=_pick(struct.is_translatable, current.is_translatable),
        is_required=_pick(struct.is_required, current.is_required),
        is_info_collector=_pick(struct.is_info_collector, current.is_info_collector),
        is_searchable=searchable and kind.searchable_supported,
        is_thumbnail=_pick(struct.is_thumbnail, current.is_thumbnail),
        default_value=default,
        names=_pick(struct.names, current.names),
        descriptions=_pick(struct.descriptions, current.descriptions),
        field_settings=settings,
        validator_configuration=validators,
    )


def _pick(value: Any, current: Any) -> Any:
    return current if value is None else value


def new_content_type(
    type_id: int,
    status: str,
    struct: ContentTypeInput,
    *,
    user_id: int,
    now: datetime,
    group_ids: tuple[int, ...],
    definitions: tuple[FieldDefinition, ...],
    remote_id: str,
) -> ContentType:
    """A type from ContentTypeCreate, with the defaults of the reference for what the input leaves out."""
    if not struct.identifier:
        raise BadRequest("Missing 'identifier' element for ContentTypeCreate.")
    names = struct.names or {}
    main_language = struct.main_language_code or next(iter(names), "eng-GB")
    blank = ContentType(
        id=type_id,
        status=status,
        identifier=check_type_identifier(struct.identifier),
        remote_id=remote_id,
        names={},
        descriptions={},
        creation_date=now,
        modification_date=now,
        creator_id=user_id,
        modifier_id=user_id,
        url_alias_schema="",
        name_schema="",
        is_container=False,
        main_language_code=main_language,
        default_always_available=True,
        default_sort_field="PATH",
        default_sort_order="ASC",
        group_ids=group_ids,
        field_definitions=definitions,
    )
    return apply_type_input(blank, replace(struct, identifier=None, remote_id=None), user_id=user_id, now=now)


def apply_type_input(
    current: ContentType, struct: ContentTypeInput, *, user_id: int, now: datetime
) -> ContentType:
    """Apply ContentTypeUpdate metadata (None leaves a value unchanged); field definitions are untouched."""
    identifier = current.identifier if struct.identifier is None else check_type_identifier(struct.identifier)
    return replace(
        current,
        identifier=identifier,
        remote_id=_pick(struct.remote_id, current.remote_id),
        names=_pick(struct.names, current.names),
        descriptions=_pick(struct.descriptions, current.descriptions),
        url_alias_schema=_pick(struct.url_alias_schema, current.url_alias_schema),
        name_schema=_pick(struct.name_schema, current.name_schema),
        is_container=_pick(struct.is_container, current.is_container),
        main_language_code=_pick(struct.main_language_code, current.main_language_code),
        default_always_available=_pick(struct.default_always_available, current.default_always_available),
        default_sort_field=current.default_sort_field
        if struct.default_sort_field is None
        else sort_field(struct.default_sort_field),
        default_sort_order=current.default_sort_order
        if struct.default_sort_order is None
        else sort_order(struct.default_sort_order),
        modification_date=struct.modification_date or now,
        modifier_id=user_id,
    )


def schema_placeholders(schema: str) -> list[tuple[str, str]]:
    """(placeholder, field identifier) for every alternative of every ``<a|b>`` placeholder, also inside
    the groups ``(<first_name> <last_name>)`` that may stand as an alternative (see name_schema.py)."""
    found: list[tuple[str, str]] = []

    def collect(text: str) -> None:
        for match in _PLACEHOLDER.finditer(text):
            placeholder = match.group(0).replace(_GROUP_MARK, "(...)")
            for alternative in match.group(1).split("|"):
                name = alternative.strip()
                if name != _GROUP_MARK:
                    found.append((placeholder, name))

    text = schema
    while (group := _GROUP.search(text)) is not None:  # innermost groups first
        collect(group.group(1))
        text = text[: group.start()] + _GROUP_MARK + text[group.end() :]
    collect(text)
    return found


def schema_error(content_type: ContentType) -> str | None:
    """Why a name or URL alias schema is wrong: a placeholder naming no field definition of the type."""
    known = {d.identifier for d in content_type.field_definitions}
    for wire_name, attribute in SCHEMAS:
        schema = getattr(content_type, attribute)
        for placeholder, name in schema_placeholders(schema):
            if name not in known:
                return (
                    f"{wire_name} '{schema}': placeholder '{placeholder}' names an unknown "
                    f"field definition '{name}'"
                )
    return None


def check_schemas(content_type: ContentType) -> None:
    error = schema_error(content_type)
    if error is not None:
        raise InvalidArgument(error)


def duplicate_singular(definitions: tuple[FieldDefinition, ...]) -> str | None:
    """The field type of a singular kind that appears more than once, if any."""
    seen: set[str] = set()
    for definition in definitions:
        kind = field_type_of(definition.identifier, definition.field_type)
        if kind.singular and kind.identifier in seen:
            return kind.identifier
        seen.add(kind.identifier)
    return None


def check_definitions(definitions: tuple[FieldDefinition, ...]) -> None:
    """Identifiers unique and singular field types once; raises InvalidArgument."""
    identifiers = [d.identifier for d in definitions]
    for identifier in identifiers:
        if identifiers.count(identifier) > 1:
            raise InvalidArgument(f"Field definition identifier '{identifier}' is used more than once")
    singular = duplicate_singular(definitions)
    if singular is not None:
        raise InvalidArgument(f"Field type '{singular}' is singular: a content type may have only one")


def incomplete_reason(content_type: ContentType) -> str | None:
    """Why a type cannot be published as it is, or None."""
    if not content_type.field_definitions:
        return f"Content type '{content_type.identifier}' has no field definitions"
    return schema_error(content_type)
