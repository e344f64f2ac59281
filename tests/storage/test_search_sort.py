"""Every sort clause, ascending and descending, on SQLite and PostgreSQL, over the repository of
``search_world``, in content and location searches; and location children sorted by the same code."""

from __future__ import annotations

import pytest

from pressroom.domain import query as q
from pressroom.domain.errors import BadRequest
from pressroom.domain.location import Location, LocationUpdate
from pressroom.domain.search import SearchQuery, SortClause, SortKey
from tests.storage.search_data import ADMIN
from tests.storage.search_world import World, world

__all__ = ["world"]  # the module-scoped fixture


def ids(w: World, *sort: SortClause, criterion: q.Criterion = q.MatchAll(), **options: object) -> list[int]:  # noqa: B008
    query = SearchQuery(filter=q.all_of([q.ContentId(w.mine), criterion]), sort=sort, limit=100, **options)  # type: ignore[arg-type]
    return w.repo.content_ids(query)


def location_ids(w: World, *sort: SortClause) -> list[int]:
    return w.repo.location_ids(SearchQuery(filter=q.ContentId(w.mine), sort=sort, limit=100))


def main_location(w: World, content_id: int) -> Location:
    return next(loc for loc in w.repo.locations.of_content(ADMIN, content_id) if loc.id == w.loc(content_id))


def asc(key: SortKey) -> SortClause:
    return SortClause(key)


def desc(key: SortKey) -> SortClause:
    return SortClause(key, ascending=False)


def test_content_name_is_the_main_language_name_ignoring_case(world: World) -> None:
    w = world
    # Alpha, Bravo, charlie, Delta (its ger-DE name Zora is not the main one), Hidden item, Hidden place,
    # Owned, Top: "charlie" sorts among the capitals
    by_name = [w.alpha, w.bravo, w.charlie, w.delta, w.hidden_item, w.hidden_place, w.owned, w.top]
    assert ids(w, asc(SortKey.CONTENT_NAME)) == by_name
    assert ids(w, desc(SortKey.CONTENT_NAME)) == by_name[::-1]
    # a location search: alpha's two locations come together (same name), by location id
    alpha_locations = sorted(loc.id for loc in w.repo.locations.of_content(ADMIN, w.alpha))
    assert location_ids(w, asc(SortKey.CONTENT_NAME))[:3] == [*alpha_locations, w.loc(w.bravo)]


def test_section_and_content_type_keys(world: World) -> None:
    w = world
    rest = [i for i in sorted(w.mine) if i != w.bravo]
    assert ids(w, asc(SortKey.SECTION_IDENTIFIER)) == [w.bravo, *rest]  # media < standard
    assert ids(w, desc(SortKey.SECTION_IDENTIFIER)) == [*rest, w.bravo]
    assert ids(w, asc(SortKey.SECTION_NAME)) == [w.bravo, *rest]  # Media < Standard
    folders = [i for i in sorted(w.mine) if i != w.alpha]
    assert ids(w, asc(SortKey.CONTENT_TYPE_IDENTIFIER)) == [*folders, w.alpha]  # folder < image
    assert ids(w, desc(SortKey.CONTENT_TYPE_NAME)) == [w.alpha, *folders]  # Image > Folder


def test_location_keys_use_the_main_location_in_a_content_search(world: World) -> None:
    w = world
    rest = [i for i in sorted(w.mine) if i not in (w.alpha, w.bravo)]
    assert ids(w, desc(SortKey.LOCATION_PRIORITY)) == [w.bravo, w.alpha, *rest]
    assert ids(w, asc(SortKey.LOCATION_PRIORITY)) == [*rest, w.alpha, w.bravo]
    # depth: top at 2, charlie at 4, the rest at 3 (alpha's main location too)
    middle = [i for i in sorted(w.mine) if i not in (w.top, w.charlie)]
    assert ids(w, desc(SortKey.LOCATION_DEPTH)) == [w.charlie, *middle, w.top]
    paths = {i: main_location(w, i).path_string for i in w.mine}
    assert ids(w, asc(SortKey.LOCATION_PATH)) == sorted(w.mine, key=paths.__getitem__)
    assert ids(w, desc(SortKey.LOCATION_ID)) == sorted(w.mine, key=w.loc, reverse=True)


def test_location_keys_use_the_location_itself_in_a_location_search(world: World) -> None:
    w = world
    found = w.repo.find_locations(SearchQuery(filter=q.ContentId(w.mine), limit=100))
    located = [hit.value.location for hit in found.hits]
    by_priority = sorted(sorted(located, key=lambda loc: loc.id), key=lambda loc: -loc.priority)
    assert location_ids(w, desc(SortKey.LOCATION_PRIORITY)) == [loc.id for loc in by_priority]
    by_depth = sorted(sorted(located, key=lambda loc: loc.id), key=lambda loc: loc.depth)
    assert location_ids(w, asc(SortKey.LOCATION_DEPTH)) == [loc.id for loc in by_depth]
    assert location_ids(w, asc(SortKey.LOCATION_PATH)) == [
        loc.id for loc in sorted(located, key=lambda loc: loc.path_string)
    ]


def test_dates_and_ids(world: World) -> None:
    w = world
    published_order = [w.top, w.alpha, w.bravo, w.charlie, w.hidden_place, w.hidden_item, w.delta, w.owned]
    assert ids(w, asc(SortKey.DATE_PUBLISHED)) == published_order
    assert ids(w, desc(SortKey.DATE_MODIFIED)) == [w.alpha, *published_order[::-1][:-2], w.top]
    assert ids(w, desc(SortKey.CONTENT_ID)) == sorted(w.mine, reverse=True)


def test_several_clauses(world: World) -> None:
    w = world
    sort = (desc(SortKey.SECTION_IDENTIFIER), desc(SortKey.CONTENT_NAME))
    by_name_desc = [w.top, w.owned, w.hidden_place, w.hidden_item, w.delta, w.charlie, w.alpha]
    assert ids(w, *sort) == [*by_name_desc, w.bravo]


def test_field_sort_puts_other_types_last_and_prefers_the_searched_language(world: World) -> None:
    w = world
    folders = [w.bravo, w.charlie, w.delta, w.hidden_item, w.hidden_place, w.owned, w.top]  # by name
    by_name = SortClause(SortKey.FIELD, True, "folder", "name")
    assert ids(w, by_name) == [*folders, w.alpha]  # alpha is an image: no folder name, last
    assert ids(w, SortClause(SortKey.FIELD, False, "folder", "name")) == [*folders[::-1], w.alpha]
    # searching in German: delta's German name "Zora" is its sort key
    german = ids(w, by_name, languages=("ger-DE",))
    assert german == [w.bravo, w.charlie, w.hidden_item, w.hidden_place, w.owned, w.top, w.delta, w.alpha]


@pytest.mark.parametrize(
    ("clause", "message"),
    [
        (SortClause(SortKey.FIELD, True, "folder", "no_such_field"), "no field definition 'no_such_field'"),
        (SortClause(SortKey.FIELD, True, "no_such_type", "name"), "content type 'no_such_type'"),
        (SortClause(SortKey.FIELD, True), "needs a content type"),
    ],
)
def test_a_field_sort_without_a_field_is_a_bad_request(
    world: World, clause: SortClause, message: str
) -> None:
    with pytest.raises(BadRequest, match=message):
        ids(world, clause)


def test_score_orders_by_relevance_and_without_full_text_keeps_the_id_order(world: World) -> None:
    w = world
    # "hidden place" matches both words of hidden_place's name, one of hidden_item's
    either = q.LogicalOr((q.FullText("hidden"), q.FullText("place")))
    assert ids(w, desc(SortKey.SCORE), criterion=either) == [w.hidden_place, w.hidden_item]
    assert ids(w, asc(SortKey.SCORE), criterion=either) == [w.hidden_item, w.hidden_place]
    assert ids(w, desc(SortKey.SCORE)) == sorted(w.mine)  # nothing to score: every hit ties


def test_children_of_a_location_sort_with_the_same_clauses(world: World) -> None:
    w = world
    top = main_location(w, w.top)
    expected = {
        "NAME": [w.alpha, w.bravo, w.delta, w.hidden_item, w.hidden_place, w.owned],
        "SECTION": [w.bravo, w.alpha, w.hidden_place, w.hidden_item, w.delta, w.owned],
        "PRIORITY": [w.hidden_place, w.hidden_item, w.delta, w.owned, w.alpha, w.bravo],
    }
    try:
        for field, order in expected.items():
            w.repo.locations.update(ADMIN, top.path, LocationUpdate(sort_field=field, sort_order="ASC"), None)
            children = w.repo.locations.children(ADMIN, top.path, 0, 100).locations
            assert [child.content_id for child in children] == order, field
    finally:
        w.repo.locations.update(ADMIN, top.path, LocationUpdate(sort_field="PATH", sort_order="ASC"), None)
