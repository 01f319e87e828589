"""``pokereval hh report``'s files and progress: the report as CSV (``--csv``), the chart of
won vs all-in EV adjusted won over the hands (``--png``, matplotlib: the ``[plot]``
extra) and the progress bar of a long history (a terminal only)."""
from __future__ import annotations

import csv
import os
from typing import Any

from ..errors import install_hint
from .common import UsageError

__all__ = ["write_csv", "write_chart", "HandProgress", "CSV_COLUMNS"]

CSV_COLUMNS = ("game", "limit", "stakes", "currency", "tournament", "hands", "agrees", "differs",
               "unchecked", "allins", "priced", "sampled", "left_out", "player_hands", "won",
               "ev_won", "luck", "won_bb", "ev_won_bb", "luck_bb")


def write_csv(report: Any, path: str) -> None:
    """One row per game and stake (the report's table, money in the game's unit)."""
    try:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(CSV_COLUMNS)
            for row in report.rows.values():
                data = row.to_dict()
                data.update(data.pop("replay"))
                writer.writerow([data[c] for c in CSV_COLUMNS])
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_chart(report: Any, path: str, who: str) -> None:
    """Cumulative won and all-in EV adjusted won, in big blinds (big bets), per hand."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError("--png needs matplotlib: " + install_hint("plot")) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    won = [w for w, _ in report.series]
    ev = [e for _, e in report.series]
    hands = range(1, len(won) + 1)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.plot(hands, won, label=f"won ({won[-1]:+,.1f})" if won else "won", linewidth=1.5)
    ax.plot(hands, ev, label=f"all-in EV adjusted ({ev[-1]:+,.1f})" if ev else
            "all-in EV adjusted", linewidth=1.5)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("hands")
    ax.set_ylabel("big blinds (limit: big bets)")
    ax.set_title(f"{who}: {len(won):,} hands, won vs all-in EV adjusted")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left")
    fig.tight_layout()
    try:
        fig.savefig(path, format=os.path.splitext(path)[1][1:].lower() or "png")
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}") from None
    finally:
        plt.close(fig)


class HandProgress:
    """A rich bar on a terminal: the files' hands read, replayed and priced.  The bar
    follows the line number of each hand in its file (a history's length in lines is
    counted as it goes: a file's size in bytes over the bytes per line so far)."""

    def __init__(self, console: Any, files: list[str]):
        from rich.progress import (BarColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)
        self.sizes = {f: _size(f) for f in files}
        self.total = sum(self.sizes.values()) or 1
        self.done_before = 0
        self.current: str | None = None
        self.hands = 0
        self.progress = Progress(TextColumn("hands {task.fields[hands]:,}"), BarColumn(),
                                 TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                                 TimeRemainingColumn(), console=console, transient=True)
        self.progress.start()
        self.task = self.progress.add_task("", total=self.total, hands=0)

    def __call__(self, hand: Any, replay: Any, pricing: Any) -> None:
        self.hands += 1
        source = getattr(hand, "source", "")
        if source != self.current:
            if self.current is not None:
                self.done_before += self.sizes.get(self.current, 0)
            self.current = source
        if self.hands % 50 == 0 or self.hands == 1:
            done = self.done_before + _position(source, self.sizes.get(source, 0), hand.line)
            self.progress.update(self.task, completed=min(done, self.total), hands=self.hands)

    def close(self) -> None:
        self.progress.stop()


_LINE_BYTES = 60  # a history line, on average (PokerStars: 40 to 70 bytes)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _position(source: str, size: int, line: int) -> int:
    return min(size, line * _LINE_BYTES)
