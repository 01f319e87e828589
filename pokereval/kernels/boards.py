"""A small perfect hash of the five-card board rank multisets.

The Omaha kernels index per-board tables (a holding's no-flush cache, the
ranged players' pair table) by the board's rank multiset.  The general rank
perfect hash (``KT[0]``, 512 KB of offsets over 76,155 multisets of 0-7 cards)
costs a cache miss per board; the 6,175 five-card multisets alone fit a
row-displacement hash whose offsets are 23 KB (``key >> BOARD_SHIFT`` picks
one) and whose slots number about 7,300:

    slot = key + board_offset[key >> BOARD_SHIFT]      (0 <= slot < BOARD_SLOTS)

so a per-board table is a 16 KB column block per holding instead of 150 KB.
Built first-fit at start-up (a few milliseconds), never stored.
"""
from itertools import combinations_with_replacement

import numpy as np

from ._jit import jit

BOARD_SHIFT = 12
BOARD_SLOTS = 8192  # room for the slots (first-fit uses 7,300)
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


@jit
def displacement_hash(keys, shift, size):
    """First-fit row displacement of distinct ``keys``: ``int32`` offsets with
    ``key + offset[key >> shift]`` distinct in ``[0, size)`` (rows with the most
    keys placed first); returns ``(offsets, slot of each key)``."""
    rows = keys >> shift
    nrows = rows.max() + 1
    count = np.zeros(nrows, np.int64)
    for r in rows:
        count[r] += 1
    start = np.zeros(nrows + 1, np.int64)
    for r in range(nrows):
        start[r + 1] = start[r] + count[r]
    cols = np.zeros(keys.shape[0], np.int64)
    fill = start[:-1].copy()
    for i in range(keys.shape[0]):
        r = rows[i]
        cols[fill[r]] = keys[i] & ((1 << shift) - 1)
        fill[r] += 1
    used = np.zeros(size + (1 << shift), np.bool_)
    offset = np.zeros(nrows, np.int32)
    for r in np.argsort(-count, kind="mergesort"):
        if count[r] == 0:
            break
        o = 0
        while True:
            free = True
            for j in range(start[r], start[r + 1]):
                if used[cols[j] + o]:
                    free = False
                    break
            if free:
                break
            o += 1
            if o >= size:
                raise ValueError("the keys do not fit the displacement table")
        for j in range(start[r], start[r + 1]):
            used[cols[j] + o] = True
        offset[r] = o - (r << shift)
    slots = keys + offset[rows].astype(np.int64)
    return offset, slots
