"""Racing writes on one database: each racer is a thread with its own engine (its own connections, as
each server process has), and a barrier releases the racers' writes at the same moment; after each round
``pressroom check`` (services/integrity.py) looks for what the round broke."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from pressroom.domain.content import ContentCreate, FieldInput
from pressroom.domain.errors import PressroomError
from pressroom.domain.location import Location, LocationCreate
from pressroom.domain.user import User
from pressroom.services.bookmark import BookmarkService
from pressroom.services.content import ContentService
from pressroom.services.integrity import IntegrityService
from pressroom.services.location import LocationService
from pressroom.services.permissions import Permissions
from pressroom.services.trash import TrashService
from pressroom.services.version import VersionService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore

ADMIN = User(14, "admin", "admin@link.invalid", True)
WAIT = 60  # seconds the barrier waits before the test fails instead of hanging


@dataclass(frozen=True)
class Services:
    """What one racer calls: its own store, so its own connections."""

    content: ContentService
    versions: VersionService
    locations: LocationService
    trash: TrashService
    integrity: IntegrityService
    bookmarks: BookmarkService

    def folder(self, name: str, parent: Location) -> Location:
        """A published folder below ``parent``; its location."""
        draft = self.draft(name, parent)
        self.versions.publish(ADMIN, draft, 1)
        return self.locations.of_content(ADMIN, draft)[0]

    def draft(self, name: str, parent: Location) -> int:
        """A never-published folder that will go below ``parent``; its content id."""
        fields = (FieldInput("name", None, name),)
        create = ContentCreate(1, "eng-GB", fields, (LocationCreate(parent.id),))
        return self.content.create(ADMIN, create).content.id

    def at(self, location_id: int) -> Location:
        return self.locations.find(ADMIN, location_id=location_id)


@contextmanager
def services_on(database_url: str, root: Path, count: int) -> Iterator[list[Services]]:
    """``count`` sets of services, each on an engine of its own."""
    with ExitStack() as stack:
        found = []
        for _ in range(count):
            engine = make_engine(database_url)
            stack.callback(engine.dispose)
            store = SqlStore(engine)
            permissions = Permissions(store)
            files = LocalFileStore(root / "files")
            locations = LocationService(store, permissions, files)
            found.append(
                Services(
                    ContentService(store, permissions, files),
                    VersionService(store, permissions, files),
                    locations,
                    TrashService(store, permissions, locations, files),
                    IntegrityService(store, files),
                    BookmarkService(store, permissions),
                )
            )
        yield found


def outcome(action: Callable[[], object]) -> str:
    """What a client would see of one call: ok, or the error's class (a 4xx); anything else raises."""
    try:
        action()
    except PressroomError as error:
        return type(error).__name__
    return "ok"


Action = Callable[[Services], object]
Round = Callable[[Services, Location], tuple[Action, ...]]
"""Builds one round's data below the given location with the first services; returns the writes to race."""


def race(workers: list[Services], build: Round, rounds: int) -> tuple[list[list[str]], dict[int, list[str]]]:
    """Run ``rounds`` rounds of ``build``'s writes at once, each on its own racer (``workers[1:]``): per
    round the sorted outcomes, and by round the problems ``pressroom check`` found that were not there
    before it."""
    own, racers = workers[0], workers[1:]
    top = own.at(2)
    outcomes: list[list[str]] = []
    damage: dict[int, list[str]] = {}
    known = {str(problem) for problem in own.integrity.check().problems}
    with ThreadPoolExecutor(len(racers)) as pool:
        for round_no in range(rounds):
            actions = build(own, own.folder(f"Round {round_no}", top))
            barrier = threading.Barrier(len(actions))

            def run(action: Action, racer: Services, barrier: threading.Barrier = barrier) -> str:
                barrier.wait(WAIT)
                return outcome(lambda: action(racer))

            futures = [pool.submit(run, *pair) for pair in zip(actions, racers, strict=False)]
            outcomes.append(sorted(future.result() for future in futures))
            found = {str(problem) for problem in own.integrity.check().problems}
            if found - known:
                damage[round_no] = sorted(found - known)
            known |= found
    return outcomes, damage
