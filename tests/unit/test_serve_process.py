"""The server's main process holds Granian, the settings and logging, not the application (its workers
import that): ``pressroom serve`` replaces itself with ``python -m pressroom.serve`` once the database is
ready."""

from __future__ import annotations

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
