"""The layer order, enforced: app/cli -> rest -> services -> storage -> domain, each importing only below it.

Top-level modules have a place too: ``safexml`` is a leaf every layer may use; ``metrics`` and ``progress``
(counters and progress reports, no imports of ours) sit with storage; ``config`` and ``logs`` just below
``rest``; ``app``/``cli`` at the top. A module imported lazily (inside a function) counts the same: the
order is about what depends on what.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pressroom

ROOT = Path(pressroom.__file__).parent
RANKS = {
    "safexml": 0,
    "domain": 1,
    "storage": 2,
    "metrics": 2,
    "progress": 2,
    "services": 3,
    "config": 4,
    "logs": 4,
    "rest": 5,
    "app": 6,
    "cli": 7,
    "serve": 7,
    "__init__": 0,
}


def _unit(parts: tuple[str, ...]) -> str:
    """The layer a module path below ``pressroom`` belongs to (``rest/input/node.py`` -> ``rest``)."""
    return parts[0].removesuffix(".py")


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    ours = [(line, module) for line, module in found if module.split(".")[0] == "pressroom"]
    return ours


def test_every_module_has_a_layer() -> None:
    units = {_unit(path.relative_to(ROOT).parts) for path in ROOT.rglob("*.py")}
    assert units <= set(RANKS), f"modules without a layer: {sorted(units - set(RANKS))}"


def test_no_module_imports_a_layer_above_its_own() -> None:
    upward = []
    for path in sorted(ROOT.rglob("*.py")):
        source = _unit(path.relative_to(ROOT).parts)
        for line, module in _imports(path):
            parts = module.split(".")[1:]
            if not parts:
                continue  # ``from pressroom import __version__``: the package itself is a leaf
            target = parts[0]
            if target in RANKS and RANKS[target] > RANKS[source]:
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert upward == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The rule is not vacuous: a storage module importing a service is caught."""
    module = tmp_path / "bad.py"
    module.write_text("from pressroom.services.section import SectionService\n", encoding="utf-8")
    [(line, imported)] = _imports(module)
    assert (line, imported) == (1, "pressroom.services.section")
    assert RANKS[imported.split(".")[1]] > RANKS["storage"]
