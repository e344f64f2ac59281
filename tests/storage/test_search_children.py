"""A content search below one parent (ParentLocationId with one id) reads the children through their
location rows there, with the item's type, publication date and name key copied onto them
(``storage/sql/item_keys.py``). Each test changes what a copy stands for through the services (publish,
publication date, main language, a new location, move, copy, swap, trash and restore) and checks the
search's answer, then that ``pressroom check`` finds nothing to report; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from pressroom.domain import query as q
from pressroom.domain.content import ContentUpdate, FieldInput, VersionUpdate
from pressroom.domain.fieldtypes.jsonvalue import JsonValue
from pressroom.domain.location import LocationCreate
from pressroom.domain.search import (
    SearchQuery,
    SortClause,
    SortKey,
    TermAggregation,
    TermAggregationResult,
)
from pressroom.domain.user import User
from pressroom.services.integrity import IntegrityService
from pressroom.services.permissions import Permissions
from pressroom.services.search import SearchService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.helpers import StatementCounter
from tests.storage.search_data import ADMIN, ARTICLE, FOLDER, Repo, at


@pytest.fixture
def repo(database_url: str, tmp_path: Path) -> Iterator[Repo]:
    engine = make_engine(database_url)
    yield Repo(SqlStore(engine), tmp_path / "files")
    engine.dispose()


def children(
    repo: Repo, parent: int, *sort: SortClause, type_id: int | None = None, user: User = ADMIN
) -> tuple[list[int], int]:
    """The ids of the children of ``parent`` (of the type) in ``sort`` order, and their count (a page of
    one: the count is then a statement of its own)."""
    criterion: q.Criterion = q.ParentLocationId((parent,))
    if type_id is not None:
        criterion = q.LogicalAnd((criterion, q.ContentTypeId((type_id,))))
    search = SearchQuery(filter=criterion, sort=sort, limit=100)
    ids = [hit.value.content.id for hit in repo.search.find_content(user, search).hits]
    counted = repo.search.find_content(user, SearchQuery(filter=criterion, limit=1)).total_count
    assert counted == len(ids)
    return ids, counted


def healthy(repo: Repo) -> None:
    report = IntegrityService(repo.store, LocalFileStore(Path("/nonexistent"))).check()
    assert [problem.kind for problem in report.problems] == []


INTRO: JsonValue = {
    "xml": '<?xml version="1.0" encoding="UTF-8"?><section xmlns="http://docbook.org/ns/docbook" '
    'version="5.0-variant ezpublish-1.0"><para>Intro</para></section>'
}


def make_article(repo: Repo, title: str, parent: int, published: datetime) -> int:
    return repo.item(
        title, parent, type_id=ARTICLE, fields=(FieldInput("intro", None, INTRO),), published=published
    )


BY_NAME = SortClause(SortKey.CONTENT_NAME)
NEWEST = SortClause(SortKey.DATE_PUBLISHED, ascending=False)


def test_names_dates_and_types_follow_publish_updates_and_main_language(repo: Repo) -> None:
    repo.languages.add("ger-DE")
    box = repo.item("Box")
    parent = repo.main_location(box)
    alpha = repo.item("Alpha", parent, published=at(3))
    mike = repo.item("Mike", parent, published=at(1))
    story = make_article(repo, "Kilo", parent, at(2))
    assert children(repo, parent, BY_NAME) == ([alpha, story, mike], 3)
    assert children(repo, parent, NEWEST) == ([alpha, story, mike], 3)
    assert children(repo, parent, NEWEST, type_id=ARTICLE) == ([story], 1)
    assert children(repo, parent, NEWEST, type_id=FOLDER) == ([alpha, mike], 2)

    draft = repo.versions.copy_current(ADMIN, alpha)
    rename = (FieldInput("name", "eng-GB", "Zulu"), FieldInput("name", "ger-DE", "Bravo"))
    repo.versions.update(ADMIN, alpha, draft.info.version_no, VersionUpdate(rename))
    assert children(repo, parent, BY_NAME)[0] == [alpha, story, mike]  # a draft's name is not the item's
    repo.versions.publish(ADMIN, alpha, draft.info.version_no)
    assert children(repo, parent, BY_NAME)[0] == [story, mike, alpha]  # Zulu
    repo.content.update(ADMIN, alpha, ContentUpdate(main_language_code="ger-DE"), None)
    assert children(repo, parent, BY_NAME)[0] == [alpha, story, mike]  # Bravo
    repo.content.update(ADMIN, mike, ContentUpdate(published_date=at(9)), None)
    assert children(repo, parent, NEWEST)[0] == [mike, alpha, story]
    assert children(repo, parent, NEWEST, type_id=FOLDER)[0] == [mike, alpha]
    healthy(repo)


def test_new_moved_copied_swapped_trashed_and_restored_locations_carry_their_items_keys(
    repo: Repo,
) -> None:
    first, second = repo.item("First"), repo.item("Second")
    here, there = repo.main_location(first), repo.main_location(second)
    folder = repo.item("Oscar", here, published=at(5))
    article = make_article(repo, "Echo", there, at(4))
    assert children(repo, here, BY_NAME, type_id=ARTICLE) == ([], 0)

    # swap: the article comes below ``here``, the folder below ``there``
    folder_at, article_at = repo.main_location(folder), repo.main_location(article)
    repo.locations.swap(ADMIN, f"1/2/{here}/{folder_at}", f"1/2/{there}/{article_at}")
    assert children(repo, here, NEWEST, type_id=ARTICLE) == ([article], 1)
    assert children(repo, here, NEWEST, type_id=FOLDER) == ([], 0)
    assert children(repo, there, NEWEST, type_id=FOLDER) == ([folder], 1)

    # a second location of the folder, below ``here``
    repo.locations.create(ADMIN, folder, LocationCreate(here))
    assert children(repo, here, BY_NAME) == ([article, folder], 2)
    assert children(repo, here, NEWEST, type_id=FOLDER) == ([folder], 1)

    # a copy of the folder below ``there`` (published now: the newest)
    copy = repo.content.copy(ADMIN, folder, there).id
    assert children(repo, there, NEWEST, type_id=FOLDER) == ([copy, folder], 2)
    healthy(repo)

    # move the copy below ``here``
    copy_at = repo.main_location(copy)
    repo.locations.move(ADMIN, f"1/2/{there}/{copy_at}", f"1/2/{here}")
    assert children(repo, here, NEWEST, type_id=FOLDER) == ([copy, folder], 2)
    assert children(repo, there, NEWEST, type_id=FOLDER) == ([folder], 1)

    # trash ``there`` (its subtree with it) and restore it
    delta = make_article(repo, "Delta", there, at(6))
    assert children(repo, there, NEWEST, type_id=ARTICLE) == ([delta], 1)
    item = repo.trash.trash(ADMIN, f"1/2/{there}")
    assert item is not None
    assert children(repo, there, BY_NAME) == ([], 0)
    assert children(repo, here, BY_NAME) == ([article, folder, copy], 3)  # kept their places here
    repo.trash.restore(ADMIN, item.location.id, None)
    assert children(repo, there, BY_NAME, type_id=ARTICLE) == ([delta], 1)  # the folder's was not trashed
    assert children(repo, there, BY_NAME) == ([delta], 1)
    healthy(repo)


class _SubtreeReader(Permissions):
    """Reads the subtrees at ``paths`` only, as a Subtree limitation on content/read compiles."""

    paths: tuple[str, ...] = ()

    def criterion(self, user: User, module: str, function: str, tx: Any = None) -> q.Criterion:
        return q.Subtree(self.paths)


def test_a_reader_limited_to_subtrees_sees_the_children_it_may_read(repo: Repo) -> None:
    """The read criterion of a Subtree reader: children of a parent inside the subtree all pass without a
    look at each item's locations; below a parent outside it, only items also placed inside."""
    inside, outside = repo.item("Inside"), repo.item("Outside")
    inside_at, outside_at = repo.main_location(inside), repo.main_location(outside)
    a = repo.item("Alpha", inside_at, published=at(1))
    b = repo.item("Bravo", outside_at, published=at(2))
    c = make_article(repo, "Charlie", outside_at, at(3))
    repo.locations.create(ADMIN, c, LocationCreate(inside_at))
    reader = _SubtreeReader(repo.store)
    reader.paths = (f"/1/2/{inside_at}/",)
    search = SearchService(repo.store, reader, repo.content.versions)
    as_reader = Repo.__new__(Repo)
    as_reader.__dict__.update(repo.__dict__, search=search)
    assert children(as_reader, inside_at, BY_NAME) == ([a, c], 2)
    assert children(as_reader, outside_at, BY_NAME) == ([c], 1)  # b is only outside
    assert children(as_reader, outside_at, NEWEST, type_id=FOLDER) == ([], 0)
    assert children(repo, outside_at, BY_NAME) == ([b, c], 2)
    # a Subtree query inside what the reader may read, with a type aggregation
    aggregate = SearchQuery(
        filter=q.Subtree((f"/1/2/{inside_at}/",)),
        limit=0,
        aggregations=(TermAggregation("t", "content_type"),),
    )
    result = search.find_content(ADMIN, aggregate)
    assert result.total_count == 3  # the parent itself, a and c
    (types,) = result.aggregations
    assert isinstance(types, TermAggregationResult)
    assert [(getattr(entry.key, "id", None), entry.count) for entry in types.entries] == [
        (FOLDER, 2),
        (ARTICLE, 1),
    ]


def test_a_page_of_children_by_type_and_date_reads_no_item_row_and_keeps_its_statements(repo: Repo) -> None:
    parent = repo.main_location(repo.item("Parent"))
    made = [repo.item(f"Child {day}", parent, published=at(day)) for day in range(1, 5)]
    repo.permissions.grants(ADMIN)  # role definitions are loaded once per process
    criterion = q.LogicalAnd((q.ParentLocationId((parent,)), q.ContentTypeId((FOLDER,))))
    with StatementCounter() as counter:
        result = repo.search.find_content(ADMIN, SearchQuery(filter=criterion, sort=(NEWEST,), limit=2))
    assert [hit.value.content.id for hit in result.hits] == made[::-1][:2]
    assert result.total_count == 4
    # grants, page, count, the items with their versions, their fields (not cached yet; none holds
    # relations), as any full page
    assert counter.count == 5
    searched = [s for s in counter.statements if "locations.parent_id" in s and "content.status" not in s]
    assert len(searched) == 2  # the page and the count: from locations, without the item's row
    assert all("JOIN content" not in s for s in searched)
