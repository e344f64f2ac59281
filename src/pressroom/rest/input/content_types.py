"""Parsers for ContentTypeCreate/Update and FieldDefinitionCreate/Update."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pressroom.domain.content_type import ContentTypeInput, FieldDefinitionInput
from pressroom.domain.errors import BadRequest
from pressroom.rest.input.node import Node
from pressroom.rest.input.registry import Refs, parses

EMPTY: tuple[object, ...] = (None, "", [])


def _hash(node: Node, key: str) -> dict[str, Any] | None:
    """fieldSettings / validatorConfiguration: a hash, or None when absent or empty."""
    value = node.data.get(key)
    if value in EMPTY:
        return None
    if not isinstance(value, dict):
        raise BadRequest(f"'{key}' in {node.where} must be a hash")
    return value


def _date(node: Node, key: str) -> datetime | None:
    """An ISO 8601 date-time (UTC when it has no offset) or a Unix timestamp, to the second."""
    raw = node.data.get(key)
    if raw in EMPTY:
        return None
    try:
        if isinstance(raw, int) and not isinstance(raw, bool):
            moment = datetime.fromtimestamp(raw, UTC)
        else:
            moment = datetime.fromisoformat(str(raw).strip())
    except (ValueError, OverflowError, OSError):
        raise BadRequest(f"'{key}' in {node.where} must be an ISO 8601 date, got '{raw}'") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0)


@parses("FieldDefinitionCreate", "FieldDefinitionUpdate")
def parse_field_definition(node: Node, _refs: Refs) -> FieldDefinitionInput:
    return _field_definition(node)


def _field_definition(node: Node) -> FieldDefinitionInput:
    """FieldDefinitionCreate / FieldDefinitionUpdate; absent keys are None (left unchanged on update)."""
    return FieldDefinitionInput(
        identifier=node.opt_string("identifier"),
        field_type=node.opt_string("fieldType"),
        field_group=node.opt_string("fieldGroup"),
        position=node.opt_integer("position"),
        is_translatable=node.opt_boolean("isTranslatable"),
        is_required=node.opt_boolean("isRequired"),
        is_info_collector=node.opt_boolean("isInfoCollector"),
        is_searchable=node.opt_boolean("isSearchable"),
        is_thumbnail=node.opt_boolean("isThumbnail"),
        default_value=node.data.get("defaultValue"),
        has_default_value=node.has("defaultValue"),
        names=node.translated("names"),
        descriptions=node.translated("descriptions"),
        field_settings=_hash(node, "fieldSettings"),
        validator_configuration=_hash(node, "validatorConfiguration"),
    )


@parses("ContentTypeCreate")
def parse_content_type_create(node: Node, _refs: Refs) -> ContentTypeInput:
    return _content_type(node, create=True)


@parses("ContentTypeUpdate")
def parse_content_type_update(node: Node, _refs: Refs) -> ContentTypeInput:
    return _content_type(node, create=False)


def _content_type(node: Node, *, create: bool) -> ContentTypeInput:
    """ContentTypeCreate (identifier required, FieldDefinitions read) or ContentTypeUpdate."""
    definitions: tuple[FieldDefinitionInput, ...] = ()
    if create:
        node.string("identifier")
        definitions = tuple(
            _field_definition(item) for item in node.items("FieldDefinitions", "FieldDefinition")
        )
    return ContentTypeInput(
        identifier=node.opt_string("identifier"),
        remote_id=node.opt_string("remoteId") or None,
        names=node.translated("names"),
        descriptions=node.translated("descriptions"),
        url_alias_schema=node.opt_string("urlAliasSchema"),
        name_schema=node.opt_string("nameSchema"),
        is_container=node.opt_boolean("isContainer"),
        main_language_code=node.opt_string("mainLanguageCode") or None,
        default_always_available=node.opt_boolean("defaultAlwaysAvailable"),
        default_sort_field=node.opt_string("defaultSortField") or None,
        default_sort_order=node.opt_string("defaultSortOrder") or None,
        modification_date=_date(node, "modificationDate"),
        field_definitions=definitions,
    )
