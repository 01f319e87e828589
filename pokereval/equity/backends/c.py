"""The C backend: exact spots walked by the C library without Numba (a board spot's
run-outs, evaluation and tally in one batch call; stud run-outs evaluated in batch
and tallied in NumPy), Monte Carlo of fixed-hand stud and of ranges, and batch values of
rows of cards.
"""
from __future__ import annotations

import os
import threading

import numpy as np

from ...evaluate import evaluate_batch
from ..deal import stud_deals
from ..spot import Spot
from ..tally import tally_outcomes

__all__ = ["small_exact", "split_chunks", "stud_mc", "thread_count", "row_values"]


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


def thread_count(wanted: int | None) -> int:
    """Threads for a C run asked for ``wanted`` (None: all), at most the kernels' count
    (NUMBA_NUM_THREADS, else the CPUs), as the Numba backend would use."""
    most = int(os.environ.get("NUMBA_NUM_THREADS") or os.cpu_count() or 1)
    return most if wanted is None else max(1, min(wanted, most))


def split_chunks(part, first_chunk: int, nchunks: int, threads: int) -> list:
    """``[part(first, count), ...]`` over chunks ``[first_chunk, first_chunk + nchunks)`` split
    into at most ``threads`` runs of consecutive chunks, in chunk order, each on its own
    thread (a C call releases the GIL; the C samplers' counts do not depend on the split)."""
    parts = min(threads, nchunks)
    if parts <= 1:
        return [part(first_chunk, nchunks)]
    bounds = [first_chunk + nchunks * i // parts for i in range(parts + 1)]
    results: list = [None] * parts

    def work(i: int) -> None:
        results[i] = part(bounds[i], bounds[i + 1] - bounds[i])

    workers = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(1, parts)]
    for w in workers:
        w.start()
    work(0)
    for w in workers:
        w.join()
    return results


def stud_mc(spot: Spot, seed: int, first_chunk: int, nchunks: int, chunk: int, total: int,
            threads: int) -> np.ndarray:
    """Outcome counts of the stud Monte Carlo chunks ``[first_chunk, first_chunk +
    nchunks)`` (csrc/stud_mc.c), split over ``threads`` threads (:func:`split_chunks`:
    the same counts for the seed on any number)."""
    from ..._native import stud_mc_counts

    holes = np.array(spot.holes, dtype=np.uint8)
    unseen = np.array(spot.unseen, dtype=np.uint8)

    def part(first: int, count: int) -> np.ndarray:
        return stud_mc_counts(holes, unseen, spot.mo, spot.shared, spot.game.name, seed, first,
                              count, chunk, total)

    results = split_chunks(part, first_chunk, nchunks, threads)
    return sum(results[1:], results[0])


def row_values(spot: Spot, hands) -> tuple[np.ndarray, np.ndarray]:
    """High and low values ``int64[n, rows]`` of run-outs as rows of cards ``(holes per
    player, boards)`` (see :mod:`pokereval.equity.deal`)."""
    holes, boards = hands
    values = [evaluate_batch(spot.game, np.ascontiguousarray(h), boards) for h in holes]
    hv = np.stack([v[0] for v in values]).astype(np.int64)
    lv = np.stack([v[1] for v in values]).astype(np.int64)
    return hv, lv
