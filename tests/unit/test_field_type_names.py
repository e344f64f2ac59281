"""Services and storage ask a field type through its hooks (:mod:`pressroom.domain.fieldtypes.base`): they
never name a field type identifier nor import one type's module, so a new field type is its own file in
``domain/fieldtypes`` plus a line in its registry.

The seed data of a standard install (``storage/sql/seed_content_types.py``) is the one exception: its rows
are content types whose field definitions name their types, as a client creating them would.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pressroom
from pressroom.domain.fieldtypes.registry import all_field_types

ROOT = Path(pressroom.__file__).parent
SEED_DATA = {ROOT / "storage" / "sql" / "seed_content_types.py"}
NAMES = {name for field_type in all_field_types() for name in (field_type.identifier, *field_type.aliases)}
TYPE_MODULE_PREFIX = "pressroom.domain.fieldtypes.ez"


def _modules() -> list[Path]:
    return sorted(
        path
        for layer in ("services", "storage")
        for path in (ROOT / layer).rglob("*.py")
        if path not in SEED_DATA
    )


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"


def test_services_and_storage_name_no_field_type() -> None:
    named = [
        f"{_where(path, node)} {node.value!r}"
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES
    ]
    assert named == [], "field type identifiers outside domain/fieldtypes: ask the type through a hook"


def test_services_and_storage_import_no_field_type_module() -> None:
    imported = [
        f"{_where(path, node)} {node.module}"
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(TYPE_MODULE_PREFIX)
    ]
    assert imported == [], "one field type's module imported outside domain/fieldtypes"


def test_the_check_sees_identifiers() -> None:
    """The names checked are the registry's, aliases included (the test above cannot pass vacuously)."""
    assert {"ezimage", "ibexa_image", "ezuser", "ezselection", "ezcountry", "ezauthor"} <= NAMES
    assert len(_modules()) > 20
