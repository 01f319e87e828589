"""The live progress bar of a long ``pokereval equity`` run (on a terminal only)."""
from __future__ import annotations

import math
import time
from typing import Any, Callable

from rich.console import Console

from ..protocol import default_stderr, worst_stderr
from .common import plus_minus

__all__ = ["PROGRESS_DELAY", "ProgressReporter"]

PROGRESS_DELAY = 0.5  # seconds before a progress bar appears


class ProgressReporter:
    """The ``progress`` callback of a long equity run: a live bar on a terminal.

    Nothing is shown until ``delay`` seconds have passed, so quick runs print no bar.
    The bar follows the partial result's ``fraction_done`` when the engine knows it;
    otherwise, when sampling to a standard-error target, the share of the samples the
    target needs at the current spread; otherwise it is an indeterminate (moving) bar.
    """

    def __init__(self, console: Console, *, samples: int | None = None,
                 stderr: float | None = None, delay: float = PROGRESS_DELAY,
                 clock: Callable[[], float] = time.monotonic):
        self.console, self.samples, self.target = console, samples, stderr
        self.delay, self.clock = delay, clock
        self.started = clock()
        self.progress: Any = None
        self.task: Any = None

    def fraction(self, partial: Any) -> float | None:
        """How far the run has got (0..1), or None when unknown."""
        known = getattr(partial, "fraction_done", None)
        if known is not None and math.isfinite(known):
            return min(max(float(known), 0.0), 1.0)
        if partial.exact:
            return None
        done = int(partial.samples)
        if self.samples:
            return min(done / self.samples, 1.0)
        target = self.target
        if target is None and self.samples is None:  # the engine's own precision target
            target = default_stderr()
        worst = worst_stderr(partial)
        if target and done and worst and worst > 0:
            return min((target / worst) ** 2, 1.0)
        return None

    def __call__(self, partial: Any) -> None:
        if self.progress is None:
            if self.clock() - self.started < self.delay:
                return
            from rich.progress import (BarColumn, Progress, SpinnerColumn, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            self.progress = Progress(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                TextColumn("{task.fields[detail]}"), TimeElapsedColumn(),
                TimeRemainingColumn(), console=self.console, transient=True)
            self.progress.start()
            self.task = self.progress.add_task("", total=None, detail="")
        done = int(partial.samples)
        fraction = self.fraction(partial)
        if partial.exact:
            description, detail = "walking run-outs", f"{done:,} run-outs"
        else:
            worst = worst_stderr(partial)
            description = "sampling"
            pm = plus_minus(self.console)
            detail = f"{done:,} run-outs" + (f", {pm}{100 * worst:.3f}%" if worst else "")
        self.progress.update(self.task, description=description, detail=detail,
                             total=None if fraction is None else 1000,
                             completed=0 if fraction is None else round(1000 * fraction))

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
