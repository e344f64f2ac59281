"""Parsers for UserCreate, UserUpdate, UserGroupCreate and UserGroupUpdate (spec/shapes-users.md §9)."""

from __future__ import annotations

from pressroom.domain.errors import BadRequest
from pressroom.domain.user import ContentParts, UserCreate, UserGroupCreate, UserUpdate
from pressroom.rest.input.content import field_inputs, last_id, opt_section_id, opt_type_id
from pressroom.rest.input.node import Node
from pressroom.rest.input.registry import Refs, parses


def _created(node: Node, refs: Refs) -> ContentParts:
    """The content parts a user or group create share (fields required)."""
    if node.data.get("fields") is None:
        raise BadRequest(f"Missing 'fields' element for {node.where}.")
    return _parts(refs, node, node.string("mainLanguageCode"))


def _parts(refs: Refs, node: Node, main_language_code: str | None) -> ContentParts:
    return ContentParts(
        main_language_code=main_language_code,
        fields=field_inputs(node),
        section_id=opt_section_id(refs, node),
        remote_id=node.opt_string("remoteId") or None,
    )


@parses("UserCreate")
def parse_user_create(node: Node, refs: Refs) -> UserCreate:
    parts = _created(node, refs)
    enabled = node.opt_boolean("enabled")
    return UserCreate(
        login=node.string("login"),
        email=node.string("email"),
        password=node.string("password"),
        enabled=True if enabled is None else enabled,
        max_login=node.opt_integer("maxLogin"),
        content_type_id=opt_type_id(refs, node),
        parts=parts,
    )


@parses("UserUpdate")
def parse_user_update(node: Node, refs: Refs) -> UserUpdate:
    return UserUpdate(
        email=node.opt_string("email"),
        password=node.opt_string("password") or None,
        enabled=node.opt_boolean("enabled"),
        max_login=node.opt_integer("maxLogin"),
        parts=_parts(refs, node, node.opt_string("mainLanguageCode") or None),
    )


@parses("UserGroupCreate")
def parse_user_group_create(node: Node, refs: Refs) -> UserGroupCreate:
    parts = _created(node, refs)
    return UserGroupCreate(content_type_id=opt_type_id(refs, node), parts=parts)


@parses("UserGroupUpdate")
def parse_user_group_update(node: Node, refs: Refs) -> ContentParts:
    return _parts(refs, node, node.opt_string("mainLanguageCode") or None)


def parse_group_reference(raw: str | None, what: str) -> int:
    """The location id of a group given as an href or path (``/api/ibexa/v2/user/groups/1/5/12``,
    ``/1/5/12``): its last segment."""
    return last_id(raw, f"{what} must name a user group like '/api/ibexa/v2/user/groups/1/5/12'")
