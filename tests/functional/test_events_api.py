"""The event feed and webhook subscriptions over HTTP, and the dispatcher of a real server delivering."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import Settings
from pressroom.domain.event import NewEvent, new_secret, verify
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.conftest import make_settings, running_server, spawn_server
from tests.functional.role_support import make_group, make_role, make_user
from tests.functional.support import error_message
from tests.helpers import ADMIN, PREFIX, Api, media, xml
from tests.storage.test_events import Receiver, receiver  # noqa: F401 (a fixture)

WEBHOOK = media("Webhook")


@pytest.fixture
def private_api(sqlite_url: str, tmp_path: Path) -> Iterator[Api]:
    """Admin on an app that may send webhooks to this machine (the receivers of these tests)."""
    settings = make_settings(sqlite_url, tmp_path, webhook_allow_private=True)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        yield Api(client)


def store_of(api: Api) -> Any:
    return api.client.app.services.events.store


def append(api: Api, kind: str, content_id: int | None, **data: object) -> None:
    with store_of(api).write() as tx:
        subject = f"content/{content_id}" if content_id else "section/9"
        tx.events.append(NewEvent(kind, 14, content_id, subject, data))


def create_webhook(api: Api, url: str, **extra: Any) -> httpx.Response:
    return api.post(
        "/webhooks",
        body={"WebhookInput": {"url": url, **extra}},
        content_type=media("WebhookInput"),
        accept=WEBHOOK,
    )


def test_webhook_life_cycle_in_json(private_api: Api, receiver: Receiver) -> None:  # noqa: F811
    created = create_webhook(
        private_api, receiver.url, eventTypes={"eventType": ["pressroom.content.*"]}, subtree="/1/2/"
    )
    assert created.status_code == 201, created.text
    body = created.json()["Webhook"]
    assert created.headers["location"] == body["_href"] == f"{PREFIX}/webhooks/{body['id']}"
    assert body["secret"].startswith("whsec_") and body["eventTypes"] == {
        "eventType": ["pressroom.content.*"]
    }
    assert body["subtree"] == "/1/2/" and body["enabled"] is True

    loaded = private_api.get(body["_href"], accept=WEBHOOK).json()["Webhook"]
    assert "secret" not in loaded and loaded["url"] == receiver.url  # the secret is shown once
    listed = private_api.get("/webhooks", accept=media("WebhookList")).json()["WebhookList"]["Webhook"]
    assert [hook["id"] for hook in listed] == [body["id"]]

    patched = private_api.patch(
        body["_href"],
        body={"WebhookInput": {"enabled": False, "eventTypes": {"eventType": []}}},
        content_type=media("WebhookInput"),
        accept=WEBHOOK,
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["Webhook"]["enabled"] is False
    assert patched.json()["Webhook"]["eventTypes"] == {"eventType": []}

    assert private_api.delete(body["_href"]).status_code == 204
    error_message(private_api.get(body["_href"], accept=WEBHOOK), 404)


def test_webhook_in_xml(private_api: Api, receiver: Receiver) -> None:  # noqa: F811
    document = (
        f"<WebhookInput><url>{receiver.url}</url><eventTypes><eventType>pressroom.content.published</eventType>"
        "<eventType>pressroom.trash.*</eventType></eventTypes></WebhookInput>"
    )
    created = private_api.post(
        "/webhooks", body=document, content_type=media("WebhookInput", "xml"), accept=media("Webhook", "xml")
    )
    assert created.status_code == 201, created.text
    root = xml(created)
    assert root.tag == "Webhook" and root.findtext("url") == receiver.url
    assert [e.text for e in root.find("eventTypes")] == ["pressroom.content.published", "pressroom.trash.*"]


@pytest.mark.parametrize(
    ("url", "extra", "named"),
    [
        ("ftp://example.com/hook", {}, "url"),
        ("http://127.0.0.1:9/hook", {}, "private address"),
        ("http://user:pw@example.com/hook", {}, "credentials"),
        (
            "https://example.com/hook",
            {"eventTypes": {"eventType": ["pressroom.content.exploded"]}},
            "eventTypes",
        ),
        ("https://example.com/hook", {"secret": "hunter2"}, "secret"),
        ("https://example.com/hook", {"subtree": "1/2"}, "subtree"),
    ],
)
def test_bad_webhooks_are_refused_naming_the_field(
    api: Api, url: str, extra: dict[str, Any], named: str
) -> None:
    refused = create_webhook(api, url, **extra)
    assert named in error_message(refused, 400)["errorDescription"]
    assert api.get("/webhooks", accept=media("WebhookList")).json()["WebhookList"]["Webhook"] == []


def test_only_administrators_manage_webhooks_and_anonymous_never_reads_the_feed(api: Api) -> None:
    _, editor = make_user(api, "eventeditor", make_group(api, "Event editors"))
    error_message(editor.get("/webhooks", accept=media("WebhookList")), 401)
    error_message(create_webhook(editor, "https://example.com/hook"), 401)
    anonymous = Api(api.client, auth=None)
    error_message(anonymous.get("/events", accept="application/json"), 401)


def test_the_feed_pages_by_cursor_and_shows_a_reader_only_what_it_may_read(api: Api) -> None:
    group = make_group(api, "Feed readers")
    user_id, reader = make_user(api, "feedreader", group)
    role = make_role(api, "FeedReader", ("content", "read", {"Owner": ["1"]}), ("user", "login", {}))
    api.post(
        f"/user/users/{user_id}/roles",
        body={"RoleAssignInput": {"Role": {"_href": f"{PREFIX}/user/roles/{role}"}}},
        content_type=media("RoleAssignInput"),
        accept=media("RoleAssignmentList"),
    )
    start = api.get("/events?limit=1000").headers["pressroom-cursor"]
    append(api, "content.published", user_id, version=1)  # the reader's own item (it owns itself)
    append(api, "content.published", 57, version=1)  # an item it may not read
    append(api, "section.created", None)  # not about content: administrators only

    page = api.get(f"/events?after={start}&limit=2")
    assert page.status_code == 200 and page.headers["content-type"] == "application/cloudevents-batch+json"
    events = page.json()
    assert [(e["type"], e.get("subject")) for e in events] == [
        ("pressroom.content.published", f"content/{user_id}"),
        ("pressroom.content.published", "content/57"),
    ]
    assert events[0]["specversion"] == "1.0" and events[0]["source"] == PREFIX and events[0]["userid"] == "14"
    rest = api.get(f"/events?after={page.headers['pressroom-cursor']}").json()
    assert [e["type"] for e in rest] == ["pressroom.section.created"]
    assert 'rel="next"' in page.headers["link"]

    mine = reader.get(f"/events?after={start}")
    assert mine.status_code == 200, mine.text
    assert [e["subject"] for e in mine.json()] == [f"content/{user_id}"]
    assert mine.headers["pressroom-cursor"] == api.get(f"/events?after={start}").headers["pressroom-cursor"]


@pytest.mark.parametrize("query", ["after=x-1", "after=1--2", "limit=0", "limit=5000"])
def test_bad_feed_queries_are_refused(api: Api, query: str) -> None:
    error_message(api.get(f"/events?{query}", accept=media("ErrorMessage")), 400)


def test_a_test_delivery_is_signed_and_reported(private_api: Api, receiver: Receiver) -> None:  # noqa: F811
    secret = new_secret()
    created = create_webhook(private_api, receiver.url, secret=secret).json()["Webhook"]
    answer = private_api.post(f"/webhooks/{created['id']}/test", accept=media("WebhookTest"))
    assert answer.status_code == 200, answer.text
    assert answer.json()["WebhookTest"]["delivered"] is True and answer.json()["WebhookTest"]["status"] == 204
    [(headers, body)] = receiver.received
    assert verify(secret, headers, body, int(time.time()))
    assert orjson.loads(body)["type"] == "pressroom.webhook.test"


def test_a_running_server_delivers_committed_events(tmp_path: Path, receiver: Receiver) -> None:  # noqa: F811
    """`pressroom serve` runs the dispatcher in its worker: an event committed by anyone reaches the
    subscription, and its delivery is recorded and readable through the API."""
    database = f"sqlite:///{tmp_path / 'live.db'}"
    with running_server(
        tmp_path, PRESSROOM_WEBHOOK_ALLOW_PRIVATE="1", PRESSROOM_EVENTS_POLL_SECONDS="0.1"
    ) as base:
        client = httpx.Client(base_url=base, headers={"Authorization": ADMIN}, timeout=10)
        hook = client.post(
            f"{PREFIX}/webhooks",
            content=orjson.dumps({"WebhookInput": {"url": receiver.url}}),
            headers={"Content-Type": media("WebhookInput"), "Accept": WEBHOOK},
        ).json()["Webhook"]
        time.sleep(0.5)  # the dispatcher's fan-out cursor starts at the end of the log
        engine = make_engine(database)
        try:
            with SqlStore(engine).write() as tx:
                tx.events.append(NewEvent("content.published", 14, 57, "content/57", {"versionNo": 3}))
        finally:
            engine.dispose()
        deadline = time.monotonic() + 20
        while not receiver.received:
            assert time.monotonic() < deadline, "the server did not deliver the event"
            time.sleep(0.1)
        delivered = orjson.loads(receiver.received[0][1])
        assert (delivered["type"], delivered["data"]) == ("pressroom.content.published", {"versionNo": 3})
        assert verify(hook["secret"], receiver.received[0][0], receiver.received[0][1], int(time.time()))
        deliveries = client.get(
            f"{PREFIX}/webhooks/{hook['id']}/deliveries", headers={"Accept": media("WebhookDeliveryList")}
        ).json()["WebhookDeliveryList"]["WebhookDelivery"]
        deadline = time.monotonic() + 10
        while deliveries[0]["status"] != "delivered" and time.monotonic() < deadline:
            time.sleep(0.1)
            deliveries = client.get(
                f"{PREFIX}/webhooks/{hook['id']}/deliveries", headers={"Accept": media("WebhookDeliveryList")}
            ).json()["WebhookDeliveryList"]["WebhookDelivery"]
        assert [(d["status"], d["attempts"], d["lastStatus"]) for d in deliveries] == [("delivered", 1, 204)]
        replayed = client.post(deliveries[0]["_href"], headers={"Accept": media("WebhookDelivery")}).json()[
            "WebhookDelivery"
        ]
        assert replayed["status"] == "pending"
        deadline = time.monotonic() + 20
        while len(receiver.received) < 2:
            assert time.monotonic() < deadline, "the replay was not sent"
            time.sleep(0.1)
        assert orjson.loads(receiver.received[1][1])["id"] == delivered["id"]  # the same event again


def test_the_operator_manages_webhooks_from_the_command_line(
    settings: Settings,
    receiver: Receiver,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pressroom.cli import main

    def run(*args: str) -> tuple[int, list[str]]:
        code = main(["webhook", *args, "--database-url", settings.database_url])
        return code, capsys.readouterr().out.splitlines()

    refused = main(["webhook", "add", receiver.url, "--database-url", settings.database_url])
    assert refused == 2 and "private address" in capsys.readouterr().err
    monkeypatch.setenv("PRESSROOM_WEBHOOK_ALLOW_PRIVATE", "1")
    code, lines = run("add", receiver.url, "--types", "pressroom.content.*,pressroom.trash.*")
    assert code == 0 and lines[0].startswith("1\t" + receiver.url + "\tpressroom.content.*,pressroom.trash.*")
    assert lines[1].startswith("secret (shown once): whsec_")
    secret = lines[1].rsplit(" ", 1)[1]
    assert run("test", "1") == (0, ["delivered, status 204"])
    assert verify(secret, *receiver.received[0], int(time.time()))
    code, lines = run("update", "1", "--enabled", "off")
    assert code == 0 and lines[0].endswith("disabled (by hand)")
    assert run("list")[1] == lines
    assert run("delete", "1") == (0, ["Webhook 1 deleted."])
    assert run("list") == (0, [])


def test_the_feed_streams_live_as_server_sent_events_and_resumes(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'live.db'}"
    with running_server(tmp_path, PRESSROOM_EVENTS_DISPATCH="0") as base:
        engine = make_engine(database)

        def append_live(version: int) -> None:
            with SqlStore(engine).write() as tx:
                tx.events.append(NewEvent("content.published", 14, 57, "content/57", {"versionNo": version}))

        def read_events(headers: dict[str, str], count: int) -> list[tuple[str, dict[str, Any]]]:
            found: list[tuple[str, dict[str, Any]]] = []
            with httpx.stream(
                "GET", f"{base}{PREFIX}/events", headers={"Authorization": ADMIN, **headers}, timeout=10
            ) as stream:
                assert stream.status_code == 200
                assert stream.headers["content-type"].startswith("text/event-stream")
                event_id = ""
                for line in stream.iter_lines():
                    if line.startswith("id: "):
                        event_id = line[4:]
                    elif line.startswith("data: "):
                        found.append((event_id, orjson.loads(line[6:])))
                        if len(found) == count:
                            return found
            return found

        try:
            append_live(1)
            append_live(2)
            first, second = read_events({"Accept": "text/event-stream"}, 2)
            assert [first[1]["data"]["versionNo"], second[1]["data"]["versionNo"]] == [1, 2]
            assert first[0] == first[1]["cursor"]  # the SSE id is the cursor
            threading.Timer(0.5, append_live, (3,)).start()  # arrives while the client waits
            resumed = read_events({"Accept": "text/event-stream", "Last-Event-ID": first[0]}, 2)
            assert [event["data"]["versionNo"] for _, event in resumed] == [2, 3]
            refused = httpx.get(
                f"{base}{PREFIX}/events",
                headers={"Authorization": ADMIN, "Accept": "text/event-stream", "Last-Event-ID": "junk"},
            )
            assert refused.status_code == 400
        finally:
            engine.dispose()


def test_two_server_processes_on_one_postgresql_deliver_each_event_once(
    installed_postgres_url: str,
    tmp_path: Path,
    receiver: Receiver,  # noqa: F811
) -> None:
    """Two `pressroom serve` processes (two workers each) share the deliveries through row locks: every
    event of the log reaches the receiver once, in order per item."""
    options = {"PRESSROOM_WEBHOOK_ALLOW_PRIVATE": "1", "PRESSROOM_EVENTS_POLL_SECONDS": "0.1"}
    # one repository, one file store: the second host must use the store the first recorded
    servers = [spawn_server(tmp_path, installed_postgres_url, workers=2, **options) for _ in range(2)]
    try:
        created = httpx.post(
            f"{servers[0][1]}{PREFIX}/webhooks",
            content=orjson.dumps({"WebhookInput": {"url": receiver.url}}),
            headers={"Authorization": ADMIN, "Content-Type": media("WebhookInput"), "Accept": WEBHOOK},
        )
        assert created.status_code == 201, created.text
        time.sleep(1)  # the dispatchers' fan-out cursor starts at the end of the log
        engine = make_engine(installed_postgres_url)
        try:
            for version in range(5):
                for item in range(6):
                    with SqlStore(engine).write() as tx:
                        data = {"versionNo": version}
                        tx.events.append(
                            NewEvent("content.published", 14, 100 + item, f"content/{100 + item}", data)
                        )
        finally:
            engine.dispose()
        deadline = time.monotonic() + 60
        while len(receiver.received) < 30 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # anything sent twice would arrive now
        bodies = [orjson.loads(body) for _, body in receiver.received]
        assert len(bodies) == 30 and len({body["id"] for body in bodies}) == 30
        for item in range(6):
            versions = [b["data"]["versionNo"] for b in bodies if b["subject"] == f"content/{100 + item}"]
            assert versions == list(range(5))
    finally:
        for process, _ in servers:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=20)


def test_a_webhook_may_not_point_at_the_server_itself(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRESSROOM_PORT", "8089")  # what `serve` tells its workers
    settings = make_settings(sqlite_url, tmp_path, webhook_allow_private=True)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        api = Api(client)
        refused = create_webhook(api, "http://127.0.0.1:8089/api/ibexa/v2/views")
        assert "this server itself" in error_message(refused, 400)["errorDescription"]
        assert create_webhook(api, "http://127.0.0.1:8090/hook").status_code == 201  # another port
