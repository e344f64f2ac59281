"""Content items under concurrent writers in separate OS processes, on SQLite and PostgreSQL
(issues 14 and 15): version numbers, publishing, and If-Match against lost updates (and the same
If-Match guarantee for a section).

Every test starts a few fresh processes (``forkserver``: forked from a server process that imported this
module once, never from the test process); each opens its own engine on the same database and
calls the services, the way several server workers do. A barrier lines the processes up before every
contended step, so that the step really runs at the same moment in all of them.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pressroom.domain.content import ContentUpdate, FieldInput, VersionUpdate
from pressroom.domain.errors import PreconditionFailed, PressroomError
from pressroom.domain.section import SectionUpdate
from pressroom.domain.tags import value_tag
from pressroom.services.content import ContentService
from pressroom.services.permissions import Permissions
from pressroom.services.section import SectionService
from pressroom.services.version import VersionService
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.storage.test_content_store import ADMIN, folder, services

Services = tuple[ContentService, VersionService]
Job = Callable[[Services, int, Any], Any]
"""What one process runs: (its services, its index, the shared barrier) -> a picklable result."""

PROCESSES = 4
ROUNDS = 6
WAIT = 60  # seconds a barrier waits for the others before the test fails instead of hanging


def _run_job(database_url: str, root: str, job: Job, index: int, start: Any, queue: Any) -> None:
    engine = make_engine(database_url)
    try:
        content, versions = services(SqlStore(engine), Path(root))
        content.load_info(ADMIN, 1)  # connect and import before the others start together
        start.wait(WAIT)
        queue.put((index, job((content, versions), index, start)))
    finally:
        engine.dispose()


def in_processes(database_url: str, root: Path, job: Job, processes: int = PROCESSES) -> list[Any]:
    """Run ``job`` in ``processes`` fresh processes at once; their results in process order."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])  # imported once, not in every process
    queue = context.Queue()
    start = context.Barrier(processes)
    workers = [
        context.Process(target=_run_job, args=(database_url, str(root), job, index, start, queue))
        for index in range(processes)
    ]
    for worker in workers:
        worker.start()
    results = dict(queue.get(timeout=180) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    return [results[index] for index in range(processes)]


def attempt(action: Callable[[], object]) -> str:
    """What a client would see of one call: ok, 412, or the name and message of another error."""
    try:
        action()
    except PreconditionFailed:
        return "412"
    except PressroomError as error:
        return f"{type(error).__name__}: {error}"
    return "ok"


@contextmanager
def opened(database_url: str, root: Path) -> Iterator[Services]:
    """Services of the test process itself, for setting up and reading back."""
    engine = make_engine(database_url)
    try:
        yield services(SqlStore(engine), root)
    finally:
        engine.dispose()


def published_item(svc: Services, name: str) -> int:
    content, versions = svc
    item = content.create(ADMIN, folder(name))
    versions.publish(ADMIN, item.content.id, 1)
    return item.content.id


# -- version numbers and publishing --------------------------------------------------------------------

DRAFTS_PER_PROCESS = 15


def _copy_drafts(content_id: int, svc: Services, _index: int, _start: Any) -> list[int]:
    _, versions = svc
    return [versions.copy(ADMIN, content_id, 1).info.version_no for _ in range(DRAFTS_PER_PROCESS)]


def test_concurrent_drafts_get_unique_increasing_numbers(database_url: str, tmp_path: Path) -> None:
    with opened(database_url, tmp_path) as svc:
        content_id = published_item(svc, "Contended")
    results = in_processes(database_url, tmp_path, partial(_copy_drafts, content_id), processes=2)
    numbers = [n for result in results for n in result]
    assert sorted(numbers) == list(range(2, 2 + 2 * DRAFTS_PER_PROCESS))
    for result in results:
        assert result == sorted(result)
    with opened(database_url, tmp_path) as (_, versions):
        stored = [v.version_no for v in versions.list(ADMIN, content_id)[1]]
    assert stored == list(range(1, 2 + 2 * DRAFTS_PER_PROCESS))


PUBLISHERS = 8


def _draft_and_publish(content_ids: list[int], svc: Services, _index: int, start: Any) -> list[str]:
    """Per item: make a draft, wait for the others to have theirs, publish it at the same moment."""
    _, versions = svc
    outcomes = []
    for content_id in content_ids:
        draft = versions.copy_current(ADMIN, content_id)
        start.wait(WAIT)
        outcomes.append(attempt(partial(versions.publish, ADMIN, content_id, draft.info.version_no)))
    return outcomes


def test_drafts_published_at_once_leave_one_published_version(database_url: str, tmp_path: Path) -> None:
    """Issue 15 item 1: each publish archives the one before it, whatever the timing."""
    with opened(database_url, tmp_path) as svc:
        content_ids = [published_item(svc, f"Published at once {n}") for n in range(ROUNDS)]
    results = in_processes(database_url, tmp_path, partial(_draft_and_publish, content_ids), PUBLISHERS)
    assert {outcome for result in results for outcome in result} == {"ok"}
    with opened(database_url, tmp_path) as (_, versions):
        states = {}
        for content_id in content_ids:
            info, listed = versions.list(ADMIN, content_id)
            states[content_id] = (info.current_version_no, [(v.version_no, v.status) for v in listed])
    several = [c for c, (_, listed) in states.items() if [s for _, s in listed].count("PUBLISHED") != 1]
    assert several == [], f"{len(several)} of {ROUNDS} items lack exactly one PUBLISHED version: {states}"
    for current, listed in states.values():
        assert [n for n, _ in listed] == list(range(1, PUBLISHERS + 2))  # contiguous, none lost
        assert {s for n, s in listed if n != current} == {"ARCHIVED"}
        assert (current, "PUBLISHED") in listed


# -- If-Match ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """What the processes change at once: an item's metadata (its remote id) or, with ``draft_no``, a
    draft's name field."""

    content_id: int
    draft_no: int | None = None
    if_match: bool = True

    def tag(self, svc: Services) -> str:
        content, versions = svc
        if self.draft_no is None:
            return value_tag(content.load_info(ADMIN, self.content_id))
        return value_tag(versions.load(ADMIN, self.content_id, self.draft_no))

    def write(self, svc: Services, value: str, tag: str | None) -> str:
        content, versions = svc
        if self.draft_no is None:
            change = ContentUpdate(remote_id=value)
            return attempt(partial(content.update, ADMIN, self.content_id, change, tag))
        edit = VersionUpdate(fields=(FieldInput("name", None, value),))
        return attempt(partial(versions.update, ADMIN, self.content_id, self.draft_no, edit, tag))

    def read(self, svc: Services) -> str:
        content, versions = svc
        if self.draft_no is None:
            return content.load_info(ADMIN, self.content_id).remote_id
        fields = versions.load(ADMIN, self.content_id, self.draft_no).fields
        return str(next(f.value for f in fields if f.identifier == "name"))


@dataclass(frozen=True, slots=True)
class SectionTarget:
    """A section's name: the other If-Match-checked write on a plain row."""

    section_id: int
    if_match: bool = True

    @staticmethod
    def _sections(svc: Services) -> SectionService:
        return SectionService(svc[0].store, Permissions(svc[0].store))

    def tag(self, svc: Services) -> str:
        return value_tag(self._sections(svc).load(ADMIN, self.section_id))

    def write(self, svc: Services, value: str, tag: str | None) -> str:
        change = SectionUpdate(name=value)
        return attempt(partial(self._sections(svc).update, ADMIN, self.section_id, change, tag))

    def read(self, svc: Services) -> str:
        return self._sections(svc).load(ADMIN, self.section_id).name


def _write_rounds(target: Target | SectionTarget, svc: Services, index: int, start: Any) -> list[str]:
    """Per round: every process reads the ETag, then all write with it at the same moment."""
    outcomes = []
    for round_no in range(ROUNDS):
        start.wait(WAIT)  # the previous round is over in every process
        tag = target.tag(svc) if target.if_match else None
        start.wait(WAIT)
        outcomes.append(target.write(svc, f"round-{round_no}-process-{index}", tag))
    return outcomes


def contended(database_url: str, root: Path, target: Target | SectionTarget) -> tuple[list[list[str]], str]:
    """Run the write rounds on ``target``: each round's outcomes, the value stored at the end."""
    results = in_processes(database_url, root, partial(_write_rounds, target))
    with opened(database_url, root) as svc:
        stored = target.read(svc)
    return [list(round_outcomes) for round_outcomes in zip(*results, strict=True)], stored


def item(database_url: str, root: Path, *, if_match: bool, draft: bool) -> Target:
    """A published item to change at once, or a draft of it."""
    with opened(database_url, root) as svc:
        content_id = published_item(svc, "Edited at once")
        draft_no = svc[1].copy_current(ADMIN, content_id).info.version_no if draft else None
    return Target(content_id, draft_no, if_match)


def assert_one_winner_per_round(rounds: list[list[str]], stored: str) -> None:
    lost = [outcomes for outcomes in rounds if sorted(outcomes) != ["412"] * (PROCESSES - 1) + ["ok"]]
    assert lost == [], f"{len(lost)} of {ROUNDS} rounds had not exactly one winner: {lost}"
    assert stored == f"round-{ROUNDS - 1}-process-{rounds[-1].index('ok')}"


def test_if_match_lets_one_of_concurrent_content_updates_win(database_url: str, tmp_path: Path) -> None:
    """Issues 14 and 15 item 2 (ContentUpdate): the others get 412, no update is lost."""
    target = item(database_url, tmp_path, if_match=True, draft=False)
    assert_one_winner_per_round(*contended(database_url, tmp_path, target))


def test_if_match_lets_one_of_concurrent_draft_updates_win(database_url: str, tmp_path: Path) -> None:
    """Issues 14 and 15 item 2 (VersionUpdate): the others get 412, no update is lost."""
    target = item(database_url, tmp_path, if_match=True, draft=True)
    assert_one_winner_per_round(*contended(database_url, tmp_path, target))


def test_concurrent_draft_updates_without_if_match_all_succeed(database_url: str, tmp_path: Path) -> None:
    """Issue 15 item 3: plain edits of one draft queue up; none is refused as a taken identifier."""
    target = item(database_url, tmp_path, if_match=False, draft=True)
    rounds, stored = contended(database_url, tmp_path, target)
    refused = [outcomes for outcomes in rounds if set(outcomes) != {"ok"}]
    assert refused == [], f"{len(refused)} of {ROUNDS} rounds refused an edit: {refused}"
    assert stored in {f"round-{ROUNDS - 1}-process-{index}" for index in range(PROCESSES)}


def test_if_match_lets_one_of_concurrent_section_updates_win(database_url: str, tmp_path: Path) -> None:
    """The same guarantee for a section (If-Match on a row without versions)."""
    assert_one_winner_per_round(*contended(database_url, tmp_path, SectionTarget(1)))
