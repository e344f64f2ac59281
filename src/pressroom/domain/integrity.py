"""What ``pressroom check`` reports: damage a crash or a bug could leave behind."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One inconsistency: ``kind`` names the rule broken (stable, for scripts), ``message`` the rows."""

    kind: str
    message: str


@dataclass(frozen=True, slots=True)
class IntegrityReport:
    """The problems found, and how much was looked at (``checked``: what -> count)."""

    problems: tuple[Problem, ...]
    checked: tuple[tuple[str, int], ...]

    @property
    def ok(self) -> bool:
        return not self.problems
