"""Field definitions: read those of a type or draft; add, update and remove those of a draft."""

from __future__ import annotations

from dataclasses import replace

from pressroom.domain.content_type import DEFINED, DRAFT, ContentType, FieldDefinition, FieldDefinitionInput
from pressroom.domain.content_type_rules import build_field_definition, field_type_of, update_field_definition
from pressroom.domain.errors import Forbidden, NotFound
from pressroom.domain.user import User
from pressroom.services.content_type import check_tag, get_type, read_type, saved
from pressroom.services.content_type_group import utc_now
from pressroom.services.event_log import record_type
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, Tx


def _definition(content_type: ContentType, fd_id: int) -> FieldDefinition:
    for definition in content_type.field_definitions:
        if definition.id == fd_id:
            return definition
    raise NotFound.of("FieldDefinition", fd_id)


class FieldDefinitionService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    def load(
        self, user: User, type_id: int, fd_id: int, status: str = DEFINED
    ) -> tuple[ContentType, FieldDefinition]:
        """The type state and its field definition ``fd_id``."""
        with self.store.read(caller=user.request) as tx:
            content_type = read_type(self.permissions, user, tx, type_id, status)
        return content_type, _definition(content_type, fd_id)

    def by_identifier(
        self, viewer: User, type_id: int, identifier: str, status: str = DEFINED
    ) -> tuple[ContentType, FieldDefinition]:
        with self.store.read(caller=viewer.request) as tx:
            content_type = get_type(tx, type_id, status)
        definition = content_type.field_definition(identifier)
        if definition is None:
            raise NotFound.of("FieldDefinition", identifier)
        return content_type, definition

    def add(
        self, user: User, type_id: int, struct: FieldDefinitionInput
    ) -> tuple[ContentType, FieldDefinition]:
        """Add a field definition to the draft.

        Forbidden when the identifier is taken, when the field type is singular and already present, or
        when it cannot be added to a type that has content items; InvalidArgument for a bad definition.
        """
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            draft = get_type(tx, type_id, DRAFT)
            position = max((d.position for d in draft.field_definitions), default=0) + 1
            definition = build_field_definition(tx.content_types.new_field_definition_id(), struct, position)
            if draft.field_definition(definition.identifier) is not None:
                raise Forbidden(
                    f"Field definition identifier '{definition.identifier}' already exists in the type"
                )
            kind = field_type_of(definition.identifier, definition.field_type)
            if kind.singular and any(d.field_type == kind.identifier for d in draft.field_definitions):
                raise Forbidden(f"Field type '{kind.identifier}' is singular and already in the type")
            if not kind.addable_with_instances and tx.content_types.has_instances(type_id):
                raise Forbidden(
                    f"Field type '{kind.identifier}' cannot be added to a type that has content items"
                )
            changed = self._save(tx, user, draft, (*draft.field_definitions, definition))
            record_type(tx, "content_type.updated", user.id, changed, fieldDefinitionAdded=definition.id)
            return changed, _definition(changed, definition.id)

    def update(
        self, user: User, type_id: int, fd_id: int, struct: FieldDefinitionInput, if_match: str | None
    ) -> tuple[ContentType, FieldDefinition]:
        """Update a field definition of the draft; Forbidden when the new identifier is taken."""
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            draft = get_type(tx, type_id, DRAFT)
            current = _definition(draft, fd_id)
            check_tag(if_match, current, f"Field definition {fd_id}")
            updated = update_field_definition(current, struct)
            other = draft.field_definition(updated.identifier)
            if other is not None and other.id != fd_id:
                raise Forbidden(
                    f"Field definition identifier '{updated.identifier}' already exists in the type"
                )
            definitions = tuple(updated if d.id == fd_id else d for d in draft.field_definitions)
            changed = self._save(tx, user, draft, definitions)
            record_type(tx, "content_type.updated", user.id, changed, fieldDefinitionUpdated=fd_id)
            return changed, _definition(changed, fd_id)

    def remove(self, user: User, type_id: int, fd_id: int) -> None:
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            draft = get_type(tx, type_id, DRAFT)
            _definition(draft, fd_id)
            changed = self._save(tx, user, draft, tuple(d for d in draft.field_definitions if d.id != fd_id))
            record_type(tx, "content_type.updated", user.id, changed, fieldDefinitionDeleted=fd_id)

    @staticmethod
    def _save(
        tx: Tx, user: User, draft: ContentType, definitions: tuple[FieldDefinition, ...]
    ) -> ContentType:
        return saved(
            tx,
            replace(draft, field_definitions=definitions, modification_date=utc_now(), modifier_id=user.id),
        )
