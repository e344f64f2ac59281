"""Content types: list, load, create, copy, drafts (create, update, publish, delete), groups, delete.

A type has a DEFINED state (what content uses) and at most one DRAFT beside it, sharing the id. New
types start as a draft unless created with ``publish``. Field definitions of a draft are edited by
:class:`pressroom.services.field_definition.FieldDefinitionService`.
"""

from __future__ import annotations

import builtins
import uuid
from dataclasses import replace

from pressroom.domain.content_type import DEFINED, DRAFT, ContentType, ContentTypeInput
from pressroom.domain.content_type_query import ContentTypeQuery
from pressroom.domain.content_type_rules import (
    apply_type_input,
    build_field_definition,
    check_definitions,
    check_schemas,
    incomplete_reason,
    new_content_type,
)
from pressroom.domain.errors import (
    BadRequest,
    Forbidden,
    InvalidArgument,
    NotFound,
    PreconditionFailed,
    found,
)
from pressroom.domain.tags import tag_matches, value_tag
from pressroom.domain.user import User
from pressroom.services.content_type_group import get_group, utc_now
from pressroom.services.event_log import record_type
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, Tx

ORDER_BY = ("name", "lastmodified")
SORTS = ("asc", "desc")


def get_type(tx: Tx, type_id: int, status: str = DEFINED) -> ContentType:
    found = tx.content_types.get(type_id, status)
    if found is None:
        what = "ContentType" if status == DEFINED else "ContentTypeDraft"
        raise NotFound.of(what, type_id)
    return found


def read_type(permissions: Permissions, user: User, tx: Tx, type_id: int, status: str) -> ContentType:
    """A type state as a reader may see it: a DRAFT is work in progress, readable only with
    ``class/update`` (the right to make one); raises Unauthorized, NotFound."""
    if status == DRAFT:
        permissions.require(user, "class", "update")
    return get_type(tx, type_id, status)


def check_tag(if_match: str | None, current: object, what: str) -> None:
    """412 when If-Match names another ETag than the current one of ``current``."""
    if if_match is not None and not tag_matches(if_match, value_tag(current)):
        raise PreconditionFailed(f"{what} has changed; its ETag is {value_tag(current)}")


def saved(tx: Tx, content_type: ContentType) -> ContentType:
    """Save a type state and read it back as stored (so its ETag is the one later reads give)."""
    tx.content_types.save(content_type)
    return get_type(tx, content_type.id, content_type.status)


def changes_the_index(before: ContentType, after: ContentType) -> bool:
    """Whether the items of a type must be indexed again when ``after`` replaces ``before``: a field
    definition went (its values and words would stay findable) or became (un)searchable. A new field has no
    value in any item until the item is edited, so it changes nothing yet."""
    searchable = {d.id: d.is_searchable for d in after.field_definitions}
    return any(searchable.get(d.id) != d.is_searchable for d in before.field_definitions)


class ContentTypeService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    # -- reading -------------------------------------------------------------------------------------
    def list(
        self,
        *,
        order_by: str | None = None,
        sort: str | None = None,
        offset: int = 0,
        limit: int | None = None,
    ) -> list[ContentType]:
        """Defined types by id, or by ``name`` / ``lastmodified``; ``sort`` is ``asc`` or ``desc``."""
        if order_by is not None and order_by.lower() not in ORDER_BY:
            raise BadRequest(f"Invalid orderby '{order_by}': expected name or lastmodified")
        if sort is not None and sort.lower() not in SORTS:
            raise BadRequest(f"Invalid sort '{sort}': expected asc or desc")
        if offset < 0:
            raise BadRequest("offset must not be negative")
        if limit is not None and limit <= 0:
            raise BadRequest("limit must be a positive integer")
        with self.store.read() as tx:
            return tx.content_types.list(
                order_by=(order_by or "id").lower(),
                descending=(sort or "asc").lower() == "desc",
                offset=offset,
                limit=limit,
            )

    def find(self, viewer: User, query: ContentTypeQuery) -> builtins.list[ContentType]:
        """Defined types meeting every condition of ``query`` (``POST /content/types/view``)."""
        with self.store.read(caller=viewer.request) as tx:
            return tx.content_types.find(query)

    def by_identifier(self, identifier: str) -> ContentType:
        with self.store.read() as tx:
            return found(tx.content_types.by_identifier(identifier), "ContentType", identifier)

    def by_remote_id(self, remote_id: str) -> ContentType:
        with self.store.read() as tx:
            return found(tx.content_types.by_remote_id(remote_id), "ContentType", remote_id)

    def load(self, user: User, type_id: int, status: str = DEFINED) -> ContentType:
        with self.store.read(caller=user.request) as tx:
            return read_type(self.permissions, user, tx, type_id, status)

    # -- creating ------------------------------------------------------------------------------------
    def create(self, user: User, group_id: int, struct: ContentTypeInput, *, publish: bool) -> ContentType:
        """A new type in the group: a DRAFT, or DEFINED at once with ``publish``.

        Raises BadRequest for incomplete input when publishing (no field definitions), InvalidArgument
        for a bad definition or schema, Forbidden when the identifier or remote id is taken.
        """
        self.permissions.require(user, "class", "create")
        with self.store.write(caller=user.request) as tx:
            get_group(tx, group_id)
            gateway = tx.content_types
            definitions = tuple(
                build_field_definition(gateway.new_field_definition_id(), fd, index + 1)
                for index, fd in enumerate(struct.field_definitions)
            )
            check_definitions(definitions)
            content_type = new_content_type(
                gateway.new_type_id(),
                DEFINED if publish else DRAFT,
                struct,
                user_id=user.id,
                now=utc_now(),
                group_ids=(group_id,),
                definitions=definitions,
                remote_id=struct.remote_id or uuid.uuid4().hex,
            )
            self._check_unique(tx, content_type)
            self._check_language(tx, content_type)
            if publish:
                reason = incomplete_reason(content_type)
                if reason is not None:
                    raise BadRequest(f"Cannot publish: {reason}")
            elif definitions:
                check_schemas(content_type)
            created = saved(tx, content_type)
            record_type(tx, "content_type.created", user.id, created)
            return created

    def copy(self, user: User, type_id: int) -> ContentType:
        """A defined copy with new ids, a new remote id and the identifier ``copy_of_<identifier>_<id>``."""
        self.permissions.require(user, "class", "create")
        with self.store.write(caller=user.request) as tx:
            source = get_type(tx, type_id)
            gateway = tx.content_types
            new_id = gateway.new_type_id()
            now = utc_now()
            copy = replace(
                source,
                id=new_id,
                identifier=f"copy_of_{source.identifier}_{new_id}",
                remote_id=uuid.uuid4().hex,
                creation_date=now,
                modification_date=now,
                creator_id=user.id,
                modifier_id=user.id,
                field_definitions=tuple(
                    replace(d, id=gateway.new_field_definition_id()) for d in source.field_definitions
                ),
            )
            copied = saved(tx, copy)
            record_type(tx, "content_type.created", user.id, copied, copiedFrom=type_id)
            return copied

    # -- drafts --------------------------------------------------------------------------------------
    def create_draft(self, user: User, type_id: int, struct: ContentTypeInput) -> ContentType:
        """A draft of a defined type with ContentTypeUpdate applied; Forbidden when one exists."""
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            defined = get_type(tx, type_id)
            if tx.content_types.get(type_id, DRAFT) is not None:
                raise Forbidden(f"Content type {type_id} already has a draft")
            draft = apply_type_input(replace(defined, status=DRAFT), struct, user_id=user.id, now=utc_now())
            created = saved(tx, self._checked(tx, draft))
            record_type(tx, "content_type.updated", user.id, created, draftCreated=True)
            return created

    def update_draft(
        self, user: User, type_id: int, struct: ContentTypeInput, if_match: str | None
    ) -> ContentType:
        """Apply ContentTypeUpdate metadata to the draft (field definitions are left alone)."""
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            current = get_type(tx, type_id, DRAFT)
            check_tag(if_match, current, f"The draft of content type {type_id}")
            draft = apply_type_input(current, struct, user_id=user.id, now=utc_now())
            updated = saved(tx, self._checked(tx, draft))
            record_type(tx, "content_type.updated", user.id, updated)
            return updated

    def publish_draft(self, user: User, type_id: int) -> ContentType:
        """The draft becomes the defined type; Forbidden while it is incomplete."""
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            draft = get_type(tx, type_id, DRAFT)
            reason = incomplete_reason(draft)
            if reason is not None:
                raise Forbidden(f"Cannot publish the draft: {reason}")
            try:
                check_definitions(draft.field_definitions)
            except InvalidArgument as error:
                raise Forbidden(f"Cannot publish the draft: {error.message}") from None
            self._check_unique(tx, draft)
            before = tx.content_types.get(type_id)
            tx.content_types.publish_draft(type_id)
            if before is not None and changes_the_index(before, draft):
                tx.search_index.reindex_type(type_id)
            record_type(tx, "content_type.published", user.id, draft, status=DEFINED)
            return get_type(tx, type_id)

    def delete_draft(self, user: User, type_id: int) -> None:
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            draft = get_type(tx, type_id, DRAFT)
            tx.content_types.delete(type_id, DRAFT)
            record_type(tx, "content_type.updated", user.id, draft, draftDeleted=True)

    def delete(self, user: User, type_id: int) -> None:
        """Delete a defined type and its draft; Forbidden while content items are of this type."""
        self.permissions.require(user, "class", "delete")
        with self.store.write(caller=user.request) as tx:
            defined = get_type(tx, type_id)
            if tx.content_types.has_instances(type_id):
                raise Forbidden(f"Content type {type_id} still has content items")
            tx.content_types.delete(type_id, DRAFT)
            tx.content_types.delete(type_id, DEFINED)
            record_type(tx, "content_type.deleted", user.id, defined)

    # -- groups of a type ----------------------------------------------------------------------------
    def link_group(self, user: User, type_id: int, group_id: int) -> ContentType:
        """Add the type (and its draft) to a group; Forbidden when it is in the group already."""
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            defined = get_type(tx, type_id)
            if tx.content_types.get_group(group_id) is None:
                raise InvalidArgument(f"Content type group {group_id} does not exist")
            if group_id in defined.group_ids:
                raise Forbidden(f"Content type {type_id} is already in content type group {group_id}")
            return self._set_groups(tx, user, defined, (*defined.group_ids, group_id))

    def unlink_group(self, user: User, type_id: int, group_id: int) -> ContentType:
        """Remove the type from a group: NotFound when not in it, Forbidden for its last group."""
        self.permissions.require(user, "class", "update")
        with self.store.write(caller=user.request) as tx:
            defined = get_type(tx, type_id)
            if group_id not in defined.group_ids:
                raise NotFound(f"Content type {type_id} is not in content type group {group_id}")
            if len(defined.group_ids) == 1:
                raise Forbidden(f"Content type group {group_id} is the last group of content type {type_id}")
            return self._set_groups(tx, user, defined, tuple(g for g in defined.group_ids if g != group_id))

    @staticmethod
    def _set_groups(tx: Tx, user: User, defined: ContentType, group_ids: tuple[int, ...]) -> ContentType:
        draft = tx.content_types.get(defined.id, DRAFT)
        if draft is not None:
            tx.content_types.save(replace(draft, group_ids=group_ids))
        linked = saved(tx, replace(defined, group_ids=group_ids))
        record_type(tx, "content_type.updated", user.id, linked)
        return linked

    # -- checks --------------------------------------------------------------------------------------
    def _checked(self, tx: Tx, draft: ContentType) -> ContentType:
        self._check_unique(tx, draft)
        self._check_language(tx, draft)
        if draft.field_definitions:
            check_schemas(draft)
        return draft

    @staticmethod
    def _check_unique(tx: Tx, content_type: ContentType) -> None:
        """Forbidden when another type (in any state) has the identifier or the remote id."""
        gateway = tx.content_types
        for status in (DEFINED, DRAFT):
            other = gateway.by_identifier(content_type.identifier, status)
            if other is not None and other.id != content_type.id:
                raise Forbidden(f"A content type with identifier '{content_type.identifier}' already exists")
            other = gateway.by_remote_id(content_type.remote_id, status)
            if other is not None and other.id != content_type.id:
                raise Forbidden(f"A content type with remote id '{content_type.remote_id}' already exists")

    @staticmethod
    def _check_language(tx: Tx, content_type: ContentType) -> None:
        if tx.languages.by_code(content_type.main_language_code) is None:
            raise InvalidArgument(f"Unknown mainLanguageCode '{content_type.main_language_code}'")
