"""The permission resolver: the single place services ask "may this user do that?".

A user's grants are the policies of every role assigned to the user or to a group above one of its
locations, each narrowed by its assignment's limitation. They are loaded with one statement (kept for the
request on its caller, ``RequestCaller.grants``, which the request's user carries), and kept per process
under the user's access stamp: the role revision and the paths of the user's locations, which that
statement returns. A request whose content read returned the caller's stamp (domain/caller.py) finds the
caller's grants without a statement. Role definitions are kept per process and reloaded when the role
revision says another write changed them.

``can``/``require`` answer for one target (``domain.permission.Target``); ``criterion`` answers "on
which items may this user do that" (``read_criterion``: what may it read) as a criterion that lists,
searches and ``require_throughout`` compile into their SQL.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence

from pressroom.domain.caller import AccessStamp
from pressroom.domain.content import ContentInfo
from pressroom.domain.errors import Unauthorized
from pressroom.domain.location import Location
from pressroom.domain.permission import Subject, Target, grant_allows, permission_criterion
from pressroom.domain.query import Criterion, LogicalNot, MatchAll, MatchNone, Subtree, all_of
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.role import Grant, Role
from pressroom.domain.user import User
from pressroom.storage.spi import Store, Tx

MAX_KEPT = 10_000


def content_target(info: ContentInfo, **facts: object) -> Target:
    """The target of an operation on an existing item (its type, section and owner), plus ``facts``."""
    main = None
    if info.main_location_id is not None and info.main_location_path and "locations" not in facts:
        main = (info.main_location_id, info.main_location_path)
    return Target(
        content_id=info.id,
        content_type_id=info.content_type_id,
        section_id=info.section_id,
        owner_id=info.owner_id,
        main_location=main,
        **facts,  # type: ignore[arg-type]
    )


def _target(target: Target | None, section_id: int | None) -> Target | None:
    return Target(section_id=section_id) if target is None and section_id is not None else target


class StoreFacts:
    """Loads what a limitation needs beyond the target, in the caller's transaction when given."""

    def __init__(self, store: Store, tx: Tx | None) -> None:
        self.store = store
        self.tx = tx

    def _locations(self, content_id: int) -> list[Location]:
        if self.tx is not None:
            return self.tx.locations.of_content(content_id, UNRESTRICTED)
        with self.store.read() as tx:
            return tx.locations.of_content(content_id, UNRESTRICTED)

    def locations_of(self, content_id: int) -> tuple[Location, ...]:
        return tuple(self._locations(content_id))

    def group_locations_of(self, user_id: int) -> frozenset[int]:
        return frozenset(location.parent_id for location in self._locations(user_id))

    def state_ids_of(self, content_id: int) -> frozenset[int]:
        if self.tx is not None:
            return frozenset(state.id for state in self.tx.object_states.states_of(content_id))
        with self.store.read() as tx:
            return frozenset(state.id for state in tx.object_states.states_of(content_id))


class _Access:
    """One user's grants, with what is derived from them computed once."""

    __slots__ = ("criteria", "grants", "groups", "user_id")

    def __init__(self, user_id: int, grants: tuple[Grant, ...]) -> None:
        self.user_id = user_id
        self.grants = grants
        self.criteria: dict[tuple[str, str], Criterion] = {}  # (module, function) -> its criterion
        self.groups: frozenset[int] | None = None

    def subject(self, facts: StoreFacts) -> Subject:
        def groups() -> frozenset[int]:
            if self.groups is None:
                self.groups = facts.group_locations_of(self.user_id)
            return self.groups

        return Subject(self.user_id, groups)


class Permissions:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._revision = -1
        self._roles: dict[int, Role] = {}
        self._by_transaction: weakref.WeakKeyDictionary[Tx, dict[int, _Access]] = weakref.WeakKeyDictionary()
        self._kept: dict[int, tuple[AccessStamp, _Access]] = {}  # user id -> grants under that stamp

    # -- loading ----------------------------------------------------------------------------------------
    def _role_definitions(self, tx: Tx, revision: int) -> dict[int, Role]:
        with self._lock:
            if revision == self._revision:
                return self._roles
        roles = {role.id: role for role in tx.roles.list_roles()}
        with self._lock:
            self._roles, self._revision = roles, revision
        return roles

    def _load(self, user: User, tx: Tx) -> _Access:
        stamp, assignments = tx.roles.assignments_reaching(user.id)
        kept = self._kept.get(user.id)
        if kept is not None and kept[0] == stamp:  # the same grants: keep what was derived from them
            return kept[1]
        roles = self._role_definitions(tx, stamp[0])
        grants = tuple(
            Grant(policy, assignment.limitation)
            for assignment in assignments
            if assignment.role_id in roles
            for policy in roles[assignment.role_id].policies
        )
        access = _Access(user.id, grants)
        with self._lock:
            if len(self._kept) >= MAX_KEPT:
                self._kept.clear()  # rare and cheap to refill
            self._kept[user.id] = (stamp, access)
        return access

    def _access(self, user: User, tx: Tx | None) -> _Access:
        caller = user.request
        cache: dict[int, _Access] | None = caller.grants if caller is not None else None
        if cache is None and tx is not None:  # outside a request: keep them for the transaction
            with self._lock:
                cache = self._by_transaction.setdefault(tx, {})
        if cache is not None and user.id in cache:
            return cache[user.id]
        if caller is not None and caller.user_id == user.id and caller.access_stamp is not None:
            kept = self._kept.get(user.id)
            if kept is not None and kept[0] == caller.access_stamp:
                if cache is not None:
                    cache[user.id] = kept[1]
                return kept[1]
        if tx is None:
            with self.store.read(caller=caller) as own:
                access = self._load(user, own)
        else:
            access = self._load(user, tx)
        if cache is not None:
            cache[user.id] = access
        return access

    def grants(self, user: User, tx: Tx | None = None) -> tuple[Grant, ...]:
        """Every policy reaching ``user``, with the assignment limitation narrowing it."""
        return self._access(user, tx).grants

    # -- answers ----------------------------------------------------------------------------------------
    def can(
        self,
        user: User,
        module: str,
        function: str,
        *,
        target: Target | None = None,
        section_id: int | None = None,
        tx: Tx | None = None,
    ) -> bool:
        """May ``user`` do ``module/function`` on ``target``? Without a target: on anything at all.
        ``section_id`` alone (the older form of this call) is a target known only by its section."""
        target = _target(target, section_id)
        access = self._access(user, tx)
        facts = StoreFacts(self.store, tx)
        subject = access.subject(facts)
        return any(
            grant.policy.grants(module, function) and grant_allows(grant, subject, target, facts)
            for grant in access.grants
        )

    def require(
        self, user: User, module: str, function: str, *, target: Target | None = None,
        section_id: int | None = None, tx: Tx | None = None,
    ) -> None:  # fmt: skip
        """Raise Unauthorized (401 on the wire) naming module, function and target when refused."""
        target = _target(target, section_id)
        if not self.can(user, module, function, target=target, tx=tx):
            described = target.describe() if target is not None else ""
            detail = f" with: {described}" if described else ""
            raise Unauthorized(f"The User does not have the '{function}' '{module}' permission{detail}")

    def criterion(self, user: User, module: str, function: str, tx: Tx | None = None) -> Criterion:
        """The items on which ``user`` may do ``module/function``, as a criterion lists, searches and
        subtree checks compile into their SQL."""
        access = self._access(user, tx)
        found = access.criteria.get((module, function))
        if found is None:
            subject = access.subject(StoreFacts(self.store, tx))
            found = permission_criterion(access.grants, subject, module, function)
            access.criteria[(module, function)] = found
        return found

    def read_criterion(self, user: User, tx: Tx | None = None) -> Criterion:
        """What ``user`` may read, as a criterion that lists and searches compile into their SQL."""
        return self.criterion(user, "content", "read", tx)

    def require_throughout(self, user: User, function: str, path_strings: Sequence[str], tx: Tx) -> None:
        """``content/<function>`` on every item with a location in the subtrees at ``path_strings``:
        Unauthorized unless ``Subtree AND NOT <the function's criterion>`` matches nothing (one query,
        whatever the size of the subtrees; none when the criterion is MatchAll or MatchNone)."""
        allowed = self.criterion(user, "content", function, tx)
        if isinstance(allowed, MatchAll):
            return
        if isinstance(allowed, MatchNone) or tx.content.exists_matching(
            all_of([Subtree(tuple(path_strings)), LogicalNot(allowed)])
        ):
            paths = ", ".join(f"'{path}'" for path in path_strings)
            raise Unauthorized(
                f"The User does not have the '{function}' 'content' permission on every item of the "
                f"subtree {paths}"
            )
