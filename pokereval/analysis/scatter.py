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

import numpy as np

from ..classes import subsets
from ..equity.backends.numba import parallel, thread_count
from ..equity.options import parse_options
from ..equity.plan import BATCH_SECONDS, MAX_EXACT_SECONDS, MAX_TUPLES, check_exact_cost
from ..equity.run import RangedRunner
from ..equity.spot import Spot
from ..equity.tally import share_units
from ..errors import HandError

__all__ = ["AUTO_SCATTER_EVALS", "AUTO_SCATTER_EVALS_RANGED_OMAHA", "ONE_THREAD_EVALS",
           "scatter_plan", "run_scatter", "cells_table", "pair_cells", "joint_codes",
           "joint_fields", "scatter_ns"]

#: The kernel walks at most this many (combination of holdings x run-out x player)
#: evaluations when ``exact`` is left to choose (about a second).
AUTO_SCATTER_EVALS = 40_000_000
#: The same for Omaha ranges: no per-holding cache, 60 to 100 lookups an evaluation.
AUTO_SCATTER_EVALS_RANGED_OMAHA = 15_000_000
#: The kernel runs on one thread up to this many evaluations (a flop's turns and rivers).
ONE_THREAD_EVALS = 200_000

# The exact walk's cost (issue 26: an exact=True walk over an hour on one core is
# refused up front).  Single-core nanoseconds per (combination x run-out): a share per
# player (the evaluation) plus one per next-street deal the run-out is added to.
# Calibrated on a loaded 2-core machine, threads=1 (measured / this model):
#   holdem AhAd KsKd preflop, 1 x 1.7 M run-outs x 10 flops      0.60 s / 0.60 s
#   omaha-hilo AhAd2c3s KsKdQhJh preflop, 1.09 M run-outs         0.60 s / 0.53 s
#   holdem AhAd KsKd 7c8c preflop, 1.37 M run-outs                1.23 s / 0.75 s
#   omaha-hilo AA** KsKdQhJh on Kh7c2d, 5,085 x 990 (ranged)      2.05 s / 2.27 s
#   omaha AA** KsKdQhJh on Kh7c2d, 5,085 x 990 (ranged)           1.88 s / 2.27 s
#   holdem AK QQ+ on 2c3d4h, 192 x 1,176 (ranged)                 0.016 s / 0.056 s
NS_SCATTER_PLAYER = {"holdem": 100.0, "omaha": 120.0, "omaha-ranged": 200.0}
NS_SCATTER_DEAL = 25.0


def scatter_ns(spot: Spot, j: int) -> float:
    """Estimated single-core nanoseconds of one (combination, run-out) of the walk
    (``j``: new cards of a next-street deal; 0: by combination)."""
    kind = "holdem" if not spot.game.exactly_two else \
        ("omaha-ranged" if spot.ranged else "omaha")
    deals = math.comb(spot.k, j) if j else 1
    return spot.n * NS_SCATTER_PLAYER[kind] + deals * NS_SCATTER_DEAL


def _combinations(spot: Spot, limit: int, forced: bool = False, per_tuple: float = 1.0):
    """``(tuples int64[T, n], whole weights int64[T], holding rows uint8[m, c])`` for the
    kernel, or None when more than ``limit`` combinations (or the weights too large);
    ``forced`` (exact=True): more than ``limit`` is refused, ``per_tuple`` nanoseconds
    each."""
    if not spot.ranged:
        return (np.arange(spot.n, dtype=np.int64)[None, :], np.ones(1, dtype=np.int64),
                np.array(spot.holes, np.uint8))
    runner = RangedRunner(spot, parse_options(None, None, None, None, None, None), 0.0)
    product = math.prod(len(b) for b in runner.blocks)
    if product > 50 * limit and not forced:
        return None
    tuples = runner.compatible_tuples(limit)
    if len(tuples) > limit:
        if forced:
            check_exact_cost(max(len(tuples), product / 24) * per_tuple,
                             f"more than {limit:,} combinations of holdings")
            raise HandError(f"too many combinations of holdings to walk exactly (more than "
                            f"{limit:,}, the limit of memory); use samples=...")
        return None
    if len(tuples) == 0:
        raise HandError("no combination of the players' holdings is possible")
    tgroup, gweights = runner.weight_groups(tuples)
    if max(gweights) > (1 << 20):
        return None
    weights = np.array(gweights, dtype=np.int64)[tgroup]
    return tuples.astype(np.int64), weights, np.vstack(runner.blocks)


def scatter_plan(spot: Spot, forced: bool, j: int = 0):
    """``(tuples, whole weights, holding rows)`` for :func:`run_scatter` when walking
    every combination and run-out fits ``AUTO_SCATTER_EVALS`` (``forced``: up to
    MAX_EXACT_SECONDS on one core, refused with the estimate beyond), else None."""
    runs = math.comb(len(spot.unseen), spot.k)
    if forced:
        per_tuple = runs * scatter_ns(spot, j)
        check_exact_cost(per_tuple, f"{runs:,} run-outs per combination of holdings")
        limit = min(MAX_TUPLES, max(1, int(MAX_EXACT_SECONDS * 1e9 / per_tuple)))
        return _combinations(spot, limit, forced=True, per_tuple=per_tuple)
    budget = AUTO_SCATTER_EVALS
    if spot.ranged and spot.game.exactly_two:
        budget = AUTO_SCATTER_EVALS_RANGED_OMAHA
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


def _or_columns(bits: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``bits[index[:, 0]] | bits[index[:, 1]] | ...`` (a reduce along rows of a few
    columns takes NumPy ten times as long)."""
    out = bits[index[:, 0]]
    for c in range(1, index.shape[1]):
        out |= bits[index[:, c]]
    return out


def joint_codes(g, hv: np.ndarray, lv: np.ndarray) -> np.ndarray:
    """Each row's joint outcome from the values ``[n, rows]``, as the kernel's ``_joint``:
    bit ``p`` if player ``p`` has the best high, bit ``n + p`` the best qualifying low
    (bit ``p`` without a high; :func:`joint_fields` gives each outcome's fields, the
    cells of :func:`pair_cells`)."""
    n = hv.shape[0]
    code = np.zeros(hv.shape[1], dtype=np.int64)
    best_high, best_low = hv.max(axis=0), lv.max(axis=0)
    shift = n if g.high else 0
    for p in range(n):
        if g.high:
            code |= (hv[p] == best_high).astype(np.int64) << p
        if g.low:
            code |= ((lv[p] == best_low) & (best_low > 0)).astype(np.int64) << (shift + p)
    return code


def run_scatter(spot: Spot, opts, j: int, planned):
    """The kernel's ``(acc, den)``: by ``j``-card deal, or (``j == 0``) by combination."""
    from .. import kernels as K
    from ..kernels.distribution import JOINT_PLAYERS, scatter_exact

    g, n, k = spot.game, spot.n, spot.k
    tuples, tweights, rows = planned
    deck = np.array(spot.unseen, dtype=np.uint8)
    tmasks = np.zeros(len(tuples), dtype=np.uint64)
    if spot.ranged:  # each holding's bits of deck indices, vectorised (a Python loop
        # over thousands of holdings took as long as the kernel's walk on two threads)
        bit = np.zeros(52, dtype=np.uint64)  # a card's bit in the deck; 0: not in it
        bit[deck] = np.left_shift(np.uint64(1), np.arange(len(deck), dtype=np.uint64))
        bits = _or_columns(bit, np.asarray(rows, dtype=np.intp))
        tmasks = _or_columns(bits, tuples)
    KT, G, binom = K.kernel_tables(), K.game_flags(g), K.binomials()
    H = K.prep_holdings(KT, np.ascontiguousarray(rows), G.omaha)
    use_cache = not spot.ranged  # a range's holdings change from run to run
    cache = np.zeros((len(rows) if use_cache and G.omaha else 1, K.BOARD_SLOTS), dtype=np.uint16)
    if j:
        subs = subsets(k, j).astype(np.int64)
        ndeals = math.comb(len(deck), j)
    else:
        subs = np.zeros((1, 0), dtype=np.int64)
        ndeals = len(tuples)
    cells = cells_table(g, n)
    fields = joint_fields(g, n) if n <= JOINT_PLAYERS else np.eye(3 * n, dtype=np.int64)
    threads = thread_count(opts.threads)
    runs = math.comb(len(deck), k)
    if len(tuples) * runs * n <= ONE_THREAD_EVALS:
        threads = 1  # waking the other threads costs more than the work
    # the combinations in slices of about BATCH_SECONDS on the threads: Ctrl-C (a
    # KeyboardInterrupt between two kernel calls) stops a long walk within a slice
    per_call = max(1, int(BATCH_SECONDS * 1e9 * threads / (runs * scatter_ns(spot, j))))
    tw = np.asarray(tweights, dtype=np.int64)
    tuples = np.ascontiguousarray(tuples)
    known = np.array(spot.board, dtype=np.uint8)
    acc = den = None
    for lo in range(0, len(tuples), per_call):
        hi = min(lo + per_call, len(tuples))
        part = ndeals if j else hi - lo
        a, d = parallel(scatter_exact, KT, G, H, np.ascontiguousarray(tuples[lo:hi]), tw[lo:hi],
                        np.ascontiguousarray(tmasks[lo:hi]), known, deck, k, subs, part, binom,
                        cache, use_cache, cells, fields, threads, threads=threads)
        if j:
            acc, den = (a, d) if acc is None else (acc + a, den + d)
        else:
            acc, den = (a, d) if acc is None else (np.concatenate([acc, a]),
                                                   np.concatenate([den, d]))
    return acc.reshape(ndeals, n, 3), den


def joint_fields(g, n: int) -> np.ndarray:
    """int64[codes, 3 * n]: each joint outcome's fields per player (see
    :func:`cells_table` and :func:`pokereval.kernels.distribution._joint`): ``4 ** n``
    codes in a hi/lo game, ``2 ** n`` with a high or a low alone."""
    cells = cells_table(g, n)
    shift = n if g.high else 0
    codes = (2 ** n if g.high else 1) * (2 ** n if g.low else 1)
    out = np.zeros((codes, n, 3), dtype=np.int64)
    for code in range(codes):
        high = code & ((1 << n) - 1) if g.high else 0
        low = code >> shift
        for p in range(n):
            row = bin(high).count("1") if high >> p & 1 else 0
            col = 0 if not low else (1 + bin(low).count("1") if low >> p & 1 else 1)
            out[code, p] = cells[:, row * (n + 2) + col]
    return out.reshape(codes, n * 3)
