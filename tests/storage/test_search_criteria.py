"""Every search criterion, on SQLite and PostgreSQL, through the search service (so what the service
resolves is resolved), over the repository of ``search_world`` (the tests only read it)."""

from __future__ import annotations

import pytest

from pressroom.domain import query as q
from pressroom.domain.errors import BadRequest
from pressroom.domain.search import SearchQuery
from pressroom.domain.user import User
from tests.storage.search_data import ADMIN
from tests.storage.search_world import LOCKED, NOT_LOCKED, World, day, found, found_locations, world

__all__ = ["world"]  # the module-scoped fixture


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
    assert found(w, q.ContentName("*o*")) == [w.top, w.bravo, w.delta, w.owned]  # "Zora" in ger-DE
    assert found(w, q.ContentName("zora")) == [w.delta]
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
