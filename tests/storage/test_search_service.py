"""The search service over SQLite and PostgreSQL: paging, counts, the permission filter inside the SQL,
published items only, batch loading (statement counts), and what the service resolves itself."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pressroom.domain import query as q
from pressroom.domain.content import ContentUpdate, FieldInput, Version, VersionUpdate
from pressroom.domain.errors import BadRequest, NotFound
from pressroom.domain.language import Language
from pressroom.domain.search import SearchQuery, SortClause, SortKey, TermAggregation, TermAggregationResult
from pressroom.domain.user import User, UserContent, UserGroup
from pressroom.services.relation import RelationService
from pressroom.services.version_cache import VersionCache
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.helpers import StatementCounter
from tests.storage.search_data import (
    ADMIN,
    ANONYMOUS,
    INSTALL_CONTENT,
    INSTALL_LOCATIONS,
    Repo,
    at,
)


@pytest.fixture
def repo(database_url: str, tmp_path: Path) -> Iterator[Repo]:
    engine = make_engine(database_url)
    yield Repo(SqlStore(engine), tmp_path / "files")
    engine.dispose()


def test_match_all_finds_every_published_item_by_id_with_its_current_version(repo: Repo) -> None:
    result = repo.search.find_content(ADMIN, SearchQuery(limit=100))
    assert [hit.value.content.id for hit in result.hits] == INSTALL_CONTENT
    assert result.total_count == len(INSTALL_CONTENT)
    admin = next(hit.value for hit in result.hits if hit.value.content.id == 14)
    assert (admin.info.version_no, admin.content.main_location_id) == (3, 15)
    assert {f.identifier for f in admin.fields} >= {"first_name", "last_name", "user_account"}


def test_paging_and_count(repo: Repo) -> None:
    page = repo.search.find_content(ADMIN, SearchQuery(limit=5, offset=5))
    assert [hit.value.content.id for hit in page.hits] == INSTALL_CONTENT[5:10]
    assert page.total_count == len(INSTALL_CONTENT)
    last = repo.search.find_content(ADMIN, SearchQuery(limit=5, offset=10))
    assert [hit.value.content.id for hit in last.hits] == INSTALL_CONTENT[10:]
    assert last.total_count == len(INSTALL_CONTENT)
    beyond = repo.search.find_content(ADMIN, SearchQuery(limit=5, offset=50))
    assert (beyond.hits, beyond.total_count) == ((), len(INSTALL_CONTENT))
    count_only = repo.search.find_content(ADMIN, SearchQuery(limit=0))
    assert (count_only.hits, count_only.total_count) == ((), len(INSTALL_CONTENT))


def test_negative_paging_is_a_bad_request(repo: Repo) -> None:
    with pytest.raises(BadRequest, match="limit"):
        repo.search.find_content(ADMIN, SearchQuery(limit=-1))
    with pytest.raises(BadRequest, match="offset"):
        repo.search.find_locations(ADMIN, SearchQuery(offset=-1))


def test_content_id_filter_and_query_are_both_applied(repo: Repo) -> None:
    query = SearchQuery(filter=q.ContentId((1, 4, 10, 999)), query=q.ContentId((4, 10, 41)))
    assert repo.content_ids(query) == [4, 10]


def test_the_permission_filter_hides_what_the_user_may_not_read(repo: Repo) -> None:
    # Anonymous reads section 1 (standard) only: Home (1) and what is created there.
    mine = repo.item("Public folder")
    result = repo.search.find_content(ANONYMOUS, SearchQuery(limit=100))
    assert [hit.value.content.id for hit in result.hits] == [1, mine]
    assert result.total_count == 2
    assert repo.location_ids(SearchQuery(limit=100), ANONYMOUS) == [2, repo.main_location(mine)]
    # The count is filtered in SQL too: a full page still counts only readable items.
    page = repo.search.find_content(ANONYMOUS, SearchQuery(limit=1))
    assert ([hit.value.content.id for hit in page.hits], page.total_count) == ([1], 2)


def test_only_published_items_are_found(repo: Repo) -> None:
    draft = repo.draft("Never published")
    published = repo.item("Published")
    trashed = repo.item("Trashed")
    repo.trash.trash(ADMIN, f"1/2/{repo.main_location(trashed)}")
    ids = repo.content_ids(SearchQuery(filter=q.ContentId((draft.content.id, published, trashed))))
    assert ids == [published]
    found = repo.location_ids(SearchQuery(filter=q.ParentLocationId((2,))))
    assert found == [repo.main_location(published)]


def test_location_search_finds_real_locations_with_content_and_readable_child_counts(repo: Repo) -> None:
    result = repo.find_locations(SearchQuery(limit=100))
    assert [hit.value.location.id for hit in result.hits] == INSTALL_LOCATIONS  # not the virtual root
    assert result.total_count == len(INSTALL_LOCATIONS)
    users = next(hit.value for hit in result.hits if hit.value.location.id == 5)
    assert users.location.content_info is not None and users.location.content_info.id == 4
    assert (users.version.content.id, users.location.child_count) == (4, 4)
    children = repo.find_locations(SearchQuery(filter=q.ParentLocationId((43,))))
    assert [hit.value.location.id for hit in children.hits] == [51, 52, 53]
    # Child counts count what the caller may read: anonymous reads section 1, not the media section 3.
    repo.item("Public child", 2)
    repo.item("Media child", 2, section_id=3)
    home = SearchQuery(filter=q.LocationId((2,)))
    assert repo.find_locations(home).hits[0].value.location.child_count == 2
    assert repo.find_locations(home, ANONYMOUS).hits[0].value.location.child_count == 1


def test_sorting_by_ids_and_dates(repo: Repo) -> None:
    first = repo.item("First", published=at(3), modified=at(4))
    second = repo.item("Second", published=at(2), modified=at(5))
    third = repo.item("Third", published=at(1), modified=at(3))
    mine = q.ContentId((first, second, third))

    def ids(*sort: SortClause) -> list[int]:
        return repo.content_ids(SearchQuery(filter=mine, sort=sort))

    assert ids() == [first, second, third]
    assert ids(SortClause(SortKey.CONTENT_ID, ascending=False)) == [third, second, first]
    assert ids(SortClause(SortKey.DATE_PUBLISHED)) == [third, second, first]
    assert ids(SortClause(SortKey.DATE_MODIFIED, ascending=False)) == [second, first, third]
    locations = [repo.main_location(i) for i in (first, second, third)]
    by_location = SearchQuery(
        filter=q.LocationId(tuple(locations)), sort=(SortClause(SortKey.LOCATION_ID, False),)
    )
    assert repo.location_ids(by_location) == sorted(locations, reverse=True)
    # Location keys in a content search sort on the main location.
    assert ids(SortClause(SortKey.LOCATION_ID, ascending=False)) == [third, second, first]


def test_statements_per_search_do_not_grow_with_the_page(repo: Repo) -> None:
    related = [repo.item(f"Item {n}") for n in range(8)]
    repo.permissions.grants(ADMIN)  # role definitions are loaded once per process
    repo.permissions.grants(ANONYMOUS)

    def statements(run: object) -> int:
        with StatementCounter() as counter:
            run()  # type: ignore[operator]
        return counter.count

    def cold(run: object) -> int:
        """The statements of ``run`` with nothing in the cache of current versions."""
        repo.search.versions = VersionCache()
        return statements(run)

    def content(ids: tuple[int, ...]) -> None:
        repo.search.find_content(ADMIN, SearchQuery(filter=q.ContentId(ids), limit=len(ids)))

    def located(ids: tuple[int, ...]) -> None:
        repo.search.find_locations(ADMIN, SearchQuery(filter=q.ContentId(ids), limit=len(ids)))

    # grants, page, count, items with their versions, fields (none holds relations): for 2 hits or 8.
    assert cold(lambda: content(tuple(related[:2]))) == cold(lambda: content(tuple(related))) == 5
    # All hits cached: grants, page, count, items.
    assert statements(lambda: content(tuple(related))) == 4
    # Some cached: the fields of the others.
    assert statements(lambda: content((1, *related))) == 5
    # grants, page, count, locations, items, fields; cached: no fields.
    assert cold(lambda: located(tuple(related[:2]))) == cold(lambda: located(tuple(related))) == 6
    assert statements(lambda: located(tuple(related))) == 5
    # A page that is not full tells the total: no count statement.
    assert cold(lambda: repo.search.find_content(ADMIN, SearchQuery(filter=q.ContentId((1,))))) == 4
    assert statements(lambda: repo.search.find_content(ADMIN, SearchQuery(filter=q.ContentId((1,))))) == 3
    # A page past the end: grants, page, count, and nothing to load.
    beyond = SearchQuery(filter=q.ContentId(tuple(related)), offset=8, limit=4)
    assert statements(lambda: repo.search.find_content(ADMIN, beyond)) == 3
    assert repo.search.find_content(ADMIN, beyond).total_count == 8


def test_statements_of_hits_with_relations_cold_and_cached(repo: Repo) -> None:
    """The relations of hits not cached take one statement (none when no such hit holds any), and a
    reader whose relations are filtered one more, cached or not."""
    target, plain = repo.item("Target"), repo.item("Plain")
    source = relating(repo, repo.item("Source"), target, 14)
    page = SearchQuery(filter=q.ContentId((target, plain, source)))
    repo.permissions.grants(ADMIN)
    repo.permissions.grants(ANONYMOUS)
    for user, cold, warm in ((ADMIN, 5, 3), (ANONYMOUS, 6, 4)):
        repo.search.versions = VersionCache()
        with StatementCounter() as counter:
            repo.search.find_content(user, page)
        assert counter.count == cold, counter.statements  # grants, page, items, fields, relations(, readable)
        with StatementCounter() as counter:
            result = repo.search.find_content(user, page)
        assert counter.count == warm, counter.statements  # grants, page, items(, readable)
        relations = {hit.value.content.id: hit.value.relations for hit in result.hits}
        shown = [target, 14] if user is ADMIN else [target]  # anonymous may not read the admin user
        assert [r.destination_content_id for r in relations[source]] == shown
        assert relations[target] == relations[plain] == ()


def relating(repo: Repo, source: int, *destinations: int) -> int:
    """Publish a new version of ``source`` relating to ``destinations``."""
    draft = repo.versions.copy_current(ADMIN, source)
    for destination in destinations:
        RelationService(repo.store, repo.permissions).create(
            ADMIN, source, draft.info.version_no, destination
        )
    repo.versions.publish(ADMIN, source, draft.info.version_no)
    return source


def test_a_cached_hit_is_never_served_stale(repo: Repo) -> None:
    """Hits share the cache of current versions with content GETs, each entry used only under the
    item's stamp: a new version, new relations, a deleted destination, a moved main location and a
    change through a content GET's cache are all seen by the next search."""
    item, target, folder = repo.item("Alpha"), repo.item("Target"), repo.item("Folder")
    repo.permissions.grants(ADMIN)

    def hit() -> Version:
        (found,) = repo.search.find_content(ADMIN, SearchQuery(filter=q.ContentId((item,)))).hits
        return found.value

    def name(version: Version) -> object:
        return next(f.value for f in version.fields if f.identifier == "name")

    assert name(hit()) == "Alpha"
    with StatementCounter() as counter:
        assert name(hit()) == "Alpha"
    assert counter.count == 3  # grants, page, the item: the fields are cached
    draft = repo.versions.copy_current(ADMIN, item)
    repo.versions.update(
        ADMIN, item, draft.info.version_no, VersionUpdate((FieldInput("name", None, "Beta"),))
    )
    assert name(hit()) == "Alpha"  # a draft is not the item's current version
    repo.versions.publish(ADMIN, item, draft.info.version_no)
    assert name(hit()) == "Beta"
    relating(repo, item, target)
    assert [r.destination_content_id for r in hit().relations] == [target]
    repo.content.delete(ADMIN, target)
    assert hit().relations == ()
    moved = repo.main_location(item)
    repo.locations.move(ADMIN, f"1/2/{moved}", f"1/2/{repo.main_location(folder)}")
    assert hit().content.main_location_path == f"/1/2/{repo.main_location(folder)}/{moved}/"
    assert name(hit()) == "Beta"
    # The content service's entries are the search's, under the same stamp: a GET after a search reads
    # no field, and a search after a new version read through a GET is served the GET's entry.
    with StatementCounter() as counter:
        assert name(repo.content.load(ADMIN, item)) == "Beta"
    assert not [s for s in counter.statements if "content_fields" in s]
    draft = repo.versions.copy_current(ADMIN, item)
    repo.versions.update(
        ADMIN, item, draft.info.version_no, VersionUpdate((FieldInput("name", None, "Gamma"),))
    )
    repo.versions.publish(ADMIN, item, draft.info.version_no)
    assert name(repo.content.load(ADMIN, item)) == "Gamma"
    with StatementCounter() as counter:
        assert name(hit()) == "Gamma"
    assert counter.count == 3


def test_the_service_resolves_identifiers_and_answers_not_found(repo: Repo) -> None:
    folder = repo.item("A folder")
    by_identifier = SearchQuery(filter=q.ContentTypeIdentifier(("folder", "user")))
    assert repo.content_ids(by_identifier) == [1, 10, 14, 41, 49, 50, 51, folder]
    with pytest.raises(NotFound, match="nothing"):
        repo.content_ids(SearchQuery(filter=q.ContentTypeIdentifier(("nothing",))))
    media = q.ParentLocationRemoteId(("75c715a51699d2d309a924eca6a95145",))
    assert repo.location_ids(SearchQuery(filter=media)) == [51, 52, 53]
    with pytest.raises(NotFound, match="missing"):
        repo.location_ids(SearchQuery(query=q.LogicalNot(q.ParentLocationRemoteId(("missing",)))))


def test_language_filter(repo: Repo) -> None:
    repo.languages.add("ger-DE")
    german = repo.item("Ordner", language="ger-DE", always_available=False)
    english = repo.item("Folder", always_available=False)
    mine = q.ContentId((german, english))
    assert repo.content_ids(SearchQuery(filter=mine, languages=("ger-DE",))) == [german]
    assert repo.content_ids(SearchQuery(filter=mine, languages=("eng-GB", "ger-DE"))) == [german, english]
    assert repo.content_ids(SearchQuery(filter=mine, languages=("fre-FR",))) == []


KEYED = (
    TermAggregation("types", "content_type"),
    TermAggregation("type groups", "content_type_group"),
    TermAggregation("sections", "section"),
    TermAggregation("languages", "language"),
    TermAggregation("lock", "object_state", object_state_group="ez_lock"),
    TermAggregation("tree", "subtree", path_string="/1/"),
    TermAggregation("owners", "user_metadata", target="owner"),
    TermAggregation("groups", "user_metadata", target="group"),
    TermAggregation("visible", "visibility"),
)


def keyed(user: User, repo: Repo) -> dict[str, list[tuple[str, object, int]]]:
    """Each aggregation's entries as (type of key, its id or value, count)."""
    result = repo.search.find_content(user, SearchQuery(limit=0, aggregations=KEYED))

    def ident(key: object) -> object:
        if isinstance(key, UserContent):
            return key.account.id
        if isinstance(key, UserGroup):
            return (key.version.content.id, key.location.id)
        if isinstance(key, Language):
            return key.language_code
        return getattr(key, "id", key)

    return {
        aggregation.name: [(type(e.key).__name__, ident(e.key), e.count) for e in aggregation.entries]
        for aggregation in result.aggregations
        if isinstance(aggregation, TermAggregationResult)
    }


def test_aggregation_keys_are_loaded_objects(repo: Repo) -> None:
    found = keyed(ADMIN, repo)
    assert found["types"] == [("ContentType", 1, 5), ("ContentType", 3, 5), ("ContentType", 4, 2)]
    assert found["type groups"] == [("ContentTypeGroup", 2, 7), ("ContentTypeGroup", 1, 5)]
    assert found["sections"] == [("Section", 2, 7), ("Section", 3, 4), ("Section", 1, 1)]
    assert found["languages"] == [("Language", "eng-GB", 12)]
    assert found["lock"] == [("ObjectState", 1, 12)]  # not locked: the group's first state
    assert found["tree"] == [("Location", 5, 7), ("Location", 43, 4), ("Location", 2, 1)]
    assert found["owners"] == [("UserContent", 14, 12)]
    assert found["groups"] == [("UserGroup", (12, 13), 12)]  # admin is in Administrator users
    assert found["visible"] == [("bool", True, 12)]


def test_aggregation_keys_the_user_may_not_read_are_left_out(repo: Repo) -> None:
    found = keyed(ANONYMOUS, repo)
    assert found["sections"] == [("Section", 1, 1)]  # counts cover what anonymous reads
    assert found["tree"] == [("Location", 2, 1)]
    # the owner (admin) and its group are in the users section, which anonymous may not read
    assert found["owners"] == [] and found["groups"] == []


def test_aggregation_names_are_unique(repo: Repo) -> None:
    twice = (TermAggregation("a", "section"), TermAggregation("a", "content_type"))
    with pytest.raises(BadRequest, match="repeated: a"):
        repo.search.find_content(ADMIN, SearchQuery(aggregations=twice))


def test_statements_of_aggregations_are_bounded_by_the_aggregations_not_the_hits(repo: Repo) -> None:
    for _ in range(3):
        repo.item("Another")
    aggregations = (
        TermAggregation("types", "content_type"),
        TermAggregation("tree", "subtree", path_string="/1/"),
    )
    query = SearchQuery(limit=0, aggregations=aggregations)
    repo.search.find_content(ADMIN, query)  # warms the per-process cache of content types
    with StatementCounter() as counter:
        repo.search.find_content(ADMIN, query)
    # the caller's grants with the cache epoch (content types are cached), the count, a GROUP BY per
    # aggregation, the subtree keys' locations in one statement: no statement per key or per hit
    assert len(counter.statements) == 5, counter.statements


def test_full_text_hits_carry_their_relevance_and_the_page_its_best(repo: Repo) -> None:
    once = repo.item("Lighthouse keeper")
    thrice = repo.item("Lighthouse lighthouse lighthouse")
    repo.item("Harbour")
    ranked = SearchQuery(query=q.FullText("lighthouse"), sort=(SortClause(SortKey.SCORE, ascending=False),))
    result = repo.search.find_content(ADMIN, ranked)
    scores = {hit.value.content.id: hit.score for hit in result.hits}
    assert list(scores) == [thrice, once]  # the more often the word, the higher
    assert scores[thrice] > scores[once] > 0  # type: ignore[operator]
    assert result.max_score == scores[thrice]
    places = repo.find_locations(ranked)
    assert [(hit.value.location.content_id, hit.score) for hit in places.hits] == list(scores.items())
    assert places.max_score == result.max_score
    plain = repo.search.find_content(ADMIN, SearchQuery(filter=q.ContentId((once, thrice))))
    assert [hit.score for hit in plain.hits] == [None, None] and plain.max_score is None  # nothing ranked


def test_the_name_sort_follows_new_names_and_a_new_main_language(repo: Repo) -> None:
    """The ContentName key is stored with the item (``content.name_key``): publishing a renamed version
    and changing the main language each move the item in the order; editing a draft does not."""
    repo.languages.add("ger-DE")
    beta, mike = repo.item("Beta"), repo.item("Mike")

    def by_name() -> list[int]:
        query = SearchQuery(filter=q.ContentId((beta, mike)), sort=(SortClause(SortKey.CONTENT_NAME),))
        return repo.content_ids(query)

    assert by_name() == [beta, mike]
    draft = repo.versions.copy_current(ADMIN, beta)
    rename = (FieldInput("name", "eng-GB", "Zeta"), FieldInput("name", "ger-DE", "Alpha"))
    repo.versions.update(ADMIN, beta, draft.info.version_no, VersionUpdate(rename))
    assert by_name() == [beta, mike]  # a draft's name is not the item's yet
    repo.versions.publish(ADMIN, beta, draft.info.version_no)
    assert by_name() == [mike, beta]  # Zeta
    repo.content.update(ADMIN, beta, ContentUpdate(main_language_code="ger-DE"), None)
    assert by_name() == [beta, mike]  # Alpha, its German name, is now the main one
    repo.content.update(ADMIN, beta, ContentUpdate(main_language_code="eng-GB"), None)
    assert by_name() == [mike, beta]
