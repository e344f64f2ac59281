"""User groups: the ``user_group`` content items of the tree below ``/1/5`` (spec/shapes-users.md §3).

Groups are addressed by their location path. Creating a group is a content create and publish in one
transaction; deleting one deletes its subtree (subgroups and the users whose only place it was).
"""

from __future__ import annotations

from pressroom.domain.errors import Forbidden, NotFound, PreconditionFailed
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.location import Location
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.tags import tag_matches, value_tag
from pressroom.domain.user import USER_GROUP_TYPE, ContentParts, User, UserGroup, UserGroupCreate
from pressroom.services.content import now
from pressroom.services.content_access import check_readable, require_on
from pressroom.services.content_loading import lock_content
from pressroom.services.content_tree import delete_content
from pressroom.services.event_log import record_content
from pressroom.services.file import write_releasing_files
from pressroom.services.location import LocationService
from pressroom.services.permissions import Permissions
from pressroom.services.user_content import (
    ROOT_USER_GROUP_PATH,
    content_create,
    group_at,
    group_not_found,
    group_type_id,
    load_group,
    load_groups,
    publish_edit,
    publish_new,
    readable_ids,
    type_named,
)
from pressroom.storage.spi import Store


class UserGroupService:
    def __init__(
        self, store: Store, permissions: Permissions, files: FileStore, locations: LocationService
    ) -> None:
        self.store = store
        self.permissions = permissions
        self.files = files
        self.locations = locations

    # -- read ----------------------------------------------------------------------------------------
    def load(self, viewer: User, path: str) -> UserGroup:
        with self.store.read(caller=viewer.request) as tx:
            return load_group(tx, self.permissions, viewer, group_at(tx, path))

    def load_many(self, viewer: User, locations: list[Location]) -> list[UserGroup]:
        with self.store.read(caller=viewer.request) as tx:
            return load_groups(tx, self.permissions, viewer, locations)

    def find(
        self, viewer: User, *, content_id: int | None = None, remote_id: str | None = None
    ) -> list[Location]:
        """The main location of the group with this content id, else this remote id; none without a
        filter. NotFound when the filter names no readable group."""
        if content_id is None and remote_id is None:
            return []
        with self.store.read(caller=viewer.request) as tx:
            info = (
                tx.content.get(content_id)
                if content_id is not None
                else tx.content.by_remote_id(remote_id or "")
            )
            identifier = content_id if content_id is not None else remote_id
            if info is None or info.content_type_id != group_type_id(tx) or info.main_location_id is None:
                raise group_not_found(str(identifier))
            check_readable(self.permissions, viewer, tx, info)
            location = tx.locations.get(info.main_location_id, self.permissions.read_criterion(viewer, tx))
            if location is None:
                raise group_not_found(str(identifier))
            return [location]

    def subgroups(self, viewer: User, path: str, offset: int = 0, limit: int | None = None) -> list[Location]:
        with self.store.read(caller=viewer.request) as tx:
            group = group_at(tx, path)
            load_group(tx, self.permissions, viewer, group)
            below = tx.users.group_locations_below(group.id, group_type_id(tx), offset, limit)
            readable = readable_ids(
                tx, self.permissions, viewer, [g.content_id for g in below if g.content_id]
            )
        return [location for location in below if location.content_id in readable]

    def users(self, viewer: User, path: str, offset: int = 0, limit: int | None = None) -> list[User]:
        with self.store.read(caller=viewer.request) as tx:
            group = group_at(tx, path)
            load_group(tx, self.permissions, viewer, group)
            users = tx.users.below(group.id, offset, limit)
            readable = readable_ids(tx, self.permissions, viewer, [user.id for user in users])
        return [user for user in users if user.id in readable]

    # -- write ---------------------------------------------------------------------------------------
    def create(self, viewer: User, parent_path: str | None, struct: UserGroupCreate) -> UserGroup:
        """A published group below the group at ``parent_path`` (the root user group when None)."""
        self.permissions.require(viewer, "content", "create")
        self.permissions.require(viewer, "content", "publish")
        moment = now()
        with self.store.write("shared", caller=viewer.request) as tx:
            parent = group_at(tx, parent_path or ROOT_USER_GROUP_PATH)
            content_type = type_named(tx, struct.content_type_id, USER_GROUP_TYPE)
            create = content_create(struct.parts, content_type.id, parent.id)
            info = publish_new(tx, self.files, self.permissions, viewer, create, moment, "user_group.created")
            location = tx.locations.get(info.main_location_id or 0, UNRESTRICTED)
            assert location is not None
            return load_group(tx, self.permissions, viewer, location)

    def update(self, viewer: User, path: str, struct: ContentParts, if_match: str | None) -> UserGroup:
        """Publish the changes as a new version; PreconditionFailed when ``if_match`` is stale."""
        moment = now()
        with self.store.write("shared", caller=viewer.request) as tx:  # publishes
            location = group_at(tx, path)
            assert location.content_id is not None
            require_on(self.permissions, viewer, tx, "edit", lock_content(tx, location.content_id))
            current = load_group(tx, self.permissions, viewer, location)
            if if_match is not None and not tag_matches(if_match, value_tag(current)):
                raise PreconditionFailed(f"User group {path} has changed; its ETag is {value_tag(current)}")
            publish_edit(
                tx, self.files, viewer, current.version.content, struct, moment, "user_group.updated"
            )
            return load_group(tx, self.permissions, viewer, location)

    def move(self, viewer: User, path: str, target_path: str) -> Location:
        """Move the group (with its subgroups and users) below the group at ``target_path``; Forbidden
        when the target is missing or not a group, as the reference answers (endpoints-users.tsv)."""
        with self.store.write("exclusive", caller=viewer.request) as tx:
            group_at(tx, path)
            try:
                group_at(tx, target_path)
            except NotFound:
                raise Forbidden(f"The destination '{target_path}' is not a user group") from None
            return self.locations.move_in(tx, viewer, path, target_path)

    def delete(self, viewer: User, path: str) -> None:
        """Delete the group with its subtree (content/remove on every item of it); Forbidden while users
        are directly in it."""
        with write_releasing_files(self.store, self.files, "exclusive", caller=viewer.request) as tx:
            location = group_at(tx, path)
            assert location.content_id is not None
            info = lock_content(tx, location.content_id)
            require_on(self.permissions, viewer, tx, "remove", info)
            if tx.users.below(location.id, 0, 1):
                raise Forbidden("Cannot delete non-empty User Groups")
            self.permissions.require_throughout(viewer, "remove", [location.path_string], tx)
            delete_content(tx, [location.content_id])
            record_content(tx, "user_group.deleted", viewer.id, info, locations=[location])
