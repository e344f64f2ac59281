"""Consistency queries for ``pressroom check``: each finds the rows that break one rule of the schema that
the database itself does not enforce (a version's fields, a location's path and visibility, the current
version)."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
from sqlalchemy import ColumnElement, Connection, String, and_, cast, exists, false, func, or_, select
from sqlalchemy.orm import aliased

from pressroom.domain.content import CONTENT_STATUS_CODES, DRAFT, PUBLISHED, VERSION_STATUS_CODES
from pressroom.domain.fieldtypes._binary import BinaryFieldType
from pressroom.domain.fieldtypes.registry import all_field_types
from pressroom.domain.integrity import Problem
from pressroom.storage.sql.item_keys import COPIED
from pressroom.storage.sql.schema import (
    content,
    content_fields,
    content_versions,
    field_definitions,
    image_variations,
    locations,
)

_LIVE_VERSIONS = [VERSION_STATUS_CODES[DRAFT], VERSION_STATUS_CODES[PUBLISHED]]
_DEFINED = 0  # content type status
_ROOT_LOCATION = 1
_FILE_TYPES = sorted(t.identifier for t in all_field_types() if isinstance(t, BinaryFieldType))


def _has_version(*conditions: ColumnElement[bool]) -> ColumnElement[bool]:
    return exists().where(content_versions.c.content_id == content.c.id, *conditions)


class SqlIntegrityGateway:
    def __init__(self, connection: Connection) -> None:
        self.c = connection

    def counts(self) -> dict[str, int]:
        """Rows looked at, per table."""
        tables = {"content items": content, "versions": content_versions, "locations": locations}
        count = func.count()
        return {name: self.c.execute(select(count).select_from(t)).scalar_one() for name, t in tables.items()}

    def content_problems(self) -> Iterator[Problem]:
        no_live_version = select(content.c.id).where(
            ~_has_version(content_versions.c.status.in_(_LIVE_VERSIONS))
        )
        for (content_id,) in self.c.execute(no_live_version.order_by(content.c.id)):
            yield Problem(
                "content-without-version", f"content {content_id} has no published or draft version"
            )
        no_current = select(content.c.id, content.c.current_version_no).where(
            ~_has_version(content_versions.c.version_no == content.c.current_version_no)
        )
        for content_id, version_no in self.c.execute(no_current.order_by(content.c.id)):
            yield Problem(
                "current-version-missing",
                f"content {content_id}: current version {version_no} does not exist",
            )
        main_location_gone = select(content.c.id, content.c.main_location_id).where(
            content.c.status == CONTENT_STATUS_CODES[PUBLISHED],
            content.c.main_location_id.is_not(None),
            ~exists().where(
                locations.c.id == content.c.main_location_id, locations.c.content_id == content.c.id
            ),
        )
        for content_id, location_id in self.c.execute(main_location_gone.order_by(content.c.id)):
            yield Problem(
                "main-location-missing",
                f"content {content_id}: main location {location_id} is not one of its own",
            )

    def version_problems(self) -> Iterator[Problem]:
        type_has_fields = exists().where(
            field_definitions.c.content_type_id == content.c.content_type_id,
            field_definitions.c.status == _DEFINED,
        )
        fieldless = (
            select(content_versions.c.content_id, content_versions.c.version_no)
            .join(content, content.c.id == content_versions.c.content_id)
            .where(
                type_has_fields,
                ~exists().where(
                    content_fields.c.content_id == content_versions.c.content_id,
                    content_fields.c.version_no == content_versions.c.version_no,
                ),
            )
        )
        for content_id, version_no in self.c.execute(fieldless.order_by(*fieldless.selected_columns)):
            yield Problem(
                "version-without-fields", f"content {content_id} version {version_no} has no fields"
            )
        stray = (
            select(content_fields.c.content_id, content_fields.c.version_no)
            .where(
                ~exists().where(
                    content_versions.c.content_id == content_fields.c.content_id,
                    content_versions.c.version_no == content_fields.c.version_no,
                )
            )
            .distinct()
        )
        for content_id, version_no in self.c.execute(stray.order_by(*stray.selected_columns)):
            yield Problem(
                "fields-without-version", f"content {content_id}: fields of missing version {version_no}"
            )

    def location_problems(self) -> Iterator[Problem]:
        parent = aliased(locations, name="parent")
        expected_path = parent.c.path_string + cast(locations.c.id, String) + "/"
        # invisible: hidden itself, its content hidden, or below an invisible parent (what
        # storage/sql/location.py refresh_invisible and placing a location maintain)
        expected_invisible = or_(
            locations.c.hidden, func.coalesce(content.c.is_hidden, false()), parent.c.invisible
        )
        # the copies of the item's search keys (storage/sql/item_keys.py), and a location only for a
        # published item (storage/sql/search.py reads the children of a parent without the item's row)
        keys_differ = or_(*(locations.c[name].is_distinct_from(content.c[name]) for name in COPIED))
        unpublished = content.c.status != CONTENT_STATUS_CODES[PUBLISHED]
        query = (
            select(
                locations.c.id,
                locations.c.parent_id,
                locations.c.content_id,
                locations.c.path_string,
                locations.c.depth,
                parent.c.id.label("found_parent"),
                expected_path.label("expected_path"),
                (parent.c.depth + 1).label("expected_depth"),
                locations.c.invisible,
                expected_invisible.label("expected_invisible"),
                content.c.id.label("found_content"),
                content.c.status.label("content_status"),
                keys_differ.label("keys_differ"),
            )
            .outerjoin(parent, parent.c.id == locations.c.parent_id)
            .outerjoin(content, content.c.id == locations.c.content_id)
            .where(
                locations.c.id != _ROOT_LOCATION,
                or_(
                    parent.c.id.is_(None),
                    locations.c.path_string != expected_path,
                    locations.c.depth != parent.c.depth + 1,
                    and_(locations.c.invisible, ~expected_invisible),
                    and_(~locations.c.invisible, expected_invisible),
                    and_(locations.c.content_id.is_not(None), content.c.id.is_(None)),
                    locations.c.content_id.is_(None),
                    and_(content.c.id.is_not(None), or_(keys_differ, unpublished)),
                ),
            )
            .order_by(locations.c.id)
        )
        for row in self.c.execute(query):
            where = f"location {row.id}"
            if row.content_id is None or row.found_content is None:
                yield Problem("location-without-content", f"{where}: content {row.content_id} does not exist")
            if row.found_content is not None and row.keys_differ:
                yield Problem(
                    "location-item-keys",
                    f"{where}: its copies of the type, publication date or name key of content "
                    f"{row.content_id} differ from the item's",
                )
            if row.found_content is not None and row.content_status != CONTENT_STATUS_CODES[PUBLISHED]:
                yield Problem(
                    "location-of-unpublished", f"{where}: content {row.content_id} is not published"
                )
            if row.found_parent is None:
                yield Problem("location-without-parent", f"{where}: parent {row.parent_id} does not exist")
                continue
            if row.path_string != row.expected_path:
                yield Problem(
                    "location-path", f"{where}: path {row.path_string} should be {row.expected_path}"
                )
            if row.depth != row.expected_depth:
                yield Problem("location-depth", f"{where}: depth {row.depth} should be {row.expected_depth}")
            if bool(row.invisible) != bool(row.expected_invisible):
                yield Problem(
                    "location-visibility",
                    f"{where}: invisible is {bool(row.invisible)}, its own, its content's and its "
                    "parent's flags say otherwise",
                )
        yield from self._placement_problems()

    def _placement_problems(self) -> Iterator[Problem]:
        """An item with two locations under one parent (services refuse it; a search of the parent's
        children counts each item once, by its location there)."""
        twice = (
            select(locations.c.parent_id, locations.c.content_id)
            .where(locations.c.content_id.is_not(None))
            .group_by(locations.c.parent_id, locations.c.content_id)
            .having(func.count() > 1)
            .order_by(locations.c.parent_id, locations.c.content_id)
        )
        for parent_id, content_id in self.c.execute(twice):
            yield Problem(
                "location-twice-under-parent", f"content {content_id} has two locations under {parent_id}"
            )

    def referenced_files(self) -> tuple[set[str], set[str]]:
        """The stored files that field values reference, and the image renditions recorded."""
        query = select(content_fields.c.value).where(
            content_fields.c.field_type.in_(_FILE_TYPES), content_fields.c.value.is_not(None)
        )
        by_fields = set()
        for (value,) in self.c.execute(query):
            file_id = orjson.loads(value).get("id")
            if isinstance(file_id, str) and file_id:
                by_fields.add(file_id)
        renditions = {file_id for (file_id,) in self.c.execute(select(image_variations.c.file_id))}
        return by_fields, renditions
