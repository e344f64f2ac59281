"""Content items, versions and fields in SQL.

A content item's info is read with its current version's names and its main location's path in one
query; the fields of a version with one query (joined to their definitions for the identifiers).
Version numbers come from ``content.version_counter``, bumped with ``UPDATE ... RETURNING``: the row lock
makes them unique and increasing across server processes (and the unique constraint guards it).
``lock`` takes the same row lock up front: writers of one item (its metadata, versions, fields,
relations) take it first and so run one after the other, each reading what the previous one committed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace as dataclass_replace
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import orjson
from sqlalchemy import (
    ColumnElement,
    Connection,
    Integer,
    Select,
    String,
    Table,
    and_,
    bindparam,
    case,
    delete,
    exists,
    func,
    insert,
    literal,
    or_,
    select,
    tuple_,
    update,
)

from pressroom.domain.content import (
    CONTENT_STATUS_CODES,
    PUBLISHED,
    VERSION_STATUS_CODES,
    ContentInfo,
    ContentUpdate,
    CurrentItem,
    Field,
    LockedVersion,
    NewContent,
    NewVersion,
    VersionInfo,
)
from pressroom.domain.content_type import ContentType
from pressroom.domain.fieldtypes.registry import get_field_type
from pressroom.domain.location import Location
from pressroom.domain.query import Criterion
from pressroom.domain.read_scope import ReadScope, restriction
from pressroom.storage.sql.cache import EpochCache, TxCache
from pressroom.storage.sql.caller import ACCESS_COLUMNS, CALLER_COLUMNS, access_stamp, with_caller
from pressroom.storage.sql.caller import params as caller_params
from pressroom.storage.sql.caller import take as take_caller
from pressroom.storage.sql.content_type import dt, dumps, ts
from pressroom.storage.sql.criteria import compile_criterion
from pressroom.storage.sql.functions import in_values, json_text
from pressroom.storage.sql.location import location_of
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.relation import DERIVED
from pressroom.storage.sql.schema import (
    content,
    content_fields,
    content_versions,
    field_definitions,
    locations,
    relations,
)
from pressroom.storage.sql.sequences import EPOCH_COLUMN, TxBlocks, take

CONTENT_STATUS_NAMES = {code: name for name, code in CONTENT_STATUS_CODES.items()}
VERSION_STATUS_NAMES = {code: name for name, code in VERSION_STATUS_CODES.items()}
FIELD_SEQUENCE = "content_field"
DEFINED = 0  # field definitions of the defined (not draft) content type


def _info(row: Any) -> ContentInfo:
    return ContentInfo(
        id=row.id,
        content_type_id=row.content_type_id,
        remote_id=row.remote_id,
        section_id=row.section_id,
        owner_id=row.owner_id,
        main_language_code=row.main_language_code,
        always_available=bool(row.always_available),
        status=CONTENT_STATUS_NAMES[row.status],
        is_hidden=bool(row.is_hidden),
        current_version_no=row.current_version_no,
        modification_date=dt(row.modified),
        published_date=None if row.published is None else dt(row.published),
        main_location_id=row.main_location_id,
        main_location_path=row.main_path,
        names=orjson.loads(row.version_names) if row.version_names else {},
        revision=row.revision,
    )


_VERSION_COLUMNS = tuple(column.name for column in content_versions.c)
_PLACE_NAMES = (*(column.name for column in locations.c), "child_count")
_FIELD_NAMES = (*(column.name for column in content_fields.c), "identifier")
_PREFIXED_FIELD_NAMES = tuple((name, f"f_{name}") for name in _FIELD_NAMES)


def _version(row: Any) -> VersionInfo:
    return VersionInfo(
        id=row.id,
        content_id=row.content_id,
        version_no=row.version_no,
        status=VERSION_STATUS_NAMES[row.status],
        creator_id=row.creator_id,
        creation_date=dt(row.created),
        modification_date=dt(row.modified),
        initial_language_code=row.initial_language_code,
        language_codes=tuple(code for code in row.language_codes.split(",") if code),
        names=orjson.loads(row.names),
    )


_CURRENT_VERSION_COLUMNS = (
    "v_id",
    "v_status",
    "v_creator_id",
    "v_created",
    "v_modified",
    "v_initial_language_code",
    "v_language_codes",
)


def _current_version(row: Any) -> VersionInfo | None:
    """The current version carried by a row of ``_info_query`` (its ``v_`` columns)."""
    if row.v_id is None:
        return None
    columns = {name[2:]: getattr(row, name) for name in _CURRENT_VERSION_COLUMNS}
    return _version(
        SimpleNamespace(
            **columns, content_id=row.id, version_no=row.current_version_no, names=row.version_names
        )
    )


def _prefixed_fields(rows: Sequence[Any]) -> list[Field]:
    """The fields in rows that carry them as ``f_`` columns, one each (a row of an item or version
    without fields has none; a field whose definition is not a defined one has no identifier)."""
    return [
        _field(SimpleNamespace(**{name: getattr(r, prefixed) for name, prefixed in _PREFIXED_FIELD_NAMES}))
        for r in rows
        if r.f_id is not None and r.f_identifier is not None
    ]


def _of_version(content_id: int, version_no: int) -> ColumnElement[bool]:
    return and_(content_fields.c.content_id == content_id, content_fields.c.version_no == version_no)


def _of_items(table: Table, keys: Sequence[tuple[int, int]]) -> ColumnElement[bool]:
    """``content_id IN (...)`` beside a ``(content_id, version_no) IN (...)``: SQLite serves a row-value
    IN list by scanning the table (0.65 s over 500,000 field rows), the plain IN by the index."""
    return table.c.content_id.in_(sorted({content_id for content_id, _ in keys}))


_INFO_COLUMNS = (
    *content.c,
    EPOCH_COLUMN,  # for the caches of this transaction (storage/sql/cache.py)
    content_versions.c.names.label("version_names"),
    locations.c.path_string.label("main_path"),
    # the current version, so that loading an item with its version takes one round trip
    *(content_versions.c[name[2:]].label(name) for name in _CURRENT_VERSION_COLUMNS),
)
_INFO_FROM = content.outerjoin(
    content_versions,
    and_(
        content_versions.c.content_id == content.c.id,
        content_versions.c.version_no == content.c.current_version_no,
    ),
).outerjoin(locations, locations.c.id == content.c.main_location_id)


def _info_query() -> Select[Any]:
    return select(*_INFO_COLUMNS).select_from(_INFO_FROM)


# Hot reads (every content GET) keep their statements built once; building a select per call cost more
# than running it (benchmarks/content_load.py).
_INFO_BY_ID = _info_query().where(content.c.id == bindparam("content_id"))
# FOR UPDATE OF content: the other tables sit on the nullable side of outer joins, which PostgreSQL
# cannot lock, and need no lock. SQLite ignores the clause (its writers queue on BEGIN IMMEDIATE).
_LOCK_BY_ID = _INFO_BY_ID.with_for_update(of=content)
# A request's content GET: the item, and the caller's account and access stamp (storage/sql/caller.py).
_INFO_FOR_CALLER = (
    select(*_INFO_COLUMNS, *CALLER_COLUMNS, *ACCESS_COLUMNS)
    .select_from(with_caller(_INFO_FROM))
    .where(content.c.id == bindparam("content_id"))
)
_STAMP_WIDTH = len(_INFO_COLUMNS)
_PREPARED_INFO = Prepared(_INFO_BY_ID)
_PREPARED_INFO_FOR_CALLER = Prepared(_INFO_FOR_CALLER)
# A writer's lock of an item, with the version it works on (``wanted``, any version number) and whether
# that version holds relations derived from its fields (a publish that finds none to keep skips reading
# them); with the caller's account and access stamp when the request has a caller to confirm.
_wanted = content_versions.alias("wanted")
_WANTED_FROM = _INFO_FROM.outerjoin(
    _wanted,
    and_(_wanted.c.content_id == content.c.id, _wanted.c.version_no == bindparam("version_no")),
)
_DERIVED_RELATIONS = (
    exists()
    .where(
        relations.c.source_content_id == content.c.id,
        relations.c.source_version_no == bindparam("version_no"),
        DERIVED,
    )
    .label("w_derived")
)
_WANTED_COLUMNS = (
    *(_wanted.c[name].label(f"w_{name}") for name in _VERSION_COLUMNS),
    _DERIVED_RELATIONS,
)


# Locations with their content (None for the virtual root), for placing new items below them: the
# location's columns carry a ``p_`` prefix, the content's are those of ``_INFO_COLUMNS``. Their child
# count is left at 0: placing needs paths, and counting the children of a folder that a bulk import
# fills grew every create by the folder's size.
_place = locations.alias("place")
_AT_FROM = (
    _place.outerjoin(content, content.c.id == _place.c.content_id)
    .outerjoin(
        content_versions,
        and_(
            content_versions.c.content_id == content.c.id,
            content_versions.c.version_no == content.c.current_version_no,
        ),
    )
    .outerjoin(locations, locations.c.id == content.c.main_location_id)
)
_AT_COLUMNS = (
    *(column.label(f"p_{column.name}") for column in _place.c),
    literal(0).label("p_child_count"),
    *_INFO_COLUMNS,
)
_AT = select(*_AT_COLUMNS).select_from(_AT_FROM).where(_place.c.id.in_(bindparam("ids", expanding=True)))
_AT_FOR_CALLER = (
    select(*_AT_COLUMNS, *CALLER_COLUMNS, *ACCESS_COLUMNS)
    .select_from(with_caller(_AT_FROM))
    .where(_place.c.id.in_(bindparam("ids", expanding=True)))
)
# The usual case, one location (a create with one parent): prepared.
_AT_ONE = Prepared(select(*_AT_COLUMNS).select_from(_AT_FROM).where(_place.c.id == bindparam("id")))
_AT_ONE_FOR_CALLER = Prepared(
    select(*_AT_COLUMNS, *CALLER_COLUMNS, *ACCESS_COLUMNS)
    .select_from(with_caller(_AT_FROM))
    .where(_place.c.id == bindparam("id"))
)


def _locking(from_clause: Any, *columns: Any) -> Select[Any]:
    return (
        select(*_INFO_COLUMNS, *columns)
        .select_from(from_clause)
        .where(content.c.id == bindparam("content_id"))
        .with_for_update(of=content)
    )


_LOCK_FOR_CALLER = _locking(with_caller(_INFO_FROM), *CALLER_COLUMNS, *ACCESS_COLUMNS)


def _with_fields(from_clause: Any, version_no: Any) -> Any:
    """``from_clause`` with the fields of the item's version ``version_no``, one row each (a single row
    when it has none), as ``_FIELDS`` orders them. Two flat outer joins: a nested ``LEFT JOIN
    (content_fields JOIN field_definitions)`` made SQLite materialise the inner join over every field
    row of every item. A field row whose definition is not a defined one comes with a NULL identifier
    and is left out, as ``_FIELDS``' inner join leaves it out."""
    return from_clause.outerjoin(
        content_fields,
        and_(content_fields.c.content_id == content.c.id, content_fields.c.version_no == version_no),
    ).outerjoin(
        field_definitions,
        and_(
            field_definitions.c.id == content_fields.c.field_definition_id,
            field_definitions.c.status == DEFINED,
        ),
    )


# ... and the version's fields.
_WANTED_FIELDS_FROM = _with_fields(_WANTED_FROM, bindparam("version_no"))
_FIELD_COLUMNS = (
    *(column.label(f"f_{column.name}") for column in content_fields.c),
    field_definitions.c.identifier.label("f_identifier"),
)
_FIELD_ORDER = (field_definitions.c.position, field_definitions.c.id, content_fields.c.language_code)
_LOCK_VERSION = _locking(_WANTED_FIELDS_FROM, *_WANTED_COLUMNS, *_FIELD_COLUMNS).order_by(*_FIELD_ORDER)
_LOCK_VERSION_FOR_CALLER = _locking(
    with_caller(_WANTED_FIELDS_FROM), *_WANTED_COLUMNS, *_FIELD_COLUMNS, *CALLER_COLUMNS, *ACCESS_COLUMNS
).order_by(*_FIELD_ORDER)
# A content GET that has nothing cached for the item: the item with its current version's fields, and
# whether that version holds relations, which the usual version does not: a cold GET is then one
# statement, as a warm one is.
_CURRENT_FIELDS_FROM = _with_fields(_INFO_FROM, content.c.current_version_no)
_HAS_RELATIONS = (
    exists()
    .where(
        relations.c.source_content_id == content.c.id,
        relations.c.source_version_no == content.c.current_version_no,
    )
    .label("has_relations")
)
_PREPARED_INFO_WITH_FIELDS = Prepared(
    select(*_INFO_COLUMNS, _HAS_RELATIONS, *_FIELD_COLUMNS)
    .select_from(_CURRENT_FIELDS_FROM)
    .where(content.c.id == bindparam("content_id"))
    .order_by(*_FIELD_ORDER)
)
_PREPARED_INFO_WITH_FIELDS_FOR_CALLER = Prepared(
    select(*_INFO_COLUMNS, _HAS_RELATIONS, *_FIELD_COLUMNS, *CALLER_COLUMNS, *ACCESS_COLUMNS)
    .select_from(with_caller(_CURRENT_FIELDS_FROM))
    .where(content.c.id == bindparam("content_id"))
    .order_by(*_FIELD_ORDER)
)
# A page of search hits: the items with their current versions, stamps, and whether each version holds
# relations (those cached for the current stamp need no more statements).
_CURRENT_BY_IDS = (
    select(*_INFO_COLUMNS, _HAS_RELATIONS)
    .select_from(_INFO_FROM)
    .where(content.c.id.in_(bindparam("ids", expanding=True)))
)
_PREPARED_LOCK = Prepared(_LOCK_BY_ID)
_PREPARED_LOCK_FOR_CALLER = Prepared(_LOCK_FOR_CALLER)
_PREPARED_LOCK_VERSION = Prepared(_LOCK_VERSION)
_PREPARED_LOCK_VERSION_FOR_CALLER = Prepared(_LOCK_VERSION_FOR_CALLER)
_INFO_BY_IDS = _info_query().where(content.c.id.in_(bindparam("ids", expanding=True)))
_VERSION = select(content_versions).where(
    content_versions.c.content_id == bindparam("content_id"),
    content_versions.c.version_no == bindparam("version_no"),
)
_FIELDS_QUERY = (
    select(content_fields, field_definitions.c.identifier, field_definitions.c.position)
    .select_from(
        content_fields.join(
            field_definitions,
            and_(
                field_definitions.c.id == content_fields.c.field_definition_id,
                field_definitions.c.status == DEFINED,
            ),
        )
    )
    .order_by(field_definitions.c.position, field_definitions.c.id, content_fields.c.language_code)
)
_FIELDS = _FIELDS_QUERY.where(
    content_fields.c.content_id == bindparam("content_id"),
    content_fields.c.version_no == bindparam("version_no"),
)


# Writes every create or publish runs, built once (building a statement cost more than running it).
_INSERT_CONTENT = Prepared(insert(content).returning(content.c.id))
_INSERT_VERSION = Prepared(insert(content_versions).returning(content_versions.c.id))
_PREPARED_FIELDS = Prepared(_FIELDS)
_INSERT_FIELDS = Prepared(insert(content_fields))
_WRITE = Prepared(
    update(content).where(content.c.id == bindparam("item_id")).values(revision=content.c.revision + 1)
)


def name_key(
    version_no: Any = content.c.current_version_no, language: Any = content.c.main_language_code
) -> Any:
    """The ContentName sort key of the ``content`` row being written: the name of its version
    ``version_no`` in ``language`` (by default its current version and main language), lower-cased (as
    the sort compared names before the key was stored), its first 255 characters."""
    version = content_versions.alias("name_key_version")
    name = func.lower(json_text(version.c.names, language))
    return (
        select(func.substr(name, 1, 255))
        .where(version.c.content_id == content.c.id, version.c.version_no == version_no)
        .scalar_subquery()
    )


# A write that changes the current version or the main language computes the new key in the same
# statement (SET sees the row as it was: the new values come as parameters, NULL for unchanged ones).
_WRITE_NAMED = Prepared(
    update(content)
    .where(content.c.id == bindparam("item_id"))
    .values(
        revision=content.c.revision + 1,
        name_key=name_key(
            func.coalesce(bindparam("key_version_no", type_=Integer), content.c.current_version_no),
            func.coalesce(bindparam("key_language", type_=String), content.c.main_language_code),
        ),
    )
)
# New names for a version: the key changes when it is the item's current version.
_RENAME = Prepared(
    update(content)
    .where(content.c.id == bindparam("item_id"), content.c.current_version_no == bindparam("renamed_no"))
    .values(name_key=name_key())
)


def refresh_name_keys(connection: Connection, where: ColumnElement[bool] | None = None) -> None:
    """Compute the name keys of the items ``where`` selects (all without it), e.g. of items written in
    bulk (the clean install, the search benchmark) or of a database the key is new to."""
    statement = update(content).values(name_key=name_key())
    connection.execute(statement if where is None else statement.where(where))


_chosen = content_versions.c.version_no == bindparam("publish_version_no")
_PUBLISH_VERSION = Prepared(
    update(content_versions)
    .where(
        content_versions.c.content_id == bindparam("item_id"),
        or_(_chosen, content_versions.c.status == VERSION_STATUS_CODES[PUBLISHED]),
    )
    .values(
        status=case((_chosen, VERSION_STATUS_CODES[PUBLISHED]), else_=VERSION_STATUS_CODES["ARCHIVED"]),
        modified=case((_chosen, bindparam("publish_at")), else_=content_versions.c.modified),
    )
)


def _field(r: Any) -> Field:
    return Field(
        id=r.id,
        field_definition_id=r.field_definition_id,
        identifier=r.identifier,
        language_code=r.language_code,
        field_type=r.field_type,
        value=None if r.value is None else orjson.loads(r.value),
    )


class SqlContentGateway:
    def __init__(
        self, connection: Connection, cache: TxCache | None = None, blocks: TxBlocks | None = None
    ) -> None:
        self.c = connection
        self.cache = cache or TxCache(EpochCache(), connection)
        self.blocks = blocks
        self.released_files: set[str] = set()
        """Files referenced by field rows this transaction removed or replaced (see ``unreferenced``)."""
        self.uploaded_files: set[str] = set()
        """Files this transaction's writes uploaded: deleted again when it fails."""

    # -- content items -------------------------------------------------------------------------------
    def get(self, content_id: int) -> ContentInfo | None:
        row = self.c.execute(_INFO_BY_ID, {"content_id": content_id}).first()
        return _info(row) if row else None

    def get_with_current_version(self, content_id: int, *, with_fields: bool = False) -> CurrentItem | None:
        """The item and its current version, in one query, with a stamp that changes whenever the
        item, its current version, its main location's path or the cached tables change (any write to
        the item, its versions, fields and relations bumps its revision); with ``with_fields``, the
        version's fields and whether it holds relations, in the same query."""
        params = {"content_id": content_id}
        if with_fields:
            rows = self._for_caller(_PREPARED_INFO_WITH_FIELDS, _PREPARED_INFO_WITH_FIELDS_FOR_CALLER, params)
        else:
            rows = self._for_caller(_PREPARED_INFO, _PREPARED_INFO_FOR_CALLER, params)
        if not rows:
            return None
        row = rows[0]
        info, version, stamp = _info(row), _current_version(row), tuple(row)[:_STAMP_WIDTH]
        if not with_fields:
            return CurrentItem(info, version, stamp)
        return CurrentItem(info, version, stamp, _prefixed_fields(rows), bool(row.has_relations))

    def get_many_current(self, content_ids: Iterable[int]) -> dict[int, CurrentItem]:
        """Items by id, each as :meth:`get_with_current_version` reads it (the same stamp) and with
        whether its current version holds relations, in one query."""
        ids = sorted(set(content_ids))
        if not ids:
            return {}
        return {
            row.id: CurrentItem(
                _info(row),
                _current_version(row),
                tuple(row)[:_STAMP_WIDTH],
                has_relations=bool(row.has_relations),
            )
            for row in self.c.execute(_CURRENT_BY_IDS, {"ids": ids})
        }

    def lock(self, content_id: int) -> ContentInfo | None:
        """The item, its row locked until the transaction ends (waiting for a writer holding it); the
        same statement confirms the request's caller and reads its access stamp and the cache epoch."""
        rows = self._for_caller(_PREPARED_LOCK, _PREPARED_LOCK_FOR_CALLER, {"content_id": content_id})
        return _info(rows[0]) if rows else None

    def lock_version(self, content_id: int, version_no: int) -> LockedVersion | None:
        """:meth:`lock`, with version ``version_no`` of the item (None when it has none such), whether
        that version holds relations derived from its fields, and its fields, in the same statement."""
        params = {"content_id": content_id, "version_no": version_no}
        rows = self._for_caller(_PREPARED_LOCK_VERSION, _PREPARED_LOCK_VERSION_FOR_CALLER, params)
        if not rows:
            return None
        row = rows[0]
        if row.w_id is None:
            return LockedVersion(_info(row), None, False, [])
        version = _version(SimpleNamespace(**{name: getattr(row, f"w_{name}") for name in _VERSION_COLUMNS}))
        return LockedVersion(_info(row), version, bool(row.w_derived), _prefixed_fields(rows))

    def _for_caller(self, plain: Prepared, for_caller: Prepared, params: dict[str, Any]) -> Sequence[Any]:
        """The rows of ``plain``, or of ``for_caller`` when the request has a caller to confirm (its
        account and access stamp come in the first row); the cache epoch is noted either way."""
        caller = self.cache.caller
        if caller is None:
            rows = plain.all(self.c, params)
        else:
            rows = for_caller.all(self.c, {**params, **caller_params(caller)})
        if not rows:
            return rows
        if caller is not None:
            take_caller(caller, rows[0])
            caller.access_stamp = access_stamp(rows[0])
        self.cache.saw_epoch(rows[0].cache_epoch)
        return rows

    def at_locations(self, location_ids: Sequence[int]) -> dict[int, tuple[Location, ContentInfo | None]]:
        """Locations by id with their content (None for the virtual root), in one query that also
        confirms the request's caller and reads its access stamp and the cache epoch."""
        if not location_ids:
            return {}
        ids = sorted(set(location_ids))
        caller = self.cache.caller
        confirming = caller_params(caller) if caller is not None else {}
        if len(ids) == 1:
            one = _AT_ONE if caller is None else _AT_ONE_FOR_CALLER
            rows = one.all(self.c, {"id": ids[0], **confirming})
        else:
            many = _AT if caller is None else _AT_FOR_CALLER
            rows = list(self.c.execute(many, {"ids": ids, **confirming}))
        if not rows:
            return {}
        if caller is not None:
            take_caller(caller, rows[0])
            caller.access_stamp = access_stamp(rows[0])
        self.cache.saw_epoch(rows[0].cache_epoch)
        found: dict[int, tuple[Location, ContentInfo | None]] = {}
        for row in rows:
            place = location_of(SimpleNamespace(**{name: getattr(row, f"p_{name}") for name in _PLACE_NAMES}))
            found[place.id] = (place, None if row.id is None else _info(row))
        return found

    def by_remote_id(self, remote_id: str) -> ContentInfo | None:
        row = self.c.execute(_info_query().where(content.c.remote_id == remote_id)).first()
        return _info(row) if row else None

    def get_many(self, content_ids: Iterable[int]) -> dict[int, ContentInfo]:
        ids = sorted(set(content_ids))
        if not ids:
            return {}
        return {r.id: _info(r) for r in self.c.execute(_INFO_BY_IDS, {"ids": ids})}

    def existing_ids(self, content_ids: Iterable[int], readable: ReadScope) -> set[int]:
        """The ids of ``content_ids`` that exist and that ``readable`` lets the reader read."""
        ids = sorted(set(content_ids))
        if not ids:
            return set()
        query = select(content.c.id).where(content.c.id.in_(ids))
        filtered = restriction(readable)
        if filtered is not None:
            query = query.where(compile_criterion(filtered))
        return set(self.c.execute(query).scalars())

    def exists_matching(self, criterion: Criterion) -> bool:
        query = select(content.c.id).where(compile_criterion(criterion)).limit(1)
        return self.c.execute(query).first() is not None

    def create(self, new: NewContent) -> int:
        """Insert a never-published item whose first version (1) is yet to be created: its version
        counter already stands at 1."""
        return int(
            _INSERT_CONTENT.first(
                self.c,
                {
                    "content_type_id": new.content_type_id,
                    "section_id": new.section_id,
                    "owner_id": new.owner_id,
                    "remote_id": new.remote_id,
                    "main_language_code": new.main_language_code,
                    "always_available": new.always_available,
                    "status": CONTENT_STATUS_CODES["DRAFT"],
                    "is_hidden": False,
                    "current_version_no": 1,
                    "version_counter": 1,
                    "modified": ts(new.modification_date),
                    "published": None,
                    "revision": 1,
                },
            )[0]
        )

    def created(self, content_id: int, new: NewContent, names: dict[str, str]) -> ContentInfo:
        """The item :meth:`create` inserted, as a read would return it (before any other write to it),
        its first version named ``names``."""
        return ContentInfo(
            id=content_id,
            content_type_id=new.content_type_id,
            remote_id=new.remote_id,
            section_id=new.section_id,
            owner_id=new.owner_id,
            main_language_code=new.main_language_code,
            always_available=new.always_available,
            status="DRAFT",
            is_hidden=False,
            current_version_no=1,
            modification_date=dt(ts(new.modification_date)),
            published_date=None,
            main_location_id=None,
            main_location_path=None,
            names=orjson.loads(dumps(names)),
            revision=1,
        )

    def update(self, content_id: int, struct: ContentUpdate) -> None:
        values: dict[str, Any] = {
            key: value
            for key, value in (
                ("main_language_code", struct.main_language_code),
                ("section_id", struct.section_id),
                ("main_location_id", struct.main_location_id),
                ("owner_id", struct.owner_id),
                ("always_available", struct.always_available),
                ("remote_id", struct.remote_id),
            )
            if value is not None
        }
        if struct.modification_date is not None:
            values["modified"] = ts(struct.modification_date)
        if struct.published_date is not None:
            values["published"] = ts(struct.published_date)
        self._write(content_id, **values)

    def touch(self, content_id: int) -> None:
        """Record a change of the item (its versions, fields or relations) for its ETag."""
        self._write(content_id)

    def set_hidden(self, content_id: int, hidden: bool) -> None:
        self._write(content_id, is_hidden=hidden)

    def set_main_location(self, content_id: int, location_id: int | None) -> None:
        self._write(content_id, main_location_id=location_id)

    def mark_published(
        self,
        content_id: int,
        version_no: int,
        now: datetime,
        first: bool,
        main_location_id: int | None = None,
    ) -> None:
        """The item's current version is the published ``version_no``; ``main_location_id``, when given,
        becomes its main location in the same statement."""
        values: dict[str, Any] = {
            "status": CONTENT_STATUS_CODES[PUBLISHED],
            "current_version_no": version_no,
            "modified": ts(now),
        }
        if first:
            values["published"] = ts(now)
        if main_location_id is not None:
            values["main_location_id"] = main_location_id
        self._write(content_id, **values)

    def set_current_version(self, content_id: int, version_no: int) -> None:
        self._write(content_id, current_version_no=version_no)

    def _write(self, content_id: int, **values: Any) -> None:
        """Set ``values`` (column: value) and bump the revision: one prebuilt UPDATE, the parameters
        naming the columns it sets."""
        if "current_version_no" in values or "main_language_code" in values:
            keys = {
                "key_version_no": values.get("current_version_no"),
                "key_language": values.get("main_language_code"),
            }
            _WRITE_NAMED.execute(self.c, {"item_id": content_id, **values, **keys})
        else:
            _WRITE.execute(self.c, {"item_id": content_id, **values})

    def delete(self, content_ids: Sequence[int]) -> None:
        """Remove items with their versions, fields, relations and pending locations (cascades). The
        items that relate to them lose those relations: their revision changes."""
        if content_ids:
            sources = select(relations.c.source_content_id).where(
                in_values(relations.c.destination_content_id, content_ids)
            )
            self.c.execute(
                update(content)
                .where(content.c.id.in_(sources), ~in_values(content.c.id, content_ids))
                .values(revision=content.c.revision + 1)
            )
            self._delete_fields(in_values(content_fields.c.content_id, content_ids))
            self.c.execute(delete(content).where(in_values(content.c.id, content_ids)))

    # -- versions ------------------------------------------------------------------------------------
    def next_version_no(self, content_id: int) -> int:
        """Hand out the item's next version number; the row lock serialises concurrent writers."""
        return int(
            self.c.execute(
                update(content)
                .where(content.c.id == content_id)
                .values(version_counter=content.c.version_counter + 1, revision=content.c.revision + 1)
                .returning(content.c.version_counter)
            ).scalar_one()
        )

    def create_version(self, new: NewVersion) -> VersionInfo:
        version_id = _INSERT_VERSION.first(
            self.c,
            {
                "content_id": new.content_id,
                "version_no": new.version_no,
                "status": VERSION_STATUS_CODES["DRAFT"],
                "creator_id": new.creator_id,
                "created": ts(new.creation_date),
                "modified": ts(new.creation_date),
                "initial_language_code": new.initial_language_code,
                "language_codes": ",".join(new.language_codes),
                "names": dumps(new.names),
            },
        )[0]
        return VersionInfo(
            id=version_id,
            content_id=new.content_id,
            version_no=new.version_no,
            status="DRAFT",
            creator_id=new.creator_id,
            creation_date=dt(ts(new.creation_date)),
            modification_date=dt(ts(new.creation_date)),
            initial_language_code=new.initial_language_code,
            language_codes=new.language_codes,
            names=dict(new.names),
        )

    def get_version(self, content_id: int, version_no: int) -> VersionInfo | None:
        row = self.c.execute(_VERSION, {"content_id": content_id, "version_no": version_no}).first()
        return _version(row) if row else None

    def list_versions(self, content_id: int) -> list[VersionInfo]:
        query = (
            select(content_versions)
            .where(content_versions.c.content_id == content_id)
            .order_by(content_versions.c.version_no)
        )
        return [_version(r) for r in self.c.execute(query)]

    def drafts_by_creator(self, user_id: int) -> list[VersionInfo]:
        """The drafts a user created, oldest first (for ``/user/users/{id}/drafts``)."""
        query = (
            select(content_versions)
            .where(
                content_versions.c.creator_id == user_id,
                content_versions.c.status == VERSION_STATUS_CODES["DRAFT"],
            )
            .order_by(content_versions.c.modified, content_versions.c.id)
        )
        return [_version(r) for r in self.c.execute(query)]

    def update_version(
        self,
        content_id: int,
        version_no: int,
        *,
        status: str | None = None,
        modified: datetime | None = None,
        initial_language_code: str | None = None,
        language_codes: Sequence[str] | None = None,
        names: dict[str, str] | None = None,
    ) -> None:
        values: dict[str, Any] = {}
        if status is not None:
            values["status"] = VERSION_STATUS_CODES[status]
        if modified is not None:
            values["modified"] = ts(modified)
        if initial_language_code is not None:
            values["initial_language_code"] = initial_language_code
        if language_codes is not None:
            values["language_codes"] = ",".join(language_codes)
        if names is not None:
            values["names"] = dumps(names)
        if values:
            self.c.execute(
                update(content_versions)
                .where(
                    content_versions.c.content_id == content_id, content_versions.c.version_no == version_no
                )
                .values(**values)
            )
        if names is not None:
            _RENAME.execute(self.c, {"item_id": content_id, "renamed_no": version_no})

    def publish_version(self, content_id: int, version_no: int, now: datetime) -> None:
        """Version ``version_no`` becomes the published one (modified ``now``) and the one published until
        now, if any, is archived: one statement."""
        _PUBLISH_VERSION.execute(
            self.c, {"item_id": content_id, "publish_version_no": version_no, "publish_at": ts(now)}
        )

    def delete_version(self, content_id: int, version_no: int) -> None:
        self._delete_fields(_of_version(content_id, version_no))
        self.c.execute(
            delete(content_versions).where(
                content_versions.c.content_id == content_id, content_versions.c.version_no == version_no
            )
        )

    # -- fields --------------------------------------------------------------------------------------
    def load_fields(self, content_id: int, version_no: int) -> list[Field]:
        rows = _PREPARED_FIELDS.all(self.c, {"content_id": content_id, "version_no": version_no})
        return [_field(r) for r in rows]

    def get_versions(self, keys: Iterable[tuple[int, int]]) -> dict[tuple[int, int], VersionInfo]:
        """Versions by ``(content id, version no)``, in one query."""
        wanted = sorted(set(keys))
        if not wanted:
            return {}
        pair = tuple_(content_versions.c.content_id, content_versions.c.version_no)
        rows = self.c.execute(
            select(content_versions).where(_of_items(content_versions, wanted), pair.in_(wanted))
        )
        return {(r.content_id, r.version_no): _version(r) for r in rows}

    def load_fields_of(self, keys: Iterable[tuple[int, int]]) -> dict[tuple[int, int], list[Field]]:
        """The fields of several versions by ``(content id, version no)``, in one query."""
        wanted = sorted(set(keys))
        found: dict[tuple[int, int], list[Field]] = {key: [] for key in wanted}
        if wanted:
            pair = tuple_(content_fields.c.content_id, content_fields.c.version_no)
            for r in self.c.execute(_FIELDS_QUERY.where(_of_items(content_fields, wanted), pair.in_(wanted))):
                found[(r.content_id, r.version_no)].append(_field(r))
        return found

    def stored_fields(self, content_type: ContentType, fields: Sequence[Field]) -> list[Field]:
        """``fields`` of an item of ``content_type`` as :meth:`load_fields` returns them once saved: in
        the order of their definitions, values through the JSON they are stored as."""
        positions = {d.id: (d.position, d.id) for d in content_type.field_definitions}
        ordered = sorted(fields, key=lambda f: (positions[f.field_definition_id], f.language_code))
        return [
            f if f.value is None else dataclass_replace(f, value=orjson.loads(dumps(f.value)))
            for f in ordered
        ]

    def save_fields(
        self, content_id: int, version_no: int, fields: Sequence[Field], *, replace: bool = True
    ) -> None:
        """Replace every field of a version (``replace=False``: a version with no fields yet)."""
        if replace:
            self._delete_fields(_of_version(content_id, version_no))
        rows = [
            {
                "content_id": content_id,
                "version_no": version_no,
                "id": f.id,
                "field_definition_id": f.field_definition_id,
                "language_code": f.language_code,
                "field_type": f.field_type,
                "value": None if f.value is None else dumps(f.value),
                "file_id": get_field_type(f.field_type).stored_file_id(f.value),
            }
            for f in fields
        ]
        _INSERT_FIELDS.execute_many(self.c, rows)
        self.released_files -= {row["file_id"] for row in rows}  # kept by the new rows: still referenced

    def _delete_fields(self, condition: ColumnElement[bool]) -> None:
        """Delete field rows, remembering the files they referenced (one statement: RETURNING)."""
        removed = self.c.execute(delete(content_fields).where(condition).returning(content_fields.c.file_id))
        self.released_files.update(file_id for (file_id,) in removed if file_id)

    def unreferenced(self, file_ids: Iterable[str]) -> set[str]:
        """Those of ``file_ids`` that no field row of any version references."""
        wanted = set(file_ids)
        if not wanted:
            return set()
        query = select(content_fields.c.file_id).where(in_values(content_fields.c.file_id, wanted))
        return wanted - {file_id for (file_id,) in self.c.execute(query.distinct())}

    def file_owners(self, file_id: str) -> list[tuple[int, int]]:
        """``(content id, version no)`` of every version whose fields reference the stored file."""
        query = select(content_fields.c.content_id, content_fields.c.version_no).where(
            content_fields.c.file_id == file_id
        )
        return sorted({(row.content_id, row.version_no) for row in self.c.execute(query)})

    def new_field_ids(self, count: int) -> list[int]:
        """``count`` new field ids (from the process's block: a statement only when it runs out)."""
        return take(self.c, self.blocks, FIELD_SEQUENCE, count)

    def field_ids_of(self, content_id: int) -> dict[tuple[int, str], int]:
        """The field id already used for each (field definition, language) of the item."""
        query = select(
            content_fields.c.field_definition_id,
            content_fields.c.language_code,
            func.min(content_fields.c.id),
        ).where(content_fields.c.content_id == content_id)
        query = query.group_by(content_fields.c.field_definition_id, content_fields.c.language_code)
        return {(r[0], r[1]): int(r[2]) for r in self.c.execute(query)}
