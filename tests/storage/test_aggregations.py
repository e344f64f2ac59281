"""Search aggregations in SQL on SQLite and PostgreSQL, over the clean install plus a few items built
through the services: counts cover published items only (no drafts, nothing trashed), a content search
counts items and a location search locations, and the read criterion narrows what is counted."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, and_

from pressroom.app import build_services
from pressroom.domain import query as q
from pressroom.domain import search as s
from pressroom.domain.content import ContentCreate, FieldInput, VersionUpdate
from pressroom.domain.errors import BadRequest
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.language import Language, next_language_id
from pressroom.domain.location import LocationCreate
from pressroom.domain.user import User
from pressroom.services.container import Services
from pressroom.storage.sql.aggregations import aggregate
from pressroom.storage.sql.criteria import compile_criterion
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.schema import content, locations
from tests.conftest import make_settings
from tests.helpers import StatementCounter

ADMIN = User(14, "admin", "admin@link.invalid", True)
ANONYMOUS = User(10, "anonymous", "nospam@ez.no", True)
FOLDER, ARTICLE, USER_GROUP, USER = 1, 2, 3, 4
INTRO: JsonValue = {
    "xml": '<?xml version="1.0" encoding="UTF-8"?><section xmlns="http://docbook.org/ns/docbook" '
    'version="5.0-variant ezpublish-1.0"><para>Intro</para></section>'
}
Y2020 = int(datetime(2020, 1, 1, tzinfo=UTC).timestamp())


@dataclass(frozen=True)
class Repo:
    """The database and the ids of what the fixture built: a folder News under Home with the articles
    One (also placed, hidden, under Media; locked), Two (owned by Anonymous, translated to German) and
    Four (trashed), a draft that was never published, and the hidden article Three under Home."""

    engine: Engine
    services: Services
    news: int
    one: int
    two: int
    three: int
    news_at: int
    one_at: int
    one_in_media_at: int
    two_at: int
    three_at: int


def _article(title: str, parent: int, owner: int | None = None) -> ContentCreate:
    fields = (FieldInput("title", None, title), FieldInput("intro", None, INTRO))
    return ContentCreate(ARTICLE, "eng-GB", fields, (LocationCreate(parent),), owner_id=owner)


def _build(database_url: str, root: Path) -> Repo:
    engine = make_engine(database_url)
    services = build_services(make_settings(database_url, root), engine)
    store = services.permissions.store
    with store.write() as tx:
        taken = [language.id for language in tx.languages.list()]
        tx.languages.create(Language(next_language_id(taken), "ger-DE", "German", True))

    def published(struct: ContentCreate) -> int:
        draft = services.content.create(ADMIN, struct)
        services.versions.publish(ADMIN, draft.content.id, 1)
        return draft.content.id

    def main_location(content_id: int) -> int:
        location = services.content.load_info(ADMIN, content_id).main_location_id
        assert location is not None
        return location

    news = published(
        ContentCreate(FOLDER, "eng-GB", (FieldInput("name", None, "News"),), (LocationCreate(2),))
    )
    news_at = main_location(news)
    one = published(_article("One", news_at))
    two = published(_article("Two", news_at, owner=10))
    three = published(_article("Three", 2))
    four = published(_article("Four", news_at))
    services.content.create(ADMIN, _article("Draft", news_at))
    one_in_media = services.locations.create(ADMIN, one, LocationCreate(43, hidden=True))
    services.object_states.assign(ADMIN, one, [(2, 2)])  # ez_lock: locked
    german = services.versions.copy_current(ADMIN, two)
    services.versions.update(
        ADMIN,
        two,
        german.info.version_no,
        VersionUpdate((FieldInput("title", "ger-DE", "Zwei"), FieldInput("intro", "ger-DE", INTRO))),
    )
    services.versions.publish(ADMIN, two, german.info.version_no)
    services.content.hide(ADMIN, three)
    four_location = services.content.load_info(ADMIN, four).main_location_path
    assert four_location is not None
    services.trash.trash(ADMIN, four_location.strip("/"))
    return Repo(
        engine, services, news, one, two, three, news_at, main_location(one), one_in_media.id,
        main_location(two), main_location(three),
    )  # fmt: skip


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def repo(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    template_sqlite: Path,
) -> Iterator[Repo]:
    """Built once per database kind; the tests only read."""
    root = tmp_path_factory.mktemp("aggregations")
    with ExitStack() as stack:
        if request.param == "sqlite":
            shutil.copy(template_sqlite, root / "pressroom.db")
            url = f"sqlite:///{root / 'pressroom.db'}"
        else:
            url = stack.enter_context(request.getfixturevalue("installed_postgres")())
        built = _build(url, root)
        yield built
        built.engine.dispose()


def run(
    repo: Repo,
    *aggregations: s.Aggregation,
    criterion: q.Criterion | None = None,
    location_search: bool = False,
) -> tuple[s.AggregationResult, ...]:
    """The aggregations over the published items (or their locations) that ``criterion`` selects."""
    location = locations.alias("location") if location_search else None
    condition = and_(content.c.status == 1, compile_criterion(criterion or q.MatchAll(), location))
    with repo.engine.connect() as connection:
        return aggregate(connection, condition, location, aggregations)


def terms(repo: Repo, aggregation: s.TermAggregation, **options: object) -> list[tuple[object, int]]:
    (result,) = run(repo, aggregation, **options)  # type: ignore[arg-type]
    assert isinstance(result, s.TermAggregationResult) and result.name == aggregation.name
    return [(entry.key, entry.count) for entry in result.entries]


def term(kind: str, **options: object) -> s.TermAggregation:
    return s.TermAggregation(kind, kind, **options)  # type: ignore[arg-type]


# Published items: the clean install's 12 and News, One, Two, Three (Four is trashed, Draft unpublished).
# Locations: the install's 12 (the virtual root has no item) and News, One (twice), Two and Three.


def test_content_type_counts_items_most_frequent_first(repo: Repo) -> None:
    assert terms(repo, term("content_type")) == [(FOLDER, 6), (USER_GROUP, 5), (ARTICLE, 3), (USER, 2)]
    assert terms(repo, term("content_type", limit=2)) == [(FOLDER, 6), (USER_GROUP, 5)]
    assert terms(repo, term("content_type", limit=0)) == []
    assert terms(repo, term("content_type", min_count=3)) == [(FOLDER, 6), (USER_GROUP, 5), (ARTICLE, 3)]
    # A location search counts One twice: it has two locations.
    assert terms(repo, term("content_type"), location_search=True)[2] == (ARTICLE, 4)


def test_section_and_raw_section_id(repo: Repo) -> None:
    assert terms(repo, term("section")) == [(2, 7), (1, 5), (3, 4)]
    assert terms(repo, term("raw", field_name="section_id")) == [(2, 7), (1, 5), (3, 4)]


def test_content_type_group_counts_each_group_of_the_type(repo: Repo) -> None:
    # Content: folders and articles; Users: user groups and users; Media (images, files): none.
    assert terms(repo, term("content_type_group")) == [(1, 9), (2, 7)]


def test_language_counts_the_translations_of_the_current_version(repo: Repo) -> None:
    assert terms(repo, term("language")) == [("eng-GB", 16), ("ger-DE", 1)]
    assert terms(repo, term("language"), criterion=q.ContentId((repo.two,))) == [("eng-GB", 1), ("ger-DE", 1)]


def test_visibility_of_items_and_of_locations(repo: Repo) -> None:
    # An item is visible when one of its locations is: One is, Three (hidden content) is not.
    assert terms(repo, term("visibility")) == [(True, 15), (False, 1)]
    # One's location under Media is hidden, Three's is invisible.
    assert terms(repo, term("visibility"), location_search=True) == [(True, 15), (False, 2)]


def test_user_metadata_owner_group_and_modifier(repo: Repo) -> None:
    assert terms(repo, term("user_metadata", target="owner")) == [(14, 15), (10, 1)]
    # Administrator users (12) hold the admin, Anonymous Users (42) the anonymous user.
    assert terms(repo, term("user_metadata", target="group")) == [(12, 15), (42, 1)]
    assert terms(repo, term("user_metadata", target="modifier")) == [(14, 16)]


def test_object_state_counts_items_without_a_row_in_the_default_state(repo: Repo) -> None:
    assert terms(repo, term("object_state", object_state_group="ez_lock")) == [(1, 15), (2, 1)]
    assert terms(repo, term("object_state", object_state_group="no_such_group")) == []


def test_subtree_counts_hits_below_each_child(repo: Repo) -> None:
    # Items: Home (2) holds Home, News, One, Two, Three; Users (5) seven; Media (43) four and One.
    assert terms(repo, term("subtree", path_string="/1/")) == [(5, 7), (2, 5), (43, 5)]
    assert terms(repo, term("subtree", path_string="/1/2/")) == [(repo.news_at, 3), (repo.three_at, 1)]
    assert terms(repo, term("subtree", path_string="/1/2/"), location_search=True) == [
        (repo.news_at, 3),
        (repo.three_at, 1),
    ]
    assert terms(repo, term("subtree", path_string="/1/43/"), location_search=True) == [
        (51, 1),
        (52, 1),
        (53, 1),
        (repo.one_in_media_at, 1),
    ]
    # The hits at the path itself count for no child; a prefix of digits is not a child (/1/5/ vs /1/52/).
    assert terms(repo, term("subtree", path_string="/1/5/"), criterion=q.ContentId((4, 50))) == []


def test_location_children_counts_hits_per_parent(repo: Repo) -> None:
    expected = [(5, 4), (43, 4), (1, 3), (2, 2), (repo.news_at, 2), (13, 1), (44, 1)]
    assert terms(repo, term("location_children")) == expected
    assert terms(repo, term("location_children"), location_search=True) == expected
    assert terms(repo, term("location_children", min_count=3, limit=2)) == [(5, 4), (43, 4)]
    assert terms(repo, term("location_children", location_id=repo.news_at)) == [(repo.news_at, 2)]


def test_raw_terms_of_location_columns_in_a_location_search(repo: Repo) -> None:
    assert terms(repo, term("raw", field_name="depth"), location_search=True) == [(2, 10), (3, 4), (1, 3)]
    with pytest.raises(BadRequest, match=r"'depth'.* content search"):
        run(repo, term("raw", field_name="depth"))
    with pytest.raises(BadRequest, match="fieldName 'password_hash' is not a raw field"):
        run(repo, term("raw", field_name="password_hash"))


def test_date_metadata_ranges(repo: Repo) -> None:
    ranges = ((None, Y2020), (Y2020, None), (None, None))
    (published, modified) = run(
        repo,
        s.RangeAggregation("published", "date_metadata", ranges, target="published"),
        s.RangeAggregation("modified", "date_metadata", ranges, target="modified"),
    )
    assert isinstance(published, s.RangeAggregationResult) and isinstance(modified, s.RangeAggregationResult)
    assert [(e.start, e.end, e.count) for e in published.entries] == [
        (None, Y2020, 12),
        (Y2020, None, 4),
        (None, None, 16),
    ]
    assert [e.count for e in modified.entries] == [12, 4, 16]
    with pytest.raises(BadRequest, match="type 'deleted'"):
        run(repo, s.RangeAggregation("x", "date_metadata", ranges, target="deleted"))


def test_raw_ranges_and_stats(repo: Repo) -> None:
    depth, stats, ids = run(
        repo,
        s.RangeAggregation("depth", "raw", ((None, 2), (2, 3), (3, None)), field_name="depth"),
        s.StatsAggregation("depths", "raw", field_name="depth"),
        s.StatsAggregation("ids", "raw", field_name="content_id"),
        location_search=True,
        criterion=q.SectionId((1, 3)),
    )
    assert isinstance(depth, s.RangeAggregationResult)
    # Section 1: Home (depth 1), News, Three, One under Media (2), One, Two (3); section 3: Media (1) and
    # three folders (2). One's two locations are two hits of a location search.
    assert [e.count for e in depth.entries] == [2, 6, 2]
    assert stats == s.StatsAggregationResult("depths", 10, 20.0, 1.0, 3.0, 2.0)
    assert isinstance(ids, s.StatsAggregationResult) and ids.count == 10
    (empty,) = run(repo, s.StatsAggregation("none", "raw", field_name="published"), criterion=q.MatchNone())
    assert empty == s.StatsAggregationResult("none", 0, None, None, None, None)


def test_counts_include_only_what_the_user_may_read(repo: Repo) -> None:
    """Anonymous may read section 1 (standard) only: the users and media sections are not counted."""
    readable = repo.services.permissions.read_criterion(ANONYMOUS)
    assert terms(repo, term("section"), criterion=readable) == [(1, 5)]
    assert terms(repo, term("content_type"), criterion=readable) == [(ARTICLE, 3), (FOLDER, 2)]
    assert terms(repo, term("subtree", path_string="/1/"), criterion=readable) == [(2, 5), (43, 1)]
    (stats,) = run(repo, s.StatsAggregation("ids", "raw", field_name="content_id"), criterion=readable)
    assert isinstance(stats, s.StatsAggregationResult) and stats.count == 5


def test_one_statement_per_term_aggregation_and_one_for_ranges_and_stats(repo: Repo) -> None:
    aggregations = (
        term("content_type"),
        term("section"),
        term("language"),
        term("object_state", object_state_group="ez_lock"),
        term("subtree", path_string="/1/"),
        s.RangeAggregation("dates", "date_metadata", ((None, Y2020),), target="modified"),
        s.StatsAggregation("ids", "raw", field_name="content_id"),
        s.RangeAggregation("ids in ranges", "raw", ((1, 20), (20, None)), field_name="content_id"),
    )
    with StatementCounter() as counter:
        results = run(repo, *aggregations)
    assert counter.count == 6
    assert [result.name for result in results] == [a.name for a in aggregations]
