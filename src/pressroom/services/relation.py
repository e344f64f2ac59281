"""Relations of a version: list, load, add a COMMON relation to a draft, remove one."""

from __future__ import annotations

from dataclasses import dataclass

from pressroom.domain.content import COMMON, ContentInfo, Relation, VersionInfo
from pressroom.domain.errors import Forbidden, NotFound
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.user import User
from pressroom.services.content_access import check_version_readable, require_on
from pressroom.services.content_loading import get_content, get_version, lock_content
from pressroom.services.event_log import record_content
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, Tx


@dataclass(frozen=True, slots=True)
class RelationList:
    content: ContentInfo
    version_no: int
    relations: list[Relation]


class RelationService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    def _version(self, tx: Tx, user: User, info: ContentInfo, version_no: int) -> VersionInfo:
        """The version of ``info`` after the read check."""
        version = get_version(tx, info.id, version_no)
        check_version_readable(self.permissions, user, tx, info, version)
        return version

    def list(
        self, user: User, content_id: int, version_no: int, offset: int = 0, limit: int | None = None
    ) -> RelationList:
        with self.store.read(caller=user.request) as tx:
            info = get_content(tx, content_id)
            self._version(tx, user, info, version_no)
            readable = self.permissions.read_criterion(user, tx)
            found = tx.relations.list(content_id, version_no, offset, limit, readable=readable)
            return RelationList(info, version_no, found)

    def load(self, user: User, content_id: int, version_no: int, relation_id: int) -> Relation:
        with self.store.read(caller=user.request) as tx:
            self._version(tx, user, get_content(tx, content_id), version_no)
            return self._get(tx, user, content_id, version_no, relation_id)

    def _get(self, tx: Tx, user: User, content_id: int, version_no: int, relation_id: int) -> Relation:
        """The relation of that version; NotFound also when ``user`` may not read its destination, as
        the reference finds a relation among the version's relations it lets the caller see."""
        relation = tx.relations.get(relation_id, self.permissions.read_criterion(user, tx))
        if relation is None or (relation.source_content_id, relation.source_version_no) != (
            content_id,
            version_no,
        ):
            raise NotFound.of("Relation", relation_id)
        return relation

    def create(self, user: User, content_id: int, version_no: int, destination_id: int) -> Relation:
        """A COMMON relation from a draft. Forbidden when the version is not a draft or the relation
        exists; NotFound when the destination does not exist, Unauthorized when ``user`` may not read
        it (the reference loads it with the read check)."""
        with self.store.write(caller=user.request) as tx:
            info = lock_content(tx, content_id)
            version = self._version(tx, user, info, version_no)
            require_on(self.permissions, user, tx, "edit", info)
            if not version.is_draft:
                raise Forbidden(f"Version {version_no} of content {content_id} is not a draft")
            require_on(self.permissions, user, tx, "read", get_content(tx, destination_id))
            for relation in tx.relations.list(content_id, version_no, readable=UNRESTRICTED):
                if relation.destination_content_id == destination_id and relation.type & COMMON:
                    raise Forbidden(
                        f"Version {version_no} of content {content_id} already relates to "
                        f"content {destination_id}"
                    )
            relation_id = tx.relations.add(content_id, version_no, destination_id, COMMON)
            tx.content.touch(content_id)
            added = {"relationId": relation_id, "destinationContentId": destination_id}
            record_content(
                tx, "content.version_updated", user.id, info, version_no=version_no, relationAdded=added
            )
            return self._get(tx, user, content_id, version_no, relation_id)

    def delete(self, user: User, content_id: int, version_no: int, relation_id: int) -> None:
        """Forbidden unless the relation is COMMON and the version a draft."""
        with self.store.write(caller=user.request) as tx:
            info = lock_content(tx, content_id)
            version = self._version(tx, user, info, version_no)
            require_on(self.permissions, user, tx, "edit", info)
            relation = self._get(tx, user, content_id, version_no, relation_id)
            if not version.is_draft:
                raise Forbidden(f"Version {version_no} of content {content_id} is not a draft")
            if relation.type != COMMON:
                raise Forbidden(f"Relation {relation_id} is not a COMMON relation and cannot be removed")
            tx.relations.delete(relation_id)
            tx.content.touch(content_id)
            removed = {"relationId": relation_id, "destinationContentId": relation.destination_content_id}
            record_content(
                tx, "content.version_updated", user.id, info, version_no=version_no, relationDeleted=removed
            )
