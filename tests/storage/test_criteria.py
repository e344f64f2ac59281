"""Criteria compiled into SQL, on SQLite and PostgreSQL, over the clean install (install.md §6, §7)."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select

from pressroom.domain import query as q
from pressroom.domain.user import User
from pressroom.services.permissions import Permissions
from pressroom.storage.sql.criteria import compile_criterion
from pressroom.storage.sql.schema import content, locations
from pressroom.storage.sql.store import SqlStore

ALL_CONTENT = [1, 4, 10, 11, 12, 13, 14, 41, 42, 49, 50, 51]


def content_ids(engine: Engine, criterion: q.Criterion) -> list[int]:
    query = select(content.c.id).where(compile_criterion(criterion)).order_by(content.c.id)
    with engine.connect() as connection:
        return [row.id for row in connection.execute(query)]


def location_ids(engine: Engine, criterion: q.Criterion) -> list[int]:
    query = (
        select(locations.c.id)
        .select_from(locations.join(content, content.c.id == locations.c.content_id))
        .where(compile_criterion(criterion, locations))
        .order_by(locations.c.id)
    )
    with engine.connect() as connection:
        return [row.id for row in connection.execute(query)]


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        (q.MatchAll(), ALL_CONTENT),
        (q.MatchNone(), []),
        (q.SectionId((3,)), [41, 49, 50, 51]),
        (q.ContentTypeId((4,)), [10, 14]),
        (q.ContentId((1, 14, 999)), [1, 14]),
        (q.OwnerId((14,)), ALL_CONTENT),
        (q.Subtree(("/1/5/13/",)), [12, 14]),
        (q.Subtree(("/1/43/", "/1/5/44/")), [10, 41, 42, 49, 50, 51]),
        (q.LocationId((15, 45)), [10, 14]),
        (q.ParentLocationId((43,)), [49, 50, 51]),
        (q.OwnerInGroups((13,)), ALL_CONTENT),  # admin (14) is in Administrator users (location 13)
        (q.OwnerInGroups((44,)), []),
        (q.LogicalAnd((q.SectionId((2,)), q.ContentTypeId((4,)))), [10, 14]),
        (q.LogicalOr((q.SectionId((1,)), q.ContentTypeId((4,)))), [1, 10, 14]),
        (q.LogicalNot(q.SectionId((2,))), [1, 41, 49, 50, 51]),
    ],
)
def test_content_criteria(engine: Engine, criterion: q.Criterion, expected: list[int]) -> None:
    assert content_ids(engine, criterion) == expected


def test_location_criteria_apply_to_the_location_row(engine: Engine) -> None:
    # Subtree in a location query: the location itself and below, not any location of the item.
    assert location_ids(engine, q.Subtree(("/1/5/13/",))) == [13, 15]
    assert location_ids(engine, q.ParentLocationId((5,))) == [12, 13, 14, 44]
    # The prefix range must not match a sibling whose id starts with the same digits (/1/5/ vs /1/52/).
    assert location_ids(engine, q.Subtree(("/1/5/",))) == [5, 12, 13, 14, 15, 44, 45]


def test_simplifying_combinators() -> None:
    section = q.SectionId((1,))
    assert q.all_of([q.MatchAll(), section]) == section
    assert q.all_of([section, q.MatchNone()]) == q.MatchNone()
    assert q.all_of([]) == q.MatchAll()
    assert q.any_of([q.MatchNone(), section]) == section
    assert q.any_of([section, q.MatchAll()]) == q.MatchAll()
    assert q.any_of([]) == q.MatchNone()


def test_read_criterion_of_the_clean_install_roles(engine: Engine) -> None:
    # Anonymous: policy 328 content/read [Section 1]; admin: policy 332 */* (install.md §10).
    permissions = Permissions(SqlStore(engine))
    anonymous = User(10, "anonymous", "", True, is_anonymous=True)
    admin = User(14, "admin", "", True)
    assert content_ids(engine, permissions.read_criterion(anonymous)) == [1]
    assert content_ids(engine, permissions.read_criterion(admin)) == ALL_CONTENT
