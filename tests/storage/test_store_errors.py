"""Driver errors at the transaction boundary, on both databases: a unique key taken is Forbidden, a
foreign key or NOT NULL failure is a bug that propagates (answered 500), and nothing is written."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from pressroom.domain.errors import Forbidden
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    engine = make_engine(database_url)
    yield SqlStore(engine)
    engine.dispose()


def section_count(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(connection.execute(text("SELECT count(*) FROM sections")).scalar_one())


def test_a_unique_key_taken_is_forbidden_and_rolled_back(store: SqlStore) -> None:
    before = section_count(store.engine)
    with pytest.raises(Forbidden), store.write() as tx:
        tx.connection.execute(text("INSERT INTO sections (identifier, name) VALUES ('fresh', 'Fresh')"))
        tx.connection.execute(text("INSERT INTO sections (identifier, name) VALUES ('standard', 'Twin')"))
    assert section_count(store.engine) == before


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO sessions (id, user_id, csrf_token, created_at, expires_at)"
        " VALUES ('s', 424242, 'c', 0, 1)",
        "INSERT INTO sections (identifier, name) VALUES ('no_name', NULL)",
    ],
    ids=["foreign-key", "not-null"],
)
def test_other_integrity_errors_are_bugs_not_forbidden(store: SqlStore, statement: str) -> None:
    before = section_count(store.engine)
    with pytest.raises(IntegrityError), store.write() as tx:
        tx.connection.execute(text("INSERT INTO sections (identifier, name) VALUES ('fresh', 'Fresh')"))
        tx.connection.execute(text(statement))
    assert section_count(store.engine) == before
