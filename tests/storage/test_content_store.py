"""Content, versions, fields, relations and locations in SQL, on SQLite and PostgreSQL
(install.md §6-§7, §12); concurrent writers are in test_content_concurrency.py."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from pressroom.domain.content import COMMON, ContentCreate, FieldInput, NewContent, NewVersion
from pressroom.domain.errors import ContentValidationError, Forbidden, NotFound
from pressroom.domain.location import LocationCreate
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.user import User
from pressroom.services.content import ContentService
from pressroom.services.permissions import Permissions
from pressroom.services.version import VersionService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore

ADMIN = User(14, "admin", "admin@link.invalid", True)
NOW = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    engine = make_engine(database_url)
    yield SqlStore(engine)
    engine.dispose()


def services(store: SqlStore, root: Path) -> tuple[ContentService, VersionService]:
    files = LocalFileStore(root)
    return ContentService(store, Permissions(store), files), VersionService(store, Permissions(store), files)


def folder(name: str, parent: int = 2) -> ContentCreate:
    return ContentCreate(1, "eng-GB", (FieldInput("name", None, name),), (LocationCreate(parent),))


# -- the clean install -------------------------------------------------------------------------------


def test_clean_install_content_and_locations(store: SqlStore) -> None:
    with store.read() as tx:
        admin = tx.content.get(14)
        root = tx.locations.get(1, UNRESTRICTED)
        media = tx.locations.by_remote_id("75c715a51699d2d309a924eca6a95145")
        fields = tx.content.load_fields(10, 2)
        versions = tx.content.list_versions(1)
    assert admin is not None and root is not None and media is not None
    assert (admin.name, admin.current_version_no, admin.main_location_id, admin.main_location_path) == (
        "Administrator User",
        3,
        15,
        "/1/5/13/15/",
    )
    assert (admin.section_id, admin.owner_id, admin.status) == (2, 14, "PUBLISHED")
    assert admin.published_date == datetime(2002, 10, 6, 16, 13, 50, tzinfo=UTC)
    assert (root.content_id, root.parent_id, root.depth, root.path_string) == (None, 1, 0, "/1/")
    assert (media.id, media.content_id, media.sort_field, media.child_count) == (43, 41, "NAME", 3)
    assert [(f.id, f.identifier) for f in fields] == [
        (19, "first_name"),
        (20, "last_name"),
        (21, "user_account"),
        (177, "signature"),
        (179, "image"),
    ]
    assert [(v.id, v.version_no, v.status) for v in versions] == [(506, 9, "PUBLISHED")]


def test_next_ids_follow_the_clean_install(store: SqlStore, tmp_path: Path) -> None:
    content, versions = services(store, tmp_path)
    draft = content.create(ADMIN, folder("Next"))
    versions.publish(ADMIN, draft.content.id, 1)
    published = content.load_info(ADMIN, draft.content.id)
    assert (draft.content.id, draft.info.id, published.main_location_id) == (52, 507, 54)
    assert min(f.id for f in draft.fields) == 181


# -- gateways ----------------------------------------------------------------------------------------


def test_version_numbers_and_fields_round_trip(store: SqlStore) -> None:
    with store.write() as tx:
        content_id = tx.content.create(NewContent(1, "store-test", 1, 14, "eng-GB", True, NOW))
        numbers = [tx.content.next_version_no(content_id) for _ in range(3)]
        ids = tx.content.new_field_ids(2)
    assert numbers == [2, 3, 4]  # a new item already holds version number 1
    assert ids[1] == ids[0] + 1
    with store.read() as tx:
        info = tx.content.get(content_id)
    assert info is not None and (info.status, info.main_location_id, info.names) == ("DRAFT", None, {})


def test_only_a_taken_unique_key_is_forbidden(store: SqlStore) -> None:
    """A duplicate key is the "already exists" 403; any other integrity error is a bug, never a 403."""
    draft = NewVersion(1, 9, 14, NOW, "eng-GB", ("eng-GB",), {"eng-GB": "Twin"})
    with pytest.raises(Forbidden), store.write() as tx:
        tx.content.create_version(draft)
    with pytest.raises(IntegrityError), store.write() as tx:
        tx.content.create_version(replace(draft, content_id=999_999, version_no=1))


def test_drafts_by_creator(store: SqlStore, tmp_path: Path) -> None:
    content, _ = services(store, tmp_path)
    draft = content.create(ADMIN, folder("Mine"))
    with store.read() as tx:
        drafts = tx.content.drafts_by_creator(14)
        none = tx.content.drafts_by_creator(10)
    assert [(d.content_id, d.version_no) for d in drafts] == [(draft.content.id, 1)]
    assert none == []


def test_relations_cascade_with_their_destination(store: SqlStore, tmp_path: Path) -> None:
    content, _ = services(store, tmp_path)
    target = content.create(ADMIN, folder("Target"))
    source = content.create(ADMIN, folder("Source"))
    with store.write() as tx:
        tx.relations.add(source.content.id, 1, target.content.id, COMMON)
    content.delete(ADMIN, target.content.id)
    with store.read() as tx:
        assert tx.relations.list(source.content.id, 1, readable=UNRESTRICTED) == []
        assert tx.content.get(target.content.id) is None


def test_failed_create_leaves_nothing_behind(store: SqlStore, tmp_path: Path) -> None:
    content, _ = services(store, tmp_path)
    with pytest.raises(ContentValidationError):
        content.create(ADMIN, folder(""))
    with pytest.raises(NotFound):
        content.create(ADMIN, folder("Lost", parent=9999))
    with store.read() as tx:
        assert tx.content.get(52) is None


def test_publish_twice_is_forbidden_and_subtree_delete(store: SqlStore, tmp_path: Path) -> None:
    content, versions = services(store, tmp_path)
    parent = content.create(ADMIN, folder("Parent"))
    versions.publish(ADMIN, parent.content.id, 1)
    with pytest.raises(Forbidden):
        versions.publish(ADMIN, parent.content.id, 1)
    location = content.load_info(ADMIN, parent.content.id).main_location_id
    assert location is not None
    child = content.create(ADMIN, folder("Child", parent=location))
    versions.publish(ADMIN, child.content.id, 1)
    content.delete(ADMIN, parent.content.id)
    with store.read() as tx:
        assert tx.content.get(child.content.id) is None
        assert tx.locations.get(location, UNRESTRICTED) is None


def test_ids_beyond_what_the_columns_hold_are_client_errors(database_url: str, tmp_path: Path) -> None:
    """PostgreSQL refuses integers its columns cannot hold; that must reach clients as 404/400, not 500."""
    from starlette.testclient import TestClient

    from pressroom.app import create_app
    from tests.conftest import make_settings
    from tests.helpers import Api, media

    with TestClient(create_app(make_settings(database_url, tmp_path))) as client:
        api = Api(client)
        for path in (
            "/content/objects/99999999999",
            "/content/locations/1/2/99999999999",
            "/content/types/4294967296",
        ):
            assert api.get(path, accept=media("ContentInfo")).status_code == 404, path
        assert api.get("/content/locations?id=99999999999", accept="application/json").status_code == 404
        assert api.get("/content/locations?id=%C2%B2", accept="application/json").status_code == 400
        copied = api.request(
            "COPY",
            "/content/objects/1",
            headers={"Destination": "/api/ibexa/v2/content/locations/1/\u00b2".encode("latin-1")},
        )
        assert copied.status_code == 400


NUL_LOOKUPS = [
    ("/content/objects?remoteId=a%00b", "remoteId"),
    ("/content/locations?remoteId=%00", "remoteId"),
    ("/content/sections?identifier=standard%00", "identifier"),
    ("/content/types?identifier=folder%00", "identifier"),
    ("/content/types?remoteId=%00x", "remoteId"),
    ("/content/typegroups?identifier=Content%00", "identifier"),
    ("/languages/eng-GB%00", "code"),
    ("/content/objects/1/translations/eng%00", "languageCode"),
]


def test_a_nul_character_in_a_lookup_is_a_400_naming_the_parameter(database_url: str, tmp_path: Path) -> None:
    """PostgreSQL refuses NUL in text, SQLite would just not find it: both answer 400 for the parameter."""
    from starlette.testclient import TestClient

    from pressroom.app import create_app
    from tests.conftest import make_settings
    from tests.helpers import Api

    with TestClient(create_app(make_settings(database_url, tmp_path))) as client:
        api = Api(client)
        for path, parameter in NUL_LOOKUPS:
            method = "DELETE" if "/translations/" in path else "GET"
            response = api.request(method, path, accept="application/json")
            assert response.status_code == 400, (path, response.text)
            description = response.json()["ErrorMessage"]["errorDescription"]
            assert f"'{parameter}'" in description and "NUL" in description, (path, description)


# -- the stored-file index -----------------------------------------------------------------------------


def test_file_references_are_indexed_and_released_with_their_rows(store: SqlStore, tmp_path: Path) -> None:
    """content_fields.file_id: who references a file, and which files a write left unreferenced."""
    content, versions = services(store, tmp_path)
    upload = {"fileName": "a.pdf", "data": "JVBERg=="}
    item = ContentCreate(12, "eng-GB", (FieldInput("name", None, "A"), FieldInput("file", None, upload)), ())
    created = content.create(ADMIN, item)
    content_id = created.content.id
    [file_id] = [f.value["id"] for f in created.fields if isinstance(f.value, dict) and "id" in f.value]
    draft = versions.copy(ADMIN, content_id, 1).info.version_no
    with store.read() as tx:
        assert tx.content.file_owners(file_id) == [(content_id, 1), (content_id, draft)]
        assert tx.content.unreferenced([file_id, "zz/zz/none/x.pdf"]) == {"zz/zz/none/x.pdf"}
    with store.write() as tx:
        tx.content.delete_version(content_id, draft)
        assert tx.content.released_files == {file_id}
        assert tx.content.unreferenced(tx.content.released_files) == set()  # version 1 still has it
        tx.content.delete([content_id])
        assert tx.content.unreferenced(tx.content.released_files) == {file_id}
        assert tx.content.file_owners(file_id) == []
