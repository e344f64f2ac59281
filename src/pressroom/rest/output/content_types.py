"""Visitors for content type groups, content types and field definitions (spec/shapes-content.md §14)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pressroom.domain.content_type import DRAFT, ContentType, ContentTypeGroup, FieldDefinition
from pressroom.domain.errors import InvalidArgument
from pressroom.domain.fieldtypes.base import FieldType
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.tags import value_tag
from pressroom.rest.output.lists import ItemList, list_kind
from pressroom.rest.output.visitor import Out, Representation, translated, visits
from pressroom.rest.output.wire import RestWireContext
from pressroom.rest.output.writers import Hash


@dataclass(frozen=True, slots=True)
class ContentTypeInfo:
    """A content type without its field definitions."""

    content_type: ContentType


@dataclass(frozen=True, slots=True)
class ContentTypeGroupRefList:
    content_type: ContentType


@dataclass(frozen=True, slots=True)
class FieldDefinitionView:
    """A field definition of a type state (DEFINED or DRAFT): the state decides the href."""

    content_type_id: int
    status: str
    definition: FieldDefinition
    by_identifier: bool = False  # loaded by identifier: the href is that URL, as in the reference


@dataclass(frozen=True, slots=True)
class FieldDefinitionList:
    content_type: ContentType


def _date(moment: datetime) -> str:
    return moment.isoformat()


def _user(out: Out, user_id: int) -> dict[str, Any]:
    return {"_media-type": out.media("User"), "_href": out.href(f"/user/users/{user_id}")}


def group_body(out: Out, group: ContentTypeGroup) -> dict[str, Any]:
    return {
        "_media-type": out.media("ContentTypeGroup"),
        "_href": out.url("content_type_group.load", groupId=group.id),
        "id": group.id,
        "identifier": group.identifier,
        "created": _date(group.created),
        "modified": _date(group.modified),
        "Creator": _user(out, group.creator_id),
        "Modifier": _user(out, group.modifier_id),
        "ContentTypes": out.ref("ContentTypeInfoList", "content_type_group.types", groupId=group.id),
    }


@visits(ContentTypeGroup, "ContentTypeGroup")
def visit_group(out: Out, group: ContentTypeGroup) -> Representation:
    return Representation.single(
        "ContentTypeGroup", group_body(out, group), group, patch="ContentTypeGroupInput"
    )


ContentTypeGroupList = ItemList[Literal["ContentTypeGroupList"], ContentTypeGroup]
list_kind("ContentTypeGroupList", "ContentTypeGroup", group_body)


def _field_type(identifier: str) -> FieldType | None:
    try:
        return get_field_type(identifier)
    except InvalidArgument:
        return None


def _field_definition_href(
    out: Out, type_id: int, status: str, definition: FieldDefinition, by_identifier: bool
) -> str:
    if by_identifier:
        route = (
            "field_definition.draft_by_identifier" if status == DRAFT else "field_definition.by_identifier"
        )
        return out.url(route, typeId=type_id, identifier=definition.identifier)
    route = "field_definition.draft_load" if status == DRAFT else "field_definition.load"
    return out.url(route, typeId=type_id, fieldDefinitionId=definition.id)


def field_definition_body(
    out: Out, type_id: int, status: str, definition: FieldDefinition, by_identifier: bool = False
) -> dict[str, Any]:
    kind = _field_type(definition.field_type)
    wire = RestWireContext(out)
    default = definition.default_value
    settings: Any = definition.field_settings
    if kind is not None:  # no default is the type's empty value, whose hash the reference shows
        default = kind.to_wire(kind.empty_value() if default is None else default, wire)
        settings = kind.settings_to_wire(settings, wire.location_href)
    return {
        "_media-type": out.media("FieldDefinition"),
        "_href": _field_definition_href(out, type_id, status, definition, by_identifier),
        "id": definition.id,
        "identifier": definition.identifier,
        "fieldType": definition.field_type,
        "fieldGroup": definition.field_group,
        "position": definition.position,
        "isTranslatable": definition.is_translatable,
        "isRequired": definition.is_required,
        "isThumbnail": definition.is_thumbnail,
        "isInfoCollector": definition.is_info_collector,
        "defaultValue": Hash(default),
        "isSearchable": definition.is_searchable,
        "names": translated(definition.names),
        "descriptions": translated(definition.descriptions),
        "fieldSettings": Hash(settings),
        "validatorConfiguration": Hash(definition.validator_configuration),
    }


def field_definitions_body(out: Out, content_type: ContentType) -> dict[str, Any]:
    route = "field_definition.draft_list" if content_type.status == DRAFT else "field_definition.list"
    return {
        "_media-type": out.media("FieldDefinitionList"),
        "_href": out.url(route, typeId=content_type.id),
        "FieldDefinition": [
            field_definition_body(out, content_type.id, content_type.status, d)
            for d in content_type.field_definitions
        ],
    }


def content_type_body(out: Out, content_type: ContentType, *, full: bool) -> dict[str, Any]:
    t = content_type
    route = "content_type.draft" if t.status == DRAFT else "content_type.load"
    body: dict[str, Any] = {
        "_media-type": out.media("ContentType" if full else "ContentTypeInfo"),
        "_href": out.url(route, typeId=t.id),
        "id": t.id,
        "status": t.status,
        "identifier": t.identifier,
        "names": translated(t.names),
        "descriptions": translated(t.descriptions),
        "creationDate": _date(t.creation_date),
        "modificationDate": _date(t.modification_date),
        "Creator": _user(out, t.creator_id),
        "Modifier": _user(out, t.modifier_id),
        "Groups": out.ref("ContentTypeGroupRefList", "content_type.groups", typeId=t.id),
        "Draft": out.ref("ContentType", "content_type.draft", typeId=t.id),
        "remoteId": t.remote_id,
        "urlAliasSchema": t.url_alias_schema,
        "nameSchema": t.name_schema,
        "isContainer": t.is_container,
        "mainLanguageCode": t.main_language_code,
        "defaultAlwaysAvailable": t.default_always_available,
        "defaultSortField": t.default_sort_field,
        "defaultSortOrder": t.default_sort_order,
    }
    if full:
        body["FieldDefinitions"] = field_definitions_body(out, t)
    return body


def _type_representation(out: Out, content_type: ContentType, *, full: bool) -> Representation:
    name = "ContentType" if full else "ContentTypeInfo"
    return Representation(
        name,
        name,
        content_type_body(out, content_type, full=full),
        accept_patch="ContentTypeUpdate" if content_type.status == DRAFT else None,
        etag=value_tag(content_type),
    )


@visits(ContentType, "ContentType")
def visit_content_type(out: Out, content_type: ContentType) -> Representation:
    return _type_representation(out, content_type, full=True)


@visits(ContentTypeInfo, "ContentTypeInfo")
def visit_content_type_info(out: Out, value: ContentTypeInfo) -> Representation:
    return _type_representation(out, value.content_type, full=False)


def _full_type_body(out: Out, content_type: ContentType) -> dict[str, Any]:
    return content_type_body(out, content_type, full=True)


def _type_info_body(out: Out, content_type: ContentType) -> dict[str, Any]:
    return content_type_body(out, content_type, full=False)


ContentTypeList = ItemList[Literal["ContentTypeList"], ContentType]
ContentTypeInfoList = ItemList[Literal["ContentTypeInfoList"], ContentType]
list_kind("ContentTypeList", "ContentType", _full_type_body)
list_kind("ContentTypeInfoList", "ContentType", _type_info_body, xml_element="ContentTypeInfo")


@visits(ContentTypeGroupRefList, "ContentTypeGroupRefList")
def visit_group_ref_list(out: Out, value: ContentTypeGroupRefList) -> Representation:
    t = value.content_type
    refs = []
    for group_id in t.group_ids:
        ref = out.ref("ContentTypeGroup", "content_type_group.load", groupId=group_id)
        if len(t.group_ids) > 1:
            ref["unlink"] = {
                "_href": out.url("content_type.unlink_group", typeId=t.id, groupId=group_id),
                "_method": "DELETE",
            }
        refs.append(ref)
    body = {
        "_media-type": out.media("ContentTypeGroupRefList"),
        "_href": out.url("content_type.groups", typeId=t.id),
        "ContentTypeGroupRef": refs,
    }
    return Representation("ContentTypeGroupRefList", "ContentTypeGroupRefList", body)


@visits(FieldDefinitionView, "FieldDefinition")
def visit_field_definition(out: Out, value: FieldDefinitionView) -> Representation:
    return Representation.single(
        "FieldDefinition",
        field_definition_body(
            out, value.content_type_id, value.status, value.definition, value.by_identifier
        ),
        value.definition,
        patch="FieldDefinitionUpdate" if value.status == DRAFT else None,
    )


@visits(FieldDefinitionList, "FieldDefinitionList", root="FieldDefinitions")
def visit_field_definition_list(out: Out, value: FieldDefinitionList) -> Representation:
    return Representation(
        "FieldDefinitions", "FieldDefinitionList", field_definitions_body(out, value.content_type)
    )
