"""The server's main process holds Granian, the settings and logging, not the application (its workers
import that): ``pressroom serve`` replaces itself with ``python -m pressroom.serve`` once the database is
ready."""

from __future__ import annotations

import os
import subprocess
import sys

import orjson

HEAVY = ("pressroom.app", "pressroom.rest", "pressroom.services", "pressroom.storage", "sqlalchemy", "lxml")


def _modules_after_import(module: str) -> list[str]:
    script = f"import sys, json, {module}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True, timeout=60)
    return [str(name) for name in orjson.loads(done.stdout)]


def test_the_main_process_module_loads_nothing_of_the_application() -> None:
    loaded = _modules_after_import("pressroom.serve")
    assert "granian.server" in loaded  # what it is there for
    assert [name for name in loaded if name.startswith(HEAVY)] == []


def test_the_cli_module_is_what_loads_the_application() -> None:
    """The contrast that keeps the test above honest: the command line module does load it."""
    assert "pressroom.app" in _modules_after_import("pressroom.cli")


def test_the_main_process_stays_small() -> None:
    """What the main process holds once its modules are loaded (the benchmark measures the running one):
    under 50 MB, as issue 29 asks."""
    script = (
        "import pressroom.serve; "
        "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmRSS:')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True, timeout=60)
    assert int(done.stdout) < 50 * 1024  # kB


def test_a_worker_limits_its_malloc_arenas() -> None:
    script = "import pressroom.serve as s; print(s.limit_malloc_arenas())"
    unset = {name: value for name, value in os.environ.items() if name != "MALLOC_ARENA_MAX"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, check=True, timeout=60, env=unset
    )
    assert done.stdout.strip() == b"True"  # glibc (Debian) accepts the limit
    chosen = subprocess.run(
        [sys.executable, "-c", "import pressroom.serve as s; print(s.limit_malloc_arenas())"],
        capture_output=True, check=True, timeout=60, env={**os.environ, "MALLOC_ARENA_MAX": "4"},
    )  # fmt: skip
    assert chosen.stdout.strip() == b"False"  # the operator's own setting stands
