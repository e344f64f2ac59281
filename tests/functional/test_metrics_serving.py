"""Where and to whom /metrics answers (issue 30 item 7), over a real server: a Bearer token, an address of
its own, every worker's process metrics, and no multiprocess directory left behind."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
import pytest

from pressroom.config import parse_address
from tests.conftest import free_port, spawn_server
from tests.functional.test_operations import metric

TOKEN = "s3cret-scraper-token"


def pids_of(text: str, name: str) -> set[str]:
    return set(re.findall(rf'^{name}\{{pid="(\d+)"\}} ', text, re.MULTILINE))


def test_a_token_guards_metrics_and_every_worker_shows_its_process_and_the_directory_goes(
    tmp_path: Path,
) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    process, base = spawn_server(tmp_path, workers=2, PRESSROOM_METRICS_TOKEN=TOKEN, TMPDIR=str(temp))
    try:
        with httpx.Client(base_url=base) as client:
            refused = client.get("/metrics")
            assert refused.status_code == 401
            assert refused.headers["www-authenticate"].startswith("Bearer")
            assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
            assert client.get("/metrics", headers={"Authorization": f"Basic {TOKEN}"}).status_code == 401
            # the first worker answers before the second has started on a loaded machine: wait for both
            deadline = time.monotonic() + 60
            while True:
                answered = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
                assert answered.status_code == 200
                workers = pids_of(answered.text, "process_resident_memory_bytes")
                if len(workers) == 2 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert "pressroom_requests_total" in answered.text
            assert len(workers) == 2 and str(process.pid) not in workers
            for name in ("process_cpu_seconds_total", "process_open_fds"):
                assert pids_of(answered.text, name) == workers
        directories = list(temp.glob("pressroom-metrics-*"))
        assert len(directories) == 1 and any(directories[0].iterdir())
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert not list(temp.glob("pressroom-metrics-*"))


def test_metrics_on_their_own_address_and_not_on_the_api_port(tmp_path: Path) -> None:
    port = free_port()
    process, base = spawn_server(
        tmp_path, PRESSROOM_METRICS_ADDRESS=f"127.0.0.1:{port}", PRESSROOM_METRICS_TOKEN=TOKEN
    )
    try:
        with httpx.Client(base_url=base) as client:
            for _ in range(3):
                assert client.get("/health").status_code == 200
            assert client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 404
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as scraper:
            assert scraper.get("/metrics").status_code == 401
            text = scraper.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
            assert scraper.get("/other", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 404
    finally:
        process.terminate()
        process.wait(timeout=15)
    # the worker's counts, summed by the main process; the worker's process metrics
    assert (
        metric(text, "pressroom_requests_total", route="operations.health", method="GET", status="200") == 3
    )
    assert len(pids_of(text, "process_resident_memory_bytes")) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [("127.0.0.1:9100", ("127.0.0.1", 9100)), ("[::1]:9100", ("::1", 9100)), (":9100", ("0.0.0.0", 9100))],  # noqa: S104
)
def test_metrics_address_forms(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["9100", "host:", "host:99999", "host:port"])
def test_a_bad_metrics_address_names_the_setting(text: str) -> None:
    with pytest.raises(ValueError, match="PRESSROOM_METRICS_ADDRESS"):
        parse_address(text)
