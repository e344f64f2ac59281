"""The dispatcher: carries committed events to webhooks and brokers, outside every API request.

Each server worker runs one (``app.py`` starts it with the worker's event loop). A step:
1. fan-out: new events past the ``webhooks`` cursor become deliveries for the subscriptions that want them
   (one process at a time holds that cursor; the others skip);
2. brokers: each publisher sends the events past its own cursor, then moves the cursor;
3. deliveries: due ones are claimed for a lease, sent (signed, in parallel, no redirects followed), and
   the outcome recorded: delivered, retried with exponential backoff, or failed after its last attempt;
   a subscription whose deliveries keep failing, or that answers 410 Gone, is disabled with the reason;
4. now and then, events and finished deliveries older than the retention are pruned.
Database work runs in threads, so a slow receiver or database never blocks the worker's requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import orjson

from pressroom.domain.event import (
    DISABLE_AFTER_FAILED_DELIVERIES,
    MAX_ATTEMPTS,
    Delivery,
    Event,
    Webhook,
    backoff,
    matches,
    signed_headers,
)
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.metrics import observe_events
from pressroom.services.events import refusal
from pressroom.storage.broker import EventPublisher
from pressroom.storage.spi import Store

log = logging.getLogger("pressroom.events")

FAN_OUT = "webhooks"
BATCH = 500
CLAIMS = 100
PRUNE_EVERY = 300.0
MEASURE_EVERY = 10.0


@dataclass(frozen=True, slots=True)
class Outcome:
    ok: bool
    status: int | None
    error: str | None


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args: object, **_kwargs: object) -> None:
        return None  # a 3xx is an answer, not an instruction: it would lead past the address check


_OPENER = urllib.request.build_opener(_NoRedirects)


def ordering_key(event: Event) -> str:
    return f"content/{event.content_id}" if event.content_id is not None else (event.subject or "-")


def wants(webhook: Webhook, event: Event) -> bool:
    if event.time < webhook.created_at or not matches(webhook.event_types, event.type):
        return False
    if webhook.subtree is None:
        return True
    paths = [str(location.get("path", "")) for location in event.data.get("locations", ())]
    return any(path.startswith(webhook.subtree) for path in paths)


class WebhookSender:
    """One signed POST of an event (CloudEvents JSON) to a subscription's URL, no redirects followed."""

    def __init__(
        self, source: str, *, timeout: float = 10.0, allow_private: bool = False,
        own_ports: frozenset[int] = frozenset(), clock: Callable[[], float] = time.time,
    ) -> None:  # fmt: skip
        self.source = source
        self.timeout = timeout
        self.allow_private = allow_private
        self.own_ports = own_ports
        self.clock = clock

    def __call__(self, webhook: Webhook, event: Event) -> Outcome:
        why = refusal(webhook.url, allow_private=self.allow_private, own_ports=self.own_ports)
        if why:
            return Outcome(False, None, why)
        body = orjson.dumps(event.cloud_event(self.source))
        headers = signed_headers(webhook.secret, f"evt_{event.id}", int(self.clock()), body)
        headers["user-agent"] = "Pressroom-Webhooks/1"
        request = urllib.request.Request(webhook.url, data=body, headers=headers, method="POST")  # noqa: S310
        try:
            with _OPENER.open(request, timeout=self.timeout) as answer:
                return Outcome(200 <= answer.status < 300, answer.status, None)
        except urllib.error.HTTPError as error:
            return Outcome(False, error.code, f"HTTP {error.code}")
        except (OSError, ValueError) as error:
            return Outcome(False, None, f"{type(error).__name__}: {error}")


class Dispatcher:
    def __init__(
        self, store: Store, *, source: str, publishers: Sequence[EventPublisher] = (),
        poll_seconds: float = 0.5, retention_days: float = 30.0, timeout: float = 10.0,
        allow_private: bool = False, own_ports: frozenset[int] = frozenset(),
        clock: Callable[[], float] = time.time,
    ) -> None:  # fmt: skip
        self.store = store
        self.publishers = tuple(publishers)
        self.poll_seconds = poll_seconds
        self.retention = retention_days * 86400
        self.lease = timeout * 2 + 30
        self.send = WebhookSender(
            source, timeout=timeout, allow_private=allow_private, own_ports=own_ports, clock=clock
        )
        self.clock = clock
        self._pruned_at = 0.0
        self._measured_at = 0.0

    # -- the loop -------------------------------------------------------------------------------------------
    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                busy = await self.step()
            except Exception:
                log.exception("event dispatch step failed")
                busy = False
            if not busy:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self.poll_seconds)
        for publisher in self.publishers:
            await publisher.close()

    async def step(self) -> bool:
        """One round of work; True when more is waiting (the loop goes on at once): a full batch of
        events, or deliveries sent (the next ones of the same items wait for them). Events that trickle in
        are taken once per poll, so steady writes do not keep the dispatcher in a loop of transactions
        (on SQLite each would queue behind the API's writers for the one write lock)."""
        busy = await asyncio.to_thread(self.fan_out) == BATCH
        for publisher in self.publishers:
            busy = await self.publish(publisher) == BATCH or busy
        busy = await self.deliver() or busy
        now = self.clock()
        if now - self._pruned_at > PRUNE_EVERY:
            self._pruned_at = now
            await asyncio.to_thread(self.prune, now)
        if now - self._measured_at > MEASURE_EVERY:
            self._measured_at = now
            await asyncio.to_thread(self.measure)
        return busy

    def measure(self) -> None:
        """Backlogs per consumer and pending deliveries, for ``/metrics``."""
        with self.store.read() as tx:
            backlogs, pending = tx.events.backlogs(), tx.webhooks.pending()
        observe_events(backlogs, pending)

    # -- 1. fan-out -----------------------------------------------------------------------------------------
    def fan_out(self) -> int:
        """Turn new events into deliveries; the number of events taken."""
        with self.store.read() as tx:
            cursor = tx.events.cursor(FAN_OUT)
            if cursor is not None and not tx.events.read(cursor, 1, UNRESTRICTED):
                return 0  # nothing new: no write transaction
        with self.store.write() as tx:
            cursor = tx.events.claim_cursor(FAN_OUT)
            if cursor is None:
                if tx.events.cursor(FAN_OUT) is None:  # the first run: start from now
                    tx.events.set_cursor(FAN_OUT, tx.events.end())
                return 0
            batch = tx.events.read(cursor, BATCH, UNRESTRICTED)
            if not batch:
                return 0
            subscriptions = tx.webhooks.subscriptions(enabled_only=True)
            rows = [
                (webhook.id, event.id, ordering_key(event))
                for event in batch
                for webhook in subscriptions
                if wants(webhook, event)
            ]
            tx.webhooks.enqueue(rows, self.clock())
            tx.events.set_cursor(FAN_OUT, batch[-1].cursor)
        return len(batch)

    # -- 2. brokers -----------------------------------------------------------------------------------------
    async def publish(self, publisher: EventPublisher) -> int:
        """Send the events past the publisher's cursor; the number sent."""
        batch = await asyncio.to_thread(self._unpublished, publisher.name)
        if not batch:
            return 0
        await publisher.publish(batch)  # the broker de-duplicates by event id if this runs twice
        await asyncio.to_thread(self._published, publisher.name, batch[-1])
        return len(batch)

    def _unpublished(self, name: str) -> list[Event]:
        with self.store.read() as tx:
            cursor = tx.events.cursor(name)
            if cursor is not None:
                return tx.events.read(cursor, BATCH, UNRESTRICTED)
        with self.store.write() as tx:  # a new publisher starts from now
            if tx.events.cursor(name) is None:
                tx.events.set_cursor(name, tx.events.end())
        return []

    def _published(self, name: str, last: Event) -> None:
        with self.store.write() as tx:
            cursor = tx.events.claim_cursor(name)
            if cursor is not None and (cursor.tx, cursor.id) < (last.tx, last.id):
                tx.events.set_cursor(name, last.cursor)

    # -- 3. deliveries --------------------------------------------------------------------------------------
    async def deliver(self) -> bool:
        claimed = await asyncio.to_thread(self._claim)
        if not claimed:
            return False
        outcomes = await asyncio.gather(
            *(asyncio.to_thread(self.send, webhook, event) for _, webhook, event in claimed)
        )
        await asyncio.to_thread(
            self._record, [(d, w, o) for (d, w, _), o in zip(claimed, outcomes, strict=True)]
        )
        return True

    def _claim(self) -> list[tuple[Delivery, Webhook, Event]]:
        now = self.clock()
        with self.store.read() as tx:
            if not tx.webhooks.pending():
                return []
        with self.store.write() as tx:
            return tx.webhooks.claim(now, self.lease, CLAIMS)

    def _record(self, results: Sequence[tuple[Delivery, Webhook, Outcome]]) -> None:
        now = self.clock()
        with self.store.write() as tx:
            for delivery, webhook, outcome in results:
                attempts = delivery.attempts + 1
                retry = not outcome.ok and attempts < MAX_ATTEMPTS and outcome.status != 410
                tx.webhooks.record(
                    delivery, ok=outcome.ok, status=outcome.status, error=outcome.error, now=now,
                    retry_at=now + backoff(attempts) if retry else None,
                )  # fmt: skip
                if outcome.status == 410:
                    tx.webhooks.disable(webhook.id, "the receiver answered 410 Gone")
                elif (
                    not outcome.ok
                    and not retry
                    and tx.webhooks.failed_in_a_row(webhook.id) >= DISABLE_AFTER_FAILED_DELIVERIES
                ):
                    tx.webhooks.disable(
                        webhook.id,
                        f"{DISABLE_AFTER_FAILED_DELIVERIES} deliveries in a row failed after "
                        f"{MAX_ATTEMPTS} attempts; last: {outcome.error or outcome.status}",
                    )
                if not outcome.ok:
                    log.warning(
                        "webhook delivery failed",
                        extra={"webhook": webhook.id, "event": delivery.event_id, "attempt": attempts,
                               "status": outcome.status, "error": outcome.error},
                    )  # fmt: skip

    # -- 4. retention ---------------------------------------------------------------------------------------
    def prune(self, now: float) -> None:
        """Events, and deliveries that are done (delivered or failed), older than the retention."""
        with self.store.write() as tx:
            pruned = tx.events.prune(now - self.retention)
            finished = tx.webhooks.prune(now - self.retention)
        if pruned or finished:
            log.info("pruned old events", extra={"events": pruned, "deliveries": finished})
