"""Webhook subscriptions and their deliveries.

A delivery is claimed for a lease (``claimed_until``) in a short transaction, sent outside any
transaction, and recorded in another: a process that dies mid-send leaves the claim to expire and another
process sends it again (at least once). On PostgreSQL claims skip rows another process has locked, so
several processes share the work without sending a delivery twice in the normal case. A delivery waits
while an earlier one with the same ordering key (the same item) to the same subscription is pending, so
each item's events arrive in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from sqlalchemy import Connection, Row, Table, and_, delete, exists, func, insert, select, update

from pressroom.domain.errors import NotFound
from pressroom.domain.event import Delivery, Event, Webhook, WebhookInput
from pressroom.storage.sql.events import event_of
from pressroom.storage.sql.schema import events, webhook_deliveries, webhooks

d = webhook_deliveries


def _webhook(row: Mapping[Any, Any]) -> Webhook:
    return Webhook(
        id=row["id"],
        url=row["url"],
        event_types=tuple(orjson.loads(row["event_types"])),
        subtree=row["subtree"],
        enabled=bool(row["enabled"]),
        disabled_reason=row["disabled_reason"],
        created_at=row["created_at"],
        secret=row["secret"],
    )


def _delivery(row: Mapping[Any, Any]) -> Delivery:
    return Delivery(
        id=row["id"],
        webhook_id=row["webhook_id"],
        event_id=row["event_id"],
        status=row["status"],
        attempts=row["attempts"],
        next_attempt_at=row["next_attempt_at"],
        last_status=row["last_status"],
        last_error=row["last_error"],
        delivered_at=row["delivered_at"],
    )


class SqlWebhookGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection
        self.postgres = connection.dialect.name == "postgresql"

    # -- subscriptions --------------------------------------------------------------------------------------
    def create(self, struct: WebhookInput, secret: str, now: int) -> Webhook:
        webhook_id = self.c.execute(
            insert(webhooks)
            .values(
                url=struct.url,
                secret=secret,
                event_types=orjson.dumps(list(struct.event_types or ())).decode(),
                subtree=struct.subtree,
                enabled=True if struct.enabled is None else struct.enabled,
                failed_in_a_row=0,
                created_at=now,
            )
            .returning(webhooks.c.id)
        ).scalar_one()
        return self.get(int(webhook_id))

    def get(self, webhook_id: int) -> Webhook:
        row = self.c.execute(select(webhooks).where(webhooks.c.id == webhook_id)).first()
        if row is None:
            raise NotFound(f"Could not find 'Webhook' with identifier '{webhook_id}'")
        return _webhook(row._mapping)

    def subscriptions(self, enabled_only: bool = False) -> list[Webhook]:
        query = select(webhooks).order_by(webhooks.c.id)
        if enabled_only:
            query = query.where(webhooks.c.enabled.is_(True))
        return [_webhook(row._mapping) for row in self.c.execute(query)]

    def update(self, webhook_id: int, struct: WebhookInput) -> Webhook:
        self.get(webhook_id)
        changes: dict[str, object] = {}
        if struct.url is not None:
            changes["url"] = struct.url
        if struct.event_types is not None:
            changes["event_types"] = orjson.dumps(list(struct.event_types)).decode()
        if struct.subtree is not None:
            changes["subtree"] = struct.subtree or None
        if struct.secret is not None:
            changes["secret"] = struct.secret
        if struct.enabled is not None:
            changes["enabled"] = struct.enabled
            if struct.enabled:  # enabling again forgets why it was disabled
                changes.update(disabled_reason=None, failed_in_a_row=0)
        if changes:
            self.c.execute(update(webhooks).where(webhooks.c.id == webhook_id).values(**changes))
        return self.get(webhook_id)

    def delete(self, webhook_id: int) -> None:
        self.get(webhook_id)
        self.c.execute(delete(d).where(d.c.webhook_id == webhook_id))
        self.c.execute(delete(webhooks).where(webhooks.c.id == webhook_id))

    def disable(self, webhook_id: int, reason: str) -> None:
        self.c.execute(
            update(webhooks).where(webhooks.c.id == webhook_id).values(enabled=False, disabled_reason=reason)
        )

    # -- deliveries -----------------------------------------------------------------------------------------
    def enqueue(self, rows: Sequence[tuple[int, int, str]], now: float) -> None:
        """(webhook id, event id, ordering key) per delivery to make, due now."""
        if not rows:
            return
        self.c.execute(
            insert(d),
            [
                {
                    "webhook_id": webhook_id,
                    "event_id": event_id,
                    "ordering_key": key,
                    "status": "pending",
                    "attempts": 0,
                    "next_attempt_at": now,
                    "claimed_until": 0.0,
                    "created_at": now,
                }
                for webhook_id, event_id, key in rows
            ],
        )

    def claim(self, now: float, lease: float, limit: int) -> list[tuple[Delivery, Webhook, Event]]:
        """Due deliveries whose earlier ones (same subscription, same key) are done, claimed for ``lease``
        seconds; with their subscription and event."""
        earlier = d.alias("earlier")
        waiting = exists().where(
            and_(
                earlier.c.webhook_id == d.c.webhook_id,
                earlier.c.ordering_key == d.c.ordering_key,
                earlier.c.id < d.c.id,
                earlier.c.status == "pending",
            )
        )
        due = (
            select(d.c.id)
            .where(d.c.status == "pending", d.c.next_attempt_at <= now, d.c.claimed_until <= now, ~waiting)
            .order_by(d.c.id)
            .limit(limit)
        )
        if self.postgres:
            due = due.with_for_update(skip_locked=True, of=d)
        ids = [row.id for row in self.c.execute(due)]
        if not ids:
            return []
        self.c.execute(update(d).where(d.c.id.in_(ids)).values(claimed_until=now + lease))
        rows = self.c.execute(
            select(d, webhooks, events)
            .join(webhooks, webhooks.c.id == d.c.webhook_id)
            .join(events, events.c.id == d.c.event_id)
            .where(d.c.id.in_(ids))
            .order_by(d.c.id)
        )
        claimed = []
        for row in rows:
            delivery = _delivery(_columns(row, d))
            claimed.append((delivery, _webhook(_columns(row, webhooks)), event_of(_columns(row, events))))
        return claimed

    def record(
        self, delivery: Delivery, *, ok: bool, status: int | None, error: str | None, now: float,
        retry_at: float | None,
    ) -> None:  # fmt: skip
        """The outcome of one attempt: delivered, to be retried at ``retry_at``, or failed for good."""
        state = "delivered" if ok else ("pending" if retry_at is not None else "failed")
        self.c.execute(
            update(d)
            .where(d.c.id == delivery.id)
            .values(
                status=state,
                attempts=d.c.attempts + 1,
                last_status=status,
                last_error=error[:1000] if error else None,
                delivered_at=now if ok else None,
                next_attempt_at=retry_at if retry_at is not None else d.c.next_attempt_at,
                claimed_until=0.0,
            )
        )
        counter = webhooks.c.failed_in_a_row
        self.c.execute(
            update(webhooks)
            .where(webhooks.c.id == delivery.webhook_id)
            .values(failed_in_a_row=0 if ok else (counter + 1 if state == "failed" else counter))
        )

    def failed_in_a_row(self, webhook_id: int) -> int:
        return int(
            self.c.execute(select(webhooks.c.failed_in_a_row).where(webhooks.c.id == webhook_id)).scalar_one()
        )

    def deliveries(self, webhook_id: int, limit: int, offset: int = 0) -> list[Delivery]:
        rows = self.c.execute(
            select(d).where(d.c.webhook_id == webhook_id).order_by(d.c.id.desc()).limit(limit).offset(offset)
        )
        return [_delivery(row._mapping) for row in rows]

    def replay(self, webhook_id: int, delivery_id: int, now: float) -> Delivery:
        """Send a delivery again (whatever its state), as soon as its turn comes."""
        changed = self.c.execute(
            update(d)
            .where(d.c.id == delivery_id, d.c.webhook_id == webhook_id)
            .values(status="pending", next_attempt_at=now, claimed_until=0.0, attempts=0)
        ).rowcount
        if not changed:
            raise NotFound(f"Could not find 'WebhookDelivery' with identifier '{delivery_id}'")
        return _delivery(self.c.execute(select(d).where(d.c.id == delivery_id)).one()._mapping)

    def prune(self, before: float) -> int:
        """Delete deliveries made before ``before`` that are done; the number deleted."""
        done = d.c.status != "pending"
        return int(self.c.execute(delete(d).where(done, d.c.created_at < before)).rowcount or 0)

    def pending(self) -> int:
        return int(self.c.execute(select(func.count()).where(d.c.status == "pending")).scalar_one())


def _columns(row: Row[Any], table: Table) -> dict[str, Any]:
    """The columns of one table out of a joined row, by name (the tables share names such as ``id``)."""
    return {column.name: row._mapping[column] for column in table.c}
