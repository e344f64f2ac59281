"""A repository for the criterion and sort clause tests, built once per test module and database
(``world`` is module-scoped: the tests only read it), and searched through the search service.

The data: a folder ``top`` under Home with children that differ in type, section, owner, priority,
visibility, state, translation and dates; two users (an enabled editor in Administrator users, a disabled
reader in Editors); a bookmark; an object state group ``workflow`` created before the items, so the items
have no row in it and sit in its default state.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pressroom.domain import query as q
from pressroom.domain.content import ContentUpdate, FieldInput, VersionUpdate
from pressroom.domain.location import LocationCreate, LocationUpdate
from pressroom.domain.object_state import ObjectStateInput
from pressroom.domain.search import SearchQuery
from pressroom.domain.user import ContentParts, User, UserCreate
from pressroom.services.user import UserService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.storage.search_data import ADMIN, Repo, at

IMAGE = 5  # content type ids of the clean install
EZ_LOCK, NOT_LOCKED, LOCKED = 2, 1, 2


@dataclass
class World:
    repo: Repo
    top: int
    alpha: int  # image (not a container, Media group), owned by the editor, priority 3, two locations
    bravo: int  # media section, priority 7, bookmarked by admin
    charlie: int  # below bravo; locked, in review; current version made by the editor
    hidden_place: int  # its location hidden
    hidden_item: int  # the item hidden
    delta: int  # eng-GB "Delta", ger-DE "Zora"
    owned: int  # owned by the reader (in Editors)
    editor: int
    reader: int
    workflow: int  # object state group id
    draft_state: int
    review_state: int

    @property
    def mine(self) -> tuple[int, ...]:
        return (
            self.top, self.alpha, self.bravo, self.charlie, self.hidden_place, self.hidden_item,
            self.delta, self.owned,
        )  # fmt: skip

    def loc(self, content_id: int) -> int:
        return self.repo.main_location(content_id)


def _build(repo: Repo, files: Path) -> World:
    users = UserService(repo.store, repo.permissions, LocalFileStore(files))

    def user(login: str, group: str, enabled: bool) -> int:
        names = (FieldInput("first_name", None, login.title()), FieldInput("last_name", None, "Tester"))
        parts = ContentParts("eng-GB", names)
        struct = UserCreate(login, f"{login.title()}@Example.com", "Secret-pass-42", parts, enabled=enabled)
        return users.create(ADMIN, group, struct).account.id

    editor = user("editor", "1/5/13", True)
    reader = user("reader", "1/5/14", False)
    states = repo.object_states
    workflow = states.create_group(ADMIN, ObjectStateInput("workflow", "eng-GB", {"eng-GB": "Workflow"})).id
    draft_state = states.create_state(
        ADMIN, workflow, ObjectStateInput("draft", "eng-GB", {"eng-GB": "Draft"}, priority=0)
    ).id
    review_state = states.create_state(
        ADMIN, workflow, ObjectStateInput("review", "eng-GB", {"eng-GB": "Review"}, priority=1)
    ).id

    top = repo.item("Top", published=at(1), modified=at(1))
    top_at = repo.main_location(top)
    alpha = repo.item(
        "Alpha",
        top_at,
        type_id=IMAGE,
        owner_id=editor,
        remote_id="alpha-remote",
        location=LocationCreate(top_at, priority=3, remote_id="alpha-location"),
        published=at(2),
        modified=at(9),
    )
    bravo = repo.item(
        "Bravo",
        top_at,
        section_id=3,
        location=LocationCreate(top_at, priority=7),
        published=at(3),
        modified=at(3),
    )
    bravo_at = repo.main_location(bravo)
    repo.locations.create(ADMIN, alpha, LocationCreate(bravo_at))
    charlie = repo.item("charlie", bravo_at, section_id=1, published=at(4), modified=at(4))
    hidden_place = repo.item("Hidden place", top_at, published=at(5), modified=at(5))
    repo.locations.update(
        ADMIN, f"1/2/{top_at}/{repo.main_location(hidden_place)}", LocationUpdate(hidden=True), None
    )
    hidden_item = repo.item("Hidden item", top_at, published=at(6), modified=at(6))
    repo.content.hide(ADMIN, hidden_item)
    repo.languages.add("ger-DE")
    delta = repo.item("Delta", top_at, published=at(7), modified=at(7))
    draft = repo.versions.copy_current(ADMIN, delta)
    repo.versions.update(
        ADMIN, delta, draft.info.version_no, VersionUpdate((FieldInput("name", "ger-DE", "Zora"),))
    )
    repo.versions.publish(ADMIN, delta, draft.info.version_no)
    owned = repo.item("Owned", top_at, owner_id=reader, published=at(8), modified=at(8))
    # the editor makes charlie's current version; admin stays its owner
    as_editor = User(editor, "editor", "editor@example.com", True)
    version = repo.versions.copy_current(as_editor, charlie)
    repo.versions.publish(as_editor, charlie, version.info.version_no)
    states.assign(ADMIN, charlie, [(EZ_LOCK, LOCKED), (workflow, review_state)])
    repo.bookmarks.create(ADMIN, bravo_at)
    # alpha's second location hidden: alpha stays visible at its main location
    second = next(loc for loc in repo.locations.of_content(ADMIN, alpha) if loc.parent_id == bravo_at)
    repo.locations.update(ADMIN, second.path, LocationUpdate(hidden=True), None)
    # modification dates last (the writes above move them)
    for content_id, day in ((top, 1), (alpha, 9), (bravo, 3), (charlie, 4), (hidden_place, 5)):
        repo.content.update(ADMIN, content_id, ContentUpdate(modification_date=at(day)), None)
    for content_id, day in ((hidden_item, 6), (delta, 7), (owned, 8)):
        repo.content.update(ADMIN, content_id, ContentUpdate(modification_date=at(day)), None)
    return World(
        repo, top, alpha, bravo, charlie, hidden_place, hidden_item, delta, owned, editor, reader, workflow,
        draft_state, review_state,
    )  # fmt: skip


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, template_sqlite: Path
) -> Iterator[World]:
    """One repository per database for the whole module (the tests only read it)."""
    root = tmp_path_factory.mktemp("criteria")
    if request.param == "sqlite":
        shutil.copy(template_sqlite, root / "pressroom.db")
        yield from _world(f"sqlite:///{root / 'pressroom.db'}", root)
        return
    with request.getfixturevalue("installed_postgres")() as url:
        yield from _world(url, root)


def _world(url: str, root: Path) -> Iterator[World]:
    engine = make_engine(url)
    repo = Repo(SqlStore(engine), root / "files")
    try:
        yield _build(repo, root / "files")
    finally:
        engine.dispose()


def found(world: World, criterion: q.Criterion, *, only_mine: bool = True) -> list[int]:
    """The ids of the items the criterion finds (among the module's items unless ``only_mine``)."""
    scope = q.ContentId(world.mine) if only_mine else q.MatchAll()
    return world.repo.content_ids(SearchQuery(filter=q.all_of([scope, criterion]), limit=100))


def found_locations(world: World, criterion: q.Criterion) -> list[int]:
    scope = q.ContentId(world.mine)
    return world.repo.location_ids(SearchQuery(filter=q.all_of([scope, criterion]), limit=100))


def day(n: int) -> int:
    return int(at(n).timestamp())
