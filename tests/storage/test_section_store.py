"""The SQL store and the section gateway, on SQLite and PostgreSQL (install.md §1, §2, §8)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from sqlalchemy.exc import IntegrityError

from pressroom.domain.errors import Forbidden, PressroomError
from pressroom.domain.language import Language
from pressroom.domain.passwords import verify_password
from pressroom.domain.section import Section, SectionCreate, SectionUpdate
from pressroom.domain.user import User
from pressroom.services.permissions import Permissions
from pressroom.services.section import SectionService
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.section import SqlSectionGateway
from pressroom.storage.sql.store import SqlStore

CLEAN_SECTIONS = [
    Section(1, "standard", "Standard"),
    Section(2, "users", "Users"),
    Section(3, "media", "Media"),
]


class Boom(Exception):
    pass


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    engine = make_engine(database_url)
    yield SqlStore(engine)
    engine.dispose()


def sections(store: SqlStore) -> list[Section]:
    with store.read() as tx:
        return tx.sections.list()


def create(store: SqlStore, identifier: str, name: str = "Name") -> Section:
    with store.write() as tx:
        return tx.sections.create(SectionCreate(identifier, name))


# -- the clean install -------------------------------------------------------------------------------


def test_clean_install_sections(store: SqlStore) -> None:
    assert sections(store) == CLEAN_SECTIONS


def test_clean_install_languages(store: SqlStore) -> None:
    eng = Language(2, "eng-GB", "English (United Kingdom)", True)
    with store.read() as tx:
        assert tx.languages.list() == [eng]
        assert tx.languages.by_code("eng-GB") == eng
        assert tx.languages.by_code("ger-DE") is None


def test_clean_install_users(store: SqlStore) -> None:
    anonymous = User(10, "anonymous", "anonymous@link.invalid", True, is_anonymous=True)
    admin = User(14, "admin", "admin@link.invalid", True, is_anonymous=False)
    with store.read() as tx:
        assert tx.users.get(10) == anonymous
        assert tx.users.get(14) == admin
        assert tx.users.get(11) is None
        found = tx.users.by_login("ADMIN")  # logins are case-insensitive
        assert tx.users.by_login("nobody") is None
    assert found is not None
    user, password_hash = found
    assert user == admin
    assert verify_password(password_hash, "publish")
    assert not verify_password(password_hash, "Publish")


def test_clean_install_settings(store: SqlStore) -> None:
    with store.read() as tx:
        assert tx.settings.get("installed") == "clean"
        secret = tx.settings.get("secret_key")
        assert tx.settings.get("no such setting") is None
    assert secret is not None
    assert len(secret) >= 32


def test_next_section_id_after_install_is_4(store: SqlStore) -> None:
    assert create(store, "first") == Section(4, "first", "Name")
    assert create(store, "second") == Section(5, "second", "Name")


# -- the section gateway -----------------------------------------------------------------------------


def test_create_then_read_back(store: SqlStore) -> None:
    created = create(store, "news", "News & views")
    with store.read() as tx:
        assert tx.sections.get(created.id) == created
        assert tx.sections.by_identifier("news") == created
    assert sections(store) == [*CLEAN_SECTIONS, created]


def test_get_and_by_identifier_of_missing_sections(store: SqlStore) -> None:
    with store.read() as tx:
        assert tx.sections.get(999) is None
        assert tx.sections.by_identifier("missing") is None
        assert tx.sections.by_identifier("Standard") is None  # identifiers are case-sensitive


@pytest.mark.parametrize(
    ("struct", "expected"),
    [
        (SectionUpdate(identifier="library", name="Library"), Section(3, "library", "Library")),
        (SectionUpdate(name="Pictures"), Section(3, "media", "Pictures")),
        (SectionUpdate(identifier="pictures"), Section(3, "pictures", "Media")),
        (SectionUpdate(), Section(3, "media", "Media")),
    ],
)
def test_update(store: SqlStore, struct: SectionUpdate, expected: Section) -> None:
    with store.write() as tx:
        assert tx.sections.update(3, struct) == expected
    with store.read() as tx:
        assert tx.sections.get(3) == expected
        assert tx.sections.by_identifier(expected.identifier) == expected
    assert sections(store) == [*CLEAN_SECTIONS[:2], expected]


def test_delete(store: SqlStore) -> None:
    created = create(store, "temporary")
    with store.write() as tx:
        tx.sections.delete(created.id)
    with store.read() as tx:
        assert tx.sections.get(created.id) is None
        assert tx.sections.by_identifier("temporary") is None
    assert sections(store) == CLEAN_SECTIONS


def test_unused_section_is_not_in_use(store: SqlStore) -> None:
    created = create(store, "fresh")
    with store.read() as tx:
        assert tx.sections.is_used(created.id) is False


# -- transactions ------------------------------------------------------------------------------------


def test_a_failed_write_transaction_leaves_nothing_behind(store: SqlStore) -> None:
    spare = create(store, "spare")
    before = sections(store)
    with pytest.raises(Boom), store.write() as tx:
        created = tx.sections.create(SectionCreate("doomed", "Doomed"))
        tx.sections.update(1, SectionUpdate(name="Changed"))
        tx.sections.delete(spare.id)
        # inside the transaction the changes are visible
        assert tx.sections.get(created.id) == created
        assert tx.sections.get(spare.id) is None
        raise Boom
    assert sections(store) == before
    with store.read() as tx:
        assert tx.sections.by_identifier("doomed") is None


def test_a_committed_write_is_visible_to_the_next_transaction(store: SqlStore) -> None:
    with store.write() as tx:
        tx.sections.update(1, SectionUpdate(name="Committed"))
    with store.read() as tx:
        assert tx.sections.get(1) == Section(1, "standard", "Committed")


def test_identifiers_are_unique_in_the_database(store: SqlStore) -> None:
    with pytest.raises((IntegrityError, PressroomError)), store.write() as tx:
        tx.sections.create(SectionCreate("standard", "Again"))
    assert sections(store) == CLEAN_SECTIONS


def test_ids_of_deleted_sections_are_not_reused(store: SqlStore) -> None:
    first = create(store, "short_lived")
    with store.write() as tx:
        tx.sections.delete(first.id)
    assert create(store, "successor").id == first.id + 1


def test_concurrent_creates_of_one_identifier_end_in_forbidden_not_a_driver_error(
    store: SqlStore, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two clients create the same identifier at once: one wins, the other gets 403 (never a 500)."""
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite write transactions are serialised (BEGIN IMMEDIATE): the race cannot happen")
    barrier = threading.Barrier(2, timeout=10)
    check = SqlSectionGateway.by_identifier

    def check_then_wait(gateway: SqlSectionGateway, identifier: str) -> Section | None:
        found = check(gateway, identifier)
        barrier.wait()  # both transactions have checked before either inserts
        return found

    monkeypatch.setattr(SqlSectionGateway, "by_identifier", check_then_wait)
    service = SectionService(store, Permissions(store))
    admin = User(14, "admin", "admin@link.invalid", True)
    outcomes: list[str] = []

    def create_twin() -> None:
        try:
            service.create(admin, SectionCreate("twin", "Twin"))
            outcomes.append("created")
        except Forbidden:
            outcomes.append("forbidden")
        except Exception as error:  # what the client would see as a 500
            outcomes.append(type(error).__name__)

    threads = [threading.Thread(target=create_twin) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    monkeypatch.undo()
    assert [s.identifier for s in sections(store)].count("twin") == 1
    assert sorted(outcomes) == ["created", "forbidden"]
