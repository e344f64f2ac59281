"""The consistency check (``pressroom check``) on both databases: a clean repository passes, and each kind
of damage a crash or a bug could leave is found and named."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from pressroom.domain.integrity import IntegrityReport
from pressroom.services.integrity import IntegrityService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.store import SqlStore

ADMIN_USER = 14  # content of the admin user, in the clean install


@pytest.fixture
def files(tmp_path: Path) -> LocalFileStore:
    return LocalFileStore(tmp_path / "files")


@pytest.fixture
def integrity(engine: Engine, files: LocalFileStore) -> IntegrityService:
    return IntegrityService(SqlStore(engine), files)


def damage(engine: Engine, statement: str, **params: object) -> None:
    """Break a rule behind the services' back, as a crash or a bug would."""
    with engine.begin() as connection:
        connection.execute(text(statement), {"admin": ADMIN_USER, **params})


def current_version(engine: Engine) -> int:
    with engine.connect() as connection:
        query = text("SELECT current_version_no FROM content WHERE id = :admin")
        return int(connection.execute(query, {"admin": ADMIN_USER}).scalar_one())


FIELD_ROW = (
    "INSERT INTO content_fields (content_id, version_no, id, field_definition_id, language_code, field_type,"
    " value) VALUES (:admin, :version_no, :id, 1, 'eng-GB', :field_type, :value)"
)


def kinds(report: IntegrityReport) -> list[str]:
    return [problem.kind for problem in report.problems]


def test_a_clean_install_passes(integrity: IntegrityService) -> None:
    report = integrity.check()
    assert report.ok, report.problems
    checked = dict(report.checked)
    assert checked["content items"] > 0 and checked["locations"] > 1
    assert checked["stored files"] == 0


def test_content_without_versions(engine: Engine, integrity: IntegrityService) -> None:
    damage(engine, "DELETE FROM content_fields WHERE content_id = :admin")
    damage(engine, "DELETE FROM content_versions WHERE content_id = :admin")
    report = integrity.check()
    assert kinds(report) == ["content-without-version", "current-version-missing"]
    assert report.problems[0].message == f"content {ADMIN_USER} has no published or draft version"


def test_a_current_version_that_does_not_exist(engine: Engine, integrity: IntegrityService) -> None:
    damage(engine, "UPDATE content SET current_version_no = 7 WHERE id = :admin")
    report = integrity.check()
    assert [(p.kind, p.message) for p in report.problems] == [
        ("current-version-missing", f"content {ADMIN_USER}: current version 7 does not exist")
    ]


def test_a_version_without_its_fields_and_fields_without_their_version(
    engine: Engine, integrity: IntegrityService
) -> None:
    damage(engine, "DELETE FROM content_fields WHERE content_id = :admin")
    assert [p.message for p in integrity.check().problems] == [
        f"content {ADMIN_USER} version {current_version(engine)} has no fields"
    ]
    damage(engine, FIELD_ROW, version_no=9, id=999, field_type="ezstring", value='"x"')
    assert kinds(integrity.check()) == ["version-without-fields", "fields-without-version"]


def test_a_location_whose_path_or_depth_disagrees_with_its_parent(
    engine: Engine, integrity: IntegrityService
) -> None:
    damage(engine, "UPDATE locations SET path_string = '/1/99/2/', depth = 5 WHERE id = 2")
    report = integrity.check()
    messages = [p.message for p in report.problems]
    assert "location 2: path /1/99/2/ should be /1/2/" in messages
    assert "location 2: depth 5 should be 1" in messages
    assert set(kinds(report)) == {"location-path", "location-depth"}  # its children follow the new path


def test_a_location_whose_visibility_disagrees_with_its_flags(
    engine: Engine, integrity: IntegrityService
) -> None:
    """Issue 23 item 2: a location placed below one being hidden kept its old visibility."""
    damage(engine, "UPDATE locations SET hidden = :yes WHERE id = 15", yes=True)  # the admin's, a leaf
    assert [p.message for p in integrity.check().problems] == [
        "location 15: invisible is False, its own, its content's and its parent's flags say otherwise"
    ]
    damage(engine, "UPDATE locations SET hidden = :no, invisible = :yes WHERE id = 15", yes=True, no=False)
    assert kinds(integrity.check()) == ["location-visibility"]


def test_a_location_whose_parent_is_gone(engine: Engine, integrity: IntegrityService) -> None:
    damage(engine, "UPDATE locations SET parent_id = 424242 WHERE id = 2")
    report = integrity.check()
    assert "location 2: parent 424242 does not exist" in [p.message for p in report.problems]


def test_a_main_location_that_is_not_the_items_own(engine: Engine, integrity: IntegrityService) -> None:
    damage(engine, "UPDATE content SET main_location_id = 2 WHERE id = :admin")
    assert kinds(integrity.check()) == ["main-location-missing"]


def test_orphan_and_missing_files(engine: Engine, files: LocalFileStore, integrity: IntegrityService) -> None:
    orphan = files.put(b"nobody's", "orphan.txt", "text/plain")
    referenced = "ab/cd/0123456789abcdef/report.pdf"
    value = f'{{"id": "{referenced}", "fileName": "report.pdf"}}'
    damage(
        engine, FIELD_ROW, version_no=current_version(engine), id=998, field_type="ezbinaryfile", value=value
    )
    report = integrity.check()
    assert [(p.kind, p.message) for p in report.problems] == [
        ("file-missing", f"file {referenced}: referenced by a field value but not stored"),
        ("orphan-file", f"file {orphan.id}: stored but nothing references it (see gc-files)"),
    ]
    assert dict(report.checked)["stored files"] == 1


def test_a_location_whose_copies_of_the_item_keys_differ(engine: Engine, integrity: IntegrityService) -> None:
    """The item's type, publication date and name key on its locations (storage/sql/item_keys.py): the
    database keeps them; a row written behind the triggers' back is reported."""
    assert kinds(integrity.check()) == []
    damage(engine, "UPDATE locations SET name_key = 'zz', published = 1 WHERE id = 15")
    assert kinds(integrity.check()) == ["location-item-keys"]


def test_a_location_of_an_unpublished_item_and_two_locations_under_one_parent(
    engine: Engine, integrity: IntegrityService
) -> None:
    damage(engine, "UPDATE content SET status = 2 WHERE id = :admin")
    assert kinds(integrity.check()) == ["location-of-unpublished"]
    damage(engine, "UPDATE content SET status = 1 WHERE id = :admin")
    damage(
        engine,
        "INSERT INTO locations (id, parent_id, content_id, path_string, depth, priority, hidden, invisible, "
        "remote_id, sort_field, sort_order) SELECT 9001, l.parent_id, l.content_id, "
        "(SELECT p.path_string FROM locations p WHERE p.id = l.parent_id) || '9001/', l.depth, l.priority, "
        "l.hidden, l.invisible, 'twice', l.sort_field, l.sort_order FROM locations l WHERE l.id = 15",
    )
    assert kinds(integrity.check()) == ["location-twice-under-parent"]
