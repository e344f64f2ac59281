"""Users: find, load, create in a group, update, delete, their groups and their drafts.

A user is a content item with an account row (spec/shapes-users.md §1); its groups are the parents of its
locations. Creating a user is a content create and publish in one transaction (the publish stores the
account, see ``services/accounts.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pressroom.domain.content import ContentInfo, FieldInput, VersionInfo
from pressroom.domain.errors import Forbidden, InvalidArgument, NotFound, PreconditionFailed
from pressroom.domain.fieldtypes.base import FileStore, JsonDict
from pressroom.domain.location import Location, LocationCreate
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.tags import tag_matches, value_tag
from pressroom.domain.user import USER_TYPE, ContentParts, User, UserContent, UserCreate, UserUpdate
from pressroom.services.accounts import account_definition, check_account_free
from pressroom.services.content import now
from pressroom.services.content_access import require_on
from pressroom.services.content_loading import get_content_type
from pressroom.services.content_tree import delete_content, delete_subtrees, place, resolve_location
from pressroom.services.event_log import record_content
from pressroom.services.file import write_releasing_files
from pressroom.services.permissions import Permissions, content_target
from pressroom.services.user_content import (
    content_create,
    group_at,
    is_group,
    load_user,
    load_users,
    lock_user,
    publish_edit,
    publish_new,
    readable_ids,
    type_named,
)
from pressroom.storage.spi import Store, Tx


@dataclass(frozen=True, slots=True)
class UserFilter:
    """``GET /user/users`` query: the first given of remote id, login, e-mail; none lists every user."""

    remote_id: str | None = None
    login: str | None = None
    email: str | None = None

    @property
    def given(self) -> bool:
        return any(value is not None for value in (self.remote_id, self.login, self.email))


class UserService:
    def __init__(self, store: Store, permissions: Permissions, files: FileStore) -> None:
        self.store = store
        self.permissions = permissions
        self.files = files

    # -- read ----------------------------------------------------------------------------------------
    def load(self, viewer: User, user_id: int) -> UserContent:
        with self.store.read(caller=viewer.request) as tx:
            return load_user(tx, self.permissions, viewer, user_id)

    def load_many(self, viewer: User, users: list[User]) -> list[UserContent]:
        with self.store.read(caller=viewer.request) as tx:
            return load_users(tx, self.permissions, viewer, users)

    def find(self, viewer: User, query: UserFilter, offset: int = 0, limit: int | None = None) -> list[User]:
        """The users matching ``query`` that the viewer may read; NotFound when a filter matches none."""
        with self.store.read(caller=viewer.request) as tx:
            users = self._matching(tx, query, offset, limit)
            readable = readable_ids(tx, self.permissions, viewer, [user.id for user in users])
        users = [user for user in users if user.id in readable]
        if not users and query.given:
            raise NotFound("Could not find 'User' matching the query")
        return users

    @staticmethod
    def _matching(tx: Tx, query: UserFilter, offset: int, limit: int | None) -> list[User]:
        if query.remote_id is not None:
            info = tx.content.by_remote_id(query.remote_id)
            user = tx.users.get(info.id) if info is not None else None
            return [user] if user is not None else []
        if query.login is not None:
            by_login = tx.users.by_login(query.login)
            return [by_login[0]] if by_login is not None else []
        if query.email is not None:
            return tx.users.by_email(query.email)
        return tx.users.list_all(offset, limit)

    def groups_of(
        self, viewer: User, user_id: int, offset: int = 0, limit: int | None = None
    ) -> list[Location]:
        """The locations of the user's groups (the parents of the user's locations)."""
        with self.store.read(caller=viewer.request) as tx:
            load_user(tx, self.permissions, viewer, user_id)
            groups = tx.users.parent_locations(user_id)
        return groups[offset : None if limit is None else offset + limit]

    def drafts(self, viewer: User, user_id: int) -> list[tuple[ContentInfo, VersionInfo]]:
        """The drafts the user created, with their items."""
        self.permissions.require(viewer, "content", "versionread")
        with self.store.read(caller=viewer.request) as tx:
            load_user(tx, self.permissions, viewer, user_id)
            drafts = tx.content.drafts_by_creator(user_id)
            infos = tx.content.get_many(draft.content_id for draft in drafts)
        return [(infos[draft.content_id], draft) for draft in drafts]

    # -- write ---------------------------------------------------------------------------------------
    def create(self, viewer: User, group_path: str, struct: UserCreate) -> UserContent:
        """A published user in the group at ``group_path``.

        Raises NotFound (group, type), Forbidden (login or e-mail taken), InvalidArgument (a type without
        an account field), ContentValidationError (fields, password rules).
        """
        self.permissions.require(viewer, "content", "create")
        self.permissions.require(viewer, "content", "publish")
        moment = now()
        with write_releasing_files(self.store, self.files, "shared", caller=viewer.request) as tx:
            group = group_at(tx, group_path)
            content_type = type_named(tx, struct.content_type_id, USER_TYPE)
            definition = account_definition(content_type)
            if definition is None:
                raise InvalidArgument(f"Content type '{content_type.identifier}' has no user account field")
            check_account_free(tx, definition, 0, struct.login, struct.email)
            account: JsonDict = {
                "login": struct.login,
                "email": struct.email,
                "password": struct.password,
                "enabled": struct.enabled,
                "maxLogin": struct.max_login,
            }
            extra = (FieldInput(definition.identifier, struct.parts.main_language_code, account),)
            create = content_create(struct.parts, content_type.id, group.id, extra)
            info = publish_new(tx, self.files, self.permissions, viewer, create, moment, "user.created")
            return load_user(tx, self.permissions, viewer, info.id)

    def update(self, viewer: User, user_id: int, struct: UserUpdate, if_match: str | None) -> UserContent:
        """Publish the changes as a new version; PreconditionFailed when ``if_match`` is stale."""
        moment = now()
        with write_releasing_files(
            self.store, self.files, "shared", caller=viewer.request
        ) as tx:  # publishes
            current = lock_user(tx, self.permissions, viewer, user_id)
            if not self._own_password(tx, viewer, user_id, struct):
                require_on(self.permissions, viewer, tx, "edit", current.version.content)
            if if_match is not None and not tag_matches(if_match, value_tag(current)):
                raise PreconditionFailed(f"User {user_id} has changed; its ETag is {value_tag(current)}")
            changes = (struct.email, struct.password, struct.enabled, struct.max_login)
            extra = [self._account_input(tx, current, struct)] if changes != (None, None, None, None) else []
            info = current.version.content
            publish_edit(tx, self.files, viewer, info, struct.parts, moment, "user.updated", extra)
            return load_user(tx, self.permissions, viewer, user_id)

    def _own_password(self, tx: Tx, viewer: User, user_id: int, struct: UserUpdate) -> bool:
        """A change of the caller's own password and nothing else, which ``user/password`` allows
        without ``content/edit`` (spec/permissions.md §3)."""
        password_only = struct.password is not None and (
            struct.email,
            struct.enabled,
            struct.max_login,
            struct.parts,
        ) == (None, None, None, ContentParts())
        if not password_only or viewer.id != user_id:
            return False
        return self.permissions.can(viewer, "user", "password", tx=tx)

    @staticmethod
    def _account_input(tx: Tx, current: UserContent, struct: UserUpdate) -> FieldInput:
        info = current.version.content
        definition = account_definition(get_content_type(tx, info.content_type_id))
        if definition is None:
            raise InvalidArgument(f"Content {info.id} has no user account field")
        stored = next(
            (f.value for f in current.version.fields if f.field_definition_id == definition.id), None
        )
        old = stored if isinstance(stored, dict) else {}
        account = current.account
        value: JsonDict = {
            "login": account.login,
            "email": account.email if struct.email is None else struct.email,
            "enabled": account.enabled if struct.enabled is None else struct.enabled,
            "maxLogin": old.get("maxLogin") if struct.max_login is None else struct.max_login,
        }
        if struct.password is not None:
            value["password"] = struct.password
        return FieldInput(definition.identifier, info.main_language_code, value)

    def delete(self, viewer: User, user_id: int) -> None:
        """Delete the user and its account; Forbidden for the caller itself."""
        with write_releasing_files(self.store, self.files, "exclusive", caller=viewer.request) as tx:
            info = lock_user(tx, self.permissions, viewer, user_id).version.content
            require_on(self.permissions, viewer, tx, "remove", info)
            if user_id == viewer.id:
                raise Forbidden("Cannot delete the currently authenticated User")
            delete_content(tx, [user_id])
            record_content(tx, "user.deleted", viewer.id, info)

    def assign_group(self, viewer: User, user_id: int, group_location_id: int) -> list[Location]:
        """Add a location of the user below the group; Forbidden when the group is missing or the user
        is already in it. Returns the user's groups."""
        if not self.permissions.can(viewer, "content", "manage_locations"):
            raise Forbidden("The User does not have the 'manage_locations' 'content' permission")
        with write_releasing_files(self.store, self.files, "shared", caller=viewer.request) as tx:
            info = lock_user(tx, self.permissions, viewer, user_id).version.content
            group = tx.locations.get(group_location_id, UNRESTRICTED)
            if group is None or not is_group(tx, group):
                raise Forbidden(f"Could not find 'UserGroup' with location id '{group_location_id}'")
            if not self.permissions.can(
                viewer, "content", "manage_locations", target=content_target(info, locations=(group,)), tx=tx
            ):
                raise Forbidden("The User does not have the 'manage_locations' 'content' permission")
            if any(
                location.parent_id == group.id for location in tx.locations.of_content(user_id, UNRESTRICTED)
            ):
                raise Forbidden(f"User {user_id} is already in the group at location {group.id}")
            content_type = get_content_type(tx, info.content_type_id)
            added = place(tx, info, group, resolve_location(tx, LocationCreate(group.id), content_type))
            record_content(tx, "user.updated", viewer.id, info, locations=[added], assignedGroup=group.id)
            return tx.users.parent_locations(user_id)

    def unassign_group(self, viewer: User, user_id: int, group_location_id: int) -> list[Location]:
        """Remove the user's location below the group; Forbidden when the user is not in it or it is the
        user's last group. Returns the remaining groups."""
        with write_releasing_files(self.store, self.files, "exclusive", caller=viewer.request) as tx:
            info = lock_user(tx, self.permissions, viewer, user_id).version.content  # the writers' row lock
            require_on(self.permissions, viewer, tx, "manage_locations", info)
            locations = tx.locations.of_content(user_id, UNRESTRICTED)
            doomed = next(
                (location for location in locations if location.parent_id == group_location_id), None
            )
            if doomed is None:
                raise Forbidden(f"User {user_id} is not in the group at location {group_location_id}")
            remaining = [location for location in locations if location.id != doomed.id]
            if not remaining:
                raise Forbidden(f"User {user_id} cannot be removed from its last group")
            delete_subtrees(tx, [doomed.path_string])  # the main location moves to a remaining one
            record_content(
                tx, "user.updated", viewer.id, info, locations=[doomed], unassignedGroup=group_location_id
            )
            return tx.users.parent_locations(user_id)
