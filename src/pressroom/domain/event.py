"""Repository events: what a write did, recorded in the write's own transaction (a transactional outbox).

Each write appends one :class:`NewEvent`; storage gives it an id and the time. Consumers (the feed, webhook
deliveries, a message broker) read the log in commit order through a :class:`Cursor` and act on it after
the fact, so an event exists exactly when its write committed.

Types are CloudEvents types (``pressroom.content.published``). The payload names what a consumer needs to
act without calling back: content id, version, languages, location ids and paths, content type, section.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

TYPE_PREFIX = "pressroom."

# Every event type a write can append, by the noun it is about.
EVENT_TYPES = frozenset(
    TYPE_PREFIX + name
    for name in (
        "content.created",
        "content.draft_created",
        "content.version_updated",
        "content.published",
        "content.updated",
        "content.deleted",
        "content.translation_deleted",
        "content.version_deleted",
        "content.hidden",
        "content.revealed",
        "content.copied",
        "location.created",
        "location.updated",
        "location.moved",
        "location.copied",
        "location.swapped",
        "location.hidden",
        "location.revealed",
        "location.deleted",
        "trash.trashed",
        "trash.restored",
        "trash.deleted",
        "trash.emptied",
        "content_type.created",
        "content_type.updated",
        "content_type.published",
        "content_type.deleted",
        "content_type_group.created",
        "content_type_group.updated",
        "content_type_group.deleted",
        "section.created",
        "section.updated",
        "section.deleted",
        "object_state.created",
        "object_state.updated",
        "object_state.deleted",
        "object_state.assigned",
        "url_alias.created",
        "url_alias.deleted",
        "url_wildcard.created",
        "url_wildcard.deleted",
        "user.created",
        "user.updated",
        "user.deleted",
        "user_group.created",
        "user_group.updated",
        "user_group.deleted",
        "role.created",
        "role.updated",
        "role.deleted",
        "role.draft_created",
        "role.published",
        "role.assigned",
        "role.unassigned",
    )
)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """What a write appends: ``type`` without the prefix (``content.published``)."""

    type: str
    user_id: int | None
    content_id: int | None = None
    subject: str | None = None  # "content/42", "section/3": the resource it is about
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if TYPE_PREFIX + self.type not in EVENT_TYPES:
            raise ValueError(f"unknown event type {self.type!r}")


@dataclass(frozen=True, slots=True)
class Cursor:
    """A position in the log. Events are read in (transaction order, id): on PostgreSQL ids are taken at
    insert time, not commit time, so a reader only sees events of transactions older than every running
    one (``tx``), which keeps a cursor from passing an event that commits later with a smaller id."""

    tx: int = 0
    id: int = 0

    def encode(self) -> str:
        return f"{self.tx}-{self.id}" if self.tx else str(self.id)

    @classmethod
    def decode(cls, text: str) -> Cursor:
        """``"42"`` or ``"7133-42"``; ValueError for anything else."""
        tx, _, event_id = text.strip().rpartition("-")
        if not event_id.isdigit() or (tx and not tx.isdigit()) or len(text) > 40:
            raise ValueError(f"'{text}' is not an event cursor")
        return cls(int(tx or 0), int(event_id))


@dataclass(frozen=True, slots=True)
class Event:
    id: int
    tx: int
    type: str  # with the prefix
    time: float  # Unix seconds
    user_id: int | None
    content_id: int | None
    subject: str | None
    data: Mapping[str, Any]

    @property
    def cursor(self) -> Cursor:
        return Cursor(self.tx, self.id)

    def cloud_event(self, source: str) -> dict[str, Any]:
        """The structured CloudEvents 1.0 JSON form."""
        event: dict[str, Any] = {
            "specversion": "1.0",
            "id": str(self.id),
            "source": source,
            "type": self.type,
            "time": datetime.fromtimestamp(self.time, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "datacontenttype": "application/json",
            "data": dict(self.data),
        }
        if self.subject is not None:
            event["subject"] = self.subject
        if self.user_id is not None:
            event["userid"] = str(self.user_id)  # extension attribute: who did it
        event["cursor"] = self.cursor.encode()  # extension attribute: where to continue from
        return event


def matches(types: Iterable[str], event_type: str) -> bool:
    """A subscription's type filter: empty takes every type; ``pressroom.content.*`` a family."""
    wanted = tuple(types)
    if not wanted:
        return True
    return any(t == event_type or (t.endswith(".*") and event_type.startswith(t[:-1])) for t in wanted)


# --- Standard Webhooks signing ---------------------------------------------------------------------------

SECRET_PREFIX = "whsec_"  # noqa: S105 (the scheme's marker, not a secret)


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def check_secret(secret: str) -> bytes:
    """The key bytes of a ``whsec_<base64>`` secret; ValueError when it is not one (or under 16 bytes)."""
    if not secret.startswith(SECRET_PREFIX):
        raise ValueError("a webhook secret is 'whsec_' followed by base64")
    try:
        key = base64.b64decode(secret[len(SECRET_PREFIX) :], validate=True)
    except ValueError:
        raise ValueError("a webhook secret is 'whsec_' followed by base64") from None
    if not 16 <= len(key) <= 64:
        raise ValueError("a webhook secret holds 16 to 64 bytes")
    return key


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` header: ``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(check_secret(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signed_headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature(secret, message_id, timestamp, body),
        "content-type": "application/json",
    }


def verify(secret: str, headers: Mapping[str, str], body: bytes, now: int, tolerance: int = 300) -> bool:
    """What a receiver does (used by the tests and the CLI's test delivery): signature and timestamp."""
    try:
        timestamp = int(headers["webhook-timestamp"])
        expected = signature(secret, headers["webhook-id"], timestamp, body)
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    return any(hmac.compare_digest(expected, given) for given in headers.get("webhook-signature", "").split())


# --- subscriptions and deliveries ------------------------------------------------------------------------

MAX_ATTEMPTS = 15  # with the backoff below: about a day from the first try to the last
DISABLE_AFTER_FAILED_DELIVERIES = 5  # deliveries that used all their attempts, in a row


def backoff(attempts: int) -> float:
    """Seconds before attempt ``attempts + 1``: 5 s doubling, at most 4 hours (sum of 15: ~25 h)."""
    return float(min(5 * 2 ** max(attempts - 1, 0), 4 * 3600))


@dataclass(frozen=True, slots=True)
class Webhook:
    id: int
    url: str
    event_types: tuple[str, ...]
    subtree: str | None  # a location path string "/1/2/"; only content events below it
    enabled: bool
    disabled_reason: str | None
    created_at: int
    secret: str = field(repr=False, default="")


@dataclass(frozen=True, slots=True)
class WebhookInput:
    url: str | None = None
    event_types: tuple[str, ...] | None = None
    subtree: str | None = None
    enabled: bool | None = None
    secret: str | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    id: int
    webhook_id: int
    event_id: int
    status: str  # pending, delivered, failed
    attempts: int
    next_attempt_at: float
    last_status: int | None
    last_error: str | None
    delivered_at: float | None
