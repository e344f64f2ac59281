"""Relations between content items in SQL: each belongs to one version of its source item."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, Select, and_, bindparam, delete, insert, or_, select, tuple_

from pressroom.domain.content import EMBED, LINK, Relation
from pressroom.domain.query import Criterion
from pressroom.domain.read_scope import UNRESTRICTED, ReadScope, restriction
from pressroom.storage.sql.criteria import compile_criterion
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import content, field_definitions, relations

DEFINED = 0
_FROM_RICH_TEXT = (LINK, EMBED)
# The relations a version's field values hold (field relations, rich text links and embeds), which every
# save of the version replaces; COMMON relations, added by clients, are not among them.
DERIVED = or_(relations.c.source_field_definition_id.is_not(None), relations.c.type.in_(_FROM_RICH_TEXT))


def _relation(row: Any) -> Relation:
    return Relation(
        id=row.id,
        source_content_id=row.source_content_id,
        source_version_no=row.source_version_no,
        destination_content_id=row.destination_content_id,
        type=row.type,
        source_field_definition_id=row.source_field_definition_id,
        source_field_identifier=row.identifier,
    )


def _query() -> Select[Any]:
    definition = and_(
        field_definitions.c.id == relations.c.source_field_definition_id,
        field_definitions.c.status == DEFINED,
    )
    return select(relations, field_definitions.c.identifier).select_from(
        relations.outerjoin(field_definitions, definition)
    )


_OF_VERSION = (
    _query()
    .where(
        relations.c.source_content_id == bindparam("content_id"),
        relations.c.source_version_no == bindparam("version_no"),
    )
    .order_by(relations.c.id)
)
_PREPARED_OF_VERSION = Prepared(_OF_VERSION)


class SqlRelationGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def list_of(
        self, keys: Iterable[tuple[int, int]], readable: ReadScope
    ) -> dict[tuple[int, int], list[Relation]]:
        """The relations of several versions by ``(content id, version no)`` to items ``readable`` lets
        the reader read: one query, and one more keeping the readable destinations when it filters and
        there are any."""
        wanted = sorted(set(keys))
        found: dict[tuple[int, int], list[Relation]] = {key: [] for key in wanted}
        if wanted:
            pair = tuple_(relations.c.source_content_id, relations.c.source_version_no)
            for r in self.c.execute(_query().where(pair.in_(wanted)).order_by(relations.c.id)):
                found[(r.source_content_id, r.source_version_no)].append(_relation(r))
        filtered = restriction(readable)
        destinations = {r.destination_content_id for listed in found.values() for r in listed}
        if filtered is None or not destinations:
            return found
        allowed = self._readable(destinations, filtered)
        return {
            key: [r for r in listed if r.destination_content_id in allowed] for key, listed in found.items()
        }

    def _readable(self, content_ids: Iterable[int], filtered: Criterion) -> set[int]:
        query = select(content.c.id).where(
            content.c.id.in_(sorted(set(content_ids))), compile_criterion(filtered)
        )
        return set(self.c.execute(query).scalars())

    def list(
        self,
        content_id: int,
        version_no: int,
        offset: int = 0,
        limit: int | None = None,
        *,
        readable: ReadScope,
    ) -> list[Relation]:
        """The relations of a version by id to items ``readable`` lets the reader read. A page is
        filtered inside its query (so paging counts only those); a whole list is read with the prebuilt
        statement, and only when it has relations does a second statement keep the
        readable destinations (the usual version has none: no cost for the filter)."""
        params = {"content_id": content_id, "version_no": version_no}
        filtered = restriction(readable)
        if offset or limit is not None:
            query = _OF_VERSION
            if filtered is not None:
                query = query.join(content, content.c.id == relations.c.destination_content_id).where(
                    compile_criterion(filtered)
                )
            if offset:
                query = query.offset(offset)
            if limit is not None and limit >= 0:
                query = query.limit(limit)
            return [_relation(r) for r in self.c.execute(query, params)]
        found = [_relation(r) for r in _PREPARED_OF_VERSION.all(self.c, params)]
        if not found or filtered is None:
            return found
        allowed = self._readable((r.destination_content_id for r in found), filtered)
        return [r for r in found if r.destination_content_id in allowed]

    def get(self, relation_id: int, readable: ReadScope) -> Relation | None:
        """The relation; None also when ``readable`` does not let the reader read its destination (one
        statement)."""
        query = _query().where(relations.c.id == relation_id)
        filtered = restriction(readable)
        if filtered is not None:
            item = content.alias("readable_item")
            query = query.where(
                relations.c.destination_content_id.in_(
                    select(item.c.id).where(compile_criterion(filtered, item=item))
                )
            )
        row = self.c.execute(query).first()
        return _relation(row) if row else None

    def add(
        self,
        content_id: int,
        version_no: int,
        destination_id: int,
        type_mask: int,
        field_definition_id: int | None = None,
    ) -> int:
        return int(
            self.c.execute(
                insert(relations)
                .values(
                    source_content_id=content_id,
                    source_version_no=version_no,
                    destination_content_id=destination_id,
                    type=type_mask,
                    source_field_definition_id=field_definition_id,
                )
                .returning(relations.c.id)
            ).scalar_one()
        )

    def delete(self, relation_id: int) -> None:
        self.c.execute(delete(relations).where(relations.c.id == relation_id))

    def delete_of_version(self, content_id: int, version_no: int) -> None:
        self.c.execute(
            delete(relations).where(
                relations.c.source_content_id == content_id, relations.c.source_version_no == version_no
            )
        )

    def replace_field_relations(
        self, content_id: int, version_no: int, found: Iterable[tuple[int, int, int | None]]
    ) -> None:
        """Set the relations a version's field values hold: ``(destination id, type, field definition id)``;
        field relations carry the definition, rich text LINK and EMBED relations none. Relations that
        stay keep their ids; COMMON relations, added by clients, are not touched."""
        wanted = dict.fromkeys(found)
        derived = DERIVED
        current = self.c.execute(
            select(
                relations.c.id,
                relations.c.destination_content_id,
                relations.c.type,
                relations.c.source_field_definition_id,
            ).where(
                relations.c.source_content_id == content_id,
                relations.c.source_version_no == version_no,
                derived,
            )
        )
        stale = []
        for row in current:
            key = (row.destination_content_id, row.type, row.source_field_definition_id)
            if key in wanted:
                del wanted[key]
            else:
                stale.append(row.id)
        if stale:
            self.c.execute(delete(relations).where(relations.c.id.in_(stale)))
        rows = [
            {
                "source_content_id": content_id,
                "source_version_no": version_no,
                "destination_content_id": destination,
                "type": mask,
                "source_field_definition_id": definition,
            }
            for destination, mask, definition in wanted
        ]
        if rows:
            self.c.execute(insert(relations), rows)

    def copy(
        self, content_id: int, from_version: int, to_version: int, target_content_id: int | None = None
    ) -> None:
        """Give a new version (of this item, or of ``target_content_id``) the relations of another."""
        rows = [
            {
                "source_content_id": content_id if target_content_id is None else target_content_id,
                "source_version_no": to_version,
                "destination_content_id": r.destination_content_id,
                "type": r.type,
                "source_field_definition_id": r.source_field_definition_id,
            }
            for r in self.list(content_id, from_version, readable=UNRESTRICTED)
        ]
        if rows:
            self.c.execute(insert(relations), rows)
