"""The table engine: plan chunks, run them anywhere, checkpoint, assemble.

Two tables, both per starting-hand class (:mod:`pokereval.classes`):

* the **evolution ordering** (ProPokerTools' method): ``passes`` passes, the
  trial count doubling each pass (``trials``, ``2 * trials``, ...).  In a pass
  every class plays ``players``-handed trials (see :mod:`.simulate`): the hero
  and the blind are in, every other hand calls when its class was "good" in the
  previous pass (all are good in the first), i.e. won more than the one chip it
  put in, on average.  Classes are ordered by their winnings in the last pass.
* the **equity table**: each class's share of the pot against 1..N random hands
  (N = 9, or what the deck allows), all hands to showdown.

Work is split into chunks of whole classes (``Chunk``), each with its own
random streams, whose integer sums are the same wherever they run; finished
chunks go to a :class:`ChunkStore` when one is given, so a killed build
resumes where it stopped and ends bit-identical.
"""
from __future__ import annotations

import sys
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..classes import hand_classes
from ..errors import HandError
from ..games import Game, get_game
from .executors import open_executor
from .simulate import UNIT, Chunk, run_chunk
from .store import ChunkStore

__all__ = ["OrderingTable", "EquityTable", "build_ordering", "build_equity", "full_ring",
           "max_opponents"]

BOARD_GAMES = ("holdem", "omaha", "omaha-hilo", "omaha5", "omaha5-hilo")


def full_ring(game: Game) -> int:
    """Players at a full table: 10, or 9 in the 5-card games (10 hands and a board need 55 cards)."""
    return 10 if game.hole * 10 + 5 <= 52 else 9


def max_opponents(game: Game) -> int:
    """The most random opponents a hand can face with a full board (at most 9)."""
    return min(9, (52 - 5) // game.hole - 1)


def _board_game(name) -> Game:
    game = get_game(name)
    if game.name not in BOARD_GAMES:
        raise HandError(f"tables are built for {', '.join(BOARD_GAMES)}, not {game.name!r}")
    return game


@dataclass
class OrderingTable:
    """An evolution ordering: ``order`` = class indices, best first; ``stat`` = each
    class's mean net winnings in chips per trial in the last pass (class index order)."""

    game: str
    players: int
    order: np.ndarray
    stat: np.ndarray
    params: dict = field(default_factory=dict)


@dataclass
class EquityTable:
    """``equity[c, n - 1]``: class ``c``'s share of the pot against ``n`` random hands."""

    game: str
    equity: np.ndarray
    params: dict = field(default_factory=dict)


class _Progress:
    """A rich progress bar (class-trials done, ETA) on stderr, or nothing."""

    def __init__(self, total: int, show: bool | None, label: str):
        if show is None:
            show = sys.stderr.isatty()
        self.bar = None
        if show:
            from rich.console import Console
            from rich.progress import (BarColumn, Progress, TaskProgressColumn, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                                console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(label, total=total)

    def advance(self, n: int) -> None:
        if self.bar is not None:
            self.bar.advance(self.task, n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _blocks(classes: int, trials: int, chunk_trials: int) -> list[tuple[int, int]]:
    """Class blocks of about ``chunk_trials`` class-trials each."""
    size = max(1, chunk_trials // max(1, trials))
    return [(a, min(a + size, classes)) for a in range(0, classes, size)]


def _run(chunks: list[Chunk], executor: Executor, store: ChunkStore | None,
         progress: _Progress) -> dict[str, np.ndarray]:
    """Every chunk's result: from the store, or run on ``executor`` (and stored)."""
    results: dict[str, np.ndarray] = {}
    pending = {}
    for chunk in chunks:
        done = store.load(chunk.name) if store is not None else None
        if done is not None:
            results[chunk.name] = done
            progress.advance((chunk.stop - chunk.start) * chunk.trials)
        else:
            pending[executor.submit(run_chunk, chunk)] = chunk
    for future in as_completed(pending):
        chunk = pending[future]
        result = future.result()
        if store is not None:
            store.save(chunk.name, result)
        results[chunk.name] = result
        progress.advance((chunk.stop - chunk.start) * chunk.trials)
    return results


def _assemble(results: dict[str, np.ndarray], chunks: list[Chunk], classes: int) -> np.ndarray:
    """int64 [2, classes]: the chunks' sums laid side by side."""
    out = np.zeros((2, classes), np.int64)
    for chunk in chunks:
        out[:, chunk.start:chunk.stop] = results[chunk.name]
    return out


def _execute(plan: Callable, total: int, *, executor, workers, scheduler, store, params, progress,
             label, timeout):
    store = ChunkStore(store, params) if store is not None else None
    bar = _Progress(total, progress, label)
    try:
        if executor is not None:
            return plan(executor, store, bar)
        with open_executor(workers, scheduler, timeout) as ex:
            return plan(ex, store, bar)
    finally:
        bar.close()


def build_ordering(game: str | Game, players: int | None = None, *, passes: int = 10,
                   trials: int = 4, seed: int = 0, executor: Executor | None = None,
                   workers: int | None = None, scheduler: str | None = None,
                   store: str | None = None, progress: bool | None = None,
                   chunk_trials: int = 200_000, timeout: float = 30.0) -> OrderingTable:
    """The evolution ordering of ``game`` for ``players`` seats (default: full ring).

    Pass ``p`` (0-based) plays ``trials * 2**p`` trials per class.  Runs on
    ``executor`` if given, else on the Dask cluster at ``scheduler``, else on a
    pool of ``workers`` local processes (``timeout``: seconds to reach the
    scheduler); ``store`` (a directory) keeps finished chunks so that an
    interrupted build resumes.
    """
    game = _board_game(game)
    players = players or full_ring(game)
    if not 2 <= players <= full_ring(game):
        raise HandError(f"{game.name} tables need 2 to {full_ring(game)} players, not {players}")
    if passes < 1 or trials < 1:
        raise HandError("passes and trials must be at least 1")
    hc = hand_classes(game.hole)
    m = len(hc)
    params = dict(table="ordering", game=game.name, players=players, passes=passes,
                  trials=trials, seed=seed, chunk_trials=chunk_trials)
    total = m * trials * ((1 << passes) - 1)

    def plan(ex, st, bar):
        good = None
        sums = None
        for p in range(passes):
            t = trials << p
            chunks = [Chunk(game.name, players, "evolution", p, a, b, t, seed, good)
                      for a, b in _blocks(m, t, chunk_trials)]
            sums = _assemble(_run(chunks, ex, st, bar), chunks, m)
            good = np.packbits(sums[0] > t * UNIT).tobytes()
        win = sums[0]
        order = np.lexsort((np.arange(m), -win))
        stat = win / ((trials << (passes - 1)) * UNIT) - 1.0
        return OrderingTable(game.name, players, order, stat, params)

    return _execute(plan, total, executor=executor, workers=workers, scheduler=scheduler,
                    store=store, params=params, progress=progress,
                    label=f"{game.name} {players}-handed ordering", timeout=timeout)


def build_equity(game: str | Game, *, opponents: int | None = None, trials: int = 1000,
                 seed: int = 0, executor: Executor | None = None, workers: int | None = None,
                 scheduler: str | None = None, store: str | None = None,
                 progress: bool | None = None, chunk_trials: int = 200_000,
                 classes: tuple[int, int] | None = None, timeout: float = 30.0) -> EquityTable:
    """Each class's equity against 1..``opponents`` random hands (default: the most the
    deck allows, at most 9), ``trials`` trials per class and opponent count.
    ``classes=(start, stop)`` builds only that block of classes (rows of other classes are 0)."""
    game = _board_game(game)
    top = max_opponents(game)
    opponents = opponents or top
    if not 1 <= opponents <= top:
        raise HandError(f"{game.name} equity tables take 1 to {top} opponents, not {opponents}")
    if trials < 1:
        raise HandError("trials must be at least 1")
    m = len(hand_classes(game.hole))
    lo, hi = classes or (0, m)
    if not 0 <= lo < hi <= m:
        raise HandError(f"class block {lo}..{hi} is outside 0..{m}")
    params = dict(table="equity", game=game.name, opponents=opponents, trials=trials, seed=seed,
                  chunk_trials=chunk_trials, classes=[lo, hi])

    def plan(ex, st, bar):
        chunks = [Chunk(game.name, n + 1, "equity", n, lo + a, lo + b, trials, seed)
                  for n in range(1, opponents + 1) for a, b in _blocks(hi - lo, trials, chunk_trials)]
        results = _run(chunks, ex, st, bar)
        eq = np.zeros((m, opponents))
        for n in range(1, opponents + 1):
            part = [c for c in chunks if c.round == n]
            eq[:, n - 1] = _assemble(results, part, m)[1] / (trials * UNIT)
        return EquityTable(game.name, eq, params)

    return _execute(plan, (hi - lo) * trials * opponents, executor=executor, workers=workers,
                    scheduler=scheduler, store=store, params=params, progress=progress,
                    label=f"{game.name} equity table", timeout=timeout)
