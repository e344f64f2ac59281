"""Content type groups, content types, their drafts, groups and field definitions."""

from __future__ import annotations

from pressroom.domain.content_type import DRAFT, ContentType, ContentTypeGroup
from pressroom.domain.errors import BadRequest
from pressroom.rest.input.content_type_query import parse_content_type_view
from pressroom.rest.input.content_types import (
    parse_content_type_create,
    parse_content_type_update,
    parse_field_definition,
)
from pressroom.rest.input.registry import plain
from pressroom.rest.output.content_types import (
    ContentTypeGroupList,
    ContentTypeGroupRefList,
    ContentTypeInfo,
    ContentTypeInfoList,
    ContentTypeList,
    FieldDefinitionList,
    FieldDefinitionView,
)
from pressroom.rest.output.lists import ItemList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent, Redirect


def _types(req: RestRequest, content_types: list[ContentType]) -> ContentTypeList | ContentTypeInfoList:
    """ContentTypeInfoList, unless Accept names ContentTypeList."""
    if req.wants("ContentTypeList"):
        return ContentTypeList("ContentTypeList", req.out.href(req.path), content_types)
    return ContentTypeInfoList("ContentTypeInfoList", req.out.href(req.path), content_types)


def _draft(req: RestRequest, draft: ContentType) -> ContentType | ContentTypeInfo:
    """A draft answers in full, unless Accept names ContentTypeInfo."""
    return ContentTypeInfo(draft) if req.wants("ContentTypeInfo") else draft


# -- groups ------------------------------------------------------------------------------------------
def list_groups(req: RestRequest) -> ContentTypeGroupList | Redirect:
    identifier = req.query.get("identifier")
    if identifier is not None:
        group = req.services.content_type_groups.by_identifier(req.user, identifier)
        return Redirect(req.url("content_type_group.load", groupId=group.id))
    return ItemList(
        "ContentTypeGroupList",
        req.url("content_type_group.list"),
        req.services.content_type_groups.list(req.user),
    )


def create_group(req: RestRequest) -> Created[ContentTypeGroup]:
    identifier = req.input(plain).string("identifier")
    group = req.services.content_type_groups.create(req.user, identifier)
    return Created(req.url("content_type_group.load", groupId=group.id), group)


def load_group(req: RestRequest, groupId: int) -> ContentTypeGroup:
    return req.services.content_type_groups.load(req.user, groupId)


def update_group(req: RestRequest, groupId: int) -> ContentTypeGroup:
    identifier = req.input(plain).opt_string("identifier")
    return req.services.content_type_groups.update(req.user, groupId, identifier, req.if_match)


def delete_group(req: RestRequest, groupId: int) -> NoContent:
    req.services.content_type_groups.delete(req.user, groupId)
    return NoContent()


def list_group_types(req: RestRequest, groupId: int) -> ContentTypeList | ContentTypeInfoList:
    return _types(req, req.services.content_type_groups.list_types(req.user, groupId))


def create_type(req: RestRequest, groupId: int) -> Created[ContentType]:
    struct = req.input(parse_content_type_create)
    publish = req.query.get("publish", "false").strip().lower()
    if publish not in ("true", "false", "1", "0"):
        raise BadRequest(f"Query parameter 'publish' must be true or false, got '{publish}'")
    content_type = req.services.content_types.create(
        req.user, groupId, struct, publish=publish in ("true", "1")
    )
    route = "content_type.draft" if content_type.status == DRAFT else "content_type.load"
    return Created(req.url(route, typeId=content_type.id), content_type)


# -- content types -----------------------------------------------------------------------------------
def list_types(req: RestRequest) -> ContentTypeList | ContentTypeInfoList:
    service = req.services.content_types
    identifier, remote_id = req.query.get("identifier"), req.query.get("remoteId")
    if identifier is not None:
        return _types(req, [service.by_identifier(identifier)])
    if remote_id is not None:
        return _types(req, [service.by_remote_id(remote_id)])
    limit = req.query_int("limit", -1)
    found = service.list(
        order_by=req.query.get("orderby"),
        sort=req.query.get("sort"),
        offset=req.query_int("offset", 0),
        limit=None if limit == -1 else limit,
    )
    return _types(req, found)


def view_types(req: RestRequest) -> ContentTypeList:
    """``POST /content/types/view``: the types a ContentTypeViewInput selects, in full."""
    query = req.input(parse_content_type_view)
    return ItemList(
        "ContentTypeList", req.out.href(req.path), req.services.content_types.find(req.user, query)
    )


def load_type(req: RestRequest, typeId: int) -> ContentType:
    return req.services.content_types.load(req.user, typeId)


def copy_type(req: RestRequest, typeId: int) -> Created[None]:
    copy = req.services.content_types.copy(req.user, typeId)
    return Created(req.url("content_type.load", typeId=copy.id))


def create_draft(req: RestRequest, typeId: int) -> Created[ContentType | ContentTypeInfo]:
    struct = req.input(parse_content_type_update)
    draft = req.services.content_types.create_draft(req.user, typeId, struct)
    return Created(req.url("content_type.draft", typeId=typeId), _draft(req, draft))


def delete_type(req: RestRequest, typeId: int) -> NoContent:
    req.services.content_types.delete(req.user, typeId)
    return NoContent()


def load_draft(req: RestRequest, typeId: int) -> ContentType | ContentTypeInfo:
    return _draft(req, req.services.content_types.load(req.user, typeId, DRAFT))


def update_draft(req: RestRequest, typeId: int) -> ContentType | ContentTypeInfo:
    struct = req.input(parse_content_type_update)
    return _draft(req, req.services.content_types.update_draft(req.user, typeId, struct, req.if_match))


def publish_draft(req: RestRequest, typeId: int) -> ContentType:
    return req.services.content_types.publish_draft(req.user, typeId)


def delete_draft(req: RestRequest, typeId: int) -> NoContent:
    req.services.content_types.delete_draft(req.user, typeId)
    return NoContent()


# -- groups of a type --------------------------------------------------------------------------------
def list_type_groups(req: RestRequest, typeId: int) -> ContentTypeGroupRefList:
    return ContentTypeGroupRefList(req.services.content_types.load(req.user, typeId))


def link_group(req: RestRequest, typeId: int) -> ContentTypeGroupRefList:
    href = req.query.get("group")
    if not href:
        raise BadRequest("Missing query parameter 'group' (the href of a content type group)")
    group_id = req.parse_href(href, "content_type_group.load", what="group")["groupId"]
    return ContentTypeGroupRefList(req.services.content_types.link_group(req.user, typeId, group_id))


def unlink_group(req: RestRequest, typeId: int, groupId: int) -> ContentTypeGroupRefList:
    return ContentTypeGroupRefList(req.services.content_types.unlink_group(req.user, typeId, groupId))


# -- field definitions -------------------------------------------------------------------------------
def list_field_definitions(req: RestRequest, typeId: int) -> FieldDefinitionList:
    return FieldDefinitionList(req.services.content_types.load(req.user, typeId))


def load_field_definition(req: RestRequest, typeId: int, fieldDefinitionId: int) -> FieldDefinitionView:
    content_type, definition = req.services.field_definitions.load(req.user, typeId, fieldDefinitionId)
    return FieldDefinitionView(content_type.id, content_type.status, definition)


def field_definition_by_identifier(req: RestRequest, typeId: int, identifier: str) -> FieldDefinitionView:
    content_type, definition = req.services.field_definitions.by_identifier(req.user, typeId, identifier)
    return FieldDefinitionView(content_type.id, content_type.status, definition, by_identifier=True)


def draft_field_definition_by_identifier(
    req: RestRequest, typeId: int, identifier: str
) -> FieldDefinitionView:
    draft, definition = req.services.field_definitions.by_identifier(req.user, typeId, identifier, DRAFT)
    return FieldDefinitionView(draft.id, draft.status, definition, by_identifier=True)


def list_draft_field_definitions(req: RestRequest, typeId: int) -> FieldDefinitionList:
    return FieldDefinitionList(req.services.content_types.load(req.user, typeId, DRAFT))


def create_draft_field_definition(req: RestRequest, typeId: int) -> Created[FieldDefinitionView]:
    struct = req.input(parse_field_definition)
    draft, definition = req.services.field_definitions.add(req.user, typeId, struct)
    location = req.url("field_definition.draft_load", typeId=typeId, fieldDefinitionId=definition.id)
    return Created(location, FieldDefinitionView(draft.id, draft.status, definition))


def load_draft_field_definition(req: RestRequest, typeId: int, fieldDefinitionId: int) -> FieldDefinitionView:
    draft, definition = req.services.field_definitions.load(req.user, typeId, fieldDefinitionId, DRAFT)
    return FieldDefinitionView(draft.id, draft.status, definition)


def update_draft_field_definition(
    req: RestRequest, typeId: int, fieldDefinitionId: int
) -> FieldDefinitionView:
    struct = req.input(parse_field_definition)
    draft, definition = req.services.field_definitions.update(
        req.user, typeId, fieldDefinitionId, struct, req.if_match
    )
    return FieldDefinitionView(draft.id, draft.status, definition)


def delete_draft_field_definition(req: RestRequest, typeId: int, fieldDefinitionId: int) -> NoContent:
    req.services.field_definitions.remove(req.user, typeId, fieldDefinitionId)
    return NoContent()
