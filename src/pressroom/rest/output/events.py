"""Visitors for webhook subscriptions and their deliveries (the event feed answers CloudEvents JSON)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from pressroom.domain.event import Delivery, Webhook
from pressroom.rest.output.lists import ItemList, list_kind
from pressroom.rest.output.visitor import Out, Representation, visits


@dataclass(frozen=True, slots=True)
class NewWebhook:
    """A subscription just created: the only answer that shows its secret."""

    webhook: Webhook


@dataclass(frozen=True, slots=True)
class WebhookTest:
    """The outcome of a test delivery sent at once."""

    webhook_id: int
    ok: bool
    status: int | None
    error: str | None


def _time(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def webhook_body(out: Out, webhook: Webhook, *, secret: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {
        "_media-type": out.media("Webhook"),
        "_href": out.url("webhook.load", webhookId=webhook.id),
        "id": webhook.id,
        "url": webhook.url,
        "eventTypes": {"eventType": list(webhook.event_types)},
        "subtree": webhook.subtree,
        "enabled": webhook.enabled,
        "disabledReason": webhook.disabled_reason,
        "createdAt": _time(webhook.created_at),
        "Deliveries": out.ref("WebhookDeliveryList", "webhook.deliveries", webhookId=webhook.id),
    }
    if secret:
        body["secret"] = webhook.secret
    return body


@visits(Webhook, "Webhook")
def visit_webhook(out: Out, webhook: Webhook) -> Representation:
    return Representation.single("Webhook", webhook_body(out, webhook), webhook, patch="WebhookInput")


@visits(NewWebhook, "Webhook")
def visit_new_webhook(out: Out, value: NewWebhook) -> Representation:
    body = webhook_body(out, value.webhook, secret=True)
    return Representation.single("Webhook", body, value.webhook, patch="WebhookInput")


WebhookList = ItemList[Literal["WebhookList"], Webhook]
list_kind("WebhookList", "Webhook", webhook_body, tagged=True)


def delivery_body(out: Out, delivery: Delivery) -> dict[str, Any]:
    return {
        "_media-type": out.media("WebhookDelivery"),
        "_href": out.url("webhook.delivery", webhookId=delivery.webhook_id, deliveryId=delivery.id),
        "id": delivery.id,
        "eventId": delivery.event_id,
        "status": delivery.status,
        "attempts": delivery.attempts,
        "nextAttemptAt": _time(delivery.next_attempt_at) if delivery.status == "pending" else None,
        "lastStatus": delivery.last_status,
        "lastError": delivery.last_error,
        "deliveredAt": _time(delivery.delivered_at),
    }


@visits(Delivery, "WebhookDelivery")
def visit_delivery(out: Out, delivery: Delivery) -> Representation:
    return Representation.single("WebhookDelivery", delivery_body(out, delivery), delivery)


DeliveryList = ItemList[Literal["WebhookDeliveryList"], Delivery]
list_kind("WebhookDeliveryList", "WebhookDelivery", delivery_body, tagged=True)


@visits(WebhookTest, "WebhookTest")
def visit_webhook_test(out: Out, value: WebhookTest) -> Representation:
    body = {
        "_media-type": out.media("WebhookTest"),
        "_href": out.url("webhook.test", webhookId=value.webhook_id),
        "delivered": value.ok,
        "status": value.status,
        "error": value.error,
    }
    return Representation.single("WebhookTest", body, value)
