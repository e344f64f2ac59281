"""Locations (the tree) and pending locations in SQL.

A subtree is a range on ``path_string`` (``criteria.prefix_range``), which the path index serves. Work on a
subtree (move, hide, delete, trash) is a fixed number of statements that update or delete the whole range
at once, whatever its size: paths are rewritten with string functions, never row by row. Child counts
come from a correlated sub-query filtered by what the caller may read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Connection,
    FromClause,
    Integer,
    Select,
    String,
    and_,
    bindparam,
    cast,
    delete,
    exists,
    false,
    func,
    insert,
    literal,
    literal_column,
    null,
    or_,
    select,
    true,
    update,
)

from pressroom.domain.content_type import SORT_FIELD_NAMES, SORT_FIELDS, SORT_ORDER_NAMES, SORT_ORDERS
from pressroom.domain.location import (
    Location,
    LocationCreate,
    LocationUpdate,
    Parent,
    PendingLocation,
    Placing,
)
from pressroom.domain.query import Criterion, MatchAll
from pressroom.domain.read_scope import UNRESTRICTED, ReadScope, criterion, restriction
from pressroom.domain.search import children_sort
from pressroom.storage.sql.criteria import compile_criterion, prefix_range
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import (
    content,
    locations,
    pending_locations,
)
from pressroom.storage.sql.sequences import ROLES_REVISION, new_row_ids, next_row_id, next_value
from pressroom.storage.sql.sort import apply_sort, needs_content

DEFINED = 0  # the published state of a content type


def in_subtrees(column: Any, paths: Sequence[str]) -> ColumnElement[bool]:
    """``column`` (a path) lies in one of the subtrees rooted at ``paths``."""
    return or_(*(prefix_range(column, path) for path in paths))


def only_inside(paths: Sequence[str], row: FromClause = locations) -> ColumnElement[bool]:
    """The content of the locations ``row`` has no location outside the subtrees at ``paths``."""
    other = locations.alias("outside")
    return ~exists(
        select(other.c.id).where(
            other.c.content_id == row.c.content_id, ~in_subtrees(other.c.path_string, paths)
        )
    )


def child_count(readable: Criterion, parent: FromClause = locations) -> Any:
    """How many children of the ``parent`` row the reader may read, as a correlated sub-query."""
    child = locations.alias("child")
    query = select(func.count())
    if isinstance(readable, MatchAll):
        query = query.select_from(child)
    else:
        item = content.alias("child_content")
        query = query.select_from(child.join(item, item.c.id == child.c.content_id)).where(
            compile_criterion(readable, child, item)
        )
    where = and_(child.c.parent_id == parent.c.id, child.c.id != parent.c.id)
    return query.where(where).scalar_subquery().label("child_count")


def location_of(row: Any) -> Location:
    return Location(
        id=row.id,
        parent_id=row.parent_id,
        content_id=row.content_id,
        path_string=row.path_string,
        depth=row.depth,
        priority=row.priority,
        hidden=bool(row.hidden),
        invisible=bool(row.invisible),
        remote_id=row.remote_id,
        sort_field=SORT_FIELD_NAMES.get(row.sort_field, "PATH"),
        sort_order=SORT_ORDER_NAMES.get(row.sort_order, "ASC"),
        child_count=row.child_count,
    )


def _pending(row: Any) -> PendingLocation:
    return PendingLocation(
        id=row.id,
        content_id=row.content_id,
        parent_id=row.parent_id,
        priority=row.priority,
        hidden=bool(row.hidden),
        remote_id=row.remote_id,
        sort_field=SORT_FIELD_NAMES.get(row.sort_field, "PATH"),
        sort_order=SORT_ORDER_NAMES.get(row.sort_order, "ASC"),
    )


@lru_cache(maxsize=64)
def _query(readable: ReadScope) -> Select[Any]:
    """Locations with their child counts; built once per criterion (building the aliases costs more
    than running the query)."""
    return select(locations, child_count(criterion(readable)))


_UNCOUNTED_BY_ID = Prepared(
    select(locations, null().label("child_count")).where(locations.c.id == bindparam("id"))
)


@lru_cache(maxsize=2)
def _insert_location(dialect: str) -> Prepared:
    """INSERT of a location whose path, ending with its new id, is written with the row (built once
    per dialect; the parameters are named ``new_*``)."""
    new = select(next_row_id(dialect, "locations").label("id")).subquery("new")
    columns = {
        "id": new.c.id,
        "parent_id": bindparam("new_parent_id", type_=Integer),
        "content_id": bindparam("new_content_id", type_=Integer),
        "path_string": bindparam("new_parent_path", type_=String) + cast(new.c.id, String) + literal("/"),
        "depth": bindparam("new_depth", type_=Integer),
        "priority": bindparam("new_priority", type_=Integer),
        "hidden": bindparam("new_hidden", type_=Boolean),
        "invisible": bindparam("new_invisible", type_=Boolean),
        "remote_id": bindparam("new_remote_id", type_=String),
        "sort_field": bindparam("new_sort_field", type_=Integer),
        "sort_order": bindparam("new_sort_order", type_=Integer),
    }
    return Prepared(
        insert(locations)
        .from_select(list(columns), select(*columns.values()).select_from(new))
        .returning(locations.c.id)
    )


_parent = locations.alias("parent")
_taker = locations.alias("taker")


# Spelled out: SQLAlchemy leaves table names out of columns in RETURNING, subqueries included, where
# ``id = parent_id`` would compare the parent's own columns. SQLite gives a column in RETURNING no
# affinity, so a comparison with it ignores the index on a text column (a scan of every location per
# publish) unless it is cast.
_PENDING_PARENT: ColumnElement[int] = literal_column("pending_locations.parent_id")
_PENDING_REMOTE_ID: ColumnElement[str] = cast(literal_column("pending_locations.remote_id"), String)


def _of_parent(column: Any) -> Any:
    found = select(column).where(literal_column("parent.id") == _PENDING_PARENT)
    return found.correlate(pending_locations).scalar_subquery()


# Publishing takes the item's pending locations with what placing them needs, in one statement (both
# databases allow subqueries in RETURNING): each parent's path, depth and visibility, and whether a
# location took the pending remote id meanwhile.
_TAKE_PENDING = Prepared(
    delete(pending_locations)
    .where(pending_locations.c.content_id == bindparam("pending_content_id"))
    .returning(
        *pending_locations.c,
        _of_parent(_parent.c.path_string).label("parent_path"),
        _of_parent(_parent.c.depth).label("parent_depth"),
        _of_parent(or_(_parent.c.hidden, _parent.c.invisible)).label("parent_shadowed"),
        exists()
        .where(literal_column("taker.remote_id") == _PENDING_REMOTE_ID)
        .select_from(_taker)
        .correlate(pending_locations)
        .label("remote_id_taken"),
    )
)
_INSERT_PENDING = Prepared(insert(pending_locations))


class SqlLocationGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def get(self, location_id: int, readable: ReadScope, *, counted: bool = True) -> Location | None:
        """The location; its child count counts only the children ``readable`` lets the reader read.
        ``counted=False`` leaves the count out (None): below a large folder, counting costs more than
        the rest of the read."""
        if counted:
            row = self.c.execute(_query(readable).where(locations.c.id == location_id)).first()
        else:
            row = _UNCOUNTED_BY_ID.first(self.c, {"id": location_id})
        return location_of(row) if row else None

    def get_many(self, location_ids: Sequence[int], readable: ReadScope) -> dict[int, Location]:
        """Locations by id; their child counts count only the children ``readable`` lets the reader read."""
        if not location_ids:
            return {}
        query = _query(readable).where(locations.c.id.in_(sorted(set(location_ids))))
        return {row.id: location_of(row) for row in self.c.execute(query)}

    def by_remote_id(self, remote_id: str) -> Location | None:
        row = self.c.execute(_query(UNRESTRICTED).where(locations.c.remote_id == remote_id)).first()
        return location_of(row) if row else None

    def remote_id_taken(self, remote_id: str) -> bool:
        for holder in (locations, pending_locations):
            if self.c.execute(select(holder.c.id).where(holder.c.remote_id == remote_id)).first():
                return True
        return False

    def of_content(self, content_id: int, readable: ReadScope) -> list[Location]:
        """The item's locations by id that ``readable`` lets the reader read."""
        query = _query(UNRESTRICTED).where(locations.c.content_id == content_id).order_by(locations.c.id)
        filtered = restriction(readable)
        if filtered is not None:
            query = query.join(content, content.c.id == locations.c.content_id).where(
                compile_criterion(filtered, locations)
            )
        return [location_of(r) for r in self.c.execute(query)]

    def of_contents(self, content_ids: Iterable[int]) -> list[Location]:
        ids = sorted(set(content_ids))
        if not ids:
            return []
        query = _query(UNRESTRICTED).where(locations.c.content_id.in_(ids)).order_by(locations.c.id)
        return [location_of(r) for r in self.c.execute(query)]

    def subtree(self, path_string: str) -> list[Location]:
        """The location with this path and every location below it, top down."""
        query = (
            _query(UNRESTRICTED)
            .where(prefix_range(locations.c.path_string, path_string))
            .order_by(locations.c.depth, locations.c.id)
        )
        return [location_of(r) for r in self.c.execute(query)]

    def children(
        self, parent: Location, readable: ReadScope, offset: int = 0, limit: int | None = None
    ) -> list[Location]:
        """One page of the children the reader may read, in the parent's sort order (ties by id), by the
        sort clauses a search uses (``domain.search.children_sort``, ``storage/sql/sort.py``).

        Two statements: the page's ids (sorting only the key, joined to ``content`` only when the filter
        or the key needs it), then those rows with their child counts, so that the counts and columns
        are computed for the page and not for every child."""
        clauses = children_sort(parent.sort_field, parent.sort_order)
        filter_by = criterion(readable)
        page = select(locations.c.id).where(
            locations.c.parent_id == parent.id,
            locations.c.id != parent.id,
            compile_criterion(filter_by, locations),
        )
        source: FromClause = locations
        if not isinstance(filter_by, MatchAll) or needs_content(clauses):
            source = locations.join(content, content.c.id == locations.c.content_id)
        page = apply_sort(page, source, clauses, locations).offset(offset).limit(limit)
        ids = list(self.c.execute(page).scalars())
        if not ids:
            return []
        found = {
            r.id: location_of(r) for r in self.c.execute(_query(filter_by).where(locations.c.id.in_(ids)))
        }
        return [found[location_id] for location_id in ids]

    # -- writes --------------------------------------------------------------------------------------
    def create(
        self, content_id: int, parent: Location | Parent, struct: LocationCreate, invisible: bool
    ) -> Location:
        """Insert a location below ``parent``; ``struct`` carries resolved values (remote id, sort). One
        statement: the path, which ends with the new id, is written with the row."""
        assert struct.remote_id is not None and struct.sort_field and struct.sort_order
        params = {
            "new_parent_id": parent.id,
            "new_content_id": content_id,
            "new_parent_path": parent.path_string,
            "new_depth": parent.depth + 1,
            "new_priority": struct.priority,
            "new_hidden": struct.hidden,
            "new_invisible": invisible,
            "new_remote_id": struct.remote_id,
            "new_sort_field": SORT_FIELDS[struct.sort_field],
            "new_sort_order": SORT_ORDERS[struct.sort_order],
        }
        statement = _insert_location(self.c.dialect.name)
        location_id = int(statement.first(self.c, params)[0])
        path = f"{parent.path_string}{location_id}/"
        return Location(  # as stored: not read back
            id=location_id,
            parent_id=parent.id,
            content_id=content_id,
            path_string=path,
            depth=parent.depth + 1,
            priority=struct.priority,
            hidden=struct.hidden,
            invisible=invisible,
            remote_id=struct.remote_id,
            sort_field=struct.sort_field,
            sort_order=struct.sort_order,
            child_count=0,  # a new id: nothing lies below it
        )

    def new_ids(self, count: int) -> list[int]:
        """``count`` ids for locations :meth:`insert_many` will insert (one statement)."""
        return new_row_ids(self.c, "locations", count)

    def insert_many(self, rows: Sequence[Location]) -> None:
        """Insert locations as they are given (ids from :meth:`new_ids`, paths and depths already made):
        one statement for any number."""
        if rows:
            self.c.execute(
                insert(locations),
                [
                    {
                        "id": r.id,
                        "parent_id": r.parent_id,
                        "content_id": r.content_id,
                        "path_string": r.path_string,
                        "depth": r.depth,
                        "priority": r.priority,
                        "hidden": r.hidden,
                        "invisible": r.invisible,
                        "remote_id": r.remote_id,
                        "sort_field": SORT_FIELDS[r.sort_field],
                        "sort_order": SORT_ORDERS[r.sort_order],
                    }
                    for r in rows
                ],
            )

    def update(self, location_id: int, struct: LocationUpdate) -> None:
        """Priority, remote id and sort; hiding goes through ``set_hidden`` and ``refresh_invisible``."""
        values: dict[str, Any] = {}
        if struct.priority is not None:
            values["priority"] = struct.priority
        if struct.remote_id is not None:
            values["remote_id"] = struct.remote_id
        if struct.sort_field is not None:
            values["sort_field"] = SORT_FIELDS[struct.sort_field]
        if struct.sort_order is not None:
            values["sort_order"] = SORT_ORDERS[struct.sort_order]
        if values:
            self.c.execute(update(locations).where(locations.c.id == location_id).values(**values))

    def set_hidden(self, location_id: int, hidden: bool) -> None:
        self.c.execute(update(locations).where(locations.c.id == location_id).values(hidden=hidden))

    def refresh_invisible(self, path_string: str, parent_invisible: bool) -> None:
        """Recompute ``invisible`` in the subtree at ``path_string``: a location is invisible when its
        parent outside the subtree is, or when it or an ancestor inside is hidden, or their content is.
        Up to three statements (find the hidden roots, reset the range, mark their ranges); rows that
        already hold the right value are not rewritten."""
        subtree = prefix_range(locations.c.path_string, path_string)
        roots: list[str] = []
        if not parent_invisible:
            hidden_at = self.c.execute(
                select(locations.c.path_string)
                .select_from(locations.outerjoin(content, content.c.id == locations.c.content_id))
                .where(subtree, or_(locations.c.hidden == true(), content.c.is_hidden == true()))
                .order_by(locations.c.path_string)
            ).scalars()
            for path in hidden_at:  # sorted: an ancestor comes before its subtree
                if not roots or not path.startswith(roots[-1]):
                    roots.append(path)
        self.c.execute(
            update(locations)
            .where(subtree, locations.c.invisible != parent_invisible)
            .values(invisible=parent_invisible)
        )
        for start in range(0, len(roots), 200):
            ranges = in_subtrees(locations.c.path_string, roots[start : start + 200])
            self.c.execute(
                update(locations).where(ranges, locations.c.invisible == false()).values(invisible=True)
            )

    def move(self, location: Location, parent: Location) -> None:
        """Re-root the subtree at ``location`` below ``parent``: one UPDATE rewrites every path and depth
        of the subtree, one sets the new parent. The caller refreshes visibility."""
        old, new = location.path_string, f"{parent.path_string}{location.id}/"
        self.c.execute(
            update(locations)
            .where(prefix_range(locations.c.path_string, old))
            .values(
                path_string=literal(new) + func.substr(locations.c.path_string, len(old) + 1),
                depth=locations.c.depth + (parent.depth + 1 - location.depth),
            )
        )
        self.c.execute(update(locations).where(locations.c.id == location.id).values(parent_id=parent.id))

    def swap(self, first: Location, second: Location) -> None:
        """Exchange the content of two locations (each keeps its place, sort and visibility flags).
        What sits above the users below them changes with their paths unchanged: the role revision moves
        on, so that every process reloads the grants it keeps (storage/sql/caller.py)."""
        next_value(self.c, ROLES_REVISION)
        for location, other in ((first, second), (second, first)):
            self.c.execute(
                update(locations).where(locations.c.id == location.id).values(content_id=other.content_id)
            )
        for content_id, old, new in (
            (first.content_id, first.id, second.id),
            (second.content_id, second.id, first.id),
        ):
            self.c.execute(
                update(content)
                .where(content.c.id == content_id, content.c.main_location_id == old)
                .values(main_location_id=new, revision=content.c.revision + 1)
            )

    def sole_content_ids(self, paths: Sequence[str]) -> set[int]:
        """The content whose every location lies in the subtrees at ``paths``."""
        query = (
            select(locations.c.content_id)
            .distinct()
            .where(
                in_subtrees(locations.c.path_string, paths),
                locations.c.content_id.is_not(None),
                only_inside(paths),
            )
        )
        return set(self.c.execute(query).scalars())

    def delete_subtrees(self, paths: Sequence[str]) -> None:
        """Delete the subtrees at ``paths``. Content that keeps a location elsewhere gets its main location
        moved there first; deleting the content that keeps none is the caller's (``sole_content_ids``)."""
        if not paths:
            return
        self.rehome_main_locations(paths)
        self.c.execute(delete(locations).where(in_subtrees(locations.c.path_string, paths)))

    def rehome_main_locations(self, paths: Sequence[str]) -> None:
        """Content whose main location lies in the subtrees gets its first location outside them (or
        none), in one UPDATE: the items found from the subtrees' location ids (one range scan), the
        first other location of each through its item's locations (``id + 0``: PostgreSQL would read
        ``min(id)`` as a walk of the primary key filtered by item, which, planned on the counts before a
        large copy, read every location for each item: 7.6 ms an item, 16 s for 2,000)."""
        other = locations.alias("elsewhere")
        first_outside = (
            select(func.min(other.c.id + 0))
            .where(other.c.content_id == content.c.id, ~in_subtrees(other.c.path_string, paths))
            .scalar_subquery()
        )
        in_range = select(locations.c.id).where(in_subtrees(locations.c.path_string, paths))
        self.c.execute(
            update(content)
            .where(content.c.main_location_id.in_(in_range))
            .values(main_location_id=first_outside, revision=content.c.revision + 1)
        )

    # -- pending locations ---------------------------------------------------------------------------
    def add_pending(self, content_id: int, struct: LocationCreate) -> None:
        assert struct.remote_id is not None and struct.sort_field and struct.sort_order
        _INSERT_PENDING.execute(
            self.c,
            {
                "content_id": content_id,
                "parent_id": struct.parent_id,
                "priority": struct.priority,
                "hidden": struct.hidden,
                "remote_id": struct.remote_id,
                "sort_field": SORT_FIELDS[struct.sort_field],
                "sort_order": SORT_ORDERS[struct.sort_order],
            },
        )

    def take_pending(self, content_id: int) -> list[Placing]:
        """Remove the item's pending locations and return them in the order they were added, each with
        its parent and whether its remote id is taken (one statement: DELETE ... RETURNING)."""
        rows = _TAKE_PENDING.all(self.c, {"pending_content_id": content_id})
        placing = [
            Placing(
                _pending(r),
                None
                if r.parent_path is None
                else Parent(r.parent_id, r.parent_path, r.parent_depth, bool(r.parent_shadowed)),
                bool(r.remote_id_taken),
            )
            for r in rows
        ]
        return sorted(placing, key=lambda item: item.pending.id)
