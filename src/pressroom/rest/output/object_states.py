"""Visitors for object state groups, object states and the states of an item (shapes-content.md §13)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pressroom.domain.object_state import ObjectState, ObjectStateGroup
from pressroom.rest.output.lists import ItemList, list_kind
from pressroom.rest.output.visitor import Out, Representation, translated, visits


@dataclass(frozen=True, slots=True)
class ContentObjectStates:
    content_id: int
    states: list[ObjectState]


def group_body(out: Out, group: ObjectStateGroup) -> dict[str, Any]:
    return {
        "_media-type": out.media("ObjectStateGroup"),
        "_href": out.url("object_state_group.load", groupId=group.id),
        "id": group.id,
        "identifier": group.identifier,
        "defaultLanguageCode": group.default_language_code,
        "languageCodes": ",".join(group.language_codes),
        "ObjectStates": out.ref("ObjectStateList", "object_state.list", groupId=group.id),
        "names": translated(group.names),
        "descriptions": translated(group.descriptions),
    }


def state_ref(out: Out, state: ObjectState) -> dict[str, Any]:
    return out.ref("ObjectState", "object_state.load", groupId=state.group_id, stateId=state.id)


def state_body(out: Out, state: ObjectState) -> dict[str, Any]:
    return {
        **state_ref(out, state),
        "id": state.id,
        "identifier": state.identifier,
        "priority": state.priority,
        "ObjectStateGroup": out.ref("ObjectStateGroup", "object_state_group.load", groupId=state.group_id),
        "defaultLanguageCode": state.default_language_code,
        "languageCodes": ",".join(state.language_codes),
        "names": translated(state.names),
        "descriptions": translated(state.descriptions),
    }


@visits(ObjectStateGroup, "ObjectStateGroup")
def visit_group(out: Out, group: ObjectStateGroup) -> Representation:
    return Representation.single("ObjectStateGroup", group_body(out, group), group, "ObjectStateGroupUpdate")


@visits(ObjectState, "ObjectState")
def visit_state(out: Out, state: ObjectState) -> Representation:
    return Representation.single("ObjectState", state_body(out, state), state, "ObjectStateUpdate")


ObjectStateGroupList = ItemList[Literal["ObjectStateGroupList"], ObjectStateGroup]
ObjectStateList = ItemList[Literal["ObjectStateList"], ObjectState]
list_kind("ObjectStateGroupList", "ObjectStateGroup", group_body)
list_kind("ObjectStateList", "ObjectState", state_body)


@visits(ContentObjectStates, "ContentObjectStates")
def visit_content_states(out: Out, value: ContentObjectStates) -> Representation:
    body = {
        "_media-type": out.media("ContentObjectStates"),
        "ObjectState": [state_ref(out, state) for state in value.states],
    }
    return Representation.single(
        "ContentObjectStates", body, (value.content_id, tuple(value.states)), "ContentObjectStates"
    )
