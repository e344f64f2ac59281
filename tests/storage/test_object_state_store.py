"""The object state gateway on SQLite and PostgreSQL: implicit default states, pinning, cascades."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pressroom.domain.object_state import ObjectStateInput
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    engine = make_engine(database_url)
    yield SqlStore(engine)
    engine.dispose()


def state_input(identifier: str, priority: int) -> ObjectStateInput:
    return ObjectStateInput(identifier, "eng-GB", {"eng-GB": identifier.title()}, {}, priority)


def states_of(store: SqlStore, content_id: int) -> list[str]:
    with store.read() as tx:
        return [state.identifier for state in tx.object_states.states_of(content_id)]


def test_clean_install_ids_and_next_ids(store: SqlStore) -> None:
    with store.write() as tx:
        (group,) = tx.object_states.list_groups()
        assert (group.id, group.identifier, group.names) == (2, "ez_lock", {"eng-GB": "Lock"})
        states = tx.object_states.list_states(2)
        assert [(s.id, s.identifier, s.priority) for s in states] == [(1, "not_locked", 0), (2, "locked", 1)]
        new_group = tx.object_states.create_group(ObjectStateInput("workflow", "eng-GB", {"eng-GB": "W"}))
        assert new_group == 3  # install.md §12: object state group 3, object state 3 come next
        assert tx.object_states.create_state(new_group, state_input("draft", 0)) == 3


def test_default_state_is_implicit_until_assigned(store: SqlStore) -> None:
    assert states_of(store, 1) == ["not_locked"]
    with store.write() as tx:
        locked = tx.object_states.get_state(2)
        assert locked is not None
        tx.object_states.assign(1, [locked])
    assert states_of(store, 1) == ["locked"]
    assert states_of(store, 4) == ["not_locked"]


def test_pinning_keeps_items_in_the_old_default(store: SqlStore) -> None:
    with store.write() as tx:
        group = tx.object_states.create_group(ObjectStateInput("workflow", "eng-GB", {"eng-GB": "W"}))
        tx.object_states.create_state(group, state_input("draft", 5))
    assert states_of(store, 1) == ["not_locked", "draft"]
    with store.write() as tx:
        tx.object_states.pin_default(group, tx.object_states.list_states(group)[0].id)
        tx.object_states.create_state(group, state_input("earlier", 0))
    assert states_of(store, 1) == ["not_locked", "draft"]
    with store.write() as tx:
        tx.object_states.delete_group(group)
        assert tx.object_states.get_group(group) is None
        assert tx.object_states.list_states(group) == []
    assert states_of(store, 1) == ["not_locked"]
