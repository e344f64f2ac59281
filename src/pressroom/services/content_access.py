"""Who may do what to an item: reading it or one of its versions (drafts of an item never published
only for their creator), ``content/<function>`` on it, creating one below a location."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pressroom.domain.content import PUBLISHED, VERSION_STATUS_CODES, ContentInfo, VersionInfo
from pressroom.domain.errors import NotFound, Unauthorized
from pressroom.domain.location import Location
from pressroom.domain.permission import Target
from pressroom.domain.user import User
from pressroom.services.content_loading import current_version
from pressroom.services.permissions import Permissions, content_target
from pressroom.storage.spi import Tx

# Whether the caller may read the draft of an item not yet published (see draft_reader).
DraftReader = Callable[[ContentInfo], bool]


def check_readable(
    permissions: Permissions, user: User, tx: Tx, info: ContentInfo, at: Location | None = None
) -> None:
    """``content/read`` on the item (at location ``at`` only, when given: Subtree and Node limitations
    then judge that location); an item never published is visible only to the creator of its draft."""
    target = content_target(info) if at is None else content_target(info, locations=(at,))
    permissions.require(user, "content", "read", target=target, tx=tx)
    if not info.is_published:
        current = tx.content.get_version(info.id, info.current_version_no)
        if current is None or current.creator_id != user.id:
            raise Unauthorized(
                f"The User does not have the 'versionread' 'content' permission with: contentId '{info.id}'"
            )


def check_version_readable(
    permissions: Permissions, user: User, tx: Tx, info: ContentInfo, version: VersionInfo
) -> None:
    if version.status == PUBLISHED:
        check_readable(permissions, user, tx, info)
        return
    target = content_target(info, version_status=VERSION_STATUS_CODES[version.status])
    permissions.require(user, "content", "versionread", target=target, tx=tx)
    if not info.is_published and version.creator_id != user.id:
        raise Unauthorized(
            f"The User does not have the 'versionread' 'content' permission with: contentId '{info.id}'"
        )


def draft_reader(permissions: Permissions, user: User, tx: Tx) -> DraftReader:
    """Whether ``user`` may read the draft that an item not yet published has: what the variations
    of its image ask of the caller (services/image.py)."""

    def may_read(info: ContentInfo) -> bool:
        try:
            check_version_readable(permissions, user, tx, info, current_version(tx, info))
        except (Unauthorized, NotFound):
            return False
        return True

    return may_read


def require_on(
    permissions: Permissions, user: User, tx: Tx, function: str, info: ContentInfo, **facts: object
) -> None:
    """``content/<function>`` on the item, with any further ``facts`` of the target (languages...)."""
    permissions.require(user, "content", function, target=content_target(info, **facts), tx=tx)


def require_create(
    permissions: Permissions,
    user: User,
    tx: Tx,
    parent: Location | None,
    *,
    content_type_id: int,
    section_id: int,
    owner_id: int,
    language_codes: tuple[str, ...],
    parent_info: ContentInfo | Literal[False] | None = False,
) -> None:
    """``content/create`` of an item of this type, section and owner below ``parent`` (None: an item
    without a location, which Node, Subtree and Parent* limitations refuse); ``parent_info``: the
    content of ``parent`` when the caller has loaded it (None: it has none)."""
    if parent_info is False:
        parent_info = tx.content.get(parent.content_id) if parent and parent.content_id else None
    target = Target(
        content_type_id=content_type_id,
        section_id=section_id,
        owner_id=owner_id,
        locations=(parent,) if parent else (),
        parent_owner_id=parent_info.owner_id if parent_info else None,
        parent_content_type_id=parent_info.content_type_id if parent_info else None,
        parent_depth=parent.depth if parent else None,
        language_codes=language_codes,
        new_owner_id=owner_id,
    )
    permissions.require(user, "content", "create", target=target, tx=tx)
