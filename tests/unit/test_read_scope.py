"""Read filtering cannot be forgotten (issue 24 item 2), checked over the source: no function of the
storage or services layers takes a read scope (``readable``) that may be left out or be None, and each
storage method that returns other items, locations or relations takes one."""

from __future__ import annotations

import ast
from pathlib import Path

import pressroom

ROOT = Path(pressroom.__file__).parent
# The gateway methods that answer with items, locations or relations a reader may not be allowed to see.
FILTERED = {
    "ContentGateway": {"existing_ids"},
    "RelationGateway": {"list", "list_of", "get"},
    "LocationGateway": {"get", "get_many", "of_content", "children"},
    "BookmarkGateway": {"count", "page"},
    "TrashGateway": {"list", "get"},
    "EventGateway": {"read"},
}


def _functions(path: Path) -> list[ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]


def _defaults(function: ast.FunctionDef) -> dict[str, ast.expr | None]:
    """Each parameter with its default (None when it has none)."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    padded: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + [*args.defaults]
    found = {arg.arg: default for arg, default in zip(positional, padded, strict=True)}
    found.update({arg.arg: default for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True)})
    return found


def _annotation(function: ast.FunctionDef, name: str) -> str:
    args = function.args
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        if arg.arg == name:
            return ast.unparse(arg.annotation) if arg.annotation is not None else ""
    raise KeyError(name)


def test_no_read_scope_is_optional() -> None:
    optional = []
    for layer in ("storage", "services"):
        for path in sorted((ROOT / layer).rglob("*.py")):
            for function in _functions(path):
                defaults = _defaults(function)
                if "readable" not in defaults:
                    continue
                where = f"{path.relative_to(ROOT)}:{function.lineno} {function.name}"
                if defaults["readable"] is not None:
                    optional.append(f"{where}: has a default")
                elif "None" in _annotation(function, "readable"):
                    optional.append(f"{where}: may be None")
    assert optional == []


def test_every_storage_method_returning_other_items_takes_a_read_scope() -> None:
    tree = ast.parse((ROOT / "storage" / "spi.py").read_text(encoding="utf-8"))
    protocols = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    missing = []
    for protocol, methods in FILTERED.items():
        defined = {node.name: node for node in protocols[protocol].body if isinstance(node, ast.FunctionDef)}
        for method in sorted(methods):
            function = defined[method]
            if "readable" not in _defaults(function) or _annotation(function, "readable") != "ReadScope":
                missing.append(f"{protocol}.{method}")
    assert missing == []


def test_the_caller_rides_no_context_variable() -> None:
    """The request's caller is passed (request -> service -> transaction), not read from a ContextVar."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted(ROOT.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Name | ast.Attribute)
        and (node.id if isinstance(node, ast.Name) else node.attr) == "ContextVar"
    ]
    assert found == []
