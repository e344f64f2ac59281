"""Reading the event log of the app behind a test client: the events appended since the last look."""

from __future__ import annotations

import time
import uuid
from typing import Any

from pressroom.domain.event import Cursor, Event, NewEvent
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.storage.spi import Store
from tests.helpers import Api

ADMIN_ID = 14
SETTLE_LIMIT_SECONDS = 60


def settled(store: Store, after: Cursor) -> tuple[list[Event], Cursor]:
    """The events committed past ``after`` and the cursor after them. On PostgreSQL a reader sees events only
    below the oldest transaction running in the whole cluster (other tests' databases come and go), so a
    marker is appended and the read polled, bounded, until the marker shows: every event committed before
    it shows too. The marker is left out."""
    mark = f"settle/{uuid.uuid4().hex}"
    with store.write() as tx:
        tx.events.append(NewEvent("section.updated", None, None, mark))
    deadline = time.monotonic() + SETTLE_LIMIT_SECONDS
    while True:
        with store.read() as tx:
            events = tx.events.read(after, 1000, UNRESTRICTED)
        marks = [n for n, event in enumerate(events) if event.subject == mark]
        if marks:
            return events[: marks[0]], events[marks[0]].cursor
        assert time.monotonic() < deadline, "committed events did not become visible"
        time.sleep(0.05)


class EventLog:
    """The events of the app behind ``api`` from now on; :meth:`new` returns those appended since the last
    call (or since it was made)."""

    def __init__(self, api: Api) -> None:
        self.store: Store = api.client.app.services.sections.store
        _, self.cursor = settled(self.store, Cursor())

    def new(self) -> list[Event]:
        events, self.cursor = settled(self.store, self.cursor)
        return events

    def one(self, kind: str, user_id: int | None = ADMIN_ID) -> Event:
        """The one event appended since the last look, of type ``pressroom.<kind>``, by ``user_id``."""
        events = self.new()
        assert [event.type for event in events] == [f"pressroom.{kind}"], events
        assert events[0].user_id == user_id, events[0]
        return events[0]

    def none(self) -> None:
        assert self.new() == []


def about_content(event: Event, content_id: int, **expected: Any) -> dict[str, Any]:
    """Check the content payload of ``event``: it names the item, its type, section, version, languages and
    locations (the keys of ``expected`` in full); returns the payload."""
    data = dict(event.data)
    assert event.subject == f"content/{content_id}" and event.content_id == content_id, event
    assert data["contentId"] == content_id
    for key in ("contentTypeId", "sectionId", "versionNo", "languages", "locations"):
        assert key in data, (key, data)
    for key, value in expected.items():
        assert data[key] == value, (key, data)
    return data


def placed(*paths: str) -> list[dict[str, Any]]:
    """The ``locations`` entries of a payload for location paths ``"1/2/60"``."""
    return [
        {"id": int(path.rsplit("/", 1)[1]), "parentId": int(path.split("/")[-2]), "path": f"/{path}/"}
        for path in paths
    ]
