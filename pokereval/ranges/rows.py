"""NumPy helpers over holdings as rows of card indices (uint8, each row ascending).

Cards are 0..51, rank ``c >> 2`` (2 = 0 .. A = 12) and suit ``c & 3``.  A row's
cards as a 52-bit mask (:func:`row_masks`) tell rows apart and find collisions;
the shape keys pack a row's suit multiset (four 4-bit counts, clubs in the low
nibble) or its rank multiset (a base-13 number of its sorted ranks), so that a
test that sees only ranks (suits) runs once per distinct multiset.
"""

from __future__ import annotations

import math

from collections.abc import Iterable

import numpy as np

CARD_RANK = np.arange(52) >> 2
CARD_SUIT = np.arange(52) & 3
ALL_RANKS = (1 << 13) - 1
ALL_SUITS = 0b1111
ALL_CARDS = (1 << 52) - 1
_ONE = np.uint64(1)


def columns(rows: np.ndarray) -> np.ndarray:
    """The columns of ``rows``, each contiguous (arithmetic on them is fast)."""
    return np.ascontiguousarray(rows.T)


def row_masks(rows: np.ndarray) -> np.ndarray:
    """uint64 bit mask of each row's cards."""
    masks = np.zeros(len(rows), np.uint64)
    for col in columns(rows):
        masks |= np.left_shift(_ONE, col.astype(np.uint64))
    return masks


def unique_rows(rows: np.ndarray) -> np.ndarray:
    """Rows (sorted cards) without repeats, in mask order."""
    k = rows.shape[1]
    if k and math.comb(52, k) <= DENSE_UNION and 8 * len(rows) >= math.comb(52, k):
        # many rows of few possible sets: mark a dense table, no sort (a union of
        # wide 5-card stud alternatives: 0.9 s -> 0.1 s)
        seen = np.zeros(math.comb(52, k), bool)
        seen[colex_ranks(rows)] = True
        return colex_rows(np.flatnonzero(seen), k)
    keys = row_masks(rows)
    order = np.argsort(keys)
    keys = keys[order]
    first = np.ones(len(keys), bool)
    first[1:] = keys[1:] != keys[:-1]
    return rows[order[first]]


#: A union of alternatives of k-card holdings is merged in a dense table of every
#: k-card set (its colex rank) when there are at most this many (C(52, 5) fits): no
#: sort of the alternatives' rows (nine whole 5-card decks: 8.7 s -> well under 1 s).
DENSE_UNION = 3_000_000
_BINOM = np.array([[math.comb(c, i) for i in range(8)] for c in range(53)], dtype=np.int64)


def colex_ranks(rows: np.ndarray) -> np.ndarray:
    """int64 colex rank of each row (cards ascending) among the k-card sets: the order of
    the rows' bit masks."""
    rank = np.zeros(len(rows), np.int64)
    for i, col in enumerate(columns(rows)):
        rank += _BINOM[col.astype(np.int64), i + 1]
    return rank


def colex_rows(ranks: np.ndarray, k: int) -> np.ndarray:
    """The rows (cards ascending) of colex ``ranks`` of k-card sets."""
    rows = np.zeros((len(ranks), k), np.uint8)
    left = ranks.astype(np.int64).copy()
    for i in range(k, 0, -1):
        # the largest card c with C(c, i) <= left (C(c, i) grows with c)
        c = np.searchsorted(_BINOM[:, i], left, side="right") - 1
        rows[:, i - 1] = c
        left -= _BINOM[c, i]
    return rows


def dense_union(rows: list[np.ndarray], weights: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """The union of the alternatives ``rows`` (each of one ``weights`` value), a holding
    in several taking the largest: ``(rows in mask order, weights)``."""
    k = rows[0].shape[1]
    best = np.full(math.comb(52, k), -np.inf)
    for held, w in zip(rows, weights):
        if len(held) == len(best):  # every k-card set (rows unique): no ranks needed
            np.maximum(best, w, out=best)
            continue
        idx = colex_ranks(held)
        best[idx] = np.maximum(best[idx], w)
    keep = np.flatnonzero(best > -np.inf)
    return colex_rows(keep, k), best[keep]


def mask_of(cards: Iterable[int]) -> int:
    """The bits ``cards`` (card, rank or suit indices) as one int."""
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


def card_table(rmask: int, smask: int, cmask: int) -> np.ndarray:
    """bool[52]: the cards of an accepted rank, of an accepted suit and in ``cmask``."""
    bits = ((rmask >> CARD_RANK) & 1) & ((smask >> CARD_SUIT) & 1)
    if cmask != ALL_CARDS:
        bits = bits & np.array([(cmask >> c) & 1 for c in range(52)])
    return bits.astype(bool)


def suit_key(rows: np.ndarray) -> np.ndarray:
    """int32: each row's suit multiset, four 4-bit counts (clubs in the low nibble)."""
    key = np.zeros(len(rows), np.int32)
    for col in columns(rows):
        key += np.left_shift(np.int32(1), ((col & 3) << 2).astype(np.int32))
    return key


def rank_key(rows: np.ndarray) -> np.ndarray:
    """int32: each row's rank multiset, its sorted ranks as a base-13 number."""
    key = np.zeros(len(rows), np.int32)  # 13**7 < 2**31
    for col in columns(rows):  # rows are sorted, so their ranks are too
        key *= 13
        key += col >> 2
    return key


def compact(keys: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(distinct keys ascending, index of each key among them), like np.unique
    with return_inverse but linear when the key space is small."""
    if size > 1 << 22:
        return np.unique(keys, return_inverse=True)
    present = np.zeros(size, bool)
    present[keys] = True
    distinct = np.flatnonzero(present)
    where = np.zeros(size, np.int64)
    where[distinct] = np.arange(len(distinct))
    return distinct, where[keys]


def suit_counts_of(key) -> np.ndarray:
    """[..., 4]: the four suit counts packed in suit keys."""
    return np.stack([(key >> (4 * s)) & 15 for s in range(4)], axis=-1)


def rank_counts(rows: np.ndarray) -> np.ndarray:
    """int8 [N, 13]: how many cards of each rank a holding has."""
    counts = np.zeros((len(rows), 13), np.int8)
    at = np.arange(len(rows))
    for col in columns(rows):
        counts[at, col >> 2] += 1
    return counts


def rank_representatives(keys: np.ndarray, width: int) -> np.ndarray:
    """One holding (sorted cards) per rank-multiset key: suits 0, 1, ... within a rank."""
    ranks = np.stack([(keys // 13 ** (width - 1 - j)) % 13 for j in range(width)], axis=1)
    suits = np.zeros_like(ranks)
    for j in range(1, width):
        suits[:, j] = np.where(ranks[:, j] == ranks[:, j - 1], suits[:, j - 1] + 1, 0)
    return (4 * ranks + suits).astype(np.uint8)


def suit_representatives(keys: np.ndarray, width: int) -> np.ndarray:
    """One holding per packed suit-count key: card j has rank j (all ranks differ)."""
    counts = suit_counts_of(keys)
    suits = np.stack([np.repeat(np.arange(4), c) for c in counts]) if len(keys) else \
        np.zeros((0, width), np.int64)
    return (4 * np.arange(width) + suits).astype(np.uint8)

