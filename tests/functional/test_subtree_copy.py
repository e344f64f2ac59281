"""Copying a subtree in bulk (services/content_copy.copy_subtree): the copies are what copying one item
at a time and publishing each makes (rows of every table compared, ids aside), and the number of
statements depends on the tables written, not on the number of items."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select

from pressroom.domain.location import LocationUpdate
from pressroom.domain.read_scope import UNRESTRICTED
from pressroom.domain.user import User
from pressroom.services.location import LocationService
from pressroom.services.permissions import Permissions
from pressroom.services.trash import TrashService
from pressroom.storage.files import LocalFileStore
from pressroom.storage.sql.engine import make_engine, transaction
from pressroom.storage.sql.schema import (
    content,
    content_fields,
    content_versions,
    field_index,
    locations,
    relations,
    search_text,
    url_aliases,
)
from pressroom.storage.sql.store import SqlStore
from tests.functional.content_support import create_folder, publish, published_folder
from tests.functional.test_content_locations import create_location
from tests.functional.test_relations import relate
from tests.functional.tree_support import folder_at
from tests.helpers import Api, StatementCounter

ADMIN = User(id=14, login="admin", email="admin@link.invalid", enabled=True)
# Statements of a bulk copy, whatever the number of items: the load and checks of source and target
# (with the caller's grants), the subtree, the items and their types, ids for items and locations, one
# INSERT ... SELECT each for items, versions, fields (after counting them and reserving their ids), index
# rows, texts and relations, the locations in one statement, the top's aliases beside its new siblings,
# the other aliases in one, the copy read back and the event.
COPY_STATEMENTS = 27


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = make_engine(database_url)
    yield made
    made.dispose()


def service(engine: Engine, tmp_path: Path) -> LocationService:
    store = SqlStore(engine)
    permissions = Permissions(store)
    permissions.grants(ADMIN)
    return LocationService(store, permissions, LocalFileStore(tmp_path / "files"))


def build(api: Api) -> tuple[str, str]:
    """A subtree with what a copy must carry over: siblings named alike (suffixed aliases), a hidden
    location and what lies below it, a relation, an item with two locations in the subtree, an item
    whose main location is outside it."""
    top = folder_at(api, "Copy top")
    same = folder_at(api, "Same", top)
    folder_at(api, "Same", top)
    folder_at(api, "Below same", same)
    hidden = folder_at(api, "Hidden", top)
    folder_at(api, "Under hidden", hidden)
    outside = published_folder(api, "Related")
    source = create_folder(api, "Relating", top)
    assert relate(api, source["_id"], 1, outside["_id"]).status_code == 201
    publish(api, source["_id"])
    twice = published_folder(api, "Twice", same)
    assert create_location(api, twice["_id"], hidden).status_code == 201
    elsewhere = published_folder(api, "Main elsewhere", "1/2")
    assert create_location(api, elsewhere["_id"], top).status_code == 201
    return top, hidden


def dump(engine: Engine, top_id: int) -> dict[str, Any]:
    """Everything stored of the copied subtree at ``top_id``, ids replaced by their rank."""
    with transaction(engine, write=False) as c:
        top_path = c.execute(select(locations.c.path_string).where(locations.c.id == top_id)).scalar_one()
        rows = c.execute(
            select(locations)
            .where(locations.c.path_string.startswith(top_path))
            .order_by(locations.c.depth, locations.c.id)
        ).all()
        rank = {r.id: i for i, r in enumerate(rows)}
        items = list(dict.fromkeys(r.content_id for r in rows))
        item = {content_id: i for i, content_id in enumerate(items)}

        def of(table: Any, *skip: str) -> list[tuple[Any, ...]]:
            found = c.execute(select(table).where(table.c.content_id.in_(items))).mappings().all()
            return sorted(
                tuple((k, item[v] if k == "content_id" else v) for k, v in sorted(m.items()) if k not in skip)
                for m in found
            )

        nodes = {}
        aliases = c.execute(select(url_aliases).where(url_aliases.c.location_id.in_(list(rank)))).mappings()
        alias_rows = list(aliases)
        for a in alias_rows:
            nodes[a["node"]] = rank[a["location_id"]]
        info = c.execute(select(content).where(content.c.id.in_(items))).mappings().all()
        relation_rows = c.execute(
            select(relations).where(relations.c.source_content_id.in_(items))
        ).mappings()
        return {
            "locations": [
                (rank.get(r.parent_id, -1), item[r.content_id], r.depth, r.priority, r.hidden, r.invisible,
                 r.sort_field, r.sort_order, r.path_string.count("/"))
                for r in rows
            ],
            "content": sorted(
                (item[m["id"]], m["content_type_id"], m["section_id"], m["owner_id"], m["main_language_code"],
                 m["always_available"], m["status"], m["is_hidden"], m["current_version_no"],
                 m["version_counter"], rank.get(m["main_location_id"], m["main_location_id"]), m["revision"],
                 m["name_key"], m["published"] is not None)
                for m in info
            ),
            "versions": of(content_versions, "id", "created", "modified"),
            "fields": of(content_fields, "id"),
            "index": of(field_index),
            "text": of(search_text),
            "relations": sorted(
                (item[m["source_content_id"]], m["source_version_no"], m["destination_content_id"], m["type"],
                 m["source_field_definition_id"])
                for m in relation_rows
            ),
            "aliases": sorted(
                (nodes.get(a["parent"], -1), a["text"], rank[a["location_id"]], a["is_original"],
                 a["is_custom"], a["forward"], a["always_available"], a["language_codes"])
                for a in alias_rows
            ),
        }  # fmt: skip


def test_a_bulk_copy_stores_what_copying_item_by_item_stores(
    db_api: Api, engine: Engine, tmp_path: Path
) -> None:
    top, hidden = build(db_api)
    locations_service = service(engine, tmp_path)
    locations_service.update(ADMIN, hidden, LocationUpdate(hidden=True), None)
    first, second = folder_at(db_api, "Bulk copies"), folder_at(db_api, "Copies item by item")
    bulk = locations_service.copy(ADMIN, top, first)
    store = SqlStore(engine)
    with store.write("shared") as tx:
        originals = tx.locations.subtree(f"/{top}/")
        parent = tx.locations.get(int(second.rsplit("/", 1)[1]), UNRESTRICTED)
        assert parent is not None
        moment = datetime.now(UTC).replace(microsecond=0)
        each = LocationService._copy_each(tx, ADMIN, originals, parent, moment)
    copied, reference = dump(engine, bulk.id), dump(engine, each.id)
    assert len(copied["locations"]) == 10 and len(copied["relations"]) == 1
    assert copied == reference
    assert copied["fields"] and copied["index"] and copied["text"]
    texts = sorted(a[1] for a in copied["aliases"])
    assert texts.count("Same") == 1 and "Same2" in texts


def test_a_bulk_copy_is_the_same_number_of_statements_for_3_and_30_items(
    db_api: Api, engine: Engine, tmp_path: Path
) -> None:
    small = folder_at(db_api, "Small")
    for name in ("One", "Two"):
        folder_at(db_api, name, small)
    large = folder_at(db_api, "Large")
    for i in range(29):
        folder_at(db_api, f"Item {i % 5}", large)
    locations_service = service(engine, tmp_path)
    locations_service.copy(ADMIN, small, "1/43")  # fills the process caches
    counts = []
    for path in (small, large):
        destination = folder_at(db_api, f"Copies of {path}")
        with StatementCounter() as counter:
            locations_service.copy(ADMIN, path, destination)
        counts.append(counter.count)
    assert counts == [COPY_STATEMENTS] * 2


# Restoring a trashed subtree: the item and its permission checks, the subtree put back (four statements),
# visibility, the subtree and its items read once, the top's aliases beside its siblings, the others in
# one statement, the location read back and the event.
RESTORE_STATEMENTS = 24


def aliases_below(engine: Engine, top: str) -> list[tuple[str, str, bool, str]]:
    """(location path, text, current, languages) of every alias entry of the subtree at ``top``."""
    with transaction(engine, write=False) as c:
        found = c.execute(
            select(
                locations.c.path_string,
                url_aliases.c.text,
                url_aliases.c.is_original,
                url_aliases.c.language_codes,
            )
            .join(url_aliases, url_aliases.c.location_id == locations.c.id)
            .where(locations.c.path_string.startswith(f"/{top}/"))
        )
        return sorted((r[0], r[1], bool(r[2]), r[3]) for r in found)


def test_a_restored_subtree_gets_its_aliases_back_in_the_same_number_of_statements_for_3_and_30(
    db_api: Api, engine: Engine, tmp_path: Path
) -> None:
    trees = []
    for size, stem in ((3, "Small"), (30, "Large")):
        top = folder_at(db_api, f"{stem} restored")
        below = [folder_at(db_api, f"Child {i % 4}", top) for i in range(min(size - 1, 9))]
        for i in range(size - 1 - len(below)):
            folder_at(db_api, f"Grandchild {i % 3}", below[i % len(below)])
        trees.append(top)
    locations_service = service(engine, tmp_path)
    bin_ = TrashService(
        locations_service.store, locations_service.permissions, locations_service, locations_service.files
    )
    warm = folder_at(db_api, "Warm restored")
    folder_at(db_api, "Warm child", warm)
    bin_.trash(ADMIN, warm)
    bin_.restore(ADMIN, int(warm.rsplit("/", 1)[1]), None)  # fills the process caches
    counts = []
    for top in trees:
        before = aliases_below(engine, top)
        assert len({path for path, *_ in before}) in (3, 30)
        bin_.trash(ADMIN, top)
        assert aliases_below(engine, top) == []
        with StatementCounter() as counter:
            bin_.restore(ADMIN, int(top.rsplit("/", 1)[1]), None)
        counts.append(counter.count)
        assert aliases_below(engine, top) == [entry for entry in before if entry[2]]
    assert counts == [RESTORE_STATEMENTS] * 2
