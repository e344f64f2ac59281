"""The user gateway on SQLite and PostgreSQL: accounts, lookups, and the group tree queries
(install.md §8, §9)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pressroom.domain.errors import Forbidden
from pressroom.domain.passwords import verify_password
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.user import Account, User
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore

ADMIN = User(14, "admin", "admin@link.invalid", True)
ANONYMOUS = User(10, "anonymous", "anonymous@link.invalid", True, is_anonymous=True)
GROUP_TYPE = 3


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    engine = make_engine(database_url)
    yield SqlStore(engine)
    engine.dispose()


def account(
    content_id: int,
    login: str,
    email: str = "a@example.com",
    password_hash: str | None = "h",  # noqa: S107 - not a password
) -> Account:
    return Account(content_id, login, email, password_hash, True, 5, 1700000000)


def test_clean_install_users(store: SqlStore) -> None:
    with store.read() as tx:
        assert tx.users.get(14) == ADMIN
        assert tx.users.get(10) == ANONYMOUS
        assert tx.users.get(4) is None  # a group, not a user
        found = tx.users.by_login("ADMIN")
        assert found is not None and found[0] == ADMIN and verify_password(found[1], "publish")
        assert tx.users.by_email("Admin@Link.Invalid") == [ADMIN]
        assert tx.users.list_all() == [ANONYMOUS, ADMIN]
        assert tx.users.list_all(1, 5) == [ADMIN]
        assert tx.users.list_all(0, 1) == [ANONYMOUS]


def test_save_inserts_then_updates_keeping_the_hash_when_none_is_given(store: SqlStore) -> None:
    with store.write() as tx:
        tx.users.save(account(4, "Someone", password_hash="first-hash"))  # any content id will do here
    with store.write() as tx:
        tx.users.save(Account(4, "Someone", "b@example.com", None, False, 7, None))
    with store.read() as tx:
        found = tx.users.by_login("someone")
        assert found == (User(4, "Someone", "b@example.com", False), "first-hash")
    with store.write() as tx:
        tx.users.save(account(4, "Someone", password_hash="second-hash"))
        tx.users.set_password_hash(14, "admin-hash")
    with store.read() as tx:
        assert tx.users.by_login("someone") == (User(4, "Someone", "a@example.com", True), "second-hash")
        assert tx.users.by_login("admin") == (ADMIN, "admin-hash")


def test_logins_are_unique_whatever_the_case(store: SqlStore) -> None:
    with pytest.raises(Forbidden), store.write() as tx:
        tx.users.save(account(4, "ADMIN"))
    with store.read() as tx:
        assert tx.users.get(4) is None


def test_delete_accounts(store: SqlStore) -> None:
    with store.write() as tx:
        tx.users.save(account(4, "one"))
        tx.users.save(account(11, "two"))
        tx.users.delete([4, 11])
        tx.users.delete([])
    with store.read() as tx:
        assert (tx.users.get(4), tx.users.get(11), tx.users.get(14)) == (None, None, ADMIN)


def test_users_below_a_group_location(store: SqlStore) -> None:
    with store.read() as tx:
        assert tx.users.below(13) == [ADMIN]
        assert tx.users.below(44) == [ANONYMOUS]
        assert tx.users.below(14) == []
        assert tx.users.below(5) == []  # only direct children
        assert tx.users.below(13, 1, 10) == []


def test_group_locations_below(store: SqlStore) -> None:
    with store.read() as tx:
        assert [location.path for location in tx.users.group_locations_below(5, GROUP_TYPE)] == [
            "1/5/12",
            "1/5/13",
            "1/5/14",
            "1/5/44",
        ]
        assert [location.id for location in tx.users.group_locations_below(5, GROUP_TYPE, 1, 2)] == [13, 14]
        assert tx.users.group_locations_below(13, GROUP_TYPE) == []  # the admin is not a group
        assert tx.users.group_locations_below(1, GROUP_TYPE) == [tx.locations.get(5, UNRESTRICTED)]


def test_parent_locations_are_a_users_groups(store: SqlStore) -> None:
    with store.read() as tx:
        assert [location.path for location in tx.users.parent_locations(14)] == ["1/5/13"]
        assert [location.path for location in tx.users.parent_locations(10)] == ["1/5/44"]
        assert tx.users.parent_locations(999) == []


def test_versions_fields_and_relations_of_several_versions_at_once(store: SqlStore) -> None:
    keys = [(14, 3), (10, 2), (12, 1), (14, 99)]
    with store.read() as tx:
        versions = tx.content.get_versions(keys)
        fields = tx.content.load_fields_of(keys)
        relations = tx.relations.list_of(keys, UNRESTRICTED)
        assert sorted(versions) == [(10, 2), (12, 1), (14, 3)]
        assert versions[(14, 3)] == tx.content.get_version(14, 3)
        for key in [(14, 3), (10, 2), (12, 1)]:
            assert fields[key] == tx.content.load_fields(*key)
            assert relations[key] == tx.relations.list(*key, readable=UNRESTRICTED)
        assert (fields[(14, 99)], relations[(14, 99)]) == ([], [])
        assert [f.identifier for f in fields[(14, 3)]] == [
            "first_name",
            "last_name",
            "user_account",
            "signature",
            "image",
        ]
        assert (
            tx.content.get_versions([]),
            tx.content.load_fields_of([]),
            tx.relations.list_of([], UNRESTRICTED),
        ) == (
            {},
            {},
            {},
        )
