"""The C backend: exact spots walked by the C library without Numba (a board spot by
the rank multisets of its missing cards, evaluation and tally in C, on threads when it
is big enough; small stud spots' run-outs evaluated in batch and tallied in NumPy),
Monte Carlo of fixed-hand stud and of ranges, and batch values of rows of cards.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...evaluate import evaluate_batch
from ..deal import stud_deals
from ..spot import Spot
from ..tally import tally_outcomes

__all__ = ["board_exact", "small_exact", "split_chunks", "stud_mc", "thread_count", "row_values",
           "THREAD_NS"]

#: A C board walk is shared among threads only when each share is estimated at this many
#: nanoseconds or more (below it, starting a thread costs about what it saves).
THREAD_NS = 250_000.0


def board_exact(spot: Spot, threads: int = 1, cost_ns: float = 0.0) -> np.ndarray:
    """Exact outcome counts ``int64[n, n + 1, n + 2]`` of a fixed-hand board-game spot,
    walked in C by board rank multisets, on up to ``threads`` threads (as many as its
    estimated ``cost_ns`` makes worth it; the shares add up to the same counts)."""
    from ..._native import board_exact_counts

    g = spot.game
    args = (np.array(spot.holes, dtype=np.uint8), g.exactly_two, g.low == "eight",
            np.array(spot.board, dtype=np.uint8), np.array(spot.unseen, dtype=np.uint8))
    parts = max(1, min(threads, int(cost_ns // THREAD_NS)))
    shares = split_chunks(lambda part, _one: board_exact_counts(*args, part=part, parts=parts),
                          0, parts, parts)
    return sum(shares[1:], shares[0])


def small_exact(spot: Spot) -> np.ndarray:
    """Exact outcome counts ``int64[n, n + 1, n + 2]`` of a small fixed-hand stud spot, in C
    on one thread: the run-outs as rows, values in batch, a NumPy tally (board spots:
    :func:`board_exact`)."""
    deals = np.array(list(stud_deals(spot)), dtype=np.uint8)  # [rows, n, 7]
    holes = [np.ascontiguousarray(deals[:, p, :]) for p in range(spot.n)]
    hv, lv = row_values(spot, (holes, None))
    return tally_outcomes(spot.game, hv, lv)


def thread_count(wanted: int | None) -> int:
    """Threads for a C run asked for ``wanted`` (None: all), at most the kernels' count
    (NUMBA_NUM_THREADS, else the CPUs), as the Numba backend would use."""
    most = int(os.environ.get("NUMBA_NUM_THREADS") or os.cpu_count() or 1)
    return most if wanted is None else max(1, min(wanted, most))


_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_pool_lock = threading.Lock()


def _workers(n: int) -> ThreadPoolExecutor:
    """The process's pool of at least ``n`` threads for the shares of C calls, started
    once (a thread started per call cost about 60 us: a tenth of a millisecond walk)."""
    global _pool, _pool_size
    with _pool_lock:
        if _pool is None or _pool_size < n:
            if _pool is not None:
                _pool.shutdown(wait=False)  # its threads end once their work is done
            _pool, _pool_size = ThreadPoolExecutor(n, thread_name_prefix="pokereval-c"), n
        return _pool


def _forget_workers() -> None:
    """A forked child has none of its parent's threads: it starts its own pool."""
    global _pool, _pool_size, _pool_lock
    _pool, _pool_size, _pool_lock = None, 0, threading.Lock()


os.register_at_fork(after_in_child=_forget_workers)


def split_chunks(part, first_chunk: int, nchunks: int, threads: int) -> list:
    """``[part(first, count), ...]`` over chunks ``[first_chunk, first_chunk + nchunks)`` split
    into at most ``threads`` runs of consecutive chunks, in chunk order, the first run on
    this thread and the others on the pool's (a C call releases the GIL; the C samplers'
    counts do not depend on the split)."""
    parts = min(threads, nchunks)
    if parts <= 1:
        return [part(first_chunk, nchunks)]
    bounds = [first_chunk + nchunks * i // parts for i in range(parts + 1)]
    pool = _workers(parts - 1)
    others = [pool.submit(part, bounds[i], bounds[i + 1] - bounds[i]) for i in range(1, parts)]
    return [part(bounds[0], bounds[1] - bounds[0])] + [f.result() for f in others]


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
