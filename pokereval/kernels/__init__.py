"""Numba kernels: exhaustive enumeration and Monte Carlo over run-outs.

Importing this package imports Numba (slow: about half a second); the public
API imports it only when a spot needs it.  Kernels are compiled once and
cached on disk (``cache=True``), and read the C library's tables, passed in as
the :class:`.structs.Tables` built by :func:`kernel_tables`.

* :mod:`.structs`    the named structures the kernels take (tables, flags, holdings, ranges)
* :mod:`.handeval`   hand values from the tables, the showdown tally: one layer for every kernel
* :mod:`.exact`      enumeration helpers, the stud tables (board games are walked in C)
* :mod:`.stud_walk`  exhaustive stud: the walk over the players' subsets
* :mod:`.montecarlo` sampling (board games; stud is sampled in C, csrc/stud_mc.c)
* :mod:`.rng`        per-chunk random streams
* :mod:`.hand_tables` the starting-hand tables' per-class trials (:mod:`pokereval.tables`)

Cached kernels are stamped with a hash of every kernel source, so an edit to
any of them recompiles them all (see :mod:`._jit`); the cache is filled at
build time (``setup.py``, :mod:`pokereval.warmup`).
"""
import importlib
from functools import lru_cache
from math import comb

import numpy as np

from ..errors import interrupted
from . import _jit  # noqa: F401  (Numba and the cache locators: importing the package loads them)
from .boards import BOARD_SHIFT, BOARD_SLOTS, five_card_rank_multisets
from .handeval import eval_batch, holding_features
from .structs import GameFlags, Holdings, Tables

#: The kernels of the other modules, imported on first use (PEP 562): a process loads
#: only the modules of the kernels it calls (each module's dispatchers cost start-up).
LAZY_KERNELS = {
    "stud_tables": "exact", "stud_exact": "stud_walk",
    "class_trials": "hand_tables", "board_mc": "montecarlo",
    "compatible_tuples": "ranged",
}


def __getattr__(name: str):
    module = LAZY_KERNELS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


__all__ = [
    "BOARD_SLOTS", "binomials", "board_mc", "eval_batch", "game_flags",
    "kernel_tables", "prep_holdings", "stud_exact", "stud_tables",
    "compatible_tuples", "range_tables",
    "board_hash", "class_trials", "pair_tables",
    "GameFlags", "Holdings", "Tables",
]


def prep_holdings(KT, holes, omaha) -> Holdings:
    """:class:`.structs.Holdings` of each row of ``holes`` (uint8[h, ncards]), for Python
    callers.  The kernel returns a plain tuple: Numba boxes a returned NamedTuple by
    calling its class, which runs Python code, and a signal handler raising there
    (Ctrl-C, an alarm) crashed the process (SIGSEGV) a few hundred interrupts in."""
    try:
        return Holdings(*holding_features(KT, holes, omaha))
    except SystemError as exc:
        if interrupted(exc):
            raise KeyboardInterrupt from None
        raise


#: ``KT.board_offset`` of :func:`kernel_tables` ``(boards=False)``: a one-entry stand-in of
#: the board slot hash's type (read-only, as the C library's), for the stud kernels (they
#: never read it).
NO_BOARD_OFFSET = np.zeros(1, dtype=np.int32)
NO_BOARD_OFFSET.setflags(write=False)


@lru_cache(maxsize=None)
def kernel_tables(boards: bool = True) -> Tables:
    """The tables ``KT`` every kernel takes: views of the C library's tables plus
    two per-card arrays derived from them.  ``boards=False`` (the stud kernels, which read
    no board slot): the board slot hash is not built (a kernel load and run saved), its
    field holds :data:`NO_BOARD_OFFSET`."""
    from .._native import TABLES as T

    card_w = np.ascontiguousarray(T.rank_weight.astype(np.int64)[np.arange(52) >> 2])
    card_low = np.ascontiguousarray(T.card_lowbit.astype(np.int64))
    return Tables(T.ph_offset, T.hi_rank, T.razz_rank, T.hi_flush, T.low8, T.omaha_low8,
                  card_w, card_low, board_hash()[0] if boards else NO_BOARD_OFFSET)


@lru_cache(maxsize=None)
def board_hash() -> tuple:
    """``(board_offset, board_keys, slots)``: the five-card board slot hash (the C
    library's, see :mod:`.boards`), the rank weights of each five-card rank multiset
    (int64[6175, 5]) and the slot of each."""
    from .._native import TABLES as T
    from .._native import board_hash as c_board_hash

    w = T.rank_weight.astype(np.int64)
    board_keys = np.ascontiguousarray(w[np.array(five_card_rank_multisets(), dtype=np.int64)])
    offset = c_board_hash()[0]
    keys = board_keys.sum(axis=1)
    slots = keys + offset[keys >> BOARD_SHIFT].astype(np.int64)
    # distinct slots (not np.unique: it imports numpy.ma, ~20 ms of a CLI answer)
    assert 0 <= slots.min() and slots.max() < BOARD_SLOTS and np.bincount(slots).max() == 1
    return offset, board_keys, slots


@lru_cache(maxsize=None)
def binomials() -> np.ndarray:
    """``int64[64, 9]``: ``[n, k]`` = C(n, k)."""
    return np.array([[comb(n, k) for k in range(9)] for n in range(64)], dtype=np.int64)


def game_flags(game) -> GameFlags:
    """The kernels' :class:`.structs.GameFlags` for a Game."""
    omaha = 1 if game.exactly_two else 0
    npairs = game.hole * (game.hole - 1) // 2 if omaha else 1
    return GameFlags(omaha, npairs, 1 if game.high else 0, 1 if game.low else 0,
                     1 if game.low == "razz" else 0)


@lru_cache(maxsize=None)
def range_tables() -> np.ndarray:
    """``T2`` for the ranged Omaha kernels (see :mod:`.ranged`): the best no-flush
    high of each (rank pair, five-card board rank multiset), a row of 91 per board
    slot: the C library's pair table (:func:`pokereval._native.pair_high_table`), each
    board's row at its slot of the board hash (whose slots the C library maps to rows)."""
    from .._native import board_hash as c_board_hash
    from .._native import pair_high_table

    _, high, _ = pair_high_table()
    slots = board_hash()[2]
    T2 = np.zeros((BOARD_SLOTS, high.shape[1]), dtype=np.uint16)
    T2[slots] = high[c_board_hash()[1][slots]]
    return T2.ravel()


@lru_cache(maxsize=None)
def _pair_class_table() -> np.ndarray:
    """int64[13 * 13]: the class (0..90) of the rank pair {a, b} at ``13 * a + b``, the
    columns of :func:`range_tables` (the C library's numbering)."""
    from .._native import pair_high_table

    return np.ascontiguousarray(pair_high_table()[2].astype(np.int64).ravel())


NO_PAIR_HIGH = np.zeros(1, dtype=np.uint16)


def pair_tables(G: GameFlags) -> tuple[np.ndarray, np.ndarray]:
    """``(T2, pclass)`` for :func:`.handeval.cards_values`: the pair table of
    :func:`range_tables` and the rank-pair classes (Omaha family; else a one-entry
    stand-in, never read)."""
    return (range_tables() if G.omaha else NO_PAIR_HIGH), _pair_class_table()
