"""The role gateway and the resolver's loading on SQLite and PostgreSQL, over the clean install
(install.md §10, §12)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pressroom.domain.role import DEFINED, DRAFT, Limitation, PolicyCreate
from pressroom.domain.user import User
from pressroom.services.permissions import Permissions
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    engine = make_engine(database_url)
    yield SqlStore(engine)
    engine.dispose()


def test_assignments_reach_users_through_the_groups_above_them(store: SqlStore) -> None:
    with store.read() as tx:
        (revision, paths), admin = tx.roles.assignments_reaching(14)
        _, anonymous = tx.roles.assignments_reaching(10)
        (_, no_paths), nobody = tx.roles.assignments_reaching(999)
    assert revision >= 1
    assert paths == "/1/5/13/15/" and no_paths == ""  # the stamp the grants are kept under
    assert [a.id for a in admin] == [34]
    assert [a.id for a in anonymous] == [31]
    assert nobody == []


def test_roles_and_drafts_keep_the_reference_ids(store: SqlStore) -> None:
    with store.write() as tx:
        before = tx.roles.revision()
        draft_id = tx.roles.create("Reviewer", DRAFT)
        policy = tx.roles.add_policy(
            draft_id, PolicyCreate("content", "read", (Limitation("Section", ("1",)),))
        )
        assert (draft_id, policy.id) == (5, 341)  # install.md §12
        assert tx.roles.publish_draft(tx.roles.get(draft_id)) == draft_id  # type: ignore[arg-type]
        tx.roles.bump_revision()
        assert tx.roles.revision() == before + 1
        assignment = tx.roles.assign(5, 14, Limitation("Subtree", ("/1/2/",)))
        assert assignment == 36
    with store.read() as tx:
        role = tx.roles.get(5)
        assert role is not None and role.status == DEFINED
        assert [(p.id, p.limitations) for p in role.policies] == [(341, (Limitation("Section", ("1",)),))]
        assert [a.role_id for a in tx.roles.assignments_reaching(14)[1]] == [2, 5]
        assert [user.id for user in tx.users.with_role(5)] == [14]
        assert tx.roles.groups_with_role(3) == [13]


def test_a_published_draft_replaces_the_roles_policies(store: SqlStore) -> None:
    with store.write() as tx:
        draft_id = tx.roles.create("Editor", DRAFT, original_id=3)
        tx.roles.add_policy(draft_id, PolicyCreate("section", "view"), original_id=None)
        assert tx.roles.publish_draft(tx.roles.get(draft_id)) == 3  # type: ignore[arg-type]
    with store.read() as tx:
        role = tx.roles.get(3)
        assert role is not None
        assert [(p.module, p.function) for p in role.policies] == [("section", "view")]
        assert tx.roles.get(draft_id) is None
        assert [a.id for a in tx.roles.assignments_of(13)] == [32, 33, 35]  # assignments stay


def test_resolver_grants_on_both_databases(store: SqlStore) -> None:
    permissions = Permissions(store)
    admin = User(14, "admin", "", True)
    anonymous = User(10, "anonymous", "", True, is_anonymous=True)
    assert [g.policy.id for g in permissions.grants(admin)] == [332]
    assert [g.policy.id for g in permissions.grants(anonymous)] == [328, 331, 334]
    assert permissions.can(anonymous, "user", "login", target=None)
    assert not permissions.can(anonymous, "section", "view")
