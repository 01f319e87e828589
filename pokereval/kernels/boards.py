"""A small perfect hash of the five-card board rank multisets.

The Omaha kernels index per-board tables (a holding's no-flush cache, the
ranged players' pair table) by the board's rank multiset.  The general rank
perfect hash (``KT[0]``, 512 KB of offsets over 76,155 multisets of 0-7 cards)
costs a cache miss per board; the 6,175 five-card multisets alone fit a
row-displacement hash whose offsets are 23 KB (``key >> BOARD_SHIFT`` picks
one) and whose slots number about 7,250:

    slot = key + board_offset[key >> BOARD_SHIFT]      (0 <= slot < BOARD_SLOTS)

so a per-board table is a 16 KB column block per holding instead of 150 KB.
The offsets are the C library's (``csrc/pair_high.c``, built first-fit with its pair
table on first use, never stored): the C ranged sampler finds a board's pair-table row
through the same hash.
"""
from itertools import combinations_with_replacement

import numpy as np

from .._native import lib
from ._jit import jit

BOARD_SHIFT = int(lib.PE_BOARD_HASH_SHIFT)
BOARD_SLOTS = int(lib.PE_BOARD_HASH_SIZE)  # room for the slots (first-fit uses 7,245)
#: Table indices in the hot code are cast to unsigned: Numba adds a negative-index
#: fix-up (sign test, add, select) to every signed index, a fifth of a kernel's time.
U = np.uint64


@jit(inline=True)
def board_slot(key, board_offset):
    """The slot of a five-card board's rank ``key``."""
    return U(key + board_offset[U(key >> BOARD_SHIFT)])


def five_card_rank_multisets() -> list[tuple]:
    """The 6,175 multisets of five ranks (0..12) with at most four of a rank."""
    return [b for b in combinations_with_replacement(range(13), 5) if b[0] != b[4]]  # sorted
