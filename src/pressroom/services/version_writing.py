"""Writing versions inside the caller's transaction: the fields a plan holds with the relations they
imply, a new draft copied from a version, dropping a version or one of its translations."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pressroom.domain.content import ContentInfo, Field, NewVersion, VersionInfo
from pressroom.domain.content_type import ContentType
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.user import User
from pressroom.services.content_fields import FieldPlan, Key, make_fields, relation_targets
from pressroom.storage.spi import Tx


def save_plan(
    tx: Tx, content_type: ContentType, content_id: int, version_no: int, plan: FieldPlan, *, new: bool = False
) -> tuple[list[Field], bool]:
    """Store the planned fields and the relations they hold; a (definition, language) keeps its field
    id across versions. ``new``: the item was created in this transaction and has nothing stored yet.
    Returns the fields and whether the version may hold derived relations now (False: it holds none)."""
    ids: dict[Key, int] = {} if new else tx.content.field_ids_of(content_id)
    missing = [key for key in plan.values if key not in ids]
    ids.update(zip(missing, tx.content.new_field_ids(len(missing)), strict=True))
    fields = make_fields(content_type, plan, ids)
    tx.content.save_fields(content_id, version_no, fields, replace=not new)
    return fields, record_relations(tx, content_id, version_no, fields, new=new)


def record_relations(
    tx: Tx, content_id: int, version_no: int, fields: Sequence[Field], *, new: bool = False
) -> bool:
    """Set the relations a version's field values hold (field relations, rich text links and embeds),
    as the reference does on every save of a draft and on publish. ``ezlocation://`` targets become
    the content of that location; destinations that do not exist are left out. ``new``: the version
    holds no such relations yet. Returns False when it holds none now, True when it may."""
    targets = relation_targets(fields)
    by_location = tx.locations.get_many([t.id for t, _ in targets if t.by_location], UNRESTRICTED)
    found = []
    for target, definition_id in targets:
        destination: int | None = target.id
        if target.by_location:
            location = by_location.get(target.id)
            destination = None if location is None else location.content_id
        if destination is not None:
            found.append((destination, target.type, definition_id))
    if new and not found:
        return False  # nothing stored to replace, nothing to add
    existing = tx.content.existing_ids((destination for destination, _, _ in found), UNRESTRICTED)
    tx.relations.replace_field_relations(content_id, version_no, [t for t in found if t[0] in existing])
    return True


def copy_version(tx: Tx, user: User, info: ContentInfo, source: VersionInfo, now: datetime) -> VersionInfo:
    """A new draft of ``info`` holding the fields and relations of ``source``."""
    version_no = tx.content.next_version_no(info.id)
    draft = tx.content.create_version(
        NewVersion(
            content_id=info.id,
            version_no=version_no,
            creator_id=user.id,
            creation_date=now,
            initial_language_code=source.initial_language_code,
            language_codes=source.language_codes,
            names=source.names,
        )
    )
    tx.content.save_fields(info.id, version_no, tx.content.load_fields(info.id, source.version_no))
    tx.relations.copy(info.id, source.version_no, version_no)
    return draft


def drop_version(tx: Tx, content_id: int, version_no: int) -> None:
    """Delete a version with its fields and relations (the caller checked it may, and moves the
    current version when it was that one)."""
    tx.relations.delete_of_version(content_id, version_no)
    tx.content.delete_version(content_id, version_no)


def remove_translation(tx: Tx, info: ContentInfo, version: VersionInfo, language_code: str) -> None:
    """Drop one language's fields and name from a version, and the relations only they held (the
    caller checked it may)."""
    kept = [
        f for f in tx.content.load_fields(info.id, version.version_no) if f.language_code != language_code
    ]
    tx.content.save_fields(info.id, version.version_no, kept)
    record_relations(tx, info.id, version.version_no, kept)
    initial = version.initial_language_code
    tx.content.update_version(
        info.id,
        version.version_no,
        language_codes=[code for code in version.language_codes if code != language_code],
        names={code: name for code, name in version.names.items() if code != language_code},
        initial_language_code=info.main_language_code if initial == language_code else None,
    )
