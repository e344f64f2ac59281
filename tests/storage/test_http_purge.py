"""The HTTP cache purger (storage/purge.py) as an event consumer: keys of committed events reach every
endpoint, and a proxy that fails keeps them until it answers."""

from __future__ import annotations

import asyncio
import http.server
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from pressroom.app import WithDispatcher, make_dispatcher
from pressroom.config import settings_from_env
from pressroom.domain.event import Cursor, NewEvent
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.services.event_dispatch import Dispatcher
from pressroom.storage.purge import NAME, Fastly, Varnish, XkeyPurger, parse_endpoints
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.conftest import free_port
from tests.helpers import local_http_server
from tests.storage.test_events import settle


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    engine = make_engine(database_url)
    yield SqlStore(engine)
    engine.dispose()


@dataclass
class FakeProxy:
    port: int
    status: int = 200
    received: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    attempts: int = 0
    order: list[str] = field(default_factory=list)  # "purged" as each purge arrives (tests add more)

    @property
    def endpoint(self) -> Varnish:
        return Varnish(f"http://127.0.0.1:{self.port}")

    def keys(self) -> set[str]:
        return {key for _, headers in self.received for key in headers.get("xkey-purge", "").split()}


@pytest.fixture
def proxy() -> Iterator[FakeProxy]:
    state = FakeProxy(free_port())

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_PURGEKEYS(self) -> None:
            state.attempts += 1
            if state.status < 300:
                state.received.append((self.command, {k.lower(): v for k, v in self.headers.items()}))
                state.order.append("purged")
            self.send_response(state.status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    with local_http_server(Handler, state.port):
        yield state


def _publish(store: SqlStore, content_id: int, location_id: int, parent_id: int) -> None:
    with store.write() as tx:
        tx.events.append(
            NewEvent(
                "content.published", 14, content_id, f"content/{content_id}",
                {"contentId": content_id, "locations": [
                    {"id": location_id, "parentId": parent_id, "path": f"/1/{parent_id}/{location_id}/"}
                ]},
            )
        )  # fmt: skip


def test_committed_events_purge_their_keys_at_every_endpoint(store: SqlStore, proxy: FakeProxy) -> None:
    purger = XkeyPurger([proxy.endpoint, proxy.endpoint])
    dispatcher = Dispatcher(store, source="/api", publishers=[purger])
    assert asyncio.run(dispatcher.publish(purger)) == 0  # a new consumer starts from now
    _publish(store, 42, 50, 2)
    settle(store)
    assert asyncio.run(dispatcher.publish(purger)) >= 1  # the write's event (and settle's marker)
    assert len(proxy.received) == 2  # one request per endpoint for the whole batch
    assert all(method == "PURGEKEYS" for method, _ in proxy.received)
    assert {"c42", "cv42", "r42", "l50", "pl2"} <= proxy.keys()
    proxy.received.clear()
    assert asyncio.run(dispatcher.publish(purger)) == 0
    assert proxy.received == []


def test_a_failing_proxy_keeps_the_keys_until_it_answers(store: SqlStore, proxy: FakeProxy) -> None:
    purger = XkeyPurger([proxy.endpoint], soft=True)
    dispatcher = Dispatcher(store, source="/api", publishers=[purger])
    asyncio.run(dispatcher.publish(purger))
    _publish(store, 43, 51, 2)
    settle(store)
    proxy.status = 503
    with pytest.raises(RuntimeError, match="HTTP 503"):
        asyncio.run(dispatcher.publish(purger))
    assert proxy.attempts == 1
    proxy.status = 200
    assert asyncio.run(dispatcher.publish(purger)) >= 1
    sent = {key for _, headers in proxy.received for key in headers["xkey-softpurge"].split()}
    assert {"c43", "l51", "pl2"} <= sent


def test_endpoints_and_batches() -> None:
    assert parse_endpoints(["varnish:http://127.0.0.1:6081"]) == (Varnish("http://127.0.0.1:6081"),)
    for wrong in ("fastly:http://x", "fastly:", "varnish:127.0.0.1:6081", "squid:http://x"):
        with pytest.raises(ValueError, match="PRESSROOM_HTTP_CACHE_PURGE"):
            parse_endpoints([wrong], fastly_token="t")
    with pytest.raises(ValueError, match="PRESSROOM_FASTLY_API_TOKEN"):
        parse_endpoints(["fastly:abc123"])
    keys = {f"c{n}" for n in range(3000)}
    groups = Varnish("http://x").batches(keys)
    assert len(groups) > 1
    assert all(len(" ".join(group)) <= 6000 for group in groups)
    assert sorted(key for group in groups for key in group) == sorted(keys)
    groups = Fastly("abc", "t").batches(keys)
    assert [len(group) for group in groups] == [256] * 11 + [184]
    assert sorted(key for group in groups for key in group) == sorted(keys)


def test_the_settings_name_the_endpoints_and_a_bad_one_stops_the_start(store: SqlStore) -> None:
    env = {
        "PRESSROOM_HTTP_CACHE_PURGE": "varnish:http://10.0.0.1:6081,varnish:http://10.0.0.2:6081,fastly:Svc1",
        "PRESSROOM_FASTLY_API_TOKEN": "secret-9",
        "PRESSROOM_FASTLY_API_URL": "http://127.0.0.1:1",
    }
    settings = settings_from_env(env)
    purgers = [p for p in make_dispatcher(settings, store).publishers if isinstance(p, XkeyPurger)]
    assert [purger.endpoints for purger in purgers] == [
        (Varnish("http://10.0.0.1:6081"), Varnish("http://10.0.0.2:6081"),
         Fastly("Svc1", "secret-9", "http://127.0.0.1:1")),
    ]  # fmt: skip
    assert "secret-9" not in repr(settings) + repr(purgers[0].endpoints)
    with pytest.raises(ValueError, match="PRESSROOM_HTTP_CACHE_PURGE entry"):
        make_dispatcher(settings_from_env({"PRESSROOM_HTTP_CACHE_PURGE": "127.0.0.1:6081"}), store)
    with pytest.raises(ValueError, match="PRESSROOM_FASTLY_API_TOKEN"):
        make_dispatcher(settings_from_env({"PRESSROOM_HTTP_CACHE_PURGE": "fastly:Svc1"}), store)


def _serve(store: SqlStore, endpoint: Varnish, method: str, order: list[str]) -> None:
    """One request through the dispatcher wrapper (synchronous purge) around an application whose every
    POST commits an event; ``order`` gets "answered" when the answer starts."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["method"] == "POST":
            _publish(store, 44, 52, 2)
            settle(store)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            order.append("answered")

    dispatcher = Dispatcher(store, source="/api", publishers=[XkeyPurger([endpoint])])
    wrapped = WithDispatcher(app, dispatcher, sync_purge=True)  # type: ignore[arg-type]
    asyncio.run(wrapped({"type": "http", "method": method, "path": "/"}, receive, send))


def test_a_write_is_answered_after_its_keys_are_purged(store: SqlStore, proxy: FakeProxy) -> None:
    asyncio.run(Dispatcher(store, source="/api").publish(XkeyPurger([proxy.endpoint])))  # start the cursor
    _serve(store, proxy.endpoint, "GET", proxy.order)
    assert proxy.order == ["answered"]  # a read waits for nothing
    _serve(store, proxy.endpoint, "POST", proxy.order)
    assert proxy.order == ["answered", "purged", "answered"]
    assert {"c44", "l52", "pl2"} <= proxy.keys()


def test_a_proxy_that_is_down_does_not_hold_the_answer(store: SqlStore) -> None:
    endpoint = Varnish(f"http://127.0.0.1:{free_port()}")
    asyncio.run(Dispatcher(store, source="/api").publish(XkeyPurger([endpoint])))
    order: list[str] = []
    _serve(store, endpoint, "POST", order)
    assert order == ["answered"]
    with store.read() as tx:  # the dispatcher's loop sends it when the proxy answers
        assert 44 in [
            event.content_id for event in tx.events.read(tx.events.cursor(NAME) or Cursor(), 10, UNRESTRICTED)
        ]


def test_each_purge_is_sent_once_more_for_reads_that_were_under_way(
    store: SqlStore, proxy: FakeProxy
) -> None:
    purger = XkeyPurger([proxy.endpoint], repeat_after=0.01)
    dispatcher = Dispatcher(store, source="/api", publishers=[purger])

    async def publish_and_wait() -> None:
        await dispatcher.publish(purger)
        _publish(store, 45, 53, 2)
        settle(store)
        await dispatcher.publish(purger)
        for _ in range(500):  # bounded: the repeat comes after a hundredth of a second
            if len(proxy.received) >= 2:
                break
            await asyncio.sleep(0.01)
        await purger.close()

    asyncio.run(publish_and_wait())
    assert len(proxy.received) == 2
    assert proxy.received[0] == proxy.received[1]


def test_a_write_waits_for_reads_under_way_and_purges_once_more(store: SqlStore, proxy: FakeProxy) -> None:
    """A read computed before the write committed, still being sent when the write's keys are purged, would
    be kept by the proxy after the purge: the write's answer waits for it and purges its keys again."""
    purger = XkeyPurger([proxy.endpoint], repeat_after=0)
    dispatcher = Dispatcher(store, source="/api", publishers=[purger])
    asyncio.run(dispatcher.publish(purger))  # start the cursor
    order = proxy.order
    read_computed = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["method"] == "POST":
            await read_computed.wait()
            _publish(store, 46, 54, 2)
            settle(store)
        else:  # the read has its (old) answer, and sends it only once the purge went out
            read_computed.set()
            for _ in range(1000):  # bounded
                if "purged" in order:
                    break
                await asyncio.sleep(0.01)
            order.append("read sent")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        if scope["method"] == "POST":
            order.append("write answered")

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def ignore(_message: dict[str, Any]) -> None:
        pass

    wrapped = WithDispatcher(app, dispatcher, sync_purge=True)  # type: ignore[arg-type]

    async def both() -> None:
        await asyncio.gather(
            wrapped({"type": "http", "method": "GET", "path": "/"}, receive, ignore),
            wrapped({"type": "http", "method": "POST", "path": "/"}, receive, ignore),
        )

    asyncio.run(both())
    assert order == ["purged", "read sent", "purged", "write answered"]
    assert proxy.received[0] == proxy.received[1]
    assert {"c46", "l54", "pl2"} <= proxy.keys()
