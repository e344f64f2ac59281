"""Parsers for UserCreate, UserUpdate, UserGroupCreate and UserGroupUpdate (spec/shapes-users.md §9)."""

from __future__ import annotations

from pressroom.domain.errors import BadRequest
from pressroom.domain.user import ContentParts, UserCreate, UserGroupCreate, UserUpdate
from pressroom.rest.input.content import field_inputs, last_id, opt_section_id, opt_type_id
from pressroom.rest.input.node import Node
from pressroom.rest.request import RestRequest


def _required_fields(node: Node) -> None:
    if node.data.get("fields") is None:
        raise BadRequest(f"Missing 'fields' element for {node.where}.")


def _created(req: RestRequest, name: str) -> tuple[Node, ContentParts]:
    """The body of a user or group create, and the content parts both share (fields required)."""
    node = req.input(name)
    if node.data.get("fields") is None:
        raise BadRequest(f"Missing 'fields' element for {node.where}.")
    return node, _parts(req, node, node.string("mainLanguageCode"))


def _parts(req: RestRequest, node: Node, main_language_code: str | None) -> ContentParts:
    return ContentParts(
        main_language_code=main_language_code,
        fields=field_inputs(node),
        section_id=opt_section_id(req, node),
        remote_id=node.opt_string("remoteId") or None,
    )


def parse_user_create(req: RestRequest) -> UserCreate:
    node, parts = _created(req, "UserCreate")
    enabled = node.opt_boolean("enabled")
    return UserCreate(
        login=node.string("login"),
        email=node.string("email"),
        password=node.string("password"),
        enabled=True if enabled is None else enabled,
        max_login=node.opt_integer("maxLogin"),
        content_type_id=opt_type_id(req, node),
        parts=parts,
    )


def parse_user_update(req: RestRequest) -> UserUpdate:
    node = req.input("UserUpdate")
    return UserUpdate(
        email=node.opt_string("email"),
        password=node.opt_string("password") or None,
        enabled=node.opt_boolean("enabled"),
        max_login=node.opt_integer("maxLogin"),
        parts=_parts(req, node, node.opt_string("mainLanguageCode") or None),
    )


def parse_user_group_create(req: RestRequest) -> UserGroupCreate:
    node, parts = _created(req, "UserGroupCreate")
    return UserGroupCreate(content_type_id=opt_type_id(req, node), parts=parts)


def parse_user_group_update(req: RestRequest) -> ContentParts:
    node = req.input("UserGroupUpdate")
    return _parts(req, node, node.opt_string("mainLanguageCode") or None)


def parse_group_reference(raw: str | None, what: str) -> int:
    """The location id of a group given as an href or path (``/api/ibexa/v2/user/groups/1/5/12``,
    ``/1/5/12``): its last segment."""
    return last_id(raw, f"{what} must name a user group like '/api/ibexa/v2/user/groups/1/5/12'")
