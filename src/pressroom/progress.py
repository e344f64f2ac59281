"""Progress of long commands (``export``, ``import``), phase by phase: rows, the search index, file bytes.

On a terminal each phase is a tqdm bar; elsewhere (a service log, a pipe) a phase logs a line on the
``pressroom.progress`` logger at its start, at most one every ``interval`` seconds while it runs, and one
at its end. Library callers pass nothing and get no output.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

from tqdm import tqdm

log = logging.getLogger("pressroom.progress")

Advance = Callable[[int], None]


class Progress(Protocol):
    def phase(self, name: str, total: int | None, unit: str) -> AbstractContextManager[Advance]:
        """A phase of ``total`` units (None: unknown); the context gives the counter of done ones."""


class NoProgress:
    @contextmanager
    def phase(self, name: str, total: int | None, unit: str) -> Iterator[Advance]:
        yield lambda _amount: None


class BarProgress:
    """One tqdm bar a phase, on standard error."""

    @contextmanager
    def phase(self, name: str, total: int | None, unit: str) -> Iterator[Advance]:
        binary = unit == "B"
        with tqdm(total=total, desc=name, unit=unit, unit_scale=binary, unit_divisor=1024) as bar:
            yield bar.update


class LogProgress:
    """Log lines: ``rows: 12000/100000 (12%)``; ``clock`` is for tests."""

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.clock = clock

    @contextmanager
    def phase(self, name: str, total: int | None, unit: str) -> Iterator[Advance]:
        started = last = self.clock()
        done = 0
        self._line(name, done, total, unit, "started")

        def advance(amount: int) -> None:
            nonlocal done, last
            done += amount
            now = self.clock()
            if now - last >= self.interval:
                last = now
                self._line(name, done, total, unit, "running")

        yield advance
        self._line(name, done, total, unit, f"done in {self.clock() - started:.1f} s")

    @staticmethod
    def _line(name: str, done: int, total: int | None, unit: str, state: str) -> None:
        share = f" ({100 * done // total}%)" if total else ""
        of = f"/{total}" if total is not None else ""
        log.info(
            "%s: %s%s %s%s, %s", name, done, of, unit, share, state,
            extra={"phase": name, "done": done, "total": total, "unit": unit},
        )  # fmt: skip


NO_PROGRESS = NoProgress()


def for_stream(is_terminal: bool, interval: float) -> Progress:
    """A bar on a terminal, else log lines every ``interval`` seconds."""
    return BarProgress() if is_terminal else LogProgress(interval)
