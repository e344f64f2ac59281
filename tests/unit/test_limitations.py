"""Limitation types that judge something other than content items (the item ones are checked against their
SQL in tests/storage/test_limitation_agreement.py)."""

from __future__ import annotations

from pressroom.domain.limitations import LIMITATIONS, allowed_limitations
from pressroom.domain.location import Location
from pressroom.domain.permission import Subject, Target


class NoFacts:
    def locations_of(self, content_id: int) -> tuple[Location, ...]:
        raise AssertionError("not needed")

    def group_locations_of(self, user_id: int) -> frozenset[int]:
        raise AssertionError("not needed")

    def state_ids_of(self, content_id: int) -> frozenset[int]:
        raise AssertionError("not needed")


EDITOR = Subject(70, lambda: frozenset({13}))  # directly in the group at location 13 (content 12)


def member_of(values: tuple[str, ...], groups: tuple[tuple[int, int], ...]) -> bool:
    return LIMITATIONS["MemberOf"].holds(values, EDITOR, Target(assignee_groups=groups), NoFacts())


def test_member_of_minus_one_means_the_groups_of_the_current_user() -> None:
    assert member_of(("-1",), ((12, 13),))  # the assignee is in the editor's own group
    assert not member_of(("-1",), ((11, 12),))  # in another group
    assert member_of(("11",), ((11, 12),))  # named by content id
    assert not member_of(("11",), ((12, 13),))
    assert not LIMITATIONS["MemberOf"].holds(("-1",), EDITOR, Target(role_id=1), NoFacts())  # no assignee


def test_each_function_accepts_the_limitations_of_the_policy_map() -> None:
    assert allowed_limitations("content", "read") == {
        "Class",
        "Section",
        "Owner",
        "Group",
        "Node",
        "Subtree",
        "State",
    }
    assert allowed_limitations("content", "create") == {
        "Class", "Section", "ParentOwner", "ParentGroup", "ParentClass", "ParentDepth", "Node", "Subtree",
        "Language", "ChangeOwner",
    }  # fmt: skip
    assert allowed_limitations("role", "assign") == {"MemberOf", "Role"}
    assert allowed_limitations("content", "cleantrash") == frozenset()
    assert allowed_limitations("*", "*") == frozenset()
