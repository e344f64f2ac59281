"""Every search criterion, on SQLite and PostgreSQL, through the search service (so what the service
resolves is resolved), over a repository the module builds once per database (the tests only read it).

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
from pressroom.domain.errors import BadRequest
from pressroom.domain.location import LocationCreate, LocationUpdate
from pressroom.domain.object_state import ObjectStateInput
from pressroom.domain.search import SearchQuery
from pressroom.domain.user import ContentParts, User, UserCreate
from pressroom.services.user import UserService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.install import initialise
from pressroom.storage.sql.store import SqlStore
from tests.conftest import POSTGRES_URL
from tests.helpers import scratch_postgres
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
    delta: int  # eng-GB "Delta", ger-DE "Dora"
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
        ADMIN, delta, draft.info.version_no, VersionUpdate((FieldInput("name", "ger-DE", "Dora"),))
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
    if not request.getfixturevalue("postgres_available"):
        pytest.skip("PostgreSQL not reachable (set PRESSROOM_TEST_REQUIRE_POSTGRES=1 to make this fail)")
    with scratch_postgres(POSTGRES_URL, "pressroom_test") as url:
        engine = make_engine(url)
        initialise(engine, "publish")
        engine.dispose()
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


def test_content_remote_id(world: World) -> None:
    assert found(world, q.ContentRemoteId(("alpha-remote", "no-such-remote-id"))) == [world.alpha]
    assert found(world, q.ContentRemoteId(("no-such-remote-id",))) == []


def test_content_type_group_id(world: World) -> None:
    assert found(world, q.ContentTypeGroupId((3,))) == [world.alpha]  # Media: the image type
    users_group = [4, 10, 11, 12, 13, 14, 42, world.editor, world.reader]
    assert found(world, q.ContentTypeGroupId((2,)), only_mine=False) == users_group
    assert found(world, q.ContentTypeGroupId((99,)), only_mine=False) == []


def test_section_identifier(world: World) -> None:
    assert found(world, q.SectionIdentifier(("media",))) == [world.bravo]
    assert found(world, q.SectionIdentifier(("media",)), only_mine=False) == [41, 49, 50, 51, world.bravo]
    assert found(world, q.SectionIdentifier(("no_such_section",))) == []


def test_location_remote_id(world: World) -> None:
    assert found(world, q.LocationRemoteId(("alpha-location",))) == [world.alpha]
    assert found_locations(world, q.LocationRemoteId(("alpha-location",))) == [world.loc(world.alpha)]


def test_depth_operators_on_any_location_of_an_item(world: World) -> None:
    w = world
    assert found(w, q.Depth("EQ", (4,))) == [w.alpha, w.charlie]  # alpha's second location is at 4
    assert found(w, q.Depth("IN", (2, 4))) == [w.top, w.alpha, w.charlie]
    assert found(w, q.Depth("LT", (3,))) == found(w, q.Depth("LTE", (2,))) == [w.top]
    assert found(w, q.Depth("GT", (3,))) == found(w, q.Depth("GTE", (4,))) == [w.alpha, w.charlie]
    assert found(w, q.Depth("BETWEEN", (2, 2))) == [w.top]
    # a location query compares the location itself: alpha's main location is at depth 3
    assert w.loc(w.alpha) not in found_locations(w, q.Depth("EQ", (4,)))
    assert w.loc(w.charlie) in found_locations(w, q.Depth("EQ", (4,)))


def test_priority_operators(world: World) -> None:
    w = world
    assert found(w, q.Priority("GT", (0,))) == [w.alpha, w.bravo]
    assert found(w, q.Priority("EQ", (7,))) == [w.bravo]
    assert found(w, q.Priority("BETWEEN", (1, 5))) == [w.alpha]
    # any location: alpha's second location has priority 0
    assert found(w, q.Priority("LT", (1,))) == [i for i in sorted(w.mine) if i != w.bravo]
    assert found_locations(w, q.Priority("GTE", (3,))) == [w.loc(w.alpha), w.loc(w.bravo)]
    assert found_locations(w, q.Priority("IN", (3, 8))) == [w.loc(w.alpha)]


@pytest.mark.parametrize(
    ("criterion", "message"),
    [
        (q.Depth("LIKE", (1,)), "Depth: unknown operator 'LIKE'"),
        (q.Priority("BETWEEN", (1,)), "Priority: BETWEEN takes two values"),
        (q.Depth("EQ", (1, 2)), "Depth: EQ takes one value"),
        (q.DateMetadata("published", "IN", ()), "DateMetadata: IN takes at least one value"),
        (q.DateMetadata("deleted", "EQ", (1,)), "DateMetadata: target 'deleted'"),
        (q.UserMetadata("creator", (14,)), "UserMetadata: target 'creator'"),
        (q.UserLogin(("a",), "GT"), "UserLogin: unknown operator 'GT'"),
    ],
)
def test_malformed_criteria_are_bad_requests_naming_the_criterion(
    world: World, criterion: q.Criterion, message: str
) -> None:
    with pytest.raises(BadRequest, match=message):
        found(world, q.LogicalNot(criterion))


def test_visibility(world: World) -> None:
    w = world
    hidden = [w.hidden_place, w.hidden_item]
    # alpha: one location hidden, the main one visible, so the item is visible
    assert found(w, q.Visibility(True)) == [i for i in sorted(w.mine) if i not in hidden]
    assert found(w, q.Visibility(False)) == hidden
    assert found_locations(w, q.Visibility(False)) == sorted(
        [w.loc(w.hidden_place), w.loc(w.hidden_item), *(
            loc.id for loc in w.repo.locations.of_content(ADMIN, w.alpha) if loc.id != w.loc(w.alpha)
        )]
    )  # fmt: skip
    # below a hidden location: invisible too (nothing lives below the hidden ones here)
    assert found(w, q.LogicalNot(q.Visibility(False))) == found(w, q.Visibility(True))


def test_sibling(world: World) -> None:
    w = world
    siblings = [w.bravo, w.hidden_place, w.hidden_item, w.delta, w.owned]
    assert found(w, q.Sibling(w.loc(w.alpha))) == siblings
    assert found_locations(w, q.Sibling(w.loc(w.alpha))) == sorted(w.loc(i) for i in siblings)
    # alpha's second location is charlie's sibling below bravo
    assert found(w, q.Sibling(w.loc(w.charlie))) == [w.alpha]
    assert found(w, q.Sibling(999_999)) == []


def test_content_name_in_any_language_with_wildcards(world: World) -> None:
    w = world
    assert found(w, q.ContentName("alpha")) == [w.alpha]
    assert found(w, q.ContentName("ALP*")) == [w.alpha]
    assert found(w, q.ContentName("Char*")) == [w.charlie]  # the name is "charlie"
    assert found(w, q.ContentName("*o*")) == [w.top, w.bravo, w.delta, w.owned]  # "Dora" in ger-DE
    assert found(w, q.ContentName("dora")) == [w.delta]
    assert found(w, q.ContentName("hidden *")) == [w.hidden_place, w.hidden_item]
    # LIKE's own wildcards are plain characters
    assert found(w, q.ContentName("%")) == found(w, q.ContentName("d_lta")) == []


def test_object_state_id_counts_items_without_a_row_in_the_default_state(world: World) -> None:
    w = world
    rest = [i for i in sorted(w.mine) if i != w.charlie]
    assert found(w, q.ObjectStateId((LOCKED,))) == [w.charlie]
    assert found(w, q.ObjectStateId((NOT_LOCKED,))) == rest
    assert found(w, q.ObjectStateId((w.review_state,))) == [w.charlie]
    assert found(w, q.ObjectStateId((w.draft_state,))) == rest  # no row in the workflow group: its default
    assert found(w, q.ObjectStateId((w.draft_state, LOCKED))) == sorted(w.mine)
    assert found(w, q.LogicalNot(q.ObjectStateId((w.draft_state,)))) == [w.charlie]
    everything = found(w, q.MatchAll(), only_mine=False)
    assert found(w, q.ObjectStateId((w.draft_state,)), only_mine=False) == [
        i for i in everything if i != w.charlie
    ]


def test_object_state_identifier(world: World) -> None:
    w = world
    rest = [i for i in sorted(w.mine) if i != w.charlie]
    assert found(w, q.ObjectStateIdentifier(("locked",), "ez_lock")) == [w.charlie]
    assert found(w, q.ObjectStateIdentifier(("draft",), "workflow")) == rest
    assert found(w, q.ObjectStateIdentifier(("review",))) == [w.charlie]  # any group
    assert found(w, q.ObjectStateIdentifier(("draft", "locked"))) == sorted(w.mine)
    assert found(w, q.ObjectStateIdentifier(("locked",), "workflow")) == []
    assert found(w, q.ObjectStateIdentifier(("locked",), "no_such_group")) == []


def test_user_id_login_and_email(world: World) -> None:
    w = world
    assert found(w, q.UserId((w.editor, w.reader, w.top, 999_999)), only_mine=False) == [w.editor, w.reader]
    assert found(w, q.UserLogin(("Editor",)), only_mine=False) == [w.editor]  # logins ignore case
    assert found(w, q.UserLogin(("admin", "anonymous")), only_mine=False) == [10, 14]
    assert found(w, q.UserLogin(("ad*",), "LIKE"), only_mine=False) == [14]
    assert found(w, q.UserLogin(("*r",), "LIKE"), only_mine=False) == [w.editor, w.reader]
    assert found(w, q.UserEmail(("editor@example.com",)), only_mine=False) == [w.editor]
    assert found(w, q.UserEmail(("*@EXAMPLE.com",), "LIKE"), only_mine=False) == [w.editor, w.reader]
    assert found(w, q.UserEmail(("nobody@example.com",)), only_mine=False) == []


def test_is_user_based_and_is_user_enabled(world: World) -> None:
    w = world
    accounts = [10, 14, w.editor, w.reader]
    assert found(w, q.IsUserBased(True), only_mine=False) == accounts
    everything = found(w, q.MatchAll(), only_mine=False)
    assert found(w, q.IsUserBased(False), only_mine=False) == [i for i in everything if i not in accounts]
    assert found(w, q.IsUserEnabled(False), only_mine=False) == [w.reader]
    assert found(w, q.IsUserEnabled(True), only_mine=False) == [10, 14, w.editor]


def test_is_container(world: World) -> None:
    w = world
    assert found(w, q.IsContainer(False)) == [w.alpha]
    assert found(w, q.IsContainer(False), only_mine=False) == [10, 14, w.editor, w.reader, w.alpha]
    assert found(w, q.IsContainer(True)) == [i for i in sorted(w.mine) if i != w.alpha]


def test_is_bookmarked_is_the_callers(world: World) -> None:
    w = world
    assert found(w, q.IsBookmarked(True)) == [w.bravo]
    assert found(w, q.IsBookmarked(False)) == [i for i in sorted(w.mine) if i != w.bravo]
    assert found_locations(w, q.IsBookmarked(True)) == [w.loc(w.bravo)]
    # another user has no bookmarks (the service fills in the caller, whatever the input said)
    query = SearchQuery(filter=q.IsBookmarked(True, user_id=14), limit=100)
    assert w.repo.content_ids(query, User(w.editor, "editor", "", True)) == []


def test_user_metadata(world: World) -> None:
    w = world
    assert found(w, q.UserMetadata("owner", (w.editor,))) == [w.alpha]
    assert found(w, q.UserMetadata("owner", (w.reader, w.editor))) == [w.alpha, w.owned]
    assert found(w, q.UserMetadata("group", (13,))) == [w.owned]  # the reader is in Editors (13)
    administrators = [i for i in sorted(w.mine) if i != w.owned]  # admin and the editor are in 12
    assert found(w, q.UserMetadata("group", (12,))) == administrators
    assert found(w, q.UserMetadata("modifier", (w.editor,))) == [w.charlie]
    assert found(w, q.UserMetadata("modifier", (14,))) == [i for i in sorted(w.mine) if i != w.charlie]


def test_date_metadata(world: World) -> None:
    w = world
    assert found(w, q.DateMetadata("published", "BETWEEN", (day(2), day(4)))) == [w.alpha, w.bravo, w.charlie]
    assert found(w, q.DateMetadata("created", "EQ", (day(1),))) == [w.top]  # created: first publication
    assert found(w, q.DateMetadata("published", "IN", (day(1), day(8)))) == [w.top, w.owned]
    assert found(w, q.DateMetadata("published", "GTE", (day(8),))) == [w.owned]
    assert found(w, q.DateMetadata("created", "LT", (day(2),))) == [w.top]
    assert found(w, q.DateMetadata("modified", "GT", (day(8),))) == [w.alpha]
    assert found(w, q.DateMetadata("modified", "LTE", (day(3),))) == [w.top, w.bravo]


def test_language_code(world: World) -> None:
    assert found(world, q.LanguageCode(("ger-DE",), match_always_available=False)) == [world.delta]


def test_not_and_or_combinations(world: World) -> None:
    w = world
    either = q.LogicalOr((q.SectionIdentifier(("media",)), q.UserMetadata("owner", (w.reader,))))
    assert found(w, either) == [w.bravo, w.owned]
    neither = q.LogicalNot(q.LogicalOr((q.ObjectStateIdentifier(("locked",)), q.IsBookmarked(True))))
    assert found(w, neither) == [i for i in sorted(w.mine) if i not in (w.charlie, w.bravo)]
    deep_and_unnamed = q.LogicalAnd((q.Depth("GTE", (3,)), q.LogicalNot(q.ContentName("hidden*"))))
    assert found(w, deep_and_unnamed) == [w.alpha, w.bravo, w.charlie, w.delta, w.owned]
    # NOT over "any location": items with no location below top's children at depth 4
    assert found(w, q.LogicalNot(q.Depth("EQ", (4,)))) == [
        w.top,
        w.bravo,
        w.hidden_place,
        w.hidden_item,
        w.delta,
        w.owned,
    ]
    not_siblings = q.LogicalNot(q.Sibling(w.loc(w.alpha)))
    assert found_locations(w, not_siblings) == sorted(
        loc.id for i in (w.top, w.alpha, w.charlie) for loc in w.repo.locations.of_content(ADMIN, i)
    )
    assert found(w, q.LogicalOr((q.Visibility(False), q.ContentRemoteId(("alpha-remote",))))) == [
        w.alpha, w.hidden_place, w.hidden_item,
    ]  # fmt: skip
