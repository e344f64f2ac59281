"""Content type groups, content types and field definitions in SQL.

A type state (DEFINED or DRAFT) is saved whole: its row, its group links and its field definitions are
replaced together. Lists load with one query per table, never one per type.
"""

from __future__ import annotations

import builtins
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import Connection, and_, delete, exists, func, insert, select, update

from pressroom.domain.content_type import (
    DEFINED,
    DRAFT,
    SORT_FIELD_NAMES,
    SORT_FIELDS,
    SORT_ORDER_NAMES,
    SORT_ORDERS,
    STATUS_CODES,
    ContentType,
    ContentTypeGroup,
    FieldDefinition,
)
from pressroom.domain.content_type_query import (
    GROUP_ID,
    GROUP_NAME,
    TYPE_ID,
    TYPE_IDENTIFIER,
    ContentTypeQuery,
    TypeCondition,
)
from pressroom.storage.sql.cache import EpochCache, TxCache
from pressroom.storage.sql.schema import (
    content_type_group_links as links,
)
from pressroom.storage.sql.schema import (
    content_type_groups as groups,
)
from pressroom.storage.sql.schema import (
    content_types as types,
)
from pressroom.storage.sql.schema import (
    field_definitions as fields,
)
from pressroom.storage.sql.sequences import next_value
from pressroom.storage.sql.usage import content_type_has_instances

_SORT_COLUMNS = {TYPE_ID: types.c.id, TYPE_IDENTIFIER: types.c.identifier}

STATUS_NAMES = {code: name for name, code in STATUS_CODES.items()}


def ts(moment: datetime) -> int:
    return int(moment.timestamp())


def dt(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _group(row: Any) -> ContentTypeGroup:
    return ContentTypeGroup(
        row.id, row.identifier, dt(row.created), dt(row.modified), row.creator_id, row.modifier_id
    )


def _definition(row: Any) -> FieldDefinition:
    return FieldDefinition(
        id=row.id,
        identifier=row.identifier,
        field_type=row.field_type,
        field_group=row.field_group,
        position=row.position,
        is_translatable=bool(row.is_translatable),
        is_required=bool(row.is_required),
        is_info_collector=bool(row.is_info_collector),
        is_searchable=bool(row.is_searchable),
        is_thumbnail=bool(row.is_thumbnail),
        default_value=None if row.default_value is None else orjson.loads(row.default_value),
        names=orjson.loads(row.names),
        descriptions=orjson.loads(row.descriptions),
        field_settings=orjson.loads(row.field_settings),
        validator_configuration=orjson.loads(row.validator_configuration),
    )


class SqlContentTypeGateway:
    def __init__(self, connection: Connection, cache: TxCache | None = None) -> None:
        self.c = connection
        self.cache = cache or TxCache(EpochCache(), connection)

    # -- groups --------------------------------------------------------------------------------------
    def list_groups(self) -> list[ContentTypeGroup]:
        return [_group(r) for r in self.c.execute(select(groups).order_by(groups.c.id))]

    def get_group(self, group_id: int) -> ContentTypeGroup | None:
        row = self.c.execute(select(groups).where(groups.c.id == group_id)).first()
        return _group(row) if row else None

    def lock_group(self, group_id: int) -> ContentTypeGroup | None:
        """The group, its row locked until the transaction ends (an If-Match check holds till commit)."""
        row = self.c.execute(select(groups).where(groups.c.id == group_id).with_for_update()).first()
        return _group(row) if row else None

    def group_by_identifier(self, identifier: str) -> ContentTypeGroup | None:
        row = self.c.execute(select(groups).where(groups.c.identifier == identifier)).first()
        return _group(row) if row else None

    def create_group(self, identifier: str, user_id: int, now: datetime) -> ContentTypeGroup:
        values = {
            "identifier": identifier,
            "created": ts(now),
            "modified": ts(now),
            "creator_id": user_id,
            "modifier_id": user_id,
        }
        group_id = self.c.execute(insert(groups).values(**values).returning(groups.c.id)).scalar_one()
        group = self.get_group(group_id)
        assert group is not None
        return group

    def update_group(self, group_id: int, identifier: str, user_id: int, now: datetime) -> ContentTypeGroup:
        self.c.execute(
            update(groups)
            .where(groups.c.id == group_id)
            .values(identifier=identifier, modified=ts(now), modifier_id=user_id)
        )
        group = self.get_group(group_id)
        assert group is not None
        return group

    def delete_group(self, group_id: int) -> None:
        self.c.execute(delete(groups).where(groups.c.id == group_id))

    def group_is_empty(self, group_id: int) -> bool:
        return not self.c.execute(select(exists().where(links.c.group_id == group_id))).scalar()

    # -- types ---------------------------------------------------------------------------------------
    def new_type_id(self) -> int:
        return next_value(self.c, "content_type")

    def new_field_definition_id(self) -> int:
        return next_value(self.c, "field_definition")

    def get(self, type_id: int, status: str = DEFINED) -> ContentType | None:
        """The type in one state; the defined state comes from the process cache (one per epoch)."""
        if status == DEFINED:
            return self.cache.get(("content_type", type_id), lambda: self._get(type_id, status))
        return self._get(type_id, status)

    def _get(self, type_id: int, status: str) -> ContentType | None:
        found = self._load(and_(types.c.id == type_id, types.c.status == STATUS_CODES[status]))
        return found[0] if found else None

    def by_identifier(self, identifier: str, status: str = DEFINED) -> ContentType | None:
        found = self._load(and_(types.c.identifier == identifier, types.c.status == STATUS_CODES[status]))
        return found[0] if found else None

    def by_remote_id(self, remote_id: str, status: str = DEFINED) -> ContentType | None:
        found = self._load(and_(types.c.remote_id == remote_id, types.c.status == STATUS_CODES[status]))
        return found[0] if found else None

    def list(
        self,
        *,
        group_id: int | None = None,
        order_by: str = "id",
        descending: bool = False,
        offset: int = 0,
        limit: int | None = None,
    ) -> list[ContentType]:
        """Defined types, optionally of one group, ordered by id, ``name`` or ``lastmodified``."""
        condition = types.c.status == STATUS_CODES[DEFINED]
        if group_id is not None:
            condition = and_(
                condition,
                types.c.id.in_(
                    select(links.c.content_type_id).where(
                        links.c.group_id == group_id, links.c.status == STATUS_CODES[DEFINED]
                    )
                ),
            )
        if order_by == "name":  # names are translated JSON: sort them here (types are few)
            found = self._load(condition)
            found.sort(
                key=lambda t: next(iter(t.names.values()), t.identifier).casefold(), reverse=descending
            )
            return found[offset:] if limit is None or limit < 0 else found[offset : offset + limit]
        column = types.c.modified if order_by == "lastmodified" else types.c.id
        return self._load(condition, (column.desc() if descending else column.asc(),), offset, limit)

    def find(self, query: ContentTypeQuery) -> builtins.list[ContentType]:
        """Defined types meeting every condition of ``query``, in its order, one page."""
        condition = types.c.status == STATUS_CODES[DEFINED]
        for item in query.conditions:
            condition = and_(condition, self._condition(item))
        order = [_SORT_COLUMNS[field].desc() if desc else _SORT_COLUMNS[field] for field, desc in query.sort]
        return self._load(condition, (*order, types.c.id), query.offset, query.limit)

    def _condition(self, item: TypeCondition) -> Any:
        if item.field == TYPE_ID:
            return types.c.id.in_(item.values)
        if item.field == TYPE_IDENTIFIER:
            return types.c.identifier.in_(item.values)
        grouped = select(links.c.content_type_id).where(links.c.status == STATUS_CODES[DEFINED])
        if item.field == GROUP_ID:
            return types.c.id.in_(grouped.where(links.c.group_id.in_(item.values)))
        if item.field == GROUP_NAME:
            return types.c.id.in_(grouped.where(links.c.group_id.in_(self._groups_named(item.values))))
        named = select(groups.c.id).where(groups.c.identifier.in_(item.values))
        return types.c.id.in_(grouped.where(links.c.group_id.in_(named)))

    def _groups_named(self, names: Iterable[object]) -> builtins.list[int]:
        """The ids of the groups whose identifier is one of ``names`` in any case. Folded here, not in SQL:
        SQLite's lower() folds ASCII letters only, and groups are few."""
        wanted = {str(name).casefold() for name in names}
        rows = self.c.execute(select(groups.c.id, groups.c.identifier))
        return [row.id for row in rows if row.identifier.casefold() in wanted]

    def _load(
        self,
        condition: Any,
        order: tuple[Any, ...] = (types.c.id,),
        offset: int = 0,
        limit: int | None = None,
    ) -> builtins.list[ContentType]:
        query = select(types).where(condition).order_by(*order)
        if offset:
            query = query.offset(offset)
        if limit is not None and limit >= 0:
            query = query.limit(limit)
        rows = self.c.execute(query).all()
        if not rows:
            return []
        keys = [(r.id, r.status) for r in rows]
        ids = sorted({r.id for r in rows})
        group_ids: dict[tuple[int, int], list[int]] = defaultdict(list)
        for link in self.c.execute(
            select(links).where(links.c.content_type_id.in_(ids)).order_by(links.c.group_id)
        ):
            group_ids[(link.content_type_id, link.status)].append(link.group_id)
        definitions: dict[tuple[int, int], list[FieldDefinition]] = defaultdict(list)
        for row in self.c.execute(
            select(fields).where(fields.c.content_type_id.in_(ids)).order_by(fields.c.position, fields.c.id)
        ):
            definitions[(row.content_type_id, row.status)].append(_definition(row))
        return [
            self._type(row, group_ids[key], definitions[key]) for row, key in zip(rows, keys, strict=True)
        ]

    @staticmethod
    def _type(row: Any, group_ids: Iterable[int], definitions: Iterable[FieldDefinition]) -> ContentType:
        return ContentType(
            id=row.id,
            status=STATUS_NAMES[row.status],
            identifier=row.identifier,
            remote_id=row.remote_id,
            names=orjson.loads(row.names),
            descriptions=orjson.loads(row.descriptions),
            creation_date=dt(row.created),
            modification_date=dt(row.modified),
            creator_id=row.creator_id,
            modifier_id=row.modifier_id,
            url_alias_schema=row.url_alias_schema,
            name_schema=row.name_schema,
            is_container=bool(row.is_container),
            main_language_code=row.main_language_code,
            default_always_available=bool(row.default_always_available),
            default_sort_field=SORT_FIELD_NAMES.get(row.default_sort_field, "PATH"),
            default_sort_order=SORT_ORDER_NAMES.get(row.default_sort_order, "ASC"),
            group_ids=tuple(group_ids),
            field_definitions=tuple(definitions),
        )

    def save(self, content_type: ContentType) -> None:
        """Insert or replace one state of a type with its group links and field definitions."""
        status = STATUS_CODES[content_type.status]
        self.delete(content_type.id, content_type.status)  # marks the cache changed
        self.c.execute(
            insert(types).values(
                id=content_type.id,
                status=status,
                identifier=content_type.identifier,
                remote_id=content_type.remote_id,
                names=dumps(content_type.names),
                descriptions=dumps(content_type.descriptions),
                created=ts(content_type.creation_date),
                modified=ts(content_type.modification_date),
                creator_id=content_type.creator_id,
                modifier_id=content_type.modifier_id,
                url_alias_schema=content_type.url_alias_schema,
                name_schema=content_type.name_schema,
                is_container=content_type.is_container,
                main_language_code=content_type.main_language_code,
                default_always_available=content_type.default_always_available,
                default_sort_field=SORT_FIELDS[content_type.default_sort_field],
                default_sort_order=SORT_ORDERS[content_type.default_sort_order],
            )
        )
        if content_type.group_ids:
            self.c.execute(
                insert(links),
                [
                    {"content_type_id": content_type.id, "status": status, "group_id": g}
                    for g in content_type.group_ids
                ],
            )
        if content_type.field_definitions:
            self.c.execute(
                insert(fields),
                [_definition_row(content_type.id, status, d) for d in content_type.field_definitions],
            )

    def delete(self, type_id: int, status: str) -> None:
        code = STATUS_CODES[status]
        self.cache.changed()
        self.c.execute(delete(fields).where(fields.c.content_type_id == type_id, fields.c.status == code))
        self.c.execute(delete(links).where(links.c.content_type_id == type_id, links.c.status == code))
        self.c.execute(delete(types).where(types.c.id == type_id, types.c.status == code))

    def publish_draft(self, type_id: int) -> None:
        """The draft becomes the defined state (the old defined state is dropped)."""
        self.delete(type_id, DEFINED)  # marks the cache changed
        draft, defined = STATUS_CODES[DRAFT], STATUS_CODES[DEFINED]
        for table, key in (
            (types, types.c.id),
            (links, links.c.content_type_id),
            (fields, fields.c.content_type_id),
        ):
            self.c.execute(
                update(table).where(key == type_id, table.c.status == draft).values(status=defined)
            )

    def has_instances(self, type_id: int) -> bool:
        return content_type_has_instances(self.c, type_id)

    def count(self) -> int:
        return int(self.c.execute(select(func.count()).select_from(types)).scalar_one())


def _definition_row(type_id: int, status: int, d: FieldDefinition) -> dict[str, Any]:
    return {
        "id": d.id,
        "status": status,
        "content_type_id": type_id,
        "identifier": d.identifier,
        "field_type": d.field_type,
        "field_group": d.field_group,
        "position": d.position,
        "is_translatable": d.is_translatable,
        "is_required": d.is_required,
        "is_info_collector": d.is_info_collector,
        "is_searchable": d.is_searchable,
        "is_thumbnail": d.is_thumbnail,
        "default_value": None if d.default_value is None else dumps(d.default_value),
        "names": dumps(d.names),
        "descriptions": dumps(d.descriptions),
        "field_settings": dumps(d.field_settings),
        "validator_configuration": dumps(d.validator_configuration),
    }
