"""Content type groups: list, load, create, update, delete, and the types of a group."""

from __future__ import annotations

import builtins
from datetime import UTC, datetime

from pressroom.domain.content_type import ContentType, ContentTypeGroup
from pressroom.domain.content_type_rules import check_group_identifier
from pressroom.domain.errors import Forbidden, NotFound, PreconditionFailed, found
from pressroom.domain.tags import tag_matches, value_tag
from pressroom.domain.user import User
from pressroom.services.event_log import record
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, Tx


def utc_now() -> datetime:
    """Now, to the second: what storage keeps, so a value reads back equal (and with the same ETag)."""
    return datetime.now(UTC).replace(microsecond=0)


def get_group(tx: Tx, group_id: int) -> ContentTypeGroup:
    group = tx.content_types.get_group(group_id)
    if group is None:
        raise NotFound.of("ContentTypeGroup", group_id)
    return group


class ContentTypeGroupService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    def list(self, viewer: User) -> list[ContentTypeGroup]:
        with self.store.read(caller=viewer.request) as tx:
            return tx.content_types.list_groups()

    def by_identifier(self, viewer: User, identifier: str) -> ContentTypeGroup:
        with self.store.read(caller=viewer.request) as tx:
            return found(tx.content_types.group_by_identifier(identifier), "ContentTypeGroup", identifier)

    def load(self, viewer: User, group_id: int) -> ContentTypeGroup:
        with self.store.read(caller=viewer.request) as tx:
            return get_group(tx, group_id)

    def list_types(self, viewer: User, group_id: int) -> builtins.list[ContentType]:
        """The defined types of the group, by id."""
        with self.store.read(caller=viewer.request) as tx:
            get_group(tx, group_id)
            return tx.content_types.list(group_id=group_id)

    def create(self, user: User, identifier: str) -> ContentTypeGroup:
        self.permissions.require(user, "class", "create")
        identifier = check_group_identifier(identifier)
        with self.store.write(caller=user.request) as tx:
            self._check_free(tx, identifier)
            group = tx.content_types.create_group(identifier, user.id, utc_now())
            _record(tx, "content_type_group.created", user, group)
            return group

    def update(
        self, user: User, group_id: int, identifier: str | None, if_match: str | None
    ) -> ContentTypeGroup:
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            current = found(tx.content_types.lock_group(group_id), "ContentTypeGroup", group_id)
            if if_match is not None and not tag_matches(if_match, value_tag(current)):
                raise PreconditionFailed(
                    f"Content type group {group_id} has changed; its ETag is {value_tag(current)}"
                )
            new = current.identifier if identifier is None else check_group_identifier(identifier)
            if new != current.identifier:
                self._check_free(tx, new)
            group = tx.content_types.update_group(group_id, new, user.id, utc_now())
            _record(tx, "content_type_group.updated", user, group)
            return group

    def delete(self, user: User, group_id: int) -> None:
        self.permissions.require(user, "class", "delete")
        with self.store.write(caller=user.request) as tx:
            group = get_group(tx, group_id)
            if not tx.content_types.group_is_empty(group_id):
                raise Forbidden(f"Content type group {group_id} still holds content types")
            tx.content_types.delete_group(group_id)
            _record(tx, "content_type_group.deleted", user, group)

    @staticmethod
    def _check_free(tx: Tx, identifier: str) -> None:
        if tx.content_types.group_by_identifier(identifier) is not None:
            raise Forbidden(f"A content type group with identifier '{identifier}' already exists")


def _record(tx: Tx, kind: str, user: User, group: ContentTypeGroup) -> None:
    data = {"contentTypeGroupId": group.id, "identifier": group.identifier}
    record(tx, kind, user.id, f"content_type_group/{group.id}", data)
