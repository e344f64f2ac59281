"""Versions of a content item: list, load, edit a draft, delete, copy into a new draft, publish."""

from __future__ import annotations

from datetime import datetime

from pressroom.domain.content import (
    PUBLISHED,
    VERSION_STATUS_CODES,
    ContentInfo,
    Version,
    VersionInfo,
    VersionUpdate,
)
from pressroom.domain.errors import (
    Conflict,
    Forbidden,
    InvalidArgument,
    PreconditionFailed,
    TranslationAbsent,
)
from pressroom.domain.fieldtypes.base import FileStore
from pressroom.domain.tags import tag_matches, value_tag
from pressroom.domain.user import User
from pressroom.services.content import now
from pressroom.services.content_access import check_readable, check_version_readable, draft_reader, require_on
from pressroom.services.content_fields import plan_fields, store_uploads, version_names
from pressroom.services.content_loading import (
    current_version,
    get_content,
    get_content_type,
    get_version,
    installed_languages,
    lock_content,
    lock_version,
)
from pressroom.services.event_log import record_content
from pressroom.services.file import write_releasing_files
from pressroom.services.permissions import Permissions
from pressroom.services.publishing import publish
from pressroom.services.version_assembly import load_version
from pressroom.services.version_writing import copy_version, drop_version, remove_translation, save_plan
from pressroom.storage.spi import Store, Tx


class VersionService:
    def __init__(self, store: Store, permissions: Permissions, files: FileStore) -> None:
        self.store = store
        self.permissions = permissions
        self.files = files

    def list(self, user: User, content_id: int) -> tuple[ContentInfo, list[VersionInfo]]:
        with self.store.read(caller=user.request) as tx:
            info = get_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            require_on(self.permissions, user, tx, "versionread", info)
            return info, tx.content.list_versions(content_id)

    def load(self, user: User, content_id: int, version_no: int, languages: tuple[str, ...] = ()) -> Version:
        with self.store.read(caller=user.request) as tx:
            return self._load(tx, user, get_content(tx, content_id), version_no, languages)

    def _load(
        self, tx: Tx, user: User, info: ContentInfo, version_no: int, languages: tuple[str, ...]
    ) -> Version:
        version = get_version(tx, info.id, version_no)
        check_version_readable(self.permissions, user, tx, info, version)
        readable = self.permissions.read_criterion(user, tx)
        drafts = draft_reader(self.permissions, user, tx)
        return load_version(tx, info, version, languages, readable=readable, drafts=drafts)

    def current_version_no(self, user: User, content_id: int) -> int:
        with self.store.read(caller=user.request) as tx:
            info = get_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            return info.current_version_no

    # -- drafts --------------------------------------------------------------------------------------
    def update(
        self,
        user: User,
        content_id: int,
        version_no: int,
        struct: VersionUpdate,
        if_match: str | None = None,
        languages: tuple[str, ...] = (),
    ) -> Version:
        """Edit a draft's fields; Forbidden when the version is not a draft, PreconditionFailed when
        ``if_match`` is not the version's ETag, ContentValidationError for field failures."""
        moment = now()
        with write_releasing_files(self.store, self.files, caller=user.request) as tx:
            before = self._load(tx, user, lock_content(tx, content_id), version_no, languages)
            info, version = before.content, before.info
            edited = tuple(sorted({f.language_code or version.initial_language_code for f in struct.fields}))
            require_on(self.permissions, user, tx, "edit", info, language_codes=edited)
            if not version.is_draft:
                raise Forbidden(f"Version {version_no} of content {content_id} is not a draft")
            if if_match is not None and not tag_matches(if_match, value_tag(before)):
                raise PreconditionFailed(f"Version {version_no} has changed; its ETag is {value_tag(before)}")
            edit_draft(tx, self.files, info, version, struct, moment)
            record_content(
                tx, "content.version_updated", user.id, info, version_no=version_no, languages=edited
            )
            return self._load(tx, user, get_content(tx, content_id), version_no, languages)

    def delete(self, user: User, content_id: int, version_no: int) -> None:
        """Delete a draft or archived version; Forbidden for the published one or the only one."""
        with write_releasing_files(self.store, self.files, caller=user.request) as tx:
            info = lock_content(tx, content_id)
            version = get_version(tx, content_id, version_no)
            status = VERSION_STATUS_CODES[version.status]
            require_on(self.permissions, user, tx, "versionremove", info, version_status=status)
            if version.status == PUBLISHED:
                raise Forbidden(f"Version {version_no} of content {content_id} is published")
            others = [v for v in tx.content.list_versions(content_id) if v.version_no != version_no]
            if not others:
                raise Forbidden(f"Version {version_no} is the only version of content {content_id}")
            drop_version(tx, content_id, version_no)
            if info.current_version_no == version_no:
                tx.content.set_current_version(content_id, others[-1].version_no)
            else:
                tx.content.touch(content_id)
            record_content(tx, "content.version_deleted", user.id, info, version_no=version_no)

    def copy(self, user: User, content_id: int, version_no: int) -> Version:
        """A new draft holding the fields and relations of the given version."""
        with write_releasing_files(self.store, self.files, caller=user.request) as tx:
            source = self._load(tx, user, lock_content(tx, content_id), version_no, ())
            require_on(self.permissions, user, tx, "edit", source.content)
            draft = copy_version(tx, user, source.content, source.info, now())
            record_content(tx, "content.draft_created", user.id, source.content, version_no=draft.version_no)
            readable = self.permissions.read_criterion(user, tx)
            return load_version(tx, get_content(tx, content_id), draft, readable=readable)

    def copy_current(self, user: User, content_id: int) -> Version:
        """A new draft from the current version; Forbidden while the current version is a draft."""
        with write_releasing_files(self.store, self.files, caller=user.request) as tx:
            info = lock_content(tx, content_id)
            check_readable(self.permissions, user, tx, info)
            require_on(self.permissions, user, tx, "edit", info)
            source = current_version(tx, info)
            if source.is_draft:
                raise Forbidden(f"The current version of content {content_id} is already a draft")
            draft = copy_version(tx, user, info, source, now())
            record_content(tx, "content.draft_created", user.id, info, version_no=draft.version_no)
            readable = self.permissions.read_criterion(user, tx)
            return load_version(tx, get_content(tx, content_id), draft, readable=readable)

    def publish(self, user: User, content_id: int, version_no: int) -> None:
        with write_releasing_files(
            self.store, self.files, "shared", caller=user.request
        ) as tx:  # places, refreshes aliases
            # one statement: the item locked, the version with its fields and whether it holds field
            # relations, the caller's account and access stamp
            locked, version = lock_version(tx, content_id, version_no)
            publish(tx, locked.info, version, now(), locked, by=user, permissions=self.permissions)

    def delete_translation(self, user: User, content_id: int, version_no: int, language_code: str) -> None:
        """Drop a translation from a draft: Forbidden (not a draft), TranslationAbsent, Conflict (the
        version's only translation, or the item's main one)."""
        with write_releasing_files(self.store, self.files, caller=user.request) as tx:
            info = lock_content(tx, content_id)
            version = get_version(tx, content_id, version_no)
            check_version_readable(self.permissions, user, tx, info, version)
            require_on(self.permissions, user, tx, "edit", info, language_codes=(language_code,))
            if not version.is_draft:
                raise Forbidden(f"Version {version_no} of content {content_id} is not a draft")
            if language_code not in version.language_codes:
                raise TranslationAbsent(f"Version {version_no} has no '{language_code}' translation")
            if language_code == info.main_language_code:
                raise Conflict(f"'{language_code}' is the main translation of content {content_id}")
            if len(version.language_codes) == 1:
                raise Conflict(f"'{language_code}' is the only translation of version {version_no}")
            remove_translation(tx, info, version, language_code)
            tx.content.touch(content_id)
            kind = "content.translation_deleted"
            record_content(tx, kind, user.id, info, version_no=version_no, languages=[language_code])


def edit_draft(
    tx: Tx, files: FileStore, info: ContentInfo, version: VersionInfo, struct: VersionUpdate, moment: datetime
) -> None:
    """Merge ``struct``'s fields into the draft ``version`` of ``info`` in the caller's transaction.

    Raises InvalidArgument (initial language not installed) and ContentValidationError.
    """
    installed = installed_languages(tx)
    initial = struct.initial_language_code
    if initial is not None and initial not in installed:
        raise InvalidArgument(f"initialLanguageCode '{initial}' is not an installed language")
    content_type = get_content_type(tx, info.content_type_id)
    existing = tx.content.load_fields(info.id, version.version_no)
    default_language = initial or version.initial_language_code
    plan = plan_fields(
        content_type, info.main_language_code, default_language, struct.fields, existing, installed
    )
    plan = store_uploads(content_type, plan, files, tx.content.uploaded_files)
    save_plan(tx, content_type, info.id, version.version_no, plan)
    tx.content.update_version(
        info.id,
        version.version_no,
        modified=struct.modification_date or moment,
        initial_language_code=initial,
        language_codes=plan.languages,
        names=version_names(content_type, plan.languages, plan.values),
    )
    tx.content.touch(info.id)
