"""Ids taken in blocks (storage/sql/sequences.py): one statement per block of BLOCK values, nothing
handed out twice across processes, and a block reserved by a transaction that rolls back is forgotten
with it, on both databases."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from pressroom.storage.sql.sequences import BLOCK, reserve
from pressroom.storage.sql.store import SqlStore
from tests.helpers import StatementCounter

NAME = "content_field"


def _taken(store: SqlStore, count: int) -> list[int]:
    with store.write() as tx:
        assert tx.blocks is not None
        return tx.blocks.take(NAME, count)


def test_a_process_reserves_a_block_once_and_serves_the_next_writes_from_it(engine: Engine) -> None:
    store = SqlStore(engine)
    with StatementCounter() as first:
        values = _taken(store, 3)
    assert [s for s in first.statements if s.startswith("UPDATE sequences")], first.statements
    with StatementCounter() as later:
        for _ in range((BLOCK - 3) // 5):
            values += _taken(store, 5)
    assert not [s for s in later.statements if "sequences" in s], later.statements
    assert len(values) == len(set(values))
    with StatementCounter() as beyond:
        values += _taken(store, BLOCK)  # more than is left: a new block
    assert [s for s in beyond.statements if s.startswith("UPDATE sequences")], beyond.statements
    assert len(values) == len(set(values))


def test_two_processes_never_take_the_same_value(engine: Engine) -> None:
    first, second = SqlStore(engine), SqlStore(engine)
    values = []
    for _ in range(BLOCK):  # interleaved, through both blocks and beyond
        values += _taken(first, 3) + _taken(second, 2)
    assert len(values) == len(set(values))
    with engine.begin() as connection:  # the counter is past every value handed out
        assert reserve(connection, NAME, 1) > max(values)


def test_a_block_reserved_by_a_transaction_that_rolls_back_is_forgotten(engine: Engine) -> None:
    store, other = SqlStore(engine), SqlStore(engine)
    with pytest.raises(RuntimeError), store.write() as tx:
        assert tx.blocks is not None
        lost = tx.blocks.take(NAME, 1)
        raise RuntimeError("the write fails")
    # The reservation rolled back, so the other process may get the same values: this one must not
    # hand them out again.
    theirs = _taken(other, BLOCK)
    assert lost[0] in theirs
    ours = _taken(store, BLOCK)
    assert not set(ours) & set(theirs)
