"""The scatter kernel's setup, shared by :mod:`.distribution` and :mod:`.range_equities`:
every (combination of holdings, run-out) of a board-game spot walked once in
:func:`pokereval.kernels.distribution.scatter_exact`, its outcome added to a bucket
(a next-street deal, or the combination itself).

:func:`scatter_plan` lists the combinations (or says the walk is too big: None),
:func:`run_scatter` runs the kernel through the one kernel lock
(:func:`pokereval.equity.backends.numba.parallel`) and returns per-bucket sums of
the fields of :func:`cells_table`.
"""
from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from ..equity.backends.numba import parallel, thread_count
from ..equity.options import parse_options
from ..equity.run import RangedRunner
from ..equity.spot import Spot
from ..equity.tally import share_units
from ..errors import HandError

__all__ = ["AUTO_SCATTER_EVALS", "AUTO_SCATTER_EVALS_RANGED_OMAHA", "ONE_THREAD_EVALS",
           "scatter_plan", "run_scatter", "cells_table", "pair_cells"]

#: The kernel walks at most this many (combination of holdings x run-out x player)
#: evaluations when ``exact`` is left to choose (about a second).
AUTO_SCATTER_EVALS = 40_000_000
#: The same for Omaha ranges: no per-holding cache, 60 to 100 lookups an evaluation.
AUTO_SCATTER_EVALS_RANGED_OMAHA = 15_000_000
#: The kernel runs on one thread up to this many evaluations (a flop's turns and rivers).
ONE_THREAD_EVALS = 200_000


def _combinations(spot: Spot, limit: int):
    """``(tuples int64[T, n], whole weights, holding rows uint8[m, c])`` for the kernel,
    or None when more than ``limit`` combinations (or the weights too large)."""
    if not spot.ranged:
        return np.arange(spot.n, dtype=np.int64)[None, :], [1], np.array(spot.holes, np.uint8)
    runner = RangedRunner(spot, parse_options(None, None, None, None, None, None), 0.0)
    product = math.prod(len(b) for b in runner.blocks)
    if product > 50 * limit:
        return None
    tuples = runner.compatible_tuples(limit)
    if len(tuples) > limit:
        return None
    if len(tuples) == 0:
        raise HandError("no combination of the players' holdings is possible")
    tgroup, gweights = runner.weight_groups(tuples)
    if max(gweights) > (1 << 20):
        return None
    return tuples.astype(np.int64), [gweights[i] for i in tgroup], np.vstack(runner.blocks)


def scatter_plan(spot: Spot, forced: bool):
    """``(tuples, whole weights, holding rows)`` for :func:`run_scatter` when walking
    every combination and run-out fits ``AUTO_SCATTER_EVALS`` (``forced``: any size),
    else None."""
    runs = math.comb(len(spot.unseen), spot.k)
    budget = AUTO_SCATTER_EVALS
    if spot.ranged and spot.game.exactly_two:
        budget = AUTO_SCATTER_EVALS_RANGED_OMAHA
    if forced:
        budget = 1 << 40
    limit = max(1, budget // max(runs * spot.n, 1))
    return _combinations(spot, limit)


def cells_table(g, n: int) -> np.ndarray:
    """int64[3, cells]: per outcome cell ``row * (n + 2) + col``, the share units, the
    scoop (0/1) and the low half won or tied (0/1)."""
    pot = g.pot
    cells = np.zeros((3, (n + 1) * (n + 2)), dtype=np.int64)
    cells[0] = share_units(pot, n).ravel()
    for row in range(n + 1):
        for col in range(n + 2):
            c = row * (n + 2) + col
            cells[1, c] = (row == 1 and col in (0, 2)) if pot == "split" else \
                (col == 2 if pot == "razz" else row == 1)
            cells[2, c] = col >= 2
    return cells


def pair_cells(g, hv: np.ndarray, lv: np.ndarray) -> np.ndarray:
    """Each player's outcome cell on each row of values ``[n, rows]`` (as the tally)."""
    n = hv.shape[0]
    row = np.zeros(hv.shape, dtype=np.int64)
    col = np.zeros(hv.shape, dtype=np.int64)
    if g.high:
        win = hv == hv.max(axis=0)
        row = np.where(win, win.sum(axis=0), 0)
    if g.low:
        best = lv.max(axis=0)
        win = (lv == best) & (best > 0)
        col = np.where(best > 0, np.where(win, 1 + win.sum(axis=0), 1), 0)
    return row * (n + 2) + col


def run_scatter(spot: Spot, opts, j: int, planned):
    """The kernel's ``(acc, den)``: by ``j``-card deal, or (``j == 0``) by combination."""
    from .. import kernels as K
    from ..kernels.distribution import JOINT_PLAYERS, scatter_exact

    g, n, k = spot.game, spot.n, spot.k
    tuples, tweights, rows = planned
    deck = np.array(spot.unseen, dtype=np.uint8)
    pos = {c: i for i, c in enumerate(spot.unseen)}
    tmasks = np.zeros(len(tuples), dtype=np.uint64)
    if spot.ranged:
        bits = np.zeros(len(rows), dtype=np.uint64)
        for r, h in enumerate(rows.tolist()):
            for c in h:
                if c in pos:
                    bits[r] |= np.uint64(1) << np.uint64(pos[c])
        tmasks = np.bitwise_or.reduce(bits[tuples], axis=1).astype(np.uint64)
    KT, G, binom = K.kernel_tables(), K.game_flags(g), K.binomials()
    H = K.prep_holdings(KT, np.ascontiguousarray(rows), G.omaha)
    use_cache = not spot.ranged  # a range's holdings change from run to run
    cache = np.zeros((len(rows) if use_cache and G.omaha else 1, K.BOARD_SLOTS), dtype=np.uint16)
    if j:
        subs = np.array(list(combinations(range(k), j)), dtype=np.int64).reshape(-1, j)
        ndeals = math.comb(len(deck), j)
    else:
        subs = np.zeros((1, 0), dtype=np.int64)
        ndeals = len(tuples)
    cells = cells_table(g, n)
    threads = thread_count(opts.threads)
    if len(tuples) * math.comb(len(deck), k) * n <= ONE_THREAD_EVALS:
        threads = 1  # waking the other threads costs more than the work
    acc, den = parallel(scatter_exact, KT, G, H, np.ascontiguousarray(tuples),
                        np.array(tweights, dtype=np.int64), tmasks,
                        np.array(spot.board, dtype=np.uint8), deck, k, subs, ndeals, binom, cache,
                        use_cache, cells, threads, threads=threads)
    if n <= JOINT_PLAYERS:
        return (acc @ _joint_fields(g, n)).reshape(ndeals, n, 3), den
    return acc.reshape(ndeals, n, 3), den


def _joint_fields(g, n: int) -> np.ndarray:
    """int64[4 ** n, n, 3]: each joint outcome's fields per player (see
    :func:`cells_table` and :func:`pokereval.kernels.distribution._joint`)."""
    cells = cells_table(g, n)
    out = np.zeros((4 ** n, n, 3), dtype=np.int64)
    for code in range(4 ** n):
        high, low = code & ((1 << n) - 1), code >> n
        for p in range(n):
            row = bin(high).count("1") if high >> p & 1 else 0
            col = 0 if not low else (1 + bin(low).count("1") if low >> p & 1 else 1)
            out[code, p] = cells[:, row * (n + 2) + col]
    return out.reshape(4 ** n, n * 3)
