"""Roles, role drafts and policies.

Changes to a published role (its identifier, its policies) are applied to it directly in one transaction:
that is what the reference's "draft, change, publish" amounts to, without a window in which the draft is
visible. Every write bumps the role revision, so every process reloads its cached role definitions.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from pressroom.domain.errors import BadRequest, Forbidden, NotFound
from pressroom.domain.role import DEFINED, DRAFT, Limitation, Policy, PolicyCreate, Role
from pressroom.domain.user import User
from pressroom.services.event_log import record
from pressroom.services.limitations import check_function, check_policy_limitations
from pressroom.services.permissions import Permissions
from pressroom.storage.spi import Store, Tx


def _check_identifier(identifier: str) -> str:
    identifier = identifier.strip()
    if not identifier:
        raise BadRequest("The role identifier must not be empty")
    if len(identifier) > 255:
        raise BadRequest("The role identifier is longer than 255 characters")
    return identifier


def get_role(tx: Tx, role_id: int) -> Role:
    """A published role; NotFound for a draft id."""
    role = tx.roles.get(role_id)
    if role is None or role.is_draft:
        raise NotFound.of("Role", role_id)
    return role


def get_draft(tx: Tx, role_id: int) -> Role:
    """A draft by its own id, or the draft of the role ``role_id`` (deleted or not)."""
    found = tx.roles.get(role_id)
    if found is not None and found.is_draft:
        return found
    draft = tx.roles.draft_of(role_id)  # also when the role itself is gone: the draft outlives it
    if draft is None:
        raise NotFound.of("RoleDraft", role_id)
    return draft


def _policy(role: Role, policy_id: int, path: str) -> Policy:
    for policy in role.policies:
        if policy.id == policy_id:
            return policy
    raise NotFound(f"Policy not found: '{path}'.")


def _administrator_assignments(tx: Tx) -> set[int]:
    """The unlimited assignments of published roles with a ``*/*`` policy: who may do anything."""
    found: set[int] = set()
    for role in tx.roles.list_roles():
        if any(policy.module == policy.function == "*" for policy in role.policies):
            holders = {
                *tx.roles.groups_with_role(role.id),
                *(user.id for user in tx.users.with_role(role.id)),
            }
            for holder in sorted(holders):
                assignments = tx.roles.assignments_of(holder)
                found.update(a.id for a in assignments if a.role_id == role.id and a.limitation is None)
    return found


@contextmanager
def keeping_an_administrator(tx: Tx, change: str) -> Iterator[None]:
    """Refuse (Forbidden, the transaction rolled back) a change of roles that leaves nobody who may do
    everything (a ``*/*`` policy assigned without limitation): nobody could administer the repository, nor
    undo the change. A repository without such an assignment before the change is not refused.

    Bumps the role revision first: that row lock queues concurrent role changes, so that two of them
    cannot each remove one of the last two administrator assignments unseen by the other."""
    tx.roles.bump_revision()
    had = bool(_administrator_assignments(tx))
    yield
    if had and not _administrator_assignments(tx):
        raise Forbidden(
            f"{change} would leave nobody an administrator: it removes the last role assignment granting "
            "all modules and functions (*/*)"
        )


class RoleService:
    def __init__(self, store: Store, permissions: Permissions, siteaccesses: Sequence[str]) -> None:
        self.store = store
        self.permissions = permissions
        self.siteaccesses = tuple(siteaccesses)

    # -- roles ----------------------------------------------------------------------------------------
    def list(
        self, user: User, identifier: str | None = None, offset: int = 0, limit: int | None = None
    ) -> builtins.list[Role]:
        """Published roles by id; empty for a caller who may not read roles (the reference filters)."""
        if not self.permissions.can(user, "role", "read"):
            return []
        with self.store.read(caller=user.request) as tx:
            return tx.roles.list_roles(identifier=identifier, offset=max(offset, 0), limit=limit)

    def load(self, user: User, role_id: int) -> Role:
        self.permissions.require(user, "role", "read")
        with self.store.read(caller=user.request) as tx:
            return get_role(tx, role_id)

    def create(self, user: User, identifier: str, *, publish: bool) -> Role:
        """A new role, or (``publish=False``) a draft of a new role. Forbidden when the identifier is
        taken."""
        self.permissions.require(user, "role", "create")
        identifier = _check_identifier(identifier)
        with self.store.write(caller=user.request) as tx:
            if tx.roles.identifier_taken(identifier):
                raise Forbidden(f"A role with identifier '{identifier}' already exists")
            role_id = tx.roles.create(identifier, DEFINED if publish else DRAFT)
            tx.roles.bump_revision()
            _record(tx, "role.created", user, role_id, identifier=identifier, draft=not publish)
            return get_draft(tx, role_id) if not publish else get_role(tx, role_id)

    def update(self, user: User, role_id: int, identifier: str | None) -> Role:
        self.permissions.require(user, "role", "update")
        with self.store.write(caller=user.request) as tx:
            role = get_role(tx, role_id)
            if identifier is not None:
                self._rename(tx, role, identifier)
            _record(tx, "role.updated", user, role_id, identifier=identifier or role.identifier)
            return get_role(tx, role_id)

    def _rename(self, tx: Tx, role: Role, identifier: str) -> None:
        identifier = _check_identifier(identifier)
        if identifier == role.identifier:
            return
        except_ids = [role.id] + ([role.original_id] if role.original_id else [])
        if tx.roles.identifier_taken(identifier, except_ids):
            raise Forbidden(f"A role with identifier '{identifier}' already exists")
        tx.roles.set_identifier(role.id, identifier)
        tx.roles.bump_revision()

    def delete(self, user: User, role_id: int) -> None:
        """The role with its policies and assignments, or the draft ``role_id`` names by its own id (its
        ``_href``). A draft of the role stays, as in the reference: publishing it makes the role again."""
        self.permissions.require(user, "role", "delete")
        with self.store.write(caller=user.request) as tx:
            role = self._role_or_draft(tx, role_id)
            if role.is_draft:
                tx.roles.delete(role_id)
            else:
                with keeping_an_administrator(tx, f"Deleting role {role_id}"):
                    tx.roles.delete(role_id)
            _record(tx, "role.deleted", user, role_id, identifier=role.identifier, draft=role.is_draft)

    # -- drafts ---------------------------------------------------------------------------------------
    def create_draft(self, user: User, role_id: int) -> Role:
        """A draft of the role, with a new id and copies of its policies. Forbidden when one exists."""
        self.permissions.require(user, "role", "create")
        with self.store.write(caller=user.request) as tx:
            role = get_role(tx, role_id)
            if tx.roles.draft_of(role_id) is not None:
                raise Forbidden(f"Role {role_id} already has a draft")
            draft_id = tx.roles.create(role.identifier, DRAFT, original_id=role.id)
            for policy in role.policies:
                struct = PolicyCreate(policy.module, policy.function, policy.limitations)
                tx.roles.add_policy(draft_id, struct, original_id=policy.id)
            _record(tx, "role.draft_created", user, role_id, draftId=draft_id)
            return get_draft(tx, draft_id)

    def load_draft(self, user: User, role_id: int) -> Role:
        self.permissions.require(user, "role", "read")
        with self.store.read(caller=user.request) as tx:
            return get_draft(tx, role_id)

    def update_draft(self, user: User, role_id: int, identifier: str | None) -> Role:
        self.permissions.require(user, "role", "update")
        with self.store.write(caller=user.request) as tx:
            draft = get_draft(tx, role_id)
            if identifier is not None:
                self._rename(tx, draft, identifier)
            _record(tx, "role.updated", user, draft.original_id or draft.id, draftId=draft.id)
            return get_draft(tx, draft.id)

    def publish_draft(self, user: User, role_id: int) -> int:
        """Publish the draft; returns the id of the published role."""
        self.permissions.require(user, "role", "update")
        with self.store.write(caller=user.request) as tx:
            draft = get_draft(tx, role_id)
            with keeping_an_administrator(tx, f"Publishing draft {role_id}"):
                published = tx.roles.publish_draft(draft)
            _record(tx, "role.published", user, published, draftId=draft.id)
            return published

    def delete_draft(self, user: User, role_id: int) -> None:
        self.permissions.require(user, "role", "update")
        with self.store.write(caller=user.request) as tx:
            draft = get_draft(tx, role_id)
            tx.roles.delete(draft.id)
            _record(tx, "role.deleted", user, draft.original_id or draft.id, draftId=draft.id, draft=True)

    # -- policies -------------------------------------------------------------------------------------
    def _role_or_draft(self, tx: Tx, role_id: int) -> Role:
        role = tx.roles.get(role_id)
        if role is None:
            raise NotFound.of("Role", role_id)
        return role

    def policies(self, user: User, role_id: int) -> builtins.list[Policy]:
        self.permissions.require(user, "role", "read")
        with self.store.read(caller=user.request) as tx:
            return list(get_role(tx, role_id).policies)

    def load_policy(self, user: User, role_id: int, policy_id: int, path: str) -> tuple[Role, Policy]:
        self.permissions.require(user, "role", "read")
        with self.store.read(caller=user.request) as tx:
            role = self._role_or_draft(tx, role_id)
            return role, _policy(role, policy_id, path)

    def add_policy(self, user: User, role_id: int, struct: PolicyCreate) -> tuple[Role, Policy]:
        """A new policy of the role or draft ``role_id``; the role (or draft) and the policy."""
        self.permissions.require(user, "role", "update")
        check_function(struct.module, struct.function)
        with self.store.write(caller=user.request) as tx:
            role = self._role_or_draft(tx, role_id)
            check_policy_limitations(
                tx, struct.module, struct.function, struct.limitations, self.siteaccesses
            )
            policy = tx.roles.add_policy(role.id, struct)
            tx.roles.bump_revision()
            _record(tx, "role.updated", user, role.id, policyAdded=policy.id)
            return role, policy

    def update_policy(
        self, user: User, role_id: int, policy_id: int, limitations: Sequence[Limitation], path: str
    ) -> tuple[Role, Policy]:
        """Replace the policy's limitations."""
        self.permissions.require(user, "role", "update")
        with self.store.write(caller=user.request) as tx:
            role = self._role_or_draft(tx, role_id)
            policy = _policy(role, policy_id, path)
            check_policy_limitations(tx, policy.module, policy.function, limitations, self.siteaccesses)
            tx.roles.set_limitations(policy_id, limitations)
            tx.roles.bump_revision()
            _record(tx, "role.updated", user, role.id, policyUpdated=policy_id)
            return role, _policy(self._role_or_draft(tx, role_id), policy_id, path)

    def delete_policy(self, user: User, role_id: int, policy_id: int, path: str) -> None:
        self.permissions.require(user, "role", "update")
        with self.store.write(caller=user.request) as tx:
            _policy(self._role_or_draft(tx, role_id), policy_id, path)
            with keeping_an_administrator(tx, f"Deleting policy {policy_id} of role {role_id}"):
                tx.roles.delete_policies(role_id, [policy_id])
            _record(tx, "role.updated", user, role_id, policyDeleted=policy_id)

    def delete_policies(self, user: User, role_id: int) -> None:
        self.permissions.require(user, "role", "update")
        with self.store.write(caller=user.request) as tx:
            get_role(tx, role_id)
            with keeping_an_administrator(tx, f"Deleting the policies of role {role_id}"):
                tx.roles.delete_policies(role_id)
            _record(tx, "role.updated", user, role_id, policiesDeleted=True)


def _record(tx: Tx, kind: str, user: User, role_id: int, **data: object) -> None:
    record(tx, kind, user.id, f"role/{role_id}", {"roleId": role_id, **data})
