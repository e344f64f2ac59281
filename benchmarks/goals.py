"""The goal tables of the benchmarks: each goal with the figure of a saved baseline ("before", a JSON file
written by an earlier run, from the code before the change, on the same machine within the hour) and the
figure measured now ("after").

A baseline file is ``{"measured": "<when>", "figures": {"<database>": {"<figure>": {...}}}}``; what a
figure holds is the benchmark's own (a dataclass written with ``asdict``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Figures = dict[str, dict[str, dict[str, Any]]]


@dataclass(frozen=True)
class Goal:
    name: str
    value: float
    text: str  # the figure as printed
    goal: str
    met: bool


def at_least(name: str, value: float, goal: float, text: str) -> Goal:
    return Goal(name, value, text, f">= {goal:g}", value >= goal)


def at_most(name: str, value: float, goal: float, text: str) -> Goal:
    return Goal(name, value, text, f"<= {goal:g}", value <= goal)


def below(name: str, value: float, goal: float, text: str) -> Goal:
    return Goal(name, value, text, f"< {goal:g}", value < goal)


def now() -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def save_figures(path: Path, measured: str, figures: Figures) -> None:
    path.write_text(json.dumps({"measured": measured, "figures": figures}, indent=1) + "\n")


def load_figures(path: Path) -> tuple[str, Figures]:
    """When and what :func:`save_figures` wrote."""
    saved = json.loads(path.read_text())
    return saved["measured"], saved["figures"]


def print_goals(table: list[tuple[str, Goal]], baseline: Path | None, measured: str) -> None:
    """The table ``database, goal, before, after, met`` (before from ``baseline``, when given)."""
    before: Figures = {}
    if baseline is not None:
        measured_at, before = load_figures(baseline)
        print(f"\nbefore: {baseline} (measured {measured_at}); after: measured {measured}")
    print(f"\n{'database':10} {'goal':52} {'before':>9} {'after':>9}  met")
    for backend, goal in table:
        old = before.get(backend, {}).get(goal.name)
        label = f"{goal.name} {goal.goal}"
        print(
            f"{backend:10} {label:52} {old['text'] if old else '-':>9} {goal.text:>9}  "
            f"{'yes' if goal.met else 'NO'}"
        )


def goal_figures(table: list[tuple[str, Goal]]) -> Figures:
    """The figures of a goal table, as a baseline file keeps them."""
    figures: Figures = {}
    for backend, goal in table:
        figures.setdefault(backend, {})[goal.name] = {"value": goal.value, "text": goal.text}
    return figures
