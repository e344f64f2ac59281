"""Which keys a committed write purges (domain/cache_tags.py) and what the user-context hash names."""

from __future__ import annotations

from typing import Any

from pressroom.domain.cache_tags import ALL, USER_CONTEXT, context_hash, event_keys, location_keys
from pressroom.domain.event import Event
from pressroom.domain.role import Grant, Limitation, Policy


def _event(kind: str, content_id: int | None = None, subject: str | None = None, **data: Any) -> Event:
    return Event(1, 0, "pressroom." + kind, 0.0, 14, content_id, subject, data)


def test_a_location_names_itself_its_parent_and_every_ancestor() -> None:
    assert location_keys(42, None, "/1/2/7/42/") == {"l42", "pl7", "p1", "p2", "p7", "p42"}


def test_publish_purges_the_item_its_versions_relations_and_each_location_and_parent() -> None:
    keys = event_keys(
        _event(
            "content.published", 42, "content/42", contentId=42, contentTypeId=1,
            locations=[
                {"id": 50, "parentId": 2, "path": "/1/2/50/"}, {"id": 61, "parentId": 60, "path": "/1/60/61/"}
            ],
        )
    )  # fmt: skip
    assert {"c42", "cv42", "r42", "l50", "pl2", "l61", "pl60", "rl50"} <= keys
    assert "p50" not in keys  # a publish changes the item, not what is below it


def test_a_move_purges_the_subtree_and_both_parents() -> None:
    keys = event_keys(
        _event(
            "location.moved", 42, "content/42", contentId=42,
            locations=[{"id": 50, "parentId": 9, "path": "/1/9/50/"}], oldParentId=2, oldPath="/1/2/50/",
        )
    )  # fmt: skip
    assert {"p50", "pl9", "pl2", "l50", USER_CONTEXT} <= keys


def test_type_section_and_role_changes() -> None:
    assert {"ct5", "ct-list"} <= event_keys(_event("content_type.published", None, "content_type/5"))
    assert {"s3", "s-list"} <= event_keys(_event("section.updated", None, "section/3"))
    assert USER_CONTEXT in event_keys(_event("role.assigned", None, "role/7", roleId=7, assigneeId=12))
    assert event_keys(_event("role.updated", None, "role/7")) == {"ro7", USER_CONTEXT}


def test_an_event_without_anything_to_name_purges_everything() -> None:
    assert event_keys(_event("content_type_group.deleted", None, "content_type_group")) == {"ct-list"}
    assert event_keys(_event("object_state.assigned", None, "elsewhere/x")) == {ALL}


def _grant(module: str, function: str, *limitations: Limitation, role: int = 1) -> Grant:
    return Grant(Policy(role, role, module, function, tuple(limitations)))


def test_the_hash_names_rights_not_roles_or_order() -> None:
    reading = [_grant("content", "read", Limitation("Section", ("1", "3"))), _grant("user", "login")]
    same = [
        _grant("user", "login", role=9),
        _grant("content", "read", Limitation("Section", ("3", "1")), role=8),
    ]
    assert context_hash(reading, 60) == context_hash(same, 61)
    assert context_hash(reading, 60) != context_hash(reading[:1], 60)


def test_personal_rights_hash_per_user() -> None:
    own = [_grant("content", "read", Limitation("Owner", ("1",)))]
    assert context_hash(own, 60) != context_hash(own, 61)


def test_writes_of_things_never_cached_purge_nothing_else() -> None:
    assert event_keys(_event("url_wildcard.created", None, "url_wildcard/4")) == {"uw4"}
