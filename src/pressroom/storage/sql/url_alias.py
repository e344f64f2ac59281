"""URL alias entries and URL wildcards in SQL (domain/url_alias.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, or_, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite

from pressroom.domain.url_alias import LOCATION_PREFIX, AliasEntry, UrlWildcard, UrlWildcardCreate
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import locations, url_aliases, url_wildcards
from pressroom.storage.sql.sequences import TxBlocks, take

NODE_SEQUENCE = "url_alias_node"
_T = url_aliases.c
_BY_KEY = Prepared(
    select(url_aliases).where(_T.parent == bindparam("parent"), _T.text_md5 == bindparam("md5"))
)
_ORDER = (_T.parent, _T.text)
_TAKE_OVER = Prepared(
    update(url_aliases).where(
        _T.parent == bindparam("was_parent"),
        _T.text_md5 == bindparam("was_md5"),
        _T.action == bindparam("was_action"),
        _T.is_original == bindparam("was_original"),
        _T.is_custom == bindparam("was_custom"),
    )
)


@lru_cache(maxsize=2)
def _claim(dialect_name: str) -> Prepared:
    """The insert of an entry that does nothing when its key is taken, built once per dialect."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    statement = dialect.insert(url_aliases).on_conflict_do_nothing(index_elements=["parent", "text_md5"])
    return Prepared(statement.returning(_T.node))


def _entry(row: Any) -> AliasEntry:
    return AliasEntry(
        parent=row.parent,
        text_md5=row.text_md5,
        text=row.text,
        node=row.node,
        action=row.action,
        is_original=bool(row.is_original),
        is_custom=bool(row.is_custom),
        forward=bool(row.forward),
        always_available=bool(row.always_available),
        language_codes=tuple(code for code in row.language_codes.split(",") if code),
    )


def _values(entry: AliasEntry) -> dict[str, Any]:
    return {
        "text": entry.text,
        "node": entry.node,
        "action": entry.action,
        "location_id": entry.location_id,
        "is_original": entry.is_original,
        "is_custom": entry.is_custom,
        "forward": entry.forward,
        "always_available": entry.always_available,
        "language_codes": ",".join(entry.language_codes),
    }


class SqlUrlAliasGateway:
    def __init__(self, connection: Connection, blocks: TxBlocks | None = None) -> None:
        self.c = connection
        self.blocks = blocks

    def get(self, parent: int, md5: str) -> AliasEntry | None:
        row = _BY_KEY.first(self.c, {"parent": parent, "md5": md5})
        return _entry(row) if row else None

    def of_locations(
        self, location_ids: Iterable[int], *, custom: bool | None = None, original_only: bool = True
    ) -> list[AliasEntry]:
        """The entries leading to these locations: custom, generated, or both (``custom=None``);
        current ones only, or with history too."""
        ids = sorted(set(location_ids))
        if not ids:
            return []
        query = select(url_aliases).where(_T.location_id.in_(ids)).order_by(*_ORDER)
        if custom is not None:
            query = query.where(_T.is_custom == custom)
        if original_only:
            query = query.where(_T.is_original.is_(True))
        return [_entry(r) for r in self.c.execute(query)]

    def global_entries(self) -> list[AliasEntry]:
        """Custom entries that lead to a resource rather than a location."""
        query = (
            select(url_aliases)
            .where(
                _T.is_custom.is_(True),
                _T.is_original.is_(True),
                ~_T.action.startswith(LOCATION_PREFIX, autoescape=True),
            )
            .order_by(*_ORDER)
        )
        return [_entry(r) for r in self.c.execute(query)]

    def of_nodes(self, nodes: Iterable[int]) -> list[AliasEntry]:
        """Every entry of these nodes (a path is built one level at a time from them)."""
        ids = sorted(set(nodes))
        if not ids:
            return []
        query = select(url_aliases).where(_T.node.in_(ids)).order_by(*_ORDER)
        return [_entry(r) for r in self.c.execute(query)]

    def new_node(self) -> int:
        """A node no entry has (from the process's block: a statement only when it runs out)."""
        return take(self.c, self.blocks, NODE_SEQUENCE, 1)[0]

    def new_nodes(self, count: int) -> list[int]:
        """``count`` nodes no entry has, reserved in one statement (none for none), not from the process's
        block: a subtree's worth would leave the next writers to reserve again at once."""
        return take(self.c, None, NODE_SEQUENCE, count)

    def insert_many(self, entries: Sequence[AliasEntry]) -> None:
        """Insert entries whose keys no entry holds (below nodes made in this transaction): one
        statement for any number."""
        if entries:
            self.c.execute(
                insert(url_aliases),
                [{"parent": e.parent, "text_md5": e.text_md5, **_values(e)} for e in entries],
            )

    def save(self, entry: AliasEntry) -> None:
        """Insert the entry, or replace the one with the same key."""
        key = (_T.parent == entry.parent) & (_T.text_md5 == entry.text_md5)
        if self.c.execute(update(url_aliases).where(key).values(**_values(entry))).rowcount == 0:
            self.c.execute(
                insert(url_aliases).values(parent=entry.parent, text_md5=entry.text_md5, **_values(entry))
            )

    def claim(self, entry: AliasEntry) -> bool:
        """Insert the entry unless its key is taken (then change nothing): whether it was inserted."""
        params = {"parent": entry.parent, "text_md5": entry.text_md5, **_values(entry)}
        return _claim(self.c.dialect.name).first(self.c, params) is not None

    def take_over(self, existing: AliasEntry, entry: AliasEntry) -> bool:
        """Replace ``existing`` by ``entry`` unless its action or flags changed since it was read: at READ
        COMMITTED a concurrent writer's UPDATE of the row makes this one wait and then match nothing."""
        return bool(
            _TAKE_OVER.execute(
                self.c,
                {
                    "was_parent": existing.parent,
                    "was_md5": existing.text_md5,
                    "was_action": existing.action,
                    "was_original": existing.is_original,
                    "was_custom": existing.is_custom,
                    **_values(entry),
                },
            )
        )

    def delete(self, keys: Sequence[tuple[int, str]]) -> None:
        if keys:
            self.c.execute(delete(url_aliases).where(tuple_(_T.parent, _T.text_md5).in_(list(keys))))

    def delete_of_subtrees(self, path_strings: Sequence[str]) -> None:
        """Every entry leading to a location at or below these paths (``/1/2/59/``), in one statement;
        run it before the locations themselves are deleted."""
        if path_strings:
            below = or_(*(locations.c.path_string.startswith(p, autoescape=True) for p in path_strings))
            self.c.execute(delete(url_aliases).where(_T.location_id.in_(select(locations.c.id).where(below))))


def _wildcard(row: Any) -> UrlWildcard:
    return UrlWildcard(row.id, row.source_url, row.destination_url, bool(row.forward))


class SqlUrlWildcardGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def list(self) -> list[UrlWildcard]:
        return [_wildcard(r) for r in self.c.execute(select(url_wildcards).order_by(url_wildcards.c.id))]

    def get(self, wildcard_id: int) -> UrlWildcard | None:
        row = self.c.execute(select(url_wildcards).where(url_wildcards.c.id == wildcard_id)).first()
        return _wildcard(row) if row else None

    def source_exists(self, source_url: str) -> bool:
        query = select(url_wildcards.c.id).where(url_wildcards.c.source_url == source_url)
        return self.c.execute(query).first() is not None

    def create(self, struct: UrlWildcardCreate) -> UrlWildcard:
        new_id = self.c.execute(
            insert(url_wildcards)
            .values(
                source_url=struct.source_url, destination_url=struct.destination_url, forward=struct.forward
            )
            .returning(url_wildcards.c.id)
        ).scalar_one()
        return UrlWildcard(int(new_id), struct.source_url, struct.destination_url, struct.forward)

    def delete(self, wildcard_id: int) -> None:
        self.c.execute(delete(url_wildcards).where(url_wildcards.c.id == wildcard_id))
