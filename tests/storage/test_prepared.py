"""Prepared statements (storage/sql/prepared.py) behave as SQLAlchemy's ``execute`` would, on both
databases: the same rows with the types' result processing, column defaults for what an INSERT leaves out,
the columns an UPDATE sets taken from the parameters, driver errors wrapped as SQLAlchemy wraps them, and
every statement seen by the statement counter."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from pressroom.storage.sql.engine import is_unique_violation, transaction
from pressroom.storage.sql.prepared import Prepared
from pressroom.storage.sql.schema import sections, users
from tests.helpers import StatementCounter

USER = Prepared(select(users).where(users.c.content_id == bindparam("id")))
NEW_USER = Prepared(insert(users))
SECTION = Prepared(select(sections).where(sections.c.id == bindparam("id")))
CHANGE_SECTION = Prepared(update(sections).where(sections.c.id == bindparam("section_id")))
NEW_SECTION = Prepared(insert(sections).returning(sections.c.id))


def test_rows_are_those_sqlalchemy_returns_with_attribute_access(engine: Engine) -> None:
    with transaction(engine, write=False) as connection:
        expected = connection.execute(USER.statement, {"id": 14}).one()
        row = USER.first(connection, {"id": 14})
        assert tuple(row) == tuple(expected)
        assert row.login == "admin"
        assert row.enabled is True  # SQLite's 1 becomes a bool, as SQLAlchemy's Boolean makes it
        assert USER.first(connection, {"id": 999_999}) is None
        assert USER.all(connection, {"id": 999_999}) == []


def test_an_insert_fills_the_columns_it_leaves_out_with_their_defaults(engine: Engine) -> None:
    values = {"content_id": 900, "login": "p", "login_normalized": "p", "email": "p@x.invalid"}
    with transaction(engine, write=True) as connection:
        assert NEW_USER.execute(connection, {**values, "password_hash": "h"}) == 1
    with transaction(engine, write=False) as connection:
        row = USER.first(connection, {"id": 900})
    assert (row.enabled, row.max_login, row.password_updated_at) == (True, 0, None)


def test_an_update_sets_the_columns_its_parameters_name(engine: Engine) -> None:
    with transaction(engine, write=True) as connection:
        assert CHANGE_SECTION.execute(connection, {"section_id": 1, "name": "Renamed"}) == 1
        assert CHANGE_SECTION.execute(connection, {"section_id": 1, "identifier": "moved"}) == 1
        assert CHANGE_SECTION.execute(connection, {"section_id": 999_999, "name": "None"}) == 0
    with transaction(engine, write=False) as connection:
        row = SECTION.first(connection, {"id": 1})
    assert (row.identifier, row.name) == ("moved", "Renamed")


def test_returning_and_many_rows_each_count_as_one_statement(engine: Engine) -> None:
    with StatementCounter() as counter, transaction(engine, write=True) as connection:
        new_id = NEW_SECTION.first(connection, {"identifier": "prepared", "name": "Prepared"})[0]
        CHANGE_SECTION.execute_many(
            connection,
            [{"section_id": new_id, "name": "Twice"}, {"section_id": new_id, "name": "Thrice"}],
        )
        CHANGE_SECTION.execute_many(connection, [])  # nothing to do: no statement
    assert counter.count == 2  # BEGIN is not counted (storage/sql/engine.py)
    with transaction(engine, write=False) as connection:
        assert SECTION.first(connection, {"id": new_id}).name == "Thrice"


def test_a_driver_error_arrives_wrapped_and_the_transaction_rolls_back(engine: Engine) -> None:
    with pytest.raises(IntegrityError) as raised, transaction(engine, write=True) as connection:
        CHANGE_SECTION.execute(connection, {"section_id": 2, "name": "Lost"})
        NEW_SECTION.first(connection, {"identifier": "standard", "name": "Duplicate"})
    assert is_unique_violation(raised.value)
    with transaction(engine, write=False) as connection:
        assert SECTION.first(connection, {"id": 2}).name != "Lost"


def test_an_in_list_from_the_parameters_is_refused(engine: Engine) -> None:
    listed = Prepared(select(sections).where(sections.c.id.in_(bindparam("ids", expanding=True))))
    with transaction(engine, write=False) as connection, pytest.raises(TypeError, match="IN"):
        listed.all(connection, {"ids": [1, 2]})
