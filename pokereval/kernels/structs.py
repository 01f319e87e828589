"""The named structures the kernels take.

Namedtuples: Numba compiles a field read (``KT.hi_rank``) exactly like the
positional read it stands for (``KT[1]``), so naming costs nothing in the hot
loops.  The field order is the positional order the kernels used before, and
code may still index them positionally.
"""
from typing import NamedTuple

import numpy as np


class Tables(NamedTuple):
    """``KT``: the C library's lookup tables plus per-card arrays (:func:`.kernel_tables`)."""

    ph_offset: np.ndarray     # perfect hash of a rank key: index = key + ph_offset[key >> PH_SHIFT]
    hi_rank: np.ndarray       # high value of a rank multiset (no flushes), by perfect-hash index
    razz_rank: np.ndarray     # razz value of a rank multiset (5..7 cards), by perfect-hash index
    hi_flush: np.ndarray      # high value of a 13-bit single-suit rank mask (>= 5 bits)
    low8: np.ndarray          # eight-or-better low of an 8-bit low-rank mask
    omaha_low8: np.ndarray    # [hole_lowmask << 8 | board_lowmask]: best 2 + 3 low
    card_w: np.ndarray        # int64[52]: each card's rank weight (its rank-key contribution)
    card_low: np.ndarray      # int64[52]: each card's low-rank bit (ace 1 ... eight 128, else 0)
    board_offset: np.ndarray  # slot hash of a five-card board's rank key (see .boards)


class GameFlags(NamedTuple):
    """``G``: what a game's showdown compares (:func:`.game_flags`)."""

    omaha: int     # exactly two hole cards (and three board cards)
    npairs: int    # pairs of hole cards (Omaha family; else 1)
    has_high: int  # a high half is contested (razz: none)
    has_low: int   # a low half is contested: eight-or-better, or razz when ``razz``
    razz: int


class Holdings(NamedTuple):
    """``H``: features of each holding row (:func:`.handeval.prep_holdings`)."""

    key: np.ndarray        # int64[h]: rank key of the holding's cards
    low: np.ndarray        # int64[h]: OR of their low-rank bits
    packed: np.ndarray     # int64[h]: suit counters, 4 bits a suit
    suit_mask: np.ndarray  # int64[h, 4]: rank mask of the holding's cards of each suit
    pair_key: np.ndarray   # int64[h, npairs]: rank key of each pair of hole cards (Omaha)


class ScatterWalk(NamedTuple):
    """``W``: what the next-street scatter reads (:func:`.distribution.scatter_exact`)."""

    tuples: np.ndarray    # int64[T, n]: a holding row of ``H`` per player
    tweights: np.ndarray  # int64[T]: each combination's whole-number weight
    tmasks: np.ndarray    # uint64[T]: bits of the deck indices the combination uses
    known: np.ndarray     # uint8[b]: the board cards given
    deck: np.ndarray      # uint8[d]: the unseen cards
    k: int                # board cards to come
    subs: np.ndarray      # int64[s, j]: positions of a run-out's cards making each deal
    binom: np.ndarray     # int64[64, 9]: binomial coefficients
    cache: np.ndarray     # uint16[n or 1, slots]: Omaha no-flush values by board slot
    use_cache: int        # the holdings are the same every run (the cache is valid)
    cells: np.ndarray     # int64[3, cells]: each field of an outcome cell


class Scratch(NamedTuple):
    """``S``: one parallel chunk's scratch arrays (:func:`.exact.scratch`)."""

    c: np.ndarray      # int64[k + 1]: the run-out's colex combination
    deck: np.ndarray   # int64[d]: the unseen cards less a combination's holdings
    board: np.ndarray  # int64[5]: the board being evaluated
    rows: np.ndarray   # int64[n]: each player's holding row
    hv: np.ndarray     # int64[n]: each player's high value
    lv: np.ndarray     # int64[n]: each player's low value
    sel: np.ndarray    # int64[n]: each player's outcome cell
