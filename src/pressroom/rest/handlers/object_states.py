"""Object state groups, object states, and the states of a content item."""

from __future__ import annotations

from pressroom.domain.object_state import ObjectState, ObjectStateGroup, ObjectStateInput
from pressroom.rest.input.node import Node
from pressroom.rest.input.registry import plain
from pressroom.rest.output.lists import ItemList
from pressroom.rest.output.object_states import ContentObjectStates, ObjectStateGroupList, ObjectStateList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent


def _parse(node: Node) -> ObjectStateInput:
    return ObjectStateInput(
        identifier=node.opt_string("identifier"),
        default_language_code=node.opt_string("defaultLanguageCode"),
        names=node.translated("names"),
        descriptions=node.translated("descriptions"),
        priority=node.opt_integer("priority"),
    )


def list_groups(req: RestRequest) -> ObjectStateGroupList:
    groups = req.services.object_states.list_groups(req.user)
    return ItemList("ObjectStateGroupList", req.url("object_state_group.list"), groups)


def create_group(req: RestRequest) -> Created[ObjectStateGroup]:
    struct = _parse(req.input(plain))
    group = req.services.object_states.create_group(req.user, struct)
    return Created(req.url("object_state_group.load", groupId=group.id), group)


def load_group(req: RestRequest, groupId: int) -> ObjectStateGroup:
    return req.services.object_states.load_group(req.user, groupId)


def update_group(req: RestRequest, groupId: int) -> ObjectStateGroup:
    struct = _parse(req.input(plain))
    return req.services.object_states.update_group(req.user, groupId, struct, req.if_match)


def delete_group(req: RestRequest, groupId: int) -> NoContent:
    req.services.object_states.delete_group(req.user, groupId)
    return NoContent()


def list_states(req: RestRequest, groupId: int) -> ObjectStateList:
    states = req.services.object_states.list_states(req.user, groupId)
    return ItemList("ObjectStateList", req.url("object_state.list", groupId=groupId), states)


def create_state(req: RestRequest, groupId: int) -> Created[ObjectState]:
    struct = _parse(req.input(plain))
    state = req.services.object_states.create_state(req.user, groupId, struct)
    return Created(req.url("object_state.load", groupId=groupId, stateId=state.id), state)


def load_state(req: RestRequest, groupId: int, stateId: int) -> ObjectState:
    return req.services.object_states.load_state(req.user, groupId, stateId)


def update_state(req: RestRequest, groupId: int, stateId: int) -> ObjectState:
    struct = _parse(req.input(plain))
    return req.services.object_states.update_state(req.user, groupId, stateId, struct, req.if_match)


def delete_state(req: RestRequest, groupId: int, stateId: int) -> NoContent:
    req.services.object_states.delete_state(req.user, groupId, stateId)
    return NoContent()


def content_states(req: RestRequest, contentId: int) -> ContentObjectStates:
    return ContentObjectStates(contentId, req.services.object_states.states_of(req.user, contentId))


def assign_content_states(req: RestRequest, contentId: int) -> ContentObjectStates:
    node = req.input(plain)
    refs = []
    for href in node.hrefs("ObjectState"):
        params = req.parse_href(href, "object_state.load", what="ObjectState")
        refs.append((params["groupId"], params["stateId"]))
    states = req.services.object_states.assign(req.user, contentId, refs)
    return ContentObjectStates(contentId, states)
