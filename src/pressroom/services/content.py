"""Content items: create (a first draft), load, change metadata, delete, copy, hide, drop translations."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from pressroom.domain.content import (
    ContentCreate,
    ContentInfo,
    ContentUpdate,
    NewContent,
    NewVersion,
    Version,
)
from pressroom.domain.errors import (
    Conflict,
    Forbidden,
    InvalidArgument,
    NotFound,
    PreconditionFailed,
    TranslationAbsent,
)
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.location import Location, LocationCreate
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.tags import tag_matches, value_tag
from pressroom.domain.user import User
from pressroom.services.content_access import check_readable, draft_reader, require_create, require_on
from pressroom.services.content_copy import copy_item
from pressroom.services.content_fields import plan_fields, store_uploads, version_names
from pressroom.services.content_loading import (
    current_version,
    get_content,
    get_content_type,
    get_location,
    installed_languages,
    lock_content,
)
from pressroom.services.content_tree import (
    delete_content,
    new_remote_id,
    refresh_visibility,
    resolve_location,
)
from pressroom.services.event_log import record_content
from pressroom.services.file import write_releasing_files
from pressroom.services.permissions import Permissions, content_target
from pressroom.services.publishing import reindex
from pressroom.services.url_alias_ops import refresh_location_aliases
from pressroom.services.version_assembly import load_version
from pressroom.services.version_cache import VersionCache
from pressroom.services.version_writing import drop_version, remove_translation, save_plan
from pressroom.storage.spi import Store, Tx

DEFAULT_SECTION_ID = 1


def now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


class ContentService:
    def __init__(self, store: Store, permissions: Permissions, files: FileStore) -> None:
        self.store = store
        self.permissions = permissions
        self.files = files
        self.versions = VersionCache()

    # -- create --------------------------------------------------------------------------------------
    def create(self, user: User, struct: ContentCreate) -> Version:
        """A new item whose version 1 is a draft of ``user`` (see :func:`create_draft`)."""
        with write_releasing_files(self.store, self.files, caller=user.request) as tx:
            created = create_draft(tx, self.files, self.permissions, user, struct, now())
            parents = [location.parent_id for location in struct.locations]
            languages = created.info.language_codes
            record_content(
                tx,
                "content.created",
                user.id,
                created.content,
                languages=languages,
                parentLocationIds=parents,
            )
            return created

    # -- read ----------------------------------------------------------------------------------------
    def load_info(self, user: User, content_id: int) -> ContentInfo:
        with self.store.read(caller=user.request) as tx:
            info = get_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            return info

    def load(self, user: User, content_id: int, languages: tuple[str, ...] = ()) -> Version:
        """The item with its current version (fields in ``languages`` only, when given)."""
        with self.store.read(caller=user.request) as tx:
            # Nothing cached for the item: its fields come with it, so a cold GET is one statement too.
            cold = not self.versions.holds(content_id)
            found = tx.content.get_with_current_version(content_id, with_fields=cold)
            if found is None:
                raise NotFound.of("Content", content_id)
            info, version = found.info, found.version
            check_readable(self.permissions, user, tx, info)
            readable = self.permissions.read_criterion(user, tx)
            drafts = draft_reader(self.permissions, user, tx)
            if version is None:
                version = current_version(tx, info)
                return load_version(tx, info, version, languages, readable=readable, drafts=drafts)
            loaded = None
            if found.fields is not None:
                stored = (
                    tx.relations.list(info.id, version.version_no, readable=UNRESTRICTED)
                    if found.has_relations
                    else []
                )  # as stored: load_version filters them for the caller
                loaded = (found.fields, stored)
            cache, stamp = self.versions, found.stamp
            return load_version(
                tx, info, version, languages, cache, stamp, readable=readable, loaded=loaded, drafts=drafts
            )

    def find_by_remote_id(self, user: User, remote_id: str) -> ContentInfo:
        with self.store.read(caller=user.request) as tx:
            info = tx.content.by_remote_id(remote_id)
            if info is None:
                raise NotFound.of("Content", remote_id)
            check_readable(self.permissions, user, tx, info)
            return info

    # -- metadata ------------------------------------------------------------------------------------
    def update(self, user: User, content_id: int, struct: ContentUpdate, if_match: str | None) -> ContentInfo:
        """Change version-independent metadata; PreconditionFailed when ``if_match`` is stale."""
        picks_main = struct.main_location_id is not None  # the item's locations stay while it picks one
        with write_releasing_files(
            self.store, self.files, "shared" if picks_main else None, caller=user.request
        ) as tx:
            info = lock_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            require_on(self.permissions, user, tx, "edit", info, new_owner_id=struct.owner_id)
            if struct.section_id is not None and struct.section_id != info.section_id:
                target = content_target(info, new_section_id=struct.section_id)
                self.permissions.require(user, "section", "assign", target=target, tx=tx)
            if if_match is not None and not tag_matches(if_match, value_tag(info)):
                raise PreconditionFailed(f"Content {content_id} has changed; its ETag is {value_tag(info)}")
            update_metadata(tx, info, struct)
            updated = get_content(tx, content_id)
            record_content(tx, "content.updated", user.id, updated, previousSectionId=info.section_id)
            return updated

    def hide(self, user: User, content_id: int) -> None:
        self._set_hidden(user, content_id, True)

    def reveal(self, user: User, content_id: int) -> None:
        self._set_hidden(user, content_id, False)

    def _set_hidden(self, user: User, content_id: int, hidden: bool) -> None:
        with write_releasing_files(self.store, self.files, "exclusive", caller=user.request) as tx:
            info = lock_content(tx, content_id)
            require_on(self.permissions, user, tx, "hide", info)
            if info.is_hidden != hidden:
                tx.content.set_hidden(content_id, hidden)
                refresh_visibility(tx, tx.locations.of_content(content_id, UNRESTRICTED))
            record_content(tx, "content.hidden" if hidden else "content.revealed", user.id, info)

    # -- delete and copy -----------------------------------------------------------------------------
    def delete(self, user: User, content_id: int) -> None:
        """Delete the item, every version and every location (as subtrees: content/remove on every item
        below them too)."""
        with write_releasing_files(self.store, self.files, "exclusive", caller=user.request) as tx:
            info = lock_content(tx, content_id)
            require_on(self.permissions, user, tx, "remove", info)
            locations = tx.locations.of_content(content_id, UNRESTRICTED)
            paths = [location.path_string for location in locations]
            if paths:
                self.permissions.require_throughout(user, "remove", paths, tx)
            delete_content(tx, [content_id])
            record_content(tx, "content.deleted", user.id, info, locations=locations)

    def copy(self, user: User, content_id: int, parent_location_id: int) -> ContentInfo:
        """A published copy of the item's current version, placed below the given location."""
        with write_releasing_files(self.store, self.files, "shared", caller=user.request) as tx:
            info = get_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            parent = get_location(tx, parent_location_id)
            require_create(
                self.permissions, user, tx, parent,
                content_type_id=info.content_type_id, section_id=info.section_id, owner_id=user.id,
                language_codes=(info.main_language_code,),
            )  # fmt: skip
            return copy_item(tx, user, info, LocationCreate(parent.id), now())

    # -- translations --------------------------------------------------------------------------------
    def delete_translation(self, user: User, content_id: int, language_code: str) -> None:
        """Remove a translation from every version; a version whose only translation it is goes with it,
        as in the reference.

        Raises TranslationAbsent (no version has it) and Conflict (the main translation of the item, or
        the only translation of its current version).
        """
        with write_releasing_files(self.store, self.files, caller=user.request) as tx:
            info = lock_content(tx, content_id)
            require_on(self.permissions, user, tx, "remove", info, language_codes=(language_code,))
            having = [v for v in tx.content.list_versions(content_id) if language_code in v.language_codes]
            if not having:
                raise TranslationAbsent(f"Content {content_id} has no '{language_code}' translation")
            if language_code == info.main_language_code:
                raise Conflict(f"'{language_code}' is the main translation of content {content_id}")
            for version in having:
                if len(version.language_codes) == 1 and version.version_no == info.current_version_no:
                    raise Conflict(
                        f"'{language_code}' is the only translation of version {version.version_no}, "
                        f"the current version of content {content_id}"
                    )
            for version in having:
                if len(version.language_codes) == 1:
                    drop_version(tx, content_id, version.version_no)
                else:
                    remove_translation(tx, info, version, language_code)
            reindex(tx, info)
            tx.content.touch(content_id)
            locations = tx.locations.of_content(content_id, UNRESTRICTED)
            refresh_location_aliases(tx, [location.id for location in locations])
            kind = "content.translation_deleted"
            record_content(tx, kind, user.id, info, languages=[language_code], locations=locations)


def create_draft(
    tx: Tx, files: FileStore, permissions: Permissions, user: User, struct: ContentCreate, moment: datetime
) -> Version:
    """A new item whose version 1 is a draft of ``user``, with pending locations sorted by the type's
    default sort; runs in the caller's transaction, after ``content/create`` below each parent.

    Raises NotFound (type, parent location, section, owner), InvalidArgument (language),
    Forbidden (remote id taken, two locations under one parent), ContentValidationError, Unauthorized.
    """
    # first, so that its one query also confirms the caller and learns the cache epoch
    at = tx.content.at_locations([item.parent_id for item in struct.locations])
    content_type = get_content_type(tx, struct.content_type_id)
    installed = installed_languages(tx)
    main = struct.main_language_code
    if main not in installed:
        raise InvalidArgument(f"Language '{main}' is not installed")
    if any(item.parent_id not in at for item in struct.locations):
        missing = next(item.parent_id for item in struct.locations if item.parent_id not in at)
        raise NotFound.of("Location", missing)
    parents = [at[item.parent_id][0] for item in struct.locations]
    if len({p.id for p in parents}) != len(parents):
        raise Forbidden("The content cannot get two locations under the same parent")
    parent_infos = {place.id: info for place, info in at.values()}
    section_id = struct.section_id or _parent_section(parents, parent_infos)
    if tx.sections.get(section_id) is None:
        raise NotFound.of("Section", section_id)
    owner_id = user.id if struct.owner_id is None else struct.owner_id
    if struct.owner_id is not None and tx.users.get(owner_id) is None:
        raise NotFound.of("User", owner_id)
    places: list[Location | None] = [*parents] or [None]
    for parent in places:
        require_create(
            permissions, user, tx, parent,
            content_type_id=content_type.id, section_id=section_id, owner_id=owner_id, language_codes=(main,),
            parent_info=parent_infos.get(parent.id) if parent else None,
        )  # fmt: skip
    _check_remote_id(tx, struct.remote_id)
    plan = plan_fields(content_type, main, main, struct.fields, (), installed)
    # The locations of a new item sort as its type says, whatever the input asked
    # (spec/shapes-content.md §8, endpoints-content.tsv POST /content/objects).
    locations = [
        resolve_location(tx, replace(item, sort_field=None, sort_order=None), content_type)
        for item in struct.locations
    ]
    plan = store_uploads(content_type, plan, files, tx.content.uploaded_files)
    new = NewContent(
        content_type_id=content_type.id,
        remote_id=struct.remote_id or new_remote_id(),
        section_id=section_id,
        owner_id=owner_id,
        main_language_code=main,
        always_available=(
            content_type.default_always_available
            if struct.always_available is None
            else struct.always_available
        ),
        modification_date=struct.modification_date or moment,
    )
    content_id = tx.content.create(new)
    version_no = 1  # the number a new item's counter starts at
    version = tx.content.create_version(
        NewVersion(
            content_id=content_id,
            version_no=version_no,
            creator_id=user.id,
            creation_date=moment,
            initial_language_code=main,
            language_codes=plan.languages,
            names=version_names(content_type, plan.languages, plan.values),
        )
    )
    fields, related = save_plan(tx, content_type, content_id, version_no, plan, new=True)
    for location in locations:
        tx.locations.add_pending(content_id, location)
    # What was just written, not read back (but the relations, when some were stored).
    info = tx.content.created(content_id, new, version.names)
    relations = tx.relations.list(content_id, version_no, readable=UNRESTRICTED) if related else []
    loaded = (tx.content.stored_fields(content_type, fields), relations)  # filtered by load_version
    return load_version(tx, info, version, readable=permissions.read_criterion(user, tx), loaded=loaded)


def _parent_section(parents: list[Location], infos: dict[int, ContentInfo | None]) -> int:
    """A new item goes to the section of its (first) parent's content by default."""
    for parent in parents:
        info = infos.get(parent.id)
        if info is not None:
            return info.section_id
    return DEFAULT_SECTION_ID


def _check_remote_id(tx: Tx, remote_id: str | None) -> None:
    if remote_id and tx.content.by_remote_id(remote_id) is not None:
        raise Forbidden(f"A content item with remote id '{remote_id}' already exists")


def update_metadata(tx: Tx, info: ContentInfo, struct: ContentUpdate) -> None:
    """Check and store metadata changes of ``info`` in the caller's transaction.

    Raises NotFound (section, owner), InvalidArgument (main language or main location not of the item),
    Forbidden (remote id taken).
    """
    content_id = info.id
    if struct.section_id is not None and tx.sections.get(struct.section_id) is None:
        raise NotFound.of("Section", struct.section_id)
    if struct.owner_id is not None and tx.users.get(struct.owner_id) is None:
        raise NotFound.of("User", struct.owner_id)
    if struct.main_language_code is not None:
        languages = current_version(tx, info).language_codes
        if struct.main_language_code not in languages:
            raise InvalidArgument(
                f"mainLanguageCode '{struct.main_language_code}' is not a translation of content {content_id}"
            )
    location_ids = {location.id for location in tx.locations.of_content(content_id, UNRESTRICTED)}
    if struct.main_location_id is not None and struct.main_location_id not in location_ids:
        raise InvalidArgument(f"Location {struct.main_location_id} is not a location of content {content_id}")
    if struct.remote_id is not None and struct.remote_id != info.remote_id:
        _check_remote_id(tx, struct.remote_id)
    tx.content.update(content_id, struct)
