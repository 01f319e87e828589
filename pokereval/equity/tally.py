"""The outcome cells and the one NumPy tally of showdown values into them.

Every run-out (exact) or sample (Monte Carlo) adds one to each player's *outcome
cell*: row = 0 if the player did not win the high (or the game has no high), else
the number of players sharing the high; column = 0 if no low qualified (or the game
has no low), 1 if the player lost the low, else 1 + the number of players sharing
it.  Counts are ``int64[n, n + 1, n + 2]``; every reported number derives from them.
Exact equities are counted in units of 1 / (2 * lcm(1..n)) of a pot
(:func:`share_units`) and divided once.  The kernels tally the same cells
(:func:`pokereval.kernels.handeval.tally`).
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from ..games import Game

__all__ = ["tally_outcomes", "as_outcomes", "share_units", "lcm_upto"]


def tally_outcomes(game: Game, hv: np.ndarray, lv: np.ndarray) -> np.ndarray:
    """Outcome counts [n, n + 1, n + 2] from values hv, lv [n, rows] (as the kernels' tally)."""
    n, rows = hv.shape
    row = np.zeros((n, rows), dtype=np.int64)
    col = np.zeros((n, rows), dtype=np.int64)
    if game.high:
        best = hv.max(axis=0)
        win = hv == best
        row = np.where(win, win.sum(axis=0), 0)
    if game.low:
        best = lv.max(axis=0)
        win = (lv == best) & (best > 0)
        col = np.where(best > 0, np.where(win, 1 + win.sum(axis=0), 1), 0)
    cells = (n + 1) * (n + 2)
    flat = row * (n + 2) + col
    return np.stack([np.bincount(flat[p], minlength=cells) for p in range(n)]).reshape(n, n + 1, n + 2)


def as_outcomes(counts) -> np.ndarray:
    """int64 outcome counts; weighted counts (Python ints) too large for int64
    become float64 (the result then has no exact fraction)."""
    counts = np.asarray(counts)
    if counts.dtype != object:
        return counts
    top = max((abs(int(x)) for x in counts.ravel()), default=0)
    if top < (1 << 62):
        return counts.astype(np.int64)
    return np.array([float(Fraction(int(x), top)) for x in counts.ravel()],
                    dtype=np.float64).reshape(counts.shape)


def lcm_upto(n: int) -> int:
    """lcm(1, 2, ..., n): a pot split n ways or fewer is a whole number of 1 / lcm."""
    return math.lcm(*range(1, n + 1))


@functools.lru_cache(maxsize=None)
def share_units(pot: str, n: int) -> np.ndarray:
    """int64[n + 1, n + 2]: a cell's share of the pot in units of 1 / (2 * lcm(1..n))
    (cached, read-only)."""
    lcm = lcm_upto(n)
    units = np.zeros((n + 1, n + 2), dtype=np.int64)
    for row in range(n + 1):
        for col in range(n + 2):
            if pot == "razz":
                units[row, col] = 2 * lcm // (col - 1) if col >= 2 else 0
            elif pot == "high" or col == 0:
                units[row, col] = 2 * lcm // row if row else 0
            else:  # split pot with a qualifying low
                units[row, col] = (lcm // row if row else 0) + (lcm // (col - 1) if col >= 2 else 0)
    units.flags.writeable = False
    return units
