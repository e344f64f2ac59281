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


def _rest_unit(path: Path) -> str:
    """A module's place in the rest layer's import graph: a folder below rest/ (``rest/input``) counts as
    one unit, a module directly in rest/ (``rest/request.py``) as its own."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return "/".join(parts[:2])


def _rest_graph() -> dict[str, set[str]]:
    """unit -> the units it imports, for every module of rest/."""
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / "rest").rglob("*.py")):
        source = _rest_unit(path)
        targets = graph.setdefault(source, set())
        for _, module in _imports(path):
            parts = module.split(".")[1:]
            if parts[:1] != ["rest"] or len(parts) < 2:
                continue
            target = "/".join(parts[:2])
            if target != source:
                targets.add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of units that import each other (directly or around a loop), each sorted."""
    reach: dict[str, set[str]] = {}
    for start, targets in graph.items():
        seen: set[str] = set()
        todo = list(targets)
        while todo:
            unit = todo.pop()
            if unit not in seen:
                seen.add(unit)
                todo.extend(graph.get(unit, ()))
        reach[start] = seen
    groups = {tuple(sorted(u for u in reach[a] if a in reach[u])) for a in graph if a in reach[a]}
    return sorted(list(group) for group in groups)


def test_no_import_cycle_between_rest_folders() -> None:
    """rest/request.py asks the parser registry (rest/input/registry.py) to decode a body; the parsers
    never climb back into the request, and no folder of rest/ loops with a module or folder beside it."""
    assert _cycles(_rest_graph()) == []


def test_the_cycle_check_sees_a_loop() -> None:
    graph = {
        "rest/request": {"rest/input"},
        "rest/input": {"rest/media", "rest/request"},
        "rest/media": set(),
    }
    assert _cycles(graph) == [["rest/input", "rest/request"]]
