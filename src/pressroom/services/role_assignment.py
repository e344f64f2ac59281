"""Role assignments of users and user groups, and the policies that reach a user."""

from __future__ import annotations

import builtins

from pressroom.domain.errors import NotFound
from pressroom.domain.location import Location
from pressroom.domain.permission import Target
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.role import Assignee, Limitation, Policy, RoleAssignment
from pressroom.domain.user import User
from pressroom.services.event_log import record
from pressroom.services.limitations import check_assignment_limitation
from pressroom.services.permissions import Permissions
from pressroom.services.role import get_role, keeping_an_administrator
from pressroom.storage.spi import Store, Tx

USER_GROUP_TYPE = "user_group"


def _content_id(tx: Tx, assignee: Assignee) -> int:
    """The content id of the assignee; NotFound unless it is a user or a user group."""
    if assignee.user_id is not None:
        if tx.users.get(assignee.user_id) is None:
            raise NotFound.of("User", assignee.user_id)
        return assignee.user_id
    path = assignee.group_path or ""
    location = tx.locations.get(int(path.rsplit("/", 1)[-1]), UNRESTRICTED) if path else None
    if location is None or location.path != path or location.content_id is None:
        raise NotFound.of("UserGroup", path)
    info = tx.content.get(location.content_id)
    content_type = tx.content_types.get(info.content_type_id) if info else None
    if content_type is None or content_type.identifier != USER_GROUP_TYPE:
        raise NotFound.of("UserGroup", path)
    return location.content_id


def _groups_of(tx: Tx, content_id: int) -> tuple[tuple[int, int], ...]:
    """The groups directly above the assignee's locations (MemberOf), as (content id, location id)."""
    parents = {location.parent_id for location in tx.locations.of_content(content_id, UNRESTRICTED)}
    found = (tx.locations.get(parent_id, UNRESTRICTED) for parent_id in sorted(parents))
    return tuple((location.content_id, location.id) for location in found if location and location.content_id)


class RoleAssignmentService:
    def __init__(self, store: Store, permissions: Permissions) -> None:
        self.store = store
        self.permissions = permissions

    def list(self, user: User, assignee: Assignee) -> builtins.list[RoleAssignment]:
        """The assignments made to the assignee itself (not inherited). A group's list is empty for a
        caller who may not read roles (the reference filters it); a user's is 401."""
        with self.store.read(caller=user.request) as tx:
            content_id = _content_id(tx, assignee)
            if assignee.group_path is not None and not self.permissions.can(user, "role", "read", tx=tx):
                return []
            self.permissions.require(user, "role", "read", tx=tx)
            return tx.roles.assignments_of(content_id)

    def load(self, user: User, assignee: Assignee, role_id: int, path: str) -> RoleAssignment:
        """The first assignment of the role to the assignee."""
        for assignment in self.list(user, assignee):
            if assignment.role_id == role_id:
                return assignment
        raise NotFound(f"Role assignment not found: '{path}'")

    def assign(
        self, user: User, assignee: Assignee, role_id: int, limitation: Limitation | None
    ) -> builtins.list[RoleAssignment]:
        """Assign the role; the assignee's assignments afterwards."""
        with self.store.write(caller=user.request) as tx:
            content_id = _content_id(tx, assignee)
            get_role(tx, role_id)
            target = Target(role_id=role_id, assignee_groups=_groups_of(tx, content_id))
            self.permissions.require(user, "role", "assign", target=target, tx=tx)
            check_assignment_limitation(tx, limitation)
            tx.roles.assign(role_id, content_id, limitation)
            tx.roles.bump_revision()
            record(
                tx, "role.assigned", user.id, f"role/{role_id}", {"roleId": role_id, "assigneeId": content_id}
            )
            return tx.roles.assignments_of(content_id)

    def unassign(self, user: User, assignee: Assignee, role_id: int) -> builtins.list[RoleAssignment]:
        """Remove every assignment of the role to the assignee (none is no error); what remains."""
        with self.store.write(caller=user.request) as tx:
            content_id = _content_id(tx, assignee)
            target = Target(role_id=role_id, assignee_groups=_groups_of(tx, content_id))
            self.permissions.require(user, "role", "assign", target=target, tx=tx)
            with keeping_an_administrator(tx, f"Unassigning role {role_id}"):  # bumps the revision
                tx.roles.unassign(content_id, role_id)
            record(
                tx,
                "role.unassigned",
                user.id,
                f"role/{role_id}",
                {"roleId": role_id, "assigneeId": content_id},
            )
            return tx.roles.assignments_of(content_id)

    def policies_of_user(self, user: User, user_id: int) -> builtins.list[Policy]:
        """The policies of every role reaching the user, directly or through its groups."""
        self.permissions.require(user, "role", "read")
        with self.store.read(caller=user.request) as tx:
            account = tx.users.get(user_id)
            if account is None:
                raise NotFound.of("User", user_id)
            seen: dict[int, Policy] = {}
            for grant in self.permissions.grants(account, tx):
                seen.setdefault(grant.policy.id, grant.policy)
            return sorted(seen.values(), key=lambda policy: policy.id)

    def users_with_role(self, user: User, role_id: int) -> builtins.list[User]:
        """The users the role is assigned to directly (not through a group), by id. NotFound when there
        is none, also for a caller who may not read roles (the reference swallows the refusal)."""
        with self.store.read(caller=user.request) as tx:
            allowed = self.permissions.can(user, "role", "read", tx=tx)
            found = tx.users.with_role(role_id) if allowed else []
        if not found:
            raise NotFound.of("User", f"roleId: {role_id}")
        return found

    def groups_with_role(self, user: User, role_id: int) -> builtins.list[Location]:
        """The main locations of the user groups the role is assigned to, by content id."""
        self.permissions.require(user, "role", "read")
        with self.store.read(caller=user.request) as tx:
            infos = tx.content.get_many(tx.roles.groups_with_role(role_id))
            main_ids = [info.main_location_id for _, info in sorted(infos.items()) if info.main_location_id]
            found = tx.locations.get_many(main_ids, UNRESTRICTED)
            return [found[i] for i in main_ids if i in found]
