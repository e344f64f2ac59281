"""The event feed (CloudEvents JSON) and webhook subscriptions."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import orjson

from pressroom.domain.errors import BadRequest
from pressroom.domain.event import Delivery, Event, Webhook, WebhookInput
from pressroom.rest.input.node import Node, as_list
from pressroom.rest.input.registry import plain
from pressroom.rest.output.events import DeliveryList, NewWebhook, WebhookList, WebhookTest
from pressroom.rest.output.lists import ItemList
from pressroom.rest.request import RestRequest
from pressroom.rest.responses import Created, NoContent, RawBody, Stream

BATCH = "application/cloudevents-batch+json"
DEFAULT_FEED_LIMIT = 100
DEFAULT_DELIVERY_LIMIT = 50
HEARTBEAT = 15.0  # seconds of quiet before a comment line
POLL = 0.5  # seconds between looks for new events while the stream is quiet


def read_feed(req: RestRequest) -> RawBody | Stream:
    """``GET /events?after=&limit=``: the events after the cursor that the caller may see, oldest first,
    as a CloudEvents JSON batch; ``Pressroom-Cursor`` (and ``Link: rel=next``) say where to go on from.
    With ``Accept: text/event-stream``, the same events live as Server-Sent Events."""
    limit = req.query_int("limit", DEFAULT_FEED_LIMIT)
    if "text/event-stream" in (req.headers.get("accept") or ""):
        return _stream(req, limit)
    events, cursor = req.services.events.feed(req.user, req.query.get("after"), limit)
    source = req.out.rendering.dialect.prefix
    body = orjson.dumps([event.cloud_event(source) for event in events])
    next_page = f"{req.url('event.feed')}?after={cursor.encode()}&limit={limit}"
    headers = {
        "pressroom-cursor": cursor.encode(),
        "link": f'<{next_page}>; rel="next"',
        "cache-control": "no-store",
    }
    return RawBody(body, BATCH, headers)


def _webhook_input(req: RestRequest) -> WebhookInput:
    node = req.input(plain)
    types = None
    if node.has("eventTypes"):
        raw = node.raw("eventTypes")
        listed = (
            as_list(Node(raw, f"{node.where}.eventTypes").data.get("eventType"))
            if raw not in (None, "")
            else []
        )
        if not all(isinstance(item, str) for item in listed):
            raise BadRequest(f"'eventTypes.eventType' in {node.where} must be a list of strings")
        types = tuple(listed)
    return WebhookInput(
        url=node.opt_string("url"),
        event_types=types,
        subtree=node.opt_string("subtree") if node.has("subtree") else None,
        enabled=node.opt_boolean("enabled"),
        secret=node.opt_string("secret"),
    )


def list_webhooks(req: RestRequest) -> WebhookList:
    return ItemList("WebhookList", req.url("webhook.list"), req.services.events.subscriptions(req.user))


def create_webhook(req: RestRequest) -> Created[NewWebhook]:
    webhook = req.services.events.create(req.user, _webhook_input(req))
    return Created(req.url("webhook.load", webhookId=webhook.id), NewWebhook(webhook))


def load_webhook(req: RestRequest, webhookId: int) -> Webhook:
    return req.services.events.get(req.user, webhookId)


def update_webhook(req: RestRequest, webhookId: int) -> Webhook:
    return req.services.events.update(req.user, webhookId, _webhook_input(req))


def delete_webhook(req: RestRequest, webhookId: int) -> NoContent:
    req.services.events.delete(req.user, webhookId)
    return NoContent()


def list_deliveries(req: RestRequest, webhookId: int) -> DeliveryList:
    offset = max(req.query_int("offset", 0), 0)
    limit = min(max(req.query_int("limit", DEFAULT_DELIVERY_LIMIT), 0), 500)
    deliveries = req.services.events.deliveries(req.user, webhookId, limit, offset)
    return ItemList("WebhookDeliveryList", req.url("webhook.deliveries", webhookId=webhookId), deliveries)


def replay_delivery(req: RestRequest, webhookId: int, deliveryId: int) -> Delivery:
    return req.services.events.replay(req.user, webhookId, deliveryId)


def test_webhook(req: RestRequest, webhookId: int) -> WebhookTest:
    outcome: Any = req.services.events.test(req.user, webhookId)
    return WebhookTest(webhookId, outcome.ok, outcome.status, outcome.error)


def _sse(event: Event, source: str) -> bytes:
    data = orjson.dumps(event.cloud_event(source)).decode()
    return f"id: {event.cursor.encode()}\nevent: {event.type}\ndata: {data}\n\n".encode()


def _stream(req: RestRequest, limit: int) -> Stream:
    """Server-Sent Events: each event's ``id`` is its cursor, so a client that reconnects with
    ``Last-Event-ID`` goes on where it was; a comment line every ``HEARTBEAT`` seconds keeps proxies from
    closing an idle stream. The first page is read here, so a bad cursor is a 400, not a broken stream."""
    service, user, source = req.services.events, req.user, req.out.rendering.dialect.prefix
    after = req.headers.get("last-event-id") or req.query.get("after")
    first, cursor = service.feed(user, after, limit)

    async def chunks() -> AsyncIterator[bytes]:
        nonlocal cursor
        yield b"retry: 2000\n\n"
        events, quiet_since = first, time.monotonic()
        while True:
            for event in events:
                yield _sse(event, source)
            if events:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= HEARTBEAT:
                yield b": heartbeat\n\n"
                quiet_since = time.monotonic()
            await asyncio.sleep(0 if events else POLL)
            events, cursor = await asyncio.to_thread(service.feed, user, cursor.encode(), limit)

    headers = {"cache-control": "no-store", "x-accel-buffering": "no"}
    return Stream(chunks, "text/event-stream; charset=utf-8", headers)
