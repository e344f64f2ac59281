"""The URL alias and wildcard gateways, and the alias upkeep the tree calls (move, swap, delete), on
SQLite and PostgreSQL (install.md §11-§12)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import update

from pressroom.domain.url_alias import AliasEntry, UrlWildcard, UrlWildcardCreate, text_md5
from pressroom.services.url_alias_ops import (
    lookup,
    refresh_location_aliases,
    remove_subtree_aliases,
    resolve,
    with_paths,
)
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.schema import locations
from pressroom.storage.sql.store import SqlStore, SqlTx


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    engine = make_engine(database_url)
    yield SqlStore(engine)
    engine.dispose()


def entry(parent: int, text: str, node: int, action: str, **flags: bool) -> AliasEntry:
    return AliasEntry(
        parent=parent,
        text_md5=text_md5(text),
        text=text,
        node=node,
        action=action,
        is_original=flags.get("original", True),
        is_custom=flags.get("custom", True),
        forward=flags.get("forward", False),
        always_available=False,
        language_codes=("eng-GB",),
    )


def path_of(tx: SqlTx, location_id: int) -> str:
    (current,) = tx.url_aliases.of_locations([location_id], custom=False)
    return with_paths(tx, [current])[0].path


def move(tx: SqlTx, location_id: int, parent_path: str) -> None:
    """What the tree does on a move (only the moved row matters to the aliases)."""
    tx.connection.execute(
        update(locations)
        .where(locations.c.id == location_id)
        .values(
            parent_id=int(parent_path.strip("/").split("/")[-1]), path_string=f"{parent_path}{location_id}/"
        )
    )


def test_clean_install_entries(store: SqlStore) -> None:
    with store.read() as tx:
        assert tx.url_aliases.of_locations([5], custom=False) == [
            AliasEntry(0, text_md5("users"), "Users", 2, "eznode:5", True, False, False, True, ("eng-GB",))
        ]
        assert tx.url_aliases.of_locations([5], custom=True) == []
        assert tx.url_aliases.global_entries() == []
        history = tx.url_aliases.of_locations([12], custom=False, original_only=False)
        assert sorted((e.text, e.is_original) for e in history) == [
            ("Guest-accounts", True),
            ("guest_accounts", False),
        ]
        assert path_of(tx, 45) == "/Users/Anonymous-Users/Anonymous-User"
        assert path_of(tx, 2) == "/"
    with store.write() as tx:
        assert tx.url_aliases.new_node() == 38
    with store.read() as tx:
        assert tx.url_wildcards.list() == []


def test_save_replaces_by_key_and_delete(store: SqlStore) -> None:
    custom = entry(0, "Promo", 100, "module:content/search")
    with store.write() as tx:
        tx.url_aliases.save(custom)
        tx.url_aliases.save(entry(100, "Inner", 101, "eznode:43"))
    with store.write() as tx:
        assert tx.url_aliases.get(0, text_md5("PROMO")) == custom
        assert tx.url_aliases.global_entries() == [custom]
        assert [e.text for e in tx.url_aliases.of_nodes([100, 101])] == ["Promo", "Inner"]
        assert with_paths(tx, tx.url_aliases.of_locations([43], custom=True))[0].path == "/Promo/Inner"
        tx.url_aliases.save(entry(0, "PROMO", 100, "module:other", forward=True))
    with store.write() as tx:
        stored = tx.url_aliases.get(0, text_md5("promo"))
        assert stored is not None
        assert (stored.text, stored.action, stored.forward) == ("PROMO", "module:other", True)
        tx.url_aliases.delete([(0, text_md5("promo"))])
    with store.read() as tx:
        assert tx.url_aliases.get(0, text_md5("promo")) is None
        assert tx.url_aliases.global_entries() == []


def test_moving_a_location_reparents_only_its_segment(store: SqlStore) -> None:
    with store.write() as tx:
        move(tx, 13, "/1/43/")  # Administrator users (with the admin below) into Media
        refresh_location_aliases(tx, [13])
    with store.read() as tx:
        assert path_of(tx, 13) == "/Media/Administrator-users"
        assert path_of(tx, 15) == "/Media/Administrator-users/Administrator-User"
        old = resolve(tx, "/Users/Administrator-users/Administrator-User")
        assert old is not None and old.location_id == 15
        before = resolve(tx, "/users/administrator-users")
        assert before is not None and (before.location_id, before.is_original) == (13, False)
        assert tx.url_aliases.of_locations([13], custom=False) == [
            AliasEntry(
                9,
                text_md5("administrator-users"),
                "Administrator-users",
                5,
                "eznode:13",
                True,
                False,
                False,
                True,
                ("eng-GB",),
            )
        ]


def test_swapped_locations_take_each_others_names(store: SqlStore) -> None:
    with store.write() as tx:
        for location_id, content_id in ((12, 13), (14, 11)):  # Guest accounts <-> Editors
            tx.connection.execute(
                update(locations).where(locations.c.id == location_id).values(content_id=content_id)
            )
        refresh_location_aliases(tx, [12, 14])
    with store.read() as tx:
        assert path_of(tx, 12) == "/Users/Editors"
        assert path_of(tx, 14) == "/Users/Guest-accounts"
        found = lookup(tx, "/Users/Editors")
        assert found is not None and found.location_id == 12


def test_refresh_is_idempotent(store: SqlStore) -> None:
    with store.read() as tx:
        before = tx.url_aliases.of_locations([12, 13, 14, 15], custom=None, original_only=False)
    with store.write() as tx:
        refresh_location_aliases(tx, [12, 13, 14, 15])
    with store.read() as tx:
        assert tx.url_aliases.of_locations([12, 13, 14, 15], custom=None, original_only=False) == before


def test_removing_aliases_of_subtrees(store: SqlStore) -> None:
    with store.write() as tx:
        tx.url_aliases.save(entry(0, "Custom-admin", 200, "eznode:15"))
        tx.url_aliases.save(entry(0, "Promo", 201, "module:content/search"))
        remove_subtree_aliases(tx, ["/1/5/13/", "/1/43/99/"])
    with store.read() as tx:
        assert tx.url_aliases.of_locations([13, 15], custom=None, original_only=False) == []
        assert resolve(tx, "/Users/Administrator-users") is None
        assert path_of(tx, 14) == "/Users/Editors"
        assert [e.text for e in tx.url_aliases.of_locations([51, 52, 53], custom=False)] == [
            "Files",
            "Images",
            "Multimedia",
        ]
        assert [e.text for e in tx.url_aliases.global_entries()] == ["Promo"]


def test_wildcards(store: SqlStore) -> None:
    with store.write() as tx:
        first = tx.url_wildcards.create(UrlWildcardCreate("/old/*", "/Media/{1}", True))
        second = tx.url_wildcards.create(UrlWildcardCreate("/x/*", "/y", False))
    assert first == UrlWildcard(1, "/old/*", "/Media/{1}", True)
    assert second.id == 2
    with store.read() as tx:
        assert tx.url_wildcards.list() == [first, second]
        assert tx.url_wildcards.get(2) == second
        assert tx.url_wildcards.source_exists("/old/*")
        assert not tx.url_wildcards.source_exists("/old")
        found = lookup(tx, "/old/Images")
        assert found is not None and found.location_id == 51
    with store.write() as tx:
        tx.url_wildcards.delete(1)
    with store.read() as tx:
        assert tx.url_wildcards.list() == [second]
        assert tx.url_wildcards.get(1) is None


def test_claim_inserts_a_free_key_and_leaves_a_taken_one_as_it_is(store: SqlStore) -> None:
    with store.write() as tx:
        node = tx.url_aliases.new_node()
        first = entry(0, "claimed-segment", node, "eznode:2")
        assert tx.url_aliases.claim(first) is True
        assert tx.url_aliases.claim(entry(0, "claimed-segment", node + 1, "eznode:43")) is False
        assert tx.url_aliases.get(0, text_md5("claimed-segment")) == first
