"""The content type gateway on SQLite and PostgreSQL (install.md §4, §5)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from pressroom.domain.content_type import DEFINED, DRAFT, ContentType, FieldDefinition
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.content_rows import insert_content_of_type

FIELD_DEFINITION_IDS = {
    1: [4, 155, 119, 156],
    2: [1, 152, 153, 120, 121, 123, 154],
    3: [6, 7],
    4: [8, 9, 12, 179, 180],
    5: [116, 117, 118],
    12: [146, 147, 148],
}
NOW = datetime(2024, 5, 1, 12, 30, 15, tzinfo=UTC)


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    engine = make_engine(database_url)
    yield SqlStore(engine)
    engine.dispose()


def a_type(type_id: int, status: str = DRAFT, identifier: str = "blog") -> ContentType:
    return ContentType(
        id=type_id,
        status=status,
        identifier=identifier,
        remote_id=f"remote-{identifier}",
        names={"eng-GB": "Blog", "ger-DE": "Blog (de)"},
        descriptions={"eng-GB": "Posts"},
        creation_date=NOW,
        modification_date=NOW,
        creator_id=14,
        modifier_id=14,
        url_alias_schema="<title>",
        name_schema="<title>",
        is_container=True,
        main_language_code="eng-GB",
        default_always_available=False,
        default_sort_field="PUBLISHED",
        default_sort_order="DESC",
        group_ids=(1, 3),
        field_definitions=(
            FieldDefinition(
                id=500,
                identifier="title",
                field_type="ezstring",
                field_group="content",
                position=1,
                is_required=True,
                default_value="Untitled",
                names={"eng-GB": "Title"},
                validator_configuration={
                    "StringLengthValidator": {"minStringLength": 0, "maxStringLength": 9}
                },
            ),
            FieldDefinition(
                id=501,
                identifier="tags",
                field_type="ezkeyword",
                position=2,
                is_searchable=False,
                default_value=["a", "b"],
                field_settings={"nested": {"list": [1, 2.5, None, True]}},
            ),
        ),
    )


# -- the clean install -------------------------------------------------------------------------------


def test_clean_install_groups(store: SqlStore) -> None:
    with store.read() as tx:
        groups = tx.content_types.list_groups()
    assert [(g.id, g.identifier, g.creator_id) for g in groups] == [
        (1, "Content", 14), (2, "Users", 14), (3, "Media", 14)
    ]  # fmt: skip
    assert groups[0].created == datetime(2002, 9, 5, 9, 8, 48, tzinfo=UTC)
    assert groups[2].modified == datetime(2002, 10, 6, 16, 35, 20, tzinfo=UTC)


def test_clean_install_types_and_field_definition_ids(store: SqlStore) -> None:
    with store.read() as tx:
        types = tx.content_types.list()
    assert [(t.id, t.identifier, t.group_ids) for t in types] == [
        (1, "folder", (1,)),
        (2, "article", (1,)),
        (3, "user_group", (2,)),
        (4, "user", (2,)),
        (5, "image", (3,)),
        (12, "file", (3,)),
    ]
    assert {t.id: [d.id for d in t.field_definitions] for t in types} == FIELD_DEFINITION_IDS
    assert {t.status for t in types} == {DEFINED}
    article = types[1]
    assert (article.remote_id, article.name_schema, article.default_always_available) == (
        "c15b600eb9198b1924063b5a68758232", "<short_title|title>", False
    )  # fmt: skip
    account = types[3].field_definition("user_account")
    assert account is not None
    assert (account.is_searchable, account.is_translatable, account.is_required) == (False, False, True)
    assert account.validator_configuration["PasswordValueValidator"]["minLength"] == 10


def test_next_ids_follow_the_clean_install(store: SqlStore) -> None:
    with store.write() as tx:
        assert tx.content_types.new_type_id() == 13
        assert tx.content_types.new_type_id() == 14
        assert tx.content_types.new_field_definition_id() == 181


def test_lookups(store: SqlStore) -> None:
    with store.read() as tx:
        gateway = tx.content_types
        assert gateway.by_identifier("file") == gateway.get(12)
        assert gateway.by_remote_id("f6df12aa74e36230eb675f364fccd25a") == gateway.get(5)
        assert gateway.get(6) is None
        assert gateway.get(1, DRAFT) is None
        assert gateway.group_by_identifier("Users") == gateway.get_group(2)


# -- save, load, publish -----------------------------------------------------------------------------


def test_save_and_load_round_trip(store: SqlStore) -> None:
    draft = a_type(20)
    with store.write() as tx:
        tx.content_types.save(draft)
    with store.read() as tx:
        assert tx.content_types.get(20, DRAFT) == draft
        assert tx.content_types.get(20) is None
        assert tx.content_types.by_identifier("blog", DRAFT) == draft
        assert not tx.content_types.group_is_empty(3)


def test_save_replaces_a_state_whole(store: SqlStore) -> None:
    with store.write() as tx:
        tx.content_types.save(a_type(20))
        changed = replace(a_type(20), group_ids=(2,), field_definitions=a_type(20).field_definitions[1:])
        tx.content_types.save(changed)
    with store.read() as tx:
        assert tx.content_types.get(20, DRAFT) == changed


def test_publish_draft_replaces_the_defined_state(store: SqlStore) -> None:
    defined = a_type(20, DEFINED)
    draft = replace(
        a_type(20), names={"eng-GB": "Weblog"}, field_definitions=a_type(20).field_definitions[:1]
    )
    with store.write() as tx:
        tx.content_types.save(defined)
        tx.content_types.save(draft)
    with store.read() as tx:
        assert tx.content_types.get(20) == defined
    with store.write() as tx:
        tx.content_types.publish_draft(20)
    with store.read() as tx:
        assert tx.content_types.get(20) == replace(draft, status=DEFINED)
        assert tx.content_types.get(20, DRAFT) is None


def test_delete_one_state(store: SqlStore) -> None:
    with store.write() as tx:
        tx.content_types.save(a_type(20, DEFINED))
        tx.content_types.save(a_type(20))
        tx.content_types.delete(20, DRAFT)
    with store.read() as tx:
        assert tx.content_types.get(20, DRAFT) is None
        assert tx.content_types.get(20) == a_type(20, DEFINED)


def test_groups_create_update_delete(store: SqlStore) -> None:
    with store.write() as tx:
        group = tx.content_types.create_group("Blogs", 14, NOW)
        assert (group.id, group.created, group.modified) == (4, NOW, NOW)
        assert tx.content_types.group_is_empty(4)
        later = NOW.replace(hour=13)
        updated = tx.content_types.update_group(4, "Weblogs", 10, later)
        assert (updated.identifier, updated.created, updated.modified, updated.modifier_id) == (
            "Weblogs", NOW, later, 10
        )  # fmt: skip
        tx.content_types.delete_group(4)
    with store.read() as tx:
        assert tx.content_types.get_group(4) is None


def test_instances(store: SqlStore, database_url: str) -> None:
    with store.write() as tx:
        tx.content_types.save(a_type(20, DEFINED))
        assert not tx.content_types.has_instances(20)
    insert_content_of_type(database_url, 20)
    with store.read() as tx:
        assert tx.content_types.has_instances(20)
        assert not tx.content_types.has_instances(21)


# -- list ordering and paging ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, [1, 2, 3, 4, 5, 12]),
        ({"descending": True}, [12, 5, 4, 3, 2, 1]),
        ({"order_by": "name"}, [2, 12, 1, 5, 4, 3]),
        ({"order_by": "name", "descending": True}, [3, 4, 5, 1, 12, 2]),
        ({"order_by": "lastmodified"}, [3, 5, 12, 4, 2, 1]),
        ({"order_by": "lastmodified", "descending": True, "limit": 2}, [1, 2]),
        ({"offset": 2, "limit": 3}, [3, 4, 5]),
        ({"order_by": "name", "offset": 4}, [4, 3]),
        ({"group_id": 3}, [5, 12]),
        ({"group_id": 2, "descending": True}, [4, 3]),
        ({"offset": 10}, []),
    ],
)
def test_list_ordering_and_paging(store: SqlStore, kwargs: dict[str, object], expected: list[int]) -> None:
    with store.read() as tx:
        assert [t.id for t in tx.content_types.list(**kwargs)] == expected  # type: ignore[arg-type]


def test_list_leaves_out_drafts(store: SqlStore) -> None:
    with store.write() as tx:
        tx.content_types.save(a_type(20))
    with store.read() as tx:
        assert 20 not in [t.id for t in tx.content_types.list()]
        assert 20 not in [t.id for t in tx.content_types.list(group_id=1)]
