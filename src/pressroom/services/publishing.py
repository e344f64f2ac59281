"""Publishing a draft, as one action inside the caller's transaction: the check (the caller's right to
publish, when the action judges it; a draft; the required fields), the write (the draft becomes the
published version, the one published before is archived), then the after-publish steps in the order
of :data:`AFTER_PUBLISH`. What publishing comes to mean next (a cache to purge, a message to send) is one
more named step in that list, not an edit in the middle; every publish (a version published through the
API, a user or group created or edited, an item or a subtree copied) goes through :func:`publish`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from pressroom.domain.content import DRAFT, PUBLISHED, ContentInfo, Field, LockedVersion, VersionInfo
from pressroom.domain.content_type import ContentType
from pressroom.domain.errors import Forbidden
from pressroom.domain.location import Location
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.search_index import index_item
from pressroom.domain.user import User
from pressroom.services.accounts import sync_account
from pressroom.services.content_access import check_version_readable, require_on
from pressroom.services.content_fields import check_required
from pressroom.services.content_loading import current_version, get_content_type
from pressroom.services.content_tree import place_pending
from pressroom.services.event_log import record_content
from pressroom.services.permissions import Permissions
from pressroom.services.url_alias_ops import refresh_aliases, segment_names
from pressroom.services.version_writing import record_relations
from pressroom.storage.spi import Tx


@dataclass(slots=True)
class Publication:
    """One publish under way: what the write and the steps read, and what a step leaves for the ones
    after it (the locations placement created)."""

    tx: Tx
    info: ContentInfo  # the item as it was before this publish
    version: VersionInfo  # the draft being published
    content_type: ContentType
    fields: Sequence[Field]
    stored_relations: bool  # the draft may hold relations derived from its fields
    now: datetime
    by: User
    event: str | None  # None: the caller appends its own event
    extra: dict[str, Any]  # further data of the event
    placed: list[Location] = field(default_factory=list)
    _locations: list[Location] | None = None

    @property
    def first(self) -> bool:
        """The item's first publish."""
        return self.info.published_date is None

    @property
    def new(self) -> bool:
        """Never published: the item has no locations but those placement creates."""
        return self.info.status == DRAFT

    @property
    def main_location_id(self) -> int | None:
        """The main location the item takes now: the first one placed, when it had none."""
        return self.placed[0].id if self.placed and self.info.main_location_id is None else None

    @property
    def published(self) -> ContentInfo:
        """The item as this publish leaves it."""
        return replace(
            self.info,
            status=PUBLISHED,
            current_version_no=self.version.version_no,
            main_location_id=self.main_location_id or self.info.main_location_id,
        )

    def locations(self) -> list[Location]:
        """Every location of the item once placement has run (read once, when first asked)."""
        if self._locations is None:
            self._locations = (
                self.placed if self.new else self.tx.locations.of_content(self.info.id, UNRESTRICTED)
            )
        return self._locations


@dataclass(frozen=True, slots=True)
class Step:
    """A named thing a publish does after the write, in the same transaction."""

    name: str
    run: Callable[[Publication], None]


def _account(p: Publication) -> None:
    """A user's account follows its published version (login and e-mail still free)."""
    sync_account(p.tx, p.content_type, p.info, p.version.version_no, p.fields)


def _index(p: Publication) -> None:
    index = index_item(p.info.id, p.content_type, p.version.names, p.fields)
    p.tx.search_index.put([index], fresh=p.first)


def _relations(p: Publication) -> None:
    """The relations the field values hold (field relations, rich text links and embeds)."""
    record_relations(p.tx, p.info.id, p.version.version_no, p.fields, new=not p.stored_relations)


def _placement(p: Publication) -> None:
    """The pending locations of the item become locations."""
    p.placed = place_pending(p.tx, p.info)


def _item(p: Publication) -> None:
    """The item's row: its current version, status, first publish date and the main location placement
    chose, in one statement (hence after placement)."""
    version_no = p.version.version_no
    p.tx.content.mark_published(p.info.id, version_no, p.now, p.first, p.main_location_id)


def _aliases(p: Publication) -> None:
    """The URL aliases of every location of the item follow the published names."""
    names = {p.info.id: segment_names(p.content_type, p.version, p.fields)}
    refresh_aliases(p.tx, p.locations(), names, {p.info.id: p.published}, new=p.new)


def _event(p: Publication) -> None:
    """The event in the outbox, naming the item's locations (those just placed on a first publish);
    webhooks, the HTTP cache purge and the broker follow from it once the transaction commits."""
    if p.event is not None:
        record_content(
            p.tx, p.event, p.by.id, p.published, version_no=p.version.version_no,
            languages=p.version.language_codes, locations=p.locations(), **p.extra,
        )  # fmt: skip


# In order: each step may use what the ones before it did (aliases and the event name the locations
# placement created; the item's row takes the main location placement chose).
AFTER_PUBLISH: tuple[Step, ...] = (
    Step("account", _account),
    Step("index", _index),
    Step("relations", _relations),
    Step("placement", _placement),
    Step("item", _item),
    Step("aliases", _aliases),
    Step("event", _event),
)


def publish(
    tx: Tx,
    info: ContentInfo,
    version: VersionInfo,
    now: datetime,
    locked: LockedVersion | None = None,
    *,
    by: User,
    permissions: Permissions | None = None,
    event: str | None = "content.published",
    **extra: Any,
) -> ContentInfo:
    """Publish a draft of ``info`` by ``by`` and return the item as published.

    With ``permissions``, ``by`` must be able to read the version and hold ``content/publish`` on the
    item in the version's languages; without, the caller has judged the write by another right
    (creating or editing a user, copying an item). Raises Forbidden for a version that is not a draft
    and ContentValidationError when a required field is empty. ``locked``: the version's fields and
    whether it holds derived relations, when the caller read them with its lock (see
    ``lock_version``). ``event`` (None: the caller appends its own) carries ``extra``."""
    if permissions is not None:
        check_version_readable(permissions, by, tx, info, version)
        require_on(permissions, by, tx, "publish", info, language_codes=version.language_codes)
    if not version.is_draft:
        raise Forbidden(f"Version {version.version_no} of content {info.id} is not a draft")
    content_type = get_content_type(tx, info.content_type_id)
    fields = locked.fields if locked else tx.content.load_fields(info.id, version.version_no)
    check_required(content_type, info.main_language_code, fields)
    stored = locked.stored_relations if locked else True
    publication = Publication(tx, info, version, content_type, fields, stored, now, by, event, extra)
    tx.content.publish_version(info.id, version.version_no, now)
    for step in AFTER_PUBLISH:
        step.run(publication)
    return publication.published


def reindex(tx: Tx, info: ContentInfo) -> None:
    """Index the item's current version again, after a change to it other than a publish."""
    version = current_version(tx, info)
    if version.status == PUBLISHED:
        fields = tx.content.load_fields(info.id, version.version_no)
        content_type = get_content_type(tx, info.content_type_id)
        tx.search_index.put([index_item(info.id, content_type, version.names, fields)])
