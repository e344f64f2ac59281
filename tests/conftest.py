"""Shared fixtures: fresh databases (SQLite and PostgreSQL), an in-process client, a real server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from pathlib import Path

import boto3
import httpx
import pytest
from moto.server import ThreadedMotoServer
from sqlalchemy import Engine, create_engine, text
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import Settings
from pressroom.domain import passwords
from pressroom.storage.sql.engine import make_engine
from pressroom.storage.sql.install import initialise
from pressroom.storage.sql.store import SqlStore
from tests.helpers import Api, RememberingHasher, ScratchPostgres

POSTGRES_URL = os.environ.get("PRESSROOM_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REQUIRE_POSTGRES = os.environ.get("PRESSROOM_TEST_REQUIRE_POSTGRES") == "1"


def _postgres_reachable() -> bool:
    try:
        engine = create_engine(POSTGRES_URL.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        engine.dispose()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def postgres_available() -> bool:
    reachable = _postgres_reachable()
    if not reachable and REQUIRE_POSTGRES:
        pytest.fail(f"PostgreSQL is required but not reachable at {POSTGRES_URL}")
    return reachable


@pytest.fixture(scope="session")
def postgres_databases(postgres_available: bool) -> Iterator[ScratchPostgres]:
    """Makes and drops the session's PostgreSQL databases; the session ends once all are dropped."""
    if not postgres_available:
        pytest.skip("PostgreSQL not reachable (set PRESSROOM_TEST_REQUIRE_POSTGRES=1 to make this fail)")
    databases = ScratchPostgres(POSTGRES_URL)
    try:
        yield databases
    finally:
        databases.close()


@pytest.fixture
def postgres_url(postgres_databases: ScratchPostgres) -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test, dropped afterwards."""
    with postgres_databases.database("pressroom_test") as url:
        yield url


@pytest.fixture(scope="session")
def postgres_template(postgres_databases: ScratchPostgres) -> Iterator[str]:
    """The name of a PostgreSQL database holding the clean install, made once per test session (per
    xdist worker) and dropped at its end: tests get copies of it (CREATE DATABASE ... TEMPLATE), which
    cost a fraction of installing (the schema, the data set and an argon2 hash)."""
    with postgres_databases.database("pressroom_template") as url:
        engine = make_engine(url)
        initialise(engine, "publish")
        engine.dispose()  # PostgreSQL refuses to copy a database anyone is connected to
        yield url.rpartition("/")[2]


@pytest.fixture(scope="session")
def installed_postgres(
    postgres_databases: ScratchPostgres, postgres_template: str
) -> Callable[[], AbstractContextManager[str]]:
    """Makes a fresh PostgreSQL database holding the clean install, dropped on leaving the context (for
    fixtures of a wider scope than a test)."""
    return partial(postgres_databases.database, "pressroom_test", template=postgres_template)


@pytest.fixture
def installed_postgres_url(installed_postgres: Callable[[], AbstractContextManager[str]]) -> Iterator[str]:
    """A fresh PostgreSQL database holding the clean install, for one test; dropped afterwards."""
    with installed_postgres() as url:
        yield url


@pytest.fixture(scope="session", autouse=True)
def remembered_password_checks() -> Iterator[None]:
    """Repeated logins with the same password and hash skip argon2 (:class:`RememberingHasher`)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(passwords, "_HASHER", RememberingHasher(passwords._HASHER))
        yield


@pytest.fixture(scope="session")
def template_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One initialised SQLite file per test session; tests copy it (initialising costs an argon2 hash)."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    engine = make_engine(f"sqlite:///{path}")
    initialise(engine, "publish")
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return path


@pytest.fixture
def sqlite_url(tmp_path: Path, template_sqlite: Path) -> str:
    target = tmp_path / "pressroom.db"
    shutil.copy(template_sqlite, target)
    return f"sqlite:///{target}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An initialised database of each kind: storage tests run the same assertions on both."""
    if request.param == "sqlite":
        return str(request.getfixturevalue("sqlite_url"))
    return str(request.getfixturevalue("installed_postgres_url"))


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine over each kind of database (storage tests)."""
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def store(engine: Engine) -> SqlStore:
    """The SQL store over each kind of database (storage tests)."""
    return SqlStore(engine)


def make_settings(database_url: str, tmp_path: Path, **overrides: object) -> Settings:
    return Settings(database_url=database_url, file_root=tmp_path / "files", **overrides)  # type: ignore[arg-type]


@pytest.fixture
def settings(sqlite_url: str, tmp_path: Path) -> Settings:
    return make_settings(sqlite_url, tmp_path)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings), base_url="http://testserver") as test_client:
        yield test_client


@pytest.fixture
def api(client: TestClient) -> Api:
    """The in-process client, authenticated as admin with Basic, speaking JSON."""
    return Api(client)


@pytest.fixture
def db_api(database_url: str, tmp_path: Path) -> Iterator[Api]:
    """:func:`api` over each kind of database: for behaviour that depends on the database."""
    with TestClient(
        create_app(make_settings(database_url, tmp_path)), base_url="http://testserver"
    ) as client:
        yield Api(client)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spawn_server(
    root: Path, database_url: str | None = None, *, workers: int = 1, log: Path | None = None,
    **env_overrides: str,
) -> tuple[subprocess.Popen[bytes], str]:  # fmt: skip
    """Start ``pressroom serve`` (Granian) on a free port in its own process group, so that a test can
    signal the server and its workers together; wait until it answers. ``database_url`` defaults to a
    fresh SQLite file in ``root``; files go under ``root / "files"``; its output goes to ``log`` if given."""
    port = free_port()
    env = dict(os.environ)
    env.update(
        PRESSROOM_DATABASE_URL=database_url or f"sqlite:///{root / 'live.db'}",
        PRESSROOM_FILE_ROOT=str(root / "files"),
    )
    env.update(env_overrides)
    with open(log or os.devnull, "ab") as output:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(
            [sys.executable, "-m", "pressroom.cli", "serve", "--port", str(port), "--workers", str(workers)],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60  # a loaded machine starts two workers slowly
    while True:
        try:
            httpx.get(base + "/api/ibexa/v2/", timeout=1)
            return process, base
        except httpx.TransportError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)


@contextmanager
def running_server(root: Path, log: Path | None = None, **env_overrides: str) -> Iterator[str]:
    """A real Granian server (``pressroom serve``) on a free port over a fresh SQLite file in ``root``,
    with ``PRESSROOM_*`` overrides (its output in ``log``); yields its base URL and stops it afterwards."""
    process, base = spawn_server(root, None, workers=1, log=log, **env_overrides)
    try:
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Granian server on a free port over a fresh SQLite file; yields its base URL."""
    with running_server(tmp_path_factory.mktemp("live")) as base:
        yield base


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    """A real S3 API on 127.0.0.1, with throwaway credentials in the environment."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ.setdefault(name, "testing")
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


@pytest.fixture
def s3_url(s3_endpoint: str) -> str:
    """A fresh bucket; the store keeps its files under a prefix in it."""
    bucket = f"pressroom-{uuid.uuid4().hex[:12]}"
    boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1").create_bucket(Bucket=bucket)
    return f"s3://{bucket}/files?endpoint={s3_endpoint}"
