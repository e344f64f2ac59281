"""Network round trips of the hot reads on PostgreSQL, counted on the wire (issue 29, goal 2).

The statement counts of test_caches see what goes through SQLAlchemy; a proxy between the application and
PostgreSQL (tests/pg_wire.py) also sees what the driver and the pool send on their own: BEGIN, ROLLBACK,
COMMIT, a pool's reset on return, a server-side PREPARE. A warm content GET or section GET is one round
trip (its one statement confirms the caller and carries the cache epoch); reads send no BEGIN or ROLLBACK;
a write still begins and commits; no connection is left idle in a transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from tests.conftest import make_settings
from tests.functional.content_support import content_create, field, post_content, published_folder
from tests.functional.tree_support import folder_at
from tests.helpers import Api, StatementCounter, media
from tests.pg_wire import Exchange, WireProxy

WARM_UP = 7  # psycopg prepares a statement server-side on its 5th run (its own round trip, once)


@pytest.fixture
def proxied(installed_postgres_url: str, tmp_path: Path) -> Iterator[tuple[Api, WireProxy, str]]:
    """The application over a fresh PostgreSQL database through the recording proxy, as admin; the
    dispatcher is off so that only requests talk to the database."""
    upstream = urlsplit(installed_postgres_url)
    proxy = WireProxy((upstream.hostname or "127.0.0.1", upstream.port or 5432))
    settings = make_settings(proxy.url(installed_postgres_url), tmp_path, events_dispatch=False)
    try:
        with TestClient(create_app(settings)) as client:
            yield Api(client), proxy, installed_postgres_url
    finally:
        proxy.close()


def warm_get(api: Api, proxy: WireProxy, path: str, accept: str) -> tuple[Exchange, StatementCounter]:
    """What one GET of ``path`` sends once the caches and the server-side prepared statements are warm."""
    for _ in range(WARM_UP):
        assert api.get(path, accept=accept).status_code == 200
    with StatementCounter() as statements, proxy.recording() as exchange:
        response = api.get(path, accept=accept)
    assert response.status_code == 200, response.text
    return exchange, statements


def idle_in_transaction(database_url: str) -> int:
    name = urlsplit(database_url).path.lstrip("/")
    with psycopg.connect(database_url, autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND state LIKE 'idle in transaction%%'",
            (name,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_warm_content_or_section_get_is_one_round_trip(proxied: tuple[Api, WireProxy, str]) -> None:
    api, proxy, database_url = proxied
    item = published_folder(api, "Over the wire")["_id"]
    anonymous = Api(api.client, auth=None)
    for reader in (api, anonymous):
        for accept in (media("Content"), media("Content", "xml")):
            exchange, statements = warm_get(reader, proxy, f"/content/objects/{item}", accept)
            # the item with the caller's account, grants and the cache epoch: nothing else on the wire
            assert exchange.round_trips == 1, str(exchange)
            assert exchange.simple_queries == [], str(exchange)  # no BEGIN, ROLLBACK or reset
            assert statements.count == 1, statements.statements
    exchange, statements = warm_get(api, proxy, "/content/sections/1", media("Section"))
    # the caller, its grants and the epoch; the section is cached
    assert exchange.round_trips == 1, str(exchange)
    assert exchange.simple_queries == [], str(exchange)
    assert statements.count == 1, statements.statements
    assert idle_in_transaction(database_url) == 0


def test_a_warm_children_page_round_trips(proxied: tuple[Api, WireProxy, str]) -> None:
    """A children page runs its statements one after the other, each its own round trip (the page
    depends on the parent's sort and the caller's grants), and none besides them."""
    api, proxy, database_url = proxied
    top = folder_at(api, "Parent")
    for n in range(3):
        folder_at(api, f"Child {n}", top)
    for accept in (media("LocationList"), media("Locations")):
        exchange, statements = warm_get(api, proxy, f"/content/locations/{top}/children", accept)
        assert exchange.simple_queries == [], str(exchange)
        assert exchange.round_trips == statements.count, (str(exchange), statements.statements)
    # the caller's grants, account and the cache epoch; the parent; its item; the page of children with
    # their child counts; (Locations only) their content infos
    refs, _ = warm_get(api, proxy, f"/content/locations/{top}/children", media("LocationList"))
    whole, _ = warm_get(api, proxy, f"/content/locations/{top}/children", media("Locations"))
    assert (refs.round_trips, whole.round_trips) == (CHILDREN_REFS, CHILDREN_WHOLE)
    assert idle_in_transaction(database_url) == 0


CHILDREN_REFS, CHILDREN_WHOLE = 5, 6


def test_a_write_still_begins_and_commits(proxied: tuple[Api, WireProxy, str]) -> None:
    """Writes are transactions: BEGIN (with the tree lock when the write asks for it) and COMMIT."""
    api, proxy, database_url = proxied
    published_folder(api, "Warm-up")
    with proxy.recording() as exchange:
        created = post_content(api, content_create([field("name", "Written")]))
    assert created.status_code == 201, created.text
    simple = exchange.simple_queries
    assert simple[0].startswith("BEGIN"), simple
    assert simple[-1] == "COMMIT", simple
    with proxy.recording() as exchange:
        placed = folder_at(api, "Placed")  # the publish adds a location: the shared tree lock
    assert placed
    assert any("pg_advisory_xact_lock_shared" in query for query in exchange.simple_queries), str(exchange)
    assert idle_in_transaction(database_url) == 0
