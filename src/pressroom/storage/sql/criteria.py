"""Compile a ``domain.query`` criterion into one SQL condition over ``content`` (and ``locations``).

Pass ``location`` when the query selects locations: location criteria then apply to that row. Without it
they ask whether *any* location of the item matches: ``item.id IN (SELECT content_id FROM locations WHERE
...)`` when an index finds those locations (id, parent, remote id, path), uncorrelated, so they are found
once (a correlated EXISTS made SQLite probe every item's locations: ParentLocationId at 20,000 items
went from a scan of ``content``, 13.6 ms, to ix_locations_parent, 2.8 ms); a correlated EXISTS for the
conditions no index serves (depth, priority, visibility), evaluated only for the candidate items.
Subtrees are a range on ``path_string`` (``>= '/1/2/'`` and ``< '/1/20'``), which an ordinary index
serves, unlike ``LIKE``.

Every sub-query reads an alias of its table: a query may also join that table (sort clauses join
``sections``, location queries select ``locations``), and SQLAlchemy would otherwise correlate the
sub-query to it.

Choices where the reference leaves room (``domain/query.py`` says what each criterion means):
- Visibility of an item: not hidden itself and visible at one of its locations at least (what
  ``services/search.py`` promises); of a location: neither it nor an ancestor hidden, nor its item.
- DateMetadata ``created`` compares the item's first publication date, as ``published`` does: an item
  has no creation date of its own (ContentInfo carries ``publishedDate`` and ``modificationDate`` only,
  and the reference's SQL search reads the same column for both targets).
- IsBookmarked in a content query: one of the item's locations is (value true) or none is (false).
- UserLogin compares the normalised (lower-cased) login, UserEmail the lower-cased address; ContentName
  and the LIKE forms are case-insensitive (SQLite folds ASCII letters only).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    FromClause,
    Select,
    and_,
    exists,
    false,
    func,
    literal,
    not_,
    or_,
    select,
    true,
)

from pressroom.domain import query as q
from pressroom.domain.content import VERSION_STATUS_CODES
from pressroom.domain.errors import InvalidArgument
from pressroom.storage.sql.field_index import search_visitors
from pressroom.storage.sql.functions import json_value_like
from pressroom.storage.sql.schema import (
    bookmarks,
    content,
    content_object_states,
    content_type_group_links,
    content_types,
    content_versions,
    locations,
    object_state_groups,
    object_states,
    sections,
    users,
)

members = locations.alias("group_member")
DEFINED = 0  # the status of a defined (not draft) content type
PUBLISHED_VERSION = VERSION_STATUS_CODES["PUBLISHED"]
_LIKE_SPECIAL = re.compile(r"([\\%_])")

_COMPARISONS: dict[str, Callable[[Any, Any], ColumnElement[bool]]] = {
    "EQ": lambda column, value: column == value,
    "LT": lambda column, value: column < value,
    "LTE": lambda column, value: column <= value,
    "GT": lambda column, value: column > value,
    "GTE": lambda column, value: column >= value,
}
COMPARISON_OPERATORS = (*_COMPARISONS, "IN", "BETWEEN")


def prefix_range(column: Any, prefix: str) -> ColumnElement[bool]:
    """``column`` starts with ``prefix``, as a range an index can serve (byte order, no escaping)."""
    upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
    return and_(column >= prefix, column < upper)


def like_pattern(text: str) -> str:
    """A client's ``*`` wildcard pattern as a lower-cased LIKE pattern (escape character ``\\``)."""
    return _LIKE_SPECIAL.sub(r"\\\1", text.lower()).replace("*", "%")


def compare(
    column: ColumnElement[Any], operator: str, values: Sequence[int], what: str
) -> ColumnElement[bool]:
    """``column`` compared with ``operator`` (EQ, IN, LT, LTE, GT, GTE, BETWEEN) to ``values``;
    InvalidArgument naming ``what`` for another operator or the wrong number of values."""
    if operator == "IN":
        if not values:
            raise InvalidArgument(f"{what}: IN takes at least one value")
        return column.in_(values)
    if operator == "BETWEEN":
        if len(values) != 2:
            raise InvalidArgument(f"{what}: BETWEEN takes two values")
        return and_(column >= values[0], column <= values[1])
    if operator in _COMPARISONS:
        if len(values) != 1:
            raise InvalidArgument(f"{what}: {operator} takes one value")
        return _COMPARISONS[operator](column, values[0])
    raise InvalidArgument(
        f"{what}: unknown operator '{operator}', expected one of {', '.join(COMPARISON_OPERATORS)}"
    )


def compile_criterion(
    criterion: q.Criterion,
    location: FromClause | None = None,
    item: FromClause = content,
    *,
    probe: bool = False,
    driver: FromClause | None = None,
    within: Sequence[q.Criterion] = (),
) -> ColumnElement[bool]:
    """The condition for ``criterion``; ``location`` is the locations row of a location query, ``item``
    the content row (an alias when the query joins ``content`` more than once, e.g. in a sub-query).
    ``probe``: location criteria of a content query check each candidate item's locations (a correlated
    EXISTS), never collect the ids of the locations that match: for a criterion that narrows what other
    criteria find, such as a caller's Subtree limitation on the content root (collecting the ids of its
    100,000 locations cost more than the whole search).

    ``driver``: a content query that reads each candidate through one of its locations (the children of
    one parent, ``storage/sql/search.py``): the item's id is ``driver.content_id`` and the criteria on
    the item's copied keys (type, publication date: ``storage/sql/item_keys.py``) read the driver row, so
    that no criterion but those on other columns of the item needs its row.

    ``within``: criteria every candidate is known to match (the query's own, when ``criterion`` is the
    caller's read criterion): a Subtree they imply holds without a look at each candidate's locations
    (a query for a subtree, or the children of one parent, inside the subtree a caller may read)."""
    return _Compiler(location, item, probe, driver, tuple(within)).visit(criterion)


class _Compiler:
    def __init__(
        self,
        location: FromClause | None,
        item: FromClause,
        probe: bool = False,
        driver: FromClause | None = None,
        within: tuple[q.Criterion, ...] = (),
    ) -> None:
        self.location = location
        self.item = item
        self.probe = probe
        self.driver = driver
        self.item_id: Any = driver.c.content_id if driver is not None else item.c.id
        self.within = within
        self._visitors: dict[type[q.Criterion], Callable[[Any], ColumnElement[bool]]] = {
            q.MatchAll: lambda _c: true(),
            q.MatchNone: lambda _c: false(),
            q.LogicalAnd: lambda c: and_(*(self.visit(part) for part in c.criteria)),
            q.LogicalOr: lambda c: or_(*(self.visit(part) for part in c.criteria)),
            q.LogicalNot: lambda c: not_(self.visit(c.criterion)),
            # -- the item's own columns
            q.ContentId: lambda c: item.c.id.in_(c.ids),
            q.ContentRemoteId: lambda c: item.c.remote_id.in_(c.remote_ids),
            q.ContentTypeId: lambda c: (driver if driver is not None else item).c.content_type_id.in_(c.ids),
            q.ContentTypeGroupId: self._content_type_group,
            q.IsContainer: self._is_container,
            q.SectionId: lambda c: item.c.section_id.in_(c.ids),
            q.SectionIdentifier: self._section_identifier,
            q.OwnerId: lambda c: item.c.owner_id.in_(c.ids),
            q.OwnerInGroups: lambda c: item.c.owner_id.in_(
                select(members.c.content_id).where(members.c.parent_id.in_(c.location_ids))
            ),
            q.UserMetadata: self._user_metadata,
            q.DateMetadata: self._date_metadata,
            q.LanguageCode: self._language_code,
            q.ContentName: self._content_name,
            q.ObjectStateId: lambda c: self._in_states(lambda: c.ids),
            q.ObjectStateIdentifier: self._object_state_identifier,
            # -- user accounts
            q.UserId: lambda c: self._users(lambda account: account.c.content_id.in_(c.ids)),
            q.UserLogin: lambda c: self._users(
                lambda account: _text_match(account.c.login_normalized, c.operator, c.values, "UserLogin")
            ),
            q.UserEmail: lambda c: self._users(
                lambda account: _text_match(func.lower(account.c.email), c.operator, c.values, "UserEmail")
            ),
            q.IsUserBased: self._is_user_based,
            q.IsUserEnabled: lambda c: self._users(
                lambda account: account.c.enabled == (true() if c.value else false())
            ),
            # -- locations
            q.LocationId: lambda c: self._on_location(lambda loc: loc.c.id.in_(c.ids)),
            q.LocationRemoteId: lambda c: self._on_location(lambda loc: loc.c.remote_id.in_(c.remote_ids)),
            q.ParentLocationId: lambda c: self._on_location(lambda loc: loc.c.parent_id.in_(c.ids)),
            q.Subtree: self._subtree,
            q.Depth: lambda c: self._on_location(
                lambda loc: compare(loc.c.depth, c.operator, c.values, "Depth"), indexed=False
            ),
            q.Priority: lambda c: self._on_location(
                lambda loc: compare(loc.c.priority, c.operator, c.values, "Priority"), indexed=False
            ),
            q.Sibling: self._sibling,
            q.Visibility: self._visibility,
            q.IsBookmarked: self._is_bookmarked,
        }
        self._visitors.update(search_visitors(item))  # Field, FullText, Image*: storage/sql/field_index.py

    def visit(self, criterion: q.Criterion) -> ColumnElement[bool]:
        visitor = self._visitors.get(type(criterion))
        if visitor is None:
            raise TypeError(f"No SQL for criterion {type(criterion).__name__}")
        return visitor(criterion)

    def _on_location(
        self, condition: Callable[[Any], ColumnElement[bool]], *, indexed: bool = True
    ) -> ColumnElement[bool]:
        """``condition`` on the location row of a location query; in a content query, on any location
        of the item. ``indexed``: an index finds the locations (id, parent, remote id, path), so they
        are found once and the item ids looked up; otherwise (depth, priority, visibility) a correlated
        EXISTS probes each candidate item's locations, instead of collecting the ids of (nearly) every
        location before the other criteria narrow anything."""
        if self.location is not None:
            return condition(self.location)
        other = locations.alias("criterion_location")
        if not indexed or self.probe:
            return exists(select(other.c.id).where(other.c.content_id == self.item_id, condition(other)))
        # content_id IS NOT NULL: the virtual root has none, and a NULL would make NOT IN match nothing
        matching = select(other.c.content_id).where(condition(other), other.c.content_id.is_not(None))
        return self.item.c.id.in_(matching)

    # -- the item ------------------------------------------------------------------------------------
    def _content_type_group(self, criterion: q.ContentTypeGroupId) -> ColumnElement[bool]:
        link = content_type_group_links.alias("criterion_type_group")
        in_groups = select(link.c.content_type_id).where(
            link.c.group_id.in_(criterion.ids), link.c.status == DEFINED
        )
        return self.item.c.content_type_id.in_(in_groups)

    def _is_container(self, criterion: q.IsContainer) -> ColumnElement[bool]:
        kind = content_types.alias("criterion_type")
        flag = true() if criterion.value else false()
        return self.item.c.content_type_id.in_(
            select(kind.c.id).where(kind.c.status == DEFINED, kind.c.is_container == flag)
        )

    def _section_identifier(self, criterion: q.SectionIdentifier) -> ColumnElement[bool]:
        section = sections.alias("criterion_section")
        return self.item.c.section_id.in_(
            select(section.c.id).where(section.c.identifier.in_(criterion.identifiers))
        )

    def _user_metadata(self, criterion: q.UserMetadata) -> ColumnElement[bool]:
        """owner: the owner; group: a user group the owner is directly in; modifier: the creator of the
        current version (of a published item, its one PUBLISHED version: the creator index serves it)."""
        if criterion.target == "owner":
            return self.item.c.owner_id.in_(criterion.ids)
        if criterion.target == "group":
            owner_at = locations.alias("criterion_owner_location")
            group_at = locations.alias("criterion_group_location")
            groups = select(group_at.c.id).where(group_at.c.content_id.in_(criterion.ids))
            return self.item.c.owner_id.in_(
                select(owner_at.c.content_id).where(owner_at.c.parent_id.in_(groups))
            )
        if criterion.target == "modifier":
            version = content_versions.alias("criterion_modifier_version")
            return self.item.c.id.in_(
                select(version.c.content_id).where(
                    version.c.creator_id.in_(criterion.ids), version.c.status == PUBLISHED_VERSION
                )
            )
        raise InvalidArgument(
            f"UserMetadata: target '{criterion.target}' is not one of owner, group, modifier"
        )

    def _date_metadata(self, criterion: q.DateMetadata) -> ColumnElement[bool]:
        """modified: the last modification; created and published: the first publication (see above)."""
        published = (self.driver if self.driver is not None else self.item).c.published
        columns = {"modified": self.item.c.modified, "created": published, "published": published}
        if criterion.target not in columns:
            raise InvalidArgument(
                f"DateMetadata: target '{criterion.target}' is not one of modified, created, published"
            )
        return compare(columns[criterion.target], criterion.operator, criterion.values, "DateMetadata")

    def _language_code(self, criterion: q.LanguageCode) -> ColumnElement[bool]:
        """The current version has a translation in one of the codes (or the item is always available)."""
        listed = literal(",") + content_versions.c.language_codes + literal(",")
        translated = exists(
            select(content_versions.c.id).where(
                content_versions.c.content_id == self.item.c.id,
                content_versions.c.version_no == self.item.c.current_version_no,
                or_(*(listed.contains(f",{code},", autoescape=True) for code in criterion.codes)),
            )
        )
        if criterion.match_always_available:
            return or_(translated, self.item.c.always_available == true())
        return translated

    def _content_name(self, criterion: q.ContentName) -> ColumnElement[bool]:
        """The current version's name in one of its languages (``names`` is a JSON object) matches.
        No index serves a pattern over names: the other criteria of the query narrow the items first."""
        version = content_versions.alias("criterion_name_version")
        return exists(
            select(version.c.id).where(
                version.c.content_id == self.item.c.id,
                version.c.version_no == self.item.c.current_version_no,
                json_value_like(version.c.names, literal(like_pattern(criterion.pattern))),
            )
        )

    def _object_state_identifier(self, criterion: q.ObjectStateIdentifier) -> ColumnElement[bool]:
        def state_ids() -> Select[Any]:
            state = object_states.alias("criterion_named_state")
            query = select(state.c.id).where(state.c.identifier.in_(criterion.identifiers))
            if criterion.group_identifier is None:
                return query
            group = object_state_groups.alias("criterion_state_group")
            named = select(group.c.id).where(group.c.identifier == criterion.group_identifier)
            return query.where(state.c.group_id.in_(named))

        return self._in_states(state_ids)

    def _in_states(self, state_ids: Callable[[], Sequence[int] | Select[Any]]) -> ColumnElement[bool]:
        """The item is in one of the states: assigned explicitly, or without a row for the state's group
        while the state is its group's default (lowest priority, then lowest id)."""
        assigned = content_object_states.alias("criterion_assigned_state")
        explicit = self.item.c.id.in_(
            select(assigned.c.content_id).where(assigned.c.state_id.in_(state_ids()))
        )
        state = object_states.alias("criterion_state")
        before = object_states.alias("criterion_state_before")
        absent = content_object_states.alias("criterion_absent_state")
        is_default = ~exists(
            select(before.c.id).where(
                before.c.group_id == state.c.group_id,
                or_(
                    before.c.priority < state.c.priority,
                    and_(before.c.priority == state.c.priority, before.c.id < state.c.id),
                ),
            )
        )
        unassigned = ~exists(
            select(absent.c.content_id)
            .where(absent.c.content_id == self.item.c.id, absent.c.group_id == state.c.group_id)
            .correlate(self.item, state)  # two levels up: SQLAlchemy correlates to the next one only
        )
        by_default = exists(select(state.c.id).where(state.c.id.in_(state_ids()), is_default, unassigned))
        return or_(explicit, by_default)

    # -- user accounts -------------------------------------------------------------------------------
    def _users(self, condition: Callable[[Any], ColumnElement[bool]]) -> ColumnElement[bool]:
        """The item is a user account whose ``users`` row (an alias, given to ``condition``) matches."""
        account = users.alias("criterion_user")
        return self.item.c.id.in_(select(account.c.content_id).where(condition(account)))

    def _is_user_based(self, criterion: q.IsUserBased) -> ColumnElement[bool]:
        account = users.alias("criterion_user_based")
        accounts = select(account.c.content_id)
        return self.item.c.id.in_(accounts) if criterion.value else self.item.c.id.not_in(accounts)

    # -- locations -----------------------------------------------------------------------------------
    def _subtree(self, criterion: q.Subtree) -> ColumnElement[bool]:
        found = self._on_location(
            lambda loc: or_(*(prefix_range(loc.c.path_string, path) for path in criterion.path_strings))
        )
        implied = self._implied_subtree(criterion.path_strings)
        return found if implied is None else or_(implied, found)

    def _implied_subtree(self, paths: Sequence[str]) -> ColumnElement[bool] | None:
        """A condition, the same for every candidate, under which the criteria of ``within`` put every
        candidate inside one of the subtrees at ``paths`` (None: they do not say): a Subtree query whose
        subtrees all lie inside them (always), or the children of parents that all do (one look at the
        parents, computed once per statement, before any candidate's locations)."""

        def inside(path: str) -> bool:
            return any(path.startswith(outer) for outer in paths)

        for part in self.within:
            if isinstance(part, q.Subtree) and part.path_strings and all(map(inside, part.path_strings)):
                return true()
        for part in self.within:
            if isinstance(part, q.ParentLocationId) and part.ids:
                parent = locations.alias("criterion_implied_parent")
                outside = select(parent.c.id).where(
                    parent.c.id.in_(part.ids),
                    not_(or_(*(prefix_range(parent.c.path_string, path) for path in paths))),
                )
                return ~exists(outside)
        return None

    def _sibling(self, criterion: q.Sibling) -> ColumnElement[bool]:
        of = locations.alias("criterion_sibling_of")
        parent = select(of.c.parent_id).where(of.c.id == criterion.location_id).scalar_subquery()
        return self._on_location(
            lambda loc: and_(loc.c.parent_id == parent, loc.c.id != criterion.location_id)
        )

    def _visibility(self, criterion: q.Visibility) -> ColumnElement[bool]:
        def shown(loc: Any) -> ColumnElement[bool]:
            return and_(loc.c.hidden == false(), loc.c.invisible == false())

        visible = and_(self.item.c.is_hidden == false(), self._on_location(shown, indexed=False))
        return visible if criterion.visible else not_(visible)

    def _is_bookmarked(self, criterion: q.IsBookmarked) -> ColumnElement[bool]:
        if criterion.user_id is None:
            bookmarked: ColumnElement[bool] = false()  # no user, no bookmarks
        else:
            mark = bookmarks.alias("criterion_bookmark")
            marked = select(mark.c.location_id).where(mark.c.user_id == criterion.user_id)
            bookmarked = self._on_location(lambda loc: loc.c.id.in_(marked))
        return bookmarked if criterion.value else not_(bookmarked)


def _text_match(
    column: ColumnElement[Any], operator: str, values: Sequence[str], what: str
) -> ColumnElement[bool]:
    """IN: ``column`` (lower-case text) equals one of ``values``; LIKE: it matches one of them with ``*``
    as wildcard. The values are lower-cased."""
    if not values:
        raise InvalidArgument(f"{what}: no value")
    if operator in ("IN", "EQ"):
        return column.in_([value.lower() for value in values])
    if operator == "LIKE":
        return or_(*(column.like(like_pattern(value), escape="\\") for value in values))
    raise InvalidArgument(f"{what}: unknown operator '{operator}', expected IN or LIKE")
