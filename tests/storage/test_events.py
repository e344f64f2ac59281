"""The event log and its consumers on both databases: appends live and die with their write, readers never
pass an event that commits later, webhooks get each event once, signed and in order per item, retried after
the receiver was down, and shared by two processes' dispatchers; JetStream gets every event once."""

from __future__ import annotations

import asyncio
import http.server
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

import nats
import orjson
import pytest

from pressroom.domain.event import Cursor, NewEvent, WebhookInput, new_secret, verify
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.metrics import render_metrics
from pressroom.services.event_dispatch import Dispatcher
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.conftest import free_port
from tests.helpers import local_http_server


class Boom(Exception):
    pass


def append(
    store: SqlStore, kind: str = "section.created", content_id: int | None = None, **data: object
) -> None:
    with store.write() as tx:
        subject = f"content/{content_id}" if content_id else "section/1"
        tx.events.append(NewEvent(kind, 14, content_id, subject, data))


def settle(store: SqlStore) -> None:
    """Wait (bounded) until every event committed so far is visible to readers. On PostgreSQL a reader sees
    events only below the oldest transaction running in the whole cluster; other work on the same server
    (a test database being dropped) can hold that back for a moment."""
    mark = f"settle/{uuid.uuid4().hex}"
    with store.write() as tx:
        tx.events.append(NewEvent("section.updated", None, None, mark))
    deadline = time.monotonic() + 60
    while True:
        with store.read() as tx:
            if any(event.subject == mark for event in tx.events.read(Cursor(), 100_000, UNRESTRICTED)):
                return
        assert time.monotonic() < deadline, "committed events did not become visible"
        time.sleep(0.05)


def everything(store: SqlStore) -> list[tuple[str, int | None, dict[str, object]]]:
    settle(store)
    with store.read() as tx:
        events = tx.events.read(Cursor(), 1000, UNRESTRICTED)
    return [
        (e.type, e.content_id, dict(e.data)) for e in events if not (e.subject or "").startswith("settle/")
    ]


def test_an_event_lives_and_dies_with_its_write(store: SqlStore) -> None:
    append(store, "content.published", 57, version=2)
    with pytest.raises(Boom), store.write() as tx:
        tx.events.append(NewEvent("content.deleted", 14, 57, "content/57"))
        raise Boom
    assert everything(store) == [("pressroom.content.published", 57, {"version": 2})]


def test_unknown_event_types_are_refused_where_they_are_made() -> None:
    with pytest.raises(ValueError, match="unknown event type"):
        NewEvent("content.exploded", 14)


def test_a_cursor_round_trips_and_rejects_junk() -> None:
    assert Cursor.decode(Cursor(7133, 42).encode()) == Cursor(7133, 42)
    assert Cursor.decode("42") == Cursor(0, 42)
    for junk in ("", "-", "a-1", "1-b", "1--2", "9" * 41):
        with pytest.raises(ValueError):
            Cursor.decode(junk)


@pytest.fixture
def postgres_store(installed_postgres_url: str) -> Iterator[SqlStore]:
    engine = make_engine(installed_postgres_url)
    yield SqlStore(engine)
    engine.dispose()


def test_a_reader_never_passes_an_event_that_commits_later(postgres_store: SqlStore) -> None:
    """On PostgreSQL the first writer takes the smaller id but commits last: a reader between the two
    commits must not see the second event yet, or its cursor would skip the first one. (SQLite's writers
    commit one at a time, so its ids are in commit order: nothing to race there.)"""
    store = postgres_store
    first_open, second_done, release = threading.Event(), threading.Event(), threading.Event()

    def slow_writer() -> None:
        with store.write() as tx:
            tx.events.append(NewEvent("section.created", 14, None, "section/first"))
            first_open.set()
            release.wait(10)

    thread = threading.Thread(target=slow_writer)
    thread.start()
    assert first_open.wait(10)
    with store.write() as tx:
        tx.events.append(NewEvent("section.created", 14, None, "section/second"))
    second_done.set()
    with store.read() as tx:
        assert (
            tx.events.read(Cursor(), 10, UNRESTRICTED) == []
        )  # the second is committed, but waits for the first
    release.set()
    thread.join(10)
    settle(store)
    with store.read() as tx:
        subjects = [e.subject for e in tx.events.read(Cursor(), 10, UNRESTRICTED)]
    assert subjects[:2] == ["section/first", "section/second"]


# --- webhooks --------------------------------------------------------------------------------------------


@dataclass
class Receiver:
    """A real HTTP server on a free port that records what it is sent (and can be told to fail)."""

    port: int
    received: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    status: int = 204

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(free_port())

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["content-length"]))
            if state.status < 300:
                state.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(state.status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    with local_http_server(Handler, state.port):
        yield state


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def dispatcher(store: SqlStore, clock: Clock) -> Dispatcher:
    return Dispatcher(store, source="/api/ibexa/v2", allow_private=True, clock=clock, timeout=5)


def drain(*dispatchers: Dispatcher, rounds: int = 20) -> None:
    """Step every dispatcher, concurrently, until none has work left (bounded)."""

    settle(dispatchers[0].store)  # type: ignore[arg-type]

    async def go() -> None:
        for _ in range(rounds):
            busy = await asyncio.gather(*(d.step() for d in dispatchers))
            if not any(busy):
                return

    asyncio.run(go())


def subscribe(store: SqlStore, url: str, secret: str, **options: object) -> int:
    with store.write() as tx:
        return tx.webhooks.create(WebhookInput(url=url, **options), secret, int(time.time()) - 1).id  # type: ignore[arg-type]


def test_webhook_gets_each_event_once_signed_in_order_and_after_being_down(
    store: SqlStore, receiver: Receiver
) -> None:
    clock, secret = Clock(), new_secret()
    one = dispatcher(store, clock)
    drain(one)  # the fan-out cursor starts at the end of the log: nothing before the subscription
    subscribe(store, receiver.url, secret, event_types=("pressroom.content.*",))
    for version in (1, 2, 3):
        append(store, "content.published", 57, version=version)
    append(store, "section.created")  # not a type the subscription wants
    drain(one)
    bodies = [orjson.loads(body) for _, body in receiver.received]
    assert [(b["type"], b["data"]["version"]) for b in bodies] == [
        ("pressroom.content.published", v) for v in (1, 2, 3)
    ]
    for headers, body in receiver.received:
        assert verify(secret, headers, body, int(clock()))
        assert not verify(new_secret(), headers, body, int(clock()))
    assert bodies[0]["specversion"] == "1.0" and bodies[0]["subject"] == "content/57"

    receiver.status = 503  # down: two more events wait and are retried, still in order
    append(store, "content.published", 57, version=4)
    append(store, "content.published", 57, version=5)
    drain(one)
    assert len(receiver.received) == 3
    one.measure()  # /metrics shows what waits
    metrics = render_metrics().decode()
    assert "pressroom_webhook_deliveries_pending 2.0" in metrics
    assert 'pressroom_event_backlog{consumer="webhooks"} 0.0' in metrics  # fanned out, not yet delivered
    receiver.status = 204
    clock.now += 3600  # past the backoff
    drain(one)
    assert [orjson.loads(body)["data"]["version"] for _, body in receiver.received] == [1, 2, 3, 4, 5]


def test_a_subscription_that_keeps_failing_is_disabled_with_the_reason(
    store: SqlStore, receiver: Receiver
) -> None:
    clock = Clock()
    one = dispatcher(store, clock)
    drain(one)
    webhook_id = subscribe(store, receiver.url, new_secret(), event_types=("pressroom.content.*",))
    receiver.status = 410
    append(store, "content.published", 57, version=1)
    drain(one)
    with store.read() as tx:
        webhook = tx.webhooks.get(webhook_id)
        assert not webhook.enabled and webhook.disabled_reason and "410" in webhook.disabled_reason
        [delivery] = tx.webhooks.deliveries(webhook_id, 10)
    assert delivery.status == "failed" and delivery.last_status == 410
    with store.write() as tx:  # a replay sends it again once the receiver is back
        tx.webhooks.update(webhook_id, WebhookInput(enabled=True))
        tx.webhooks.replay(webhook_id, delivery.id, clock())
    receiver.status = 204
    drain(one)
    assert len(receiver.received) == 1


def test_two_processes_deliver_each_event_once(database_url: str, receiver: Receiver) -> None:
    engines = [make_engine(database_url) for _ in range(2)]
    try:
        stores = [SqlStore(engine) for engine in engines]
        clock = Clock()
        both = [dispatcher(s, clock) for s in stores]
        drain(*both)
        subscribe(stores[0], receiver.url, new_secret(), event_types=("pressroom.content.published",))
        for item in range(8):
            for version in range(3):
                append(stores[item % 2], "content.published", 100 + item, version=version)
        drain(*both, rounds=60)
        ids = [orjson.loads(body)["id"] for _, body in receiver.received]
        assert len(ids) == 24 and len(set(ids)) == 24
        for item in range(8):
            versions = [
                orjson.loads(body)["data"]["version"]
                for _, body in receiver.received
                if orjson.loads(body)["subject"] == f"content/{100 + item}"
            ]
            assert versions == [0, 1, 2]
    finally:
        for engine in engines:
            engine.dispose()


def test_events_reach_a_jetstream_consumer_once(store: SqlStore) -> None:
    from pressroom.storage.broker import NatsPublisher

    stream, subject = f"PRESSROOM_TEST_{free_port()}", f"pressroom.test{free_port()}"
    publisher = NatsPublisher("nats://127.0.0.1:4222", stream, subject, "/api/ibexa/v2")
    one = Dispatcher(store, source="/api/ibexa/v2", publishers=[publisher])

    async def run() -> list[dict[str, object]]:
        await one.step()  # the publisher's cursor starts at the end of the log
        append(store, "content.published", 57, version=1)
        append(store, "section.created")
        settle(store)
        await one.step()
        with store.read() as tx:  # a crash before the cursor moved: the same batch is sent again
            batch = tx.events.read(Cursor(), 1000, UNRESTRICTED)[-2:]
        await publisher.publish(batch)
        await publisher.close()
        client = await nats.connect("nats://127.0.0.1:4222")
        try:
            jetstream = client.jetstream()
            consumer = await jetstream.pull_subscribe(f"{subject}.>", durable=None, stream=stream)
            messages = await consumer.fetch(10, timeout=2)
            seen = [orjson.loads(message.data) for message in messages]
            await jetstream.delete_stream(stream)
            return seen
        finally:
            await client.close()

    seen = asyncio.run(run())
    assert [(event["type"], event.get("subject")) for event in seen][:2] == [
        ("pressroom.content.published", "content/57"),
        ("pressroom.section.created", "section/1"),
    ]
    assert len(seen) == 3  # and the settle mark: each once, though the batch was sent twice


def test_old_events_and_finished_deliveries_are_pruned(store: SqlStore, receiver: Receiver) -> None:
    clock = Clock()
    one = dispatcher(store, clock)
    drain(one)
    subscribe(store, receiver.url, new_secret(), event_types=("pressroom.content.*",))
    append(store, "content.published", 57, version=1)
    drain(one)
    receiver.status = 503
    append(store, "content.published", 58, version=1)
    drain(one)  # this one waits for its retry: pending
    with store.read() as tx:
        assert tx.events.count_after(Cursor()) >= 2 and tx.webhooks.pending() == 1
    one.prune(clock() + 31 * 86400)  # past the 30-day retention
    with store.read() as tx:
        # what a pending delivery still has to send stays; the rest goes
        assert [e.content_id for e in tx.events.read(Cursor(), 10, UNRESTRICTED)] == [58]
        webhook_id = tx.webhooks.subscriptions()[0].id
        assert [d.status for d in tx.webhooks.deliveries(webhook_id, 10)] == ["pending"]
