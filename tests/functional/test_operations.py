"""Health, readiness, metrics, request ids and the access log (the operator's side of the server)."""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pressroom.app import create_app
from pressroom.config import Settings
from pressroom.logs import JsonFormatter
from pressroom.metrics import METHODS
from pressroom.rest.routes import build_router
from tests.helpers import PREFIX, Api, media


def test_health_needs_no_login_and_no_database(client: TestClient) -> None:
    response = client.get("/health")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})
    assert response.headers["content-type"] == "application/json"
    assert response.headers["cache-control"] == "no-store"


def test_ready_when_the_database_answers(client: TestClient) -> None:
    response = client.get("/health/ready")
    assert (response.status_code, response.json()) == (200, {"status": "ready"})


def test_not_ready_without_an_installed_database(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'empty.db'}", file_root=tmp_path / "files", secret_key="k" * 32
    )
    with TestClient(create_app(settings, initialise_empty=False)) as client:
        response = client.get("/health/ready")
        assert response.status_code == 503
        assert response.headers["retry-after"] == "5"
        assert response.json()["status"] == "unavailable"
        assert client.get("/health").status_code == 200  # alive, only not ready


def test_request_id_is_passed_through_or_made(api: Api) -> None:
    given = api.get("/", accept=media("Root"), headers={"X-Request-Id": "abc-123"})
    assert given.headers["x-request-id"] == "abc-123"
    made = api.get("/", accept=media("Root"))
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["x-request-id"])
    hostile = api.get("/", accept=media("Root"), headers={"X-Request-Id": "a b<" * 80})
    assert hostile.headers["x-request-id"] != "a b<" * 80
    error = api.get("/content/objects/999999", accept=media("Content"), headers={"X-Request-Id": "r-404"})
    assert (error.status_code, error.headers["x-request-id"]) == (404, "r-404")


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample in Prometheus text (0 when absent)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith(name + "{" if labels else name + " "):
            sample, _, value = line.rpartition(" ")
            got = sample[len(name) :].strip("{}")
            if ",".join(sorted(got.split(","))) == wanted or not labels:
                return float(value)
    return 0.0


def test_metrics_count_requests_by_route_and_status_and_sql_statements(api: Api, client: TestClient) -> None:
    before = client.get("/metrics").text
    assert api.get("/content/sections/1", accept=media("Section")).status_code == 200
    assert api.get("/content/sections/999", accept=media("Section")).status_code == 404
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    after = response.text
    for status in ("200", "404"):
        labels = {"route": "section.load", "method": "GET", "status": status}
        assert (
            metric(after, "pressroom_requests_total", **labels)
            == metric(before, "pressroom_requests_total", **labels) + 1
        )
    assert metric(after, "pressroom_sql_statements_total") > metric(before, "pressroom_sql_statements_total")
    assert 'pressroom_request_duration_seconds_bucket{le="0.005",route="section.load"}' in after


def series(text: str) -> set[str]:
    """The names and labels of every pressroom sample in Prometheus text."""
    return {line.rpartition(" ")[0] for line in text.splitlines() if line.startswith("pressroom_")}


def test_invented_methods_and_paths_add_no_series(client: TestClient) -> None:
    """Issue 23: each invented method was a new label value, kept for the life of the worker (100k
    anonymous requests: 77 MB more, a 2 s scrape). Unknown methods share ``other``, paths the routes."""

    def invented(index: int) -> None:
        client.request(f"BREW{index}", f"{PREFIX}/content/sections")  # a route, not this method: 405
        client.request(f"X-{index}", f"{PREFIX}/no/such/{index}")
        client.get(f"{PREFIX}/no/such/{index}")
        client.get(f"/elsewhere/{index}")

    invented(0)
    before = client.get("/metrics").text
    for index in range(1, 51):
        invented(index)
    after = client.get("/metrics").text
    assert series(after) == series(before)
    labels = {"route": "unmatched", "method": "other", "status": "405"}
    assert (
        metric(after, "pressroom_requests_total", **labels)
        == metric(before, "pressroom_requests_total", **labels) + 50
    )


def test_every_method_of_the_routes_keeps_its_own_label() -> None:
    router = build_router()
    assert {method for route in router.routes for method in route.methods} <= METHODS


def test_access_log_is_one_json_line_per_request(
    tmp_path: Path, sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(database_url=sqlite_url, file_root=tmp_path / "files", access_log=True)
    with TestClient(create_app(settings)) as client, caplog.at_level(logging.INFO, "pressroom.access"):
        Api(client).get("/content/sections/2", accept=media("Section"), headers={"X-Request-Id": "req-7"})
    (record,) = [r for r in caplog.records if r.name == "pressroom.access"]
    line = json.loads(JsonFormatter().format(record))
    assert line["request_id"] == "req-7"
    assert (line["method"], line["path"], line["route"]) == (
        "GET",
        f"{PREFIX}/content/sections/2",
        "section.load",
    )
    assert (line["status"], line["user_id"]) == (200, 14)
    assert line["duration_ms"] >= 0 and line["level"] == "info" and line["logger"] == "pressroom.access"


def test_error_log_lines_carry_the_exception_type_and_trace() -> None:
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record = logging.LogRecord(
            "pressroom.rest", logging.ERROR, __file__, 1, "unhandled", None, sys.exc_info()
        )
    line = json.loads(JsonFormatter().format(record))
    assert line["error"] == "RuntimeError" and "Traceback" in line["trace"]


def test_metrics_add_up_over_several_worker_processes(tmp_path: Path) -> None:
    """Two Granian workers over a real socket: /metrics sums what each worker process counted."""
    import httpx

    from tests.conftest import running_server

    with running_server(tmp_path, PRESSROOM_WORKERS="2") as base, httpx.Client(base_url=base) as client:
        for _ in range(80):
            assert client.get("/health", headers={"Connection": "close"}).status_code == 200
        text = client.get("/metrics").text
    # 80 health answers, whichever worker gave each (a new connection each time)
    assert (
        metric(text, "pressroom_requests_total", route="operations.health", method="GET", status="200") == 80
    )


def test_not_ready_while_the_schema_is_behind(tmp_path: Path, sqlite_url: str) -> None:
    from sqlalchemy import text

    from pressroom.storage.sql.engine import make_engine

    engine = make_engine(sqlite_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'older'"))
    engine.dispose()
    settings = Settings(database_url=sqlite_url, file_root=tmp_path / "files")
    with TestClient(create_app(settings)) as client:
        assert client.get("/health/ready").status_code == 503
