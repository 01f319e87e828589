"""The C backend: exact spots walked by the C library without Numba (a board spot's
run-outs, evaluation and tally in one batch call; stud run-outs evaluated in batch
and tallied in NumPy), and batch values of rows of cards.
"""
from __future__ import annotations

import numpy as np

from ...evaluate import evaluate_batch
from ..deal import stud_deals
from ..spot import Spot
from ..tally import tally_outcomes

__all__ = ["small_exact", "row_values"]


def small_exact(spot: Spot) -> np.ndarray:
    """Exact outcome counts ``int64[n, n + 1, n + 2]`` of a fixed-hand spot, in C."""
    g = spot.game
    if not g.stud:  # run-outs, evaluation and tally in one C call
        from ..._native import board_exact_counts

        return board_exact_counts(np.array(spot.holes, dtype=np.uint8), g.exactly_two,
                                  g.low == "eight", np.array(spot.board, dtype=np.uint8),
                                  np.array(spot.unseen, dtype=np.uint8))
    deals = np.array(list(stud_deals(spot)), dtype=np.uint8)  # [rows, n, 7]
    holes = [np.ascontiguousarray(deals[:, p, :]) for p in range(spot.n)]
    hv, lv = row_values(spot, (holes, None))
    return tally_outcomes(g, hv, lv)


def row_values(spot: Spot, hands) -> tuple[np.ndarray, np.ndarray]:
    """High and low values ``int64[n, rows]`` of run-outs as rows of cards ``(holes per
    player, boards)`` (see :mod:`pokereval.equity.deal`)."""
    holes, boards = hands
    values = [evaluate_batch(spot.game, np.ascontiguousarray(h), boards) for h in holes]
    hv = np.stack([v[0] for v in values]).astype(np.int64)
    lv = np.stack([v[1] for v in values]).astype(np.int64)
    return hv, lv
