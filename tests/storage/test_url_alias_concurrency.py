"""URL aliases under concurrent publishes, on SQLite and PostgreSQL (issue 23 item 9): siblings renamed
to the same name and published at the same moment all publish; each takes its own segment (the next
suffix when the name is taken), none is refused as a taken identifier, and none loses its segment to
another that took over the same history entry."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pressroom.domain.content import FieldInput, VersionUpdate
from pressroom.domain.location import Location
from tests.storage.racing import ADMIN, Action, Services, race, services_on

RACERS = 4
ROUNDS = 10


@pytest.fixture
def workers(database_url: str, tmp_path: Path) -> Iterator[list[Services]]:
    with services_on(database_url, tmp_path, 1 + RACERS) as found:
        yield found


def publish_renamed(draft: tuple[int, int]) -> Action:
    return lambda s: s.versions.publish(ADMIN, *draft)


def rename(own: Services, content_id: int, name: str) -> int:
    """A draft of the item with a new name; its number."""
    draft = own.versions.copy_current(ADMIN, content_id).info.version_no
    renamed = VersionUpdate(fields=(FieldInput("name", None, name),))
    own.versions.update(ADMIN, content_id, draft, renamed, None)
    return draft


@pytest.mark.parametrize("history", [False, True], ids=["new name", "a former sibling's name"])
def test_siblings_renamed_alike_and_published_at_once_all_publish(
    workers: list[Services], history: bool
) -> None:
    """With ``history``, the name was a sibling's before: its entry, now history, may be taken over."""
    own = workers[0]
    siblings: list[list[Location]] = []

    def renamed_siblings(own: Services, parent: Location) -> tuple[Action, ...]:
        drafts = []
        siblings.append([])
        if history:
            former = own.folder("Same name", parent).content_id
            assert former is not None
            own.versions.publish(ADMIN, former, rename(own, former, "Former"))
        for n in range(RACERS):
            sibling = own.folder(f"Sibling {n}", parent)
            siblings[-1].append(sibling)
            assert sibling.content_id is not None
            drafts.append((sibling.content_id, rename(own, sibling.content_id, "Same name")))
        return tuple(publish_renamed(draft) for draft in drafts)

    outcomes, damage = race(workers, renamed_siblings, ROUNDS)
    refused = [found for found in outcomes if found != ["ok"] * RACERS]
    assert refused == [], f"{len(refused)} of {ROUNDS} rounds refused a publish: {refused}"
    assert damage == {}
    for round_siblings in siblings:
        texts = sorted(
            entry.text
            for sibling in round_siblings
            for entry in own.locations.url_aliases(ADMIN, sibling.path, custom=False)
        )
        assert texts == ["Same-name", *(f"Same-name{n}" for n in range(2, RACERS + 1))]
