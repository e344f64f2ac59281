"""The database going away or staying locked mid-request: a 503 ErrorMessage with Retry-After, nothing
written, and the next request served again without a restart."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, literal, or_, select, text
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.domain.errors import BadRequest, Unavailable
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.store import SqlStore
from tests.conftest import make_settings
from tests.helpers import Api, kill_connections, media

SECTIONS = "/content/sections"


def section_input(identifier: str) -> dict[str, object]:
    return {"SectionInput": {"identifier": identifier, "name": identifier}}


def create_section(api: Api, identifier: str) -> httpx.Response:
    return api.post(
        SECTIONS,
        body=section_input(identifier),
        content_type=media("SectionInput"),
        accept=media("Section"),
    )


def section_exists(api: Api, identifier: str) -> bool:
    response = api.get(f"{SECTIONS}?identifier={identifier}", accept=media("SectionList"))
    return response.status_code == 200


def assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503
    assert int(response.headers["retry-after"]) > 0
    assert response.headers["content-type"] == media("ErrorMessage")
    body = response.json()["ErrorMessage"]
    assert body["errorCode"] == 503
    assert body["errorMessage"] == "Service Unavailable"
    assert "unavailable" in body["errorDescription"]
    for internal in ("sqlite", "psycopg", "Traceback", "SELECT", "INSERT"):
        assert internal not in body["errorDescription"]


@pytest.fixture
def quick_lock_api(sqlite_url: str, tmp_path: Path) -> Iterator[Api]:
    settings = make_settings(sqlite_url, tmp_path, sqlite_busy_timeout_ms=200)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        yield Api(client)


def test_a_sqlite_write_locked_past_the_busy_timeout_is_503_and_writes_nothing(
    quick_lock_api: Api, sqlite_url: str
) -> None:
    holder = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        assert_unavailable(create_section(quick_lock_api, "locked_out"))
        assert quick_lock_api.get(SECTIONS, accept=media("SectionList")).status_code == 200  # reads go on
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not section_exists(quick_lock_api, "locked_out")
    assert create_section(quick_lock_api, "after_the_lock").status_code == 201


@pytest.fixture
def postgres_app(installed_postgres_url: str, tmp_path: Path) -> Iterator[tuple[Api, str]]:
    with TestClient(
        create_app(make_settings(installed_postgres_url, tmp_path)), base_url="http://testserver"
    ) as client:
        yield Api(client), installed_postgres_url


@pytest.mark.parametrize("write", [False, True])
def test_killed_postgres_connections_give_one_503_then_the_server_reconnects(
    postgres_app: tuple[Api, str], write: bool
) -> None:
    api, url = postgres_app
    assert create_section(api, "before").status_code == 201  # the pool now holds live connections
    assert kill_connections(url) >= 1
    if write:
        assert_unavailable(create_section(api, "during"))
    else:
        assert_unavailable(api.get(SECTIONS, accept=media("SectionList")))
    assert api.get(SECTIONS, accept=media("SectionList")).status_code == 200
    assert create_section(api, "after").status_code == 201
    assert not section_exists(api, "during")
    assert section_exists(api, "before") and section_exists(api, "after")


def test_an_unreachable_postgres_server_is_503_not_a_hang(tmp_path: Path) -> None:
    port_nobody_listens_on = 9  # discard: refused at once on loopback
    url = f"postgresql://postgres@127.0.0.1:{port_nobody_listens_on}/none"
    settings = make_settings(url, tmp_path, secret_key="not-read-from-the-database")
    with TestClient(create_app(settings, initialise_empty=False), base_url="http://testserver") as client:
        assert_unavailable(Api(client).get(SECTIONS, accept=media("SectionList")))


def test_a_write_that_begins_on_a_killed_postgres_connection_is_503_and_the_next_one_reconnects(
    postgres_url: str,
) -> None:
    """A write's BEGIN goes to the driver from SQLAlchemy's "begin" event (storage/sql/engine.py): a
    dead connection there is an Unavailable, as anywhere else, not a driver error surfacing as a 500."""
    engine = make_engine(postgres_url)
    store = SqlStore(engine)
    try:
        with store.write() as tx:  # the pool now holds a live connection
            tx.connection.execute(text("SELECT 1"))
        assert kill_connections(postgres_url) >= 1
        with pytest.raises(Unavailable), store.write() as tx:
            tx.connection.execute(text("SELECT 1"))
        with store.write() as tx:
            assert tx.connection.execute(text("SELECT 1")).scalar_one() == 1
    finally:
        engine.dispose()


def test_a_statement_past_a_database_limit_is_a_400_not_a_retry(engine: Engine) -> None:
    """A statement the database refuses for its size (SQLite returns at most 2,000 columns, PostgreSQL
    1,664) fails however often it is retried: a 400 saying the query is too complex, not the 503 that
    tells the client to retry."""
    wide = select(*(literal(number).label(f"c{number}") for number in range(2_001)))
    with pytest.raises(BadRequest, match="too complex"), SqlStore(engine).read() as tx:
        tx.connection.execute(wide)


def test_an_expression_too_deep_for_sqlite_is_a_400_not_a_retry(sqlite_url: str) -> None:
    """SQLite parses ``a OR b OR ...`` one level per term and refuses 1,000 levels."""
    engine = make_engine(sqlite_url)
    deep = select(literal(1)).where(or_(*(literal(number) == 0 for number in range(1_100))))
    try:
        with pytest.raises(BadRequest, match="too complex"), SqlStore(engine).read() as tx:
            tx.connection.execute(deep)
    finally:
        engine.dispose()
