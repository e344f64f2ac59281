"""The two answers of a content/read policy agree: for every (user, item), the single-item check (what a GET
of the item asks) allows the item exactly when the read criterion compiled into SQL (what lists, searches
and children filter with) finds it. Generated policies combine every limitation that can limit reading
(Class, Section, Owner, Group, Node, Subtree, State) and a role assignment's Section or Subtree limitation,
over the search test repository (items in several sections, owners, groups, locations and object states,
some in a state group's default state, without a row for it), on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pressroom.domain.limitations import LIMITATIONS
from pressroom.domain.permission import Subject, grant_allows, permission_criterion
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.role import Grant, Limitation, Policy
from pressroom.services.permissions import StoreFacts, content_target
from tests.storage.search_data import INSTALL_CONTENT
from tests.storage.search_world import LOCKED, NOT_LOCKED, World, world

__all__ = ["world"]  # the module-scoped fixture, one repository per database

USERS = (10, 14)  # anonymous (in Anonymous users), admin (in Administrator users)
READ_LIMITATIONS = ("Class", "Section", "Owner", "Group", "Node", "Subtree", "State")


@dataclass(frozen=True)
class Values:
    """The limitation values the repository gives a meaning to, per identifier."""

    by_identifier: dict[str, tuple[str, ...]]
    users: tuple[int, ...]
    items: tuple[int, ...]


def _values(world: World) -> Values:
    with world.repo.store.read() as tx:
        located = [world.loc(item) for item in world.mine]
        paths = sorted(
            {"/1/2/", "/1/5/", "/1/43/"}
            | {
                location.path_string
                for location_id in located
                if (location := tx.locations.get(location_id, UNRESTRICTED))
            }
        )
    states = (NOT_LOCKED, LOCKED, world.draft_state, world.review_state)
    return Values(
        {
            "Class": ("1", "3", "4", "5"),  # folder, user group, user, image
            "Section": ("1", "2", "3"),
            "Owner": ("1",),
            "Group": ("1",),
            "Node": tuple(str(location_id) for location_id in (*located, 2, 5, 13)),
            "Subtree": tuple(paths),
            "State": tuple(str(state) for state in states),
        },
        (*USERS, world.editor, world.reader),
        (*world.mine, *INSTALL_CONTENT, world.editor, world.reader),
    )


@st.composite
def _limitation(draw: st.DrawFn, values: Values, identifiers: tuple[str, ...]) -> Limitation:
    identifier = draw(st.sampled_from(identifiers))
    chosen = draw(
        st.lists(st.sampled_from(values.by_identifier[identifier]), min_size=1, max_size=2, unique=True)
    )
    return Limitation(identifier, tuple(chosen))


@st.composite
def _grant(draw: st.DrawFn, values: Values) -> Grant:
    limitations = draw(
        st.lists(_limitation(values, READ_LIMITATIONS), max_size=3, unique_by=lambda lim: lim.identifier)
    )
    assignment = draw(st.none() | _limitation(values, ("Section", "Subtree")))
    return Grant(Policy(1, 1, "content", "read", tuple(limitations)), assignment)


def test_the_generated_limitations_are_those_that_can_limit_reading() -> None:
    assert {kind.identifier for kind in LIMITATIONS.values() if "content/read" in kind.functions} == set(
        READ_LIMITATIONS
    )


def test_the_single_check_and_the_read_filter_agree(world: World) -> None:
    values = _values(world)
    store = world.repo.store

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(grants=st.lists(_grant(values), min_size=1, max_size=2), user_id=st.sampled_from(values.users))
    def agree(grants: list[Grant], user_id: int) -> None:
        with store.read() as tx:
            facts = StoreFacts(store, tx)
            subject = Subject(user_id, lambda: facts.group_locations_of(user_id))
            infos = tx.content.get_many(values.items)
            single = {
                item
                for item, info in infos.items()
                if any(grant_allows(grant, subject, content_target(info), facts) for grant in grants)
            }
            filtered = tx.content.existing_ids(
                values.items, permission_criterion(grants, subject, "content", "read")
            )
        assert single == filtered

    agree()


@pytest.mark.parametrize("state", ["default", "assigned"])
def test_a_state_limited_policy_reads_the_same_items_either_way(world: World, state: str) -> None:
    """The example the review found: State was allowed by the single check and matched nothing in SQL."""
    wanted = world.draft_state if state == "default" else world.review_state  # charlie is in review
    grant = Grant(Policy(1, 1, "content", "read", (Limitation("State", (str(wanted),)),)))
    store = world.repo.store
    with store.read() as tx:
        facts = StoreFacts(store, tx)
        subject = Subject(world.reader, lambda: facts.group_locations_of(world.reader))
        found = tx.content.existing_ids(world.mine, permission_criterion([grant], subject, "content", "read"))
        infos = tx.content.get_many(world.mine)
        single = {
            item for item in world.mine if grant_allows(grant, subject, content_target(infos[item]), facts)
        }
    expected = set(world.mine) - {world.charlie} if state == "default" else {world.charlie}
    assert found == single == expected
