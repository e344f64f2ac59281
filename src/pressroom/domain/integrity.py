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

    def counts(self) -> dict[str, int]:
        """Problems per kind, most frequent first."""
        tally: dict[str, int] = {}
        for problem in self.problems:
            tally[problem.kind] = tally.get(problem.kind, 0) + 1
        return dict(sorted(tally.items(), key=lambda item: (-item[1], item[0])))

    def summary(self) -> dict[str, object]:
        """The report for monitoring (``check --json``): what was checked, counts per kind, every problem."""
        return {
            "ok": self.ok,
            "checked": dict(self.checked),
            "problems": len(self.problems),
            "by_kind": self.counts(),
            "details": [{"kind": problem.kind, "message": problem.message} for problem in self.problems],
        }
