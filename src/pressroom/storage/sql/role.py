"""Roles, policies and role assignments in SQL, and the revision counter that tells every process
when its cached role definitions are stale."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from sqlalchemy import Connection, and_, bindparam, delete, exists, insert, or_, select, update

from pressroom.domain.caller import AccessStamp
from pressroom.domain.role import DEFINED, DRAFT, Limitation, Policy, PolicyCreate, Role, RoleAssignment
from pressroom.storage.sql.cache import TxCache
from pressroom.storage.sql.caller import CALLER_COLUMNS, access_columns, access_stamp, with_caller
from pressroom.storage.sql.caller import params as caller_params
from pressroom.storage.sql.caller import take as take_caller
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import (
    content,
    content_types,
    locations,
    policies,
    role_assignments,
    roles,
    sequences,
)
from pressroom.storage.sql.sequences import EPOCH_COLUMN, next_value
from pressroom.storage.sql.sequences import ROLES_REVISION as REVISION

_STATUS = {DEFINED: 0, DRAFT: 1}
_STATUS_NAME = {code: name for name, code in _STATUS.items()}

_group = locations.alias("assignee_location")
_mine = locations.alias("user_location")
# The revision, the paths of the user's locations (together the stamp its grants are kept under), and
# every assignment reaching the user: made to the user, or to a group above one of its locations; with
# the columns that confirm the request's caller (storage/sql/caller.py). One statement per request at
# most; it starts from the (few) assignments, using the indexes on locations.content_id, and the LEFT
# JOIN keeps the revision row when there is no assignment at all.
_USER_ASSIGNMENTS = Prepared(
    select(
        *access_columns(bindparam("user")),
        role_assignments.c.id,
        role_assignments.c.role_id,
        role_assignments.c.assignee_id,
        role_assignments.c.limitation_identifier,
        role_assignments.c.limitation_values,
        *CALLER_COLUMNS,
        EPOCH_COLUMN,
    )
    .select_from(
        with_caller(
            sequences.outerjoin(
                role_assignments,
                or_(
                    role_assignments.c.assignee_id == bindparam("user"),
                    exists(
                        select(_group.c.id)
                        .join(_mine, _mine.c.path_string.startswith(_group.c.path_string))
                        # A range, not "=": PostgreSQL may turn an EXISTS correlated by equality into
                        # a hashed set of every group holding any location (a scan of all locations per
                        # request when its statistics lag behind a bulk load); a range keeps it per
                        # assignment, an index lookup each.
                        .where(
                            _group.c.content_id.between(
                                role_assignments.c.assignee_id, role_assignments.c.assignee_id
                            )
                        )
                        .where(_mine.c.content_id == bindparam("user"))
                    ),
                ),
            )
        )
    )
    .where(sequences.c.name == REVISION)
    .order_by(role_assignments.c.id)
)
_REVISION = select(sequences.c.value).where(sequences.c.name == REVISION)
_NO_CALLER = {"caller_id": None, "caller_session": None}


def dump_limitations(limitations: Iterable[Limitation]) -> str:
    return orjson.dumps([[lim.identifier, list(lim.values)] for lim in limitations]).decode()


def dump_values(limitation: Limitation | None) -> str | None:
    return None if limitation is None else orjson.dumps(list(limitation.values)).decode()


def _limitations(raw: str) -> tuple[Limitation, ...]:
    return tuple(Limitation(identifier, tuple(values)) for identifier, values in orjson.loads(raw))


def _policy(row: Any) -> Policy:
    return Policy(
        row.id, row.role_id, row.module, row.function, _limitations(row.limitations), row.original_id
    )


def _assignment(row: Any) -> RoleAssignment:
    limitation = None
    if row.limitation_identifier:
        limitation = Limitation(row.limitation_identifier, tuple(orjson.loads(row.limitation_values)))
    return RoleAssignment(row.id, row.role_id, row.assignee_id, limitation)


class SqlRoleGateway:
    def __init__(self, connection: Connection, cache: TxCache | None = None) -> None:
        self.c = connection
        self.cache = cache

    # -- the revision ---------------------------------------------------------------------------------
    def revision(self) -> int:
        return int(self.c.execute(_REVISION).scalar() or 0)

    def bump_revision(self) -> None:
        """Called in every transaction that changes a role, a policy or an assignment."""
        next_value(self.c, REVISION)

    def assignments_reaching(self, user_id: int) -> tuple[AccessStamp, list[RoleAssignment]]:
        """The access stamp (the revision and the paths of ``user_id``'s locations), and the assignments
        of ``user_id`` and of every group above its locations. Confirms the request's caller."""
        caller = self.cache.caller if self.cache is not None else None
        bound = {"user": user_id, **(caller_params(caller) if caller else _NO_CALLER)}
        rows = _USER_ASSIGNMENTS.all(self.c, bound)
        if not rows:
            return (0, ""), []
        if caller is not None:
            take_caller(caller, rows[0])
        if self.cache is not None:
            self.cache.saw_epoch(rows[0].cache_epoch)
        return access_stamp(rows[0]), [_assignment(row) for row in rows if row.id is not None]

    # -- roles ----------------------------------------------------------------------------------------
    def _with_policies(self, rows: Sequence[Any]) -> list[Role]:
        ids = [row.id for row in rows]
        by_role: dict[int, list[Policy]] = {}
        if ids:
            query = select(policies).where(policies.c.role_id.in_(ids)).order_by(policies.c.id)
            for row in self.c.execute(query):
                by_role.setdefault(row.role_id, []).append(_policy(row))
        return [
            Role(
                row.id,
                row.identifier,
                _STATUS_NAME[row.status],
                row.original_id,
                tuple(by_role.get(row.id, ())),
            )
            for row in rows
        ]

    def list_roles(
        self, *, identifier: str | None = None, offset: int = 0, limit: int | None = None
    ) -> list[Role]:
        """Published roles by id (with their policies)."""
        query = select(roles).where(roles.c.status == _STATUS[DEFINED]).order_by(roles.c.id)
        if identifier is not None:
            query = query.where(roles.c.identifier == identifier)
        return self._with_policies(self.c.execute(query.offset(offset).limit(limit)).all())

    def get(self, role_id: int) -> Role | None:
        """A role or a draft, by its id."""
        found = self._with_policies(self.c.execute(select(roles).where(roles.c.id == role_id)).all())
        return found[0] if found else None

    def draft_of(self, role_id: int) -> Role | None:
        query = select(roles).where(roles.c.original_id == role_id, roles.c.status == _STATUS[DRAFT])
        found = self._with_policies(self.c.execute(query.order_by(roles.c.id).limit(1)).all())
        return found[0] if found else None

    def identifier_taken(self, identifier: str, except_ids: Sequence[int] = ()) -> bool:
        query = select(roles.c.id).where(roles.c.identifier == identifier, roles.c.id.not_in(except_ids))
        return self.c.execute(query.limit(1)).first() is not None

    def create(self, identifier: str, status: str, original_id: int | None = None) -> int:
        query = insert(roles).values(identifier=identifier, status=_STATUS[status], original_id=original_id)
        return int(self.c.execute(query.returning(roles.c.id)).scalar_one())

    def set_identifier(self, role_id: int, identifier: str) -> None:
        self.c.execute(update(roles).where(roles.c.id == role_id).values(identifier=identifier))

    def delete(self, role_id: int) -> None:
        """The role, its policies and its assignments (drafts of it stay drafts of nothing)."""
        self.c.execute(delete(role_assignments).where(role_assignments.c.role_id == role_id))
        self.c.execute(delete(policies).where(policies.c.role_id == role_id))
        self.c.execute(delete(roles).where(roles.c.id == role_id))

    def publish_draft(self, draft: Role) -> int:
        """Make the draft the role: a draft of a role replaces its identifier and policies (the draft's
        policies move over, keeping their ids); a draft of nothing becomes a role. Returns the role id."""
        if draft.original_id is None or self.get(draft.original_id) is None:
            self.c.execute(
                update(roles).where(roles.c.id == draft.id).values(status=_STATUS[DEFINED], original_id=None)
            )
            self.c.execute(update(policies).where(policies.c.role_id == draft.id).values(original_id=None))
            return draft.id
        role_id = draft.original_id
        self.c.execute(delete(policies).where(policies.c.role_id == role_id))
        self.c.execute(
            update(policies).where(policies.c.role_id == draft.id).values(role_id=role_id, original_id=None)
        )
        self.c.execute(update(roles).where(roles.c.id == role_id).values(identifier=draft.identifier))
        self.c.execute(delete(roles).where(roles.c.id == draft.id))
        return role_id

    # -- policies -------------------------------------------------------------------------------------
    def add_policy(self, role_id: int, struct: PolicyCreate, original_id: int | None = None) -> Policy:
        query = insert(policies).values(
            role_id=role_id,
            module=struct.module,
            function=struct.function,
            limitations=dump_limitations(struct.limitations),
            original_id=original_id,
        )
        policy_id = int(self.c.execute(query.returning(policies.c.id)).scalar_one())
        return Policy(policy_id, role_id, struct.module, struct.function, struct.limitations, original_id)

    def set_limitations(self, policy_id: int, limitations: Sequence[Limitation]) -> None:
        self.c.execute(
            update(policies)
            .where(policies.c.id == policy_id)
            .values(limitations=dump_limitations(limitations))
        )

    def delete_policies(self, role_id: int, policy_ids: Sequence[int] | None = None) -> None:
        """Every policy of the role, or only ``policy_ids``."""
        condition = policies.c.role_id == role_id
        if policy_ids is not None:
            condition = and_(condition, policies.c.id.in_(list(policy_ids)))
        self.c.execute(delete(policies).where(condition))

    # -- assignments ----------------------------------------------------------------------------------
    def assign(self, role_id: int, assignee_id: int, limitation: Limitation | None) -> int:
        query = insert(role_assignments).values(
            role_id=role_id,
            assignee_id=assignee_id,
            limitation_identifier=limitation.identifier if limitation else None,
            limitation_values=dump_values(limitation),
        )
        return int(self.c.execute(query.returning(role_assignments.c.id)).scalar_one())

    def assignments_of(self, assignee_id: int) -> list[RoleAssignment]:
        """The assignments made to this user or group itself, by id."""
        query = (
            select(role_assignments)
            .where(role_assignments.c.assignee_id == assignee_id)
            .order_by(role_assignments.c.id)
        )
        return [_assignment(row) for row in self.c.execute(query)]

    def unassign(self, assignee_id: int, role_id: int) -> None:
        self.c.execute(
            delete(role_assignments).where(
                role_assignments.c.assignee_id == assignee_id, role_assignments.c.role_id == role_id
            )
        )

    def groups_with_role(self, role_id: int) -> list[int]:
        """The content ids of the user groups the role is assigned to, by id."""
        query = (
            select(role_assignments.c.assignee_id)
            .distinct()
            .join(content, content.c.id == role_assignments.c.assignee_id)
            .join(content_types, content_types.c.id == content.c.content_type_id)
            .where(
                role_assignments.c.role_id == role_id,
                content_types.c.status == 0,
                content_types.c.identifier == "user_group",
            )
            .order_by(role_assignments.c.assignee_id)
        )
        return [int(value) for value in self.c.execute(query).scalars()]
