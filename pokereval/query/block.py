"""The query layer's side of the block kernels (:mod:`pokereval.kernels.pql_block`): a
sampled block dealt in one kernel call, and the per-street values, the river showdown
and the nut low of a whole block, each in one call.

The kernels (and Numba) are imported on first use, so ``import pokereval`` stays light.
A table's deal plan (alias tables of its listings, the open columns) is built once per
table and kept on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .._native import alias_table
from ..ranges.rows import row_masks
from .deal import Block, Table, open_columns

__all__ = ["sample_block", "street_values", "showdown", "nut_low_values"]


@dataclass(frozen=True)
class _Plan:
    base: np.ndarray
    lcol: np.ndarray
    lwidth: np.ndarray
    lstart: np.ndarray
    lcount: np.ndarray
    luniform: np.ndarray
    prob: np.ndarray
    alias: np.ndarray
    masks: np.ndarray
    cards: np.ndarray
    fixed: np.uint64
    deck: np.ndarray
    ocols: np.ndarray


def _plan(table: Table) -> _Plan:
    plan = table.__dict__.get("_block_plan")
    if plan is None:
        plan = _build_plan(table)
        table.__dict__["_block_plan"] = plan  # a frozen dataclass: kept beside its fields
    return plan


def _build_plan(table: Table) -> _Plan:
    base = np.zeros(table.width, dtype=np.uint8)
    for p, s in enumerate(table.seats):
        if s.fixed:
            base[p * table.hole_width:p * table.hole_width + len(s.fixed)] = s.fixed
    base[table.board_start:table.board_start + len(table.board)] = table.board
    listings = table.listings()
    width = max([r.shape[1] for _, r, _ in listings], default=1)
    total = sum(len(r) for _, r, _ in listings)  # an upper bound (a repeated range is shared)
    cards = np.zeros((max(total, 1), width), dtype=np.uint8)
    masks = np.zeros(max(total, 1), dtype=np.uint64)
    prob = np.full(max(total, 1), np.uint64(1 << 53), dtype=np.uint64)
    alias = np.zeros(max(total, 1), dtype=np.int64)
    lcol, lwidth, lstart, lcount, luniform = [], [], [], [], []
    start = 0
    for i, (col, r, w) in enumerate(listings):
        m = len(r)
        same = next((j for j, (_, r2, w2) in enumerate(listings[:i])
                     if r2 is r or (r2.shape == r.shape and np.array_equal(r2, r)
                                    and np.array_equal(w2, w))), None)
        if same is not None:  # the same range again: its rows shared (half the memory read)
            lcol.append(col)
            for column in (lwidth, lstart, lcount, luniform):
                column.append(column[same])
            continue
        cards[start:start + m, :r.shape[1]] = r
        masks[start:start + m] = row_masks(r)
        uniform = bool(np.all(w == w[0]))
        if not uniform:
            alias_table(np.ascontiguousarray(w, dtype=np.float64), prob[start:start + m],
                        alias[start:start + m])
        lcol.append(col)
        lwidth.append(r.shape[1])
        lstart.append(start)
        lcount.append(m)
        luniform.append(1 if uniform else 0)
        start += m
    fixed = table.fixed_mask()
    deck = np.array([c for c in range(52) if not fixed >> c & 1], dtype=np.uint8)
    ocols = [c for col, count in open_columns(table) for c in range(col, col + count)]
    ints = lambda x: np.array(x, dtype=np.int64)  # noqa: E731
    return _Plan(base, ints(lcol), ints(lwidth), ints(lstart), ints(lcount), ints(luniform),
                 prob, alias, masks, cards, np.uint64(fixed), deck, ints(ocols))


def sample_block(table: Table, n: int, seed: int, stream: int) -> Block:
    """``n`` random deals of chunk ``stream`` of a run seeded ``seed`` (the trial model
    of :mod:`.deal`), dealt in one kernel call."""
    from ..kernels.pql_block import deal_block

    p = _plan(table)
    rows, dealt = deal_block(np.uint64(seed & ((1 << 64) - 1)), np.uint64(stream), n, p.base,
                             p.lcol, p.lwidth, p.lstart, p.lcount, p.luniform, p.prob, p.alias,
                             p.masks, p.cards, p.fixed, p.deck, p.ocols)
    if dealt < n:
        from .syntax import PqlError
        raise PqlError("the ranges almost never fit together (a card twice in nearly every "
                       "deal); narrow the ranges")
    return Block(rows, None)


@lru_cache(maxsize=None)
def _game_tables(game):
    from .. import kernels as K

    G = K.game_flags(game)
    T2, pclass = K.pair_tables(G)
    return K.kernel_tables(), G, T2, pclass


def street_values(table: Table, rows: np.ndarray, k: int):
    """``(hi, lo)`` int64[players, N] (C values; ``lo`` None without a low) of every
    player on the street that shows ``k`` cards (board cards, stud: a player's cards),
    or None where the kernel does not apply (fewer than five cards in a hand)."""
    g = table.game
    if g.stud:
        m, kb = k, 0
    else:
        m, kb = table.hole_width, k
    if (g.exactly_two and kb < 3) or (not g.exactly_two and m + kb < 5):
        return None
    from ..kernels.pql_block import street_values as kernel

    KT, G, T2, pclass = _game_tables(g)
    n, N = len(table.seats), len(rows)
    hi = np.zeros((n, N), dtype=np.int64)
    lo = np.zeros((n, N), dtype=np.int64)
    kernel(KT, G, T2, pclass, np.ascontiguousarray(rows, dtype=np.uint8), n,
           table.hole_width, m, table.board_start, kb, hi, lo)
    return hi, (lo if (g.eight or g.razz) else None)


def showdown(hi: np.ndarray | None, lo: np.ndarray | None, razz: bool, eight: bool,
             units: int):
    """(shares int64[n, N], best high, high winners, best low, low winners) at the river
    (see :func:`pokereval.kernels.pql_block.showdown_block`)."""
    from ..kernels.pql_block import showdown_block

    ref = hi if hi is not None else lo
    zero = np.zeros(ref.shape, dtype=np.int64)
    return showdown_block(np.ascontiguousarray(hi if hi is not None else zero, dtype=np.int64),
                          np.ascontiguousarray(lo if lo is not None else zero, dtype=np.int64),
                          razz, eight, units)


def nut_low_values(table: Table, rows: np.ndarray, p: int, k: int, dead: int,
                   low_table: np.ndarray, pairs: np.ndarray, low_rank: np.ndarray) -> np.ndarray:
    """Per row of ``rows``, the best Omaha eight-or-better low two cards unseen by ``p``
    make on the board's first ``k`` cards (see :func:`pokereval.query.nested.nut_low`):
    ``low_table`` [pairs, 256] the low of each low rank pair with each board low rank
    set, read through :func:`_nut_table` (the best pair of each set of unseen ranks)."""
    from ..kernels.pql_block import nut_low_block

    return nut_low_block(np.ascontiguousarray(rows, dtype=np.uint8), p * table.hole_width,
                         table.hole_width, table.board_start, k, np.uint64(dead),
                         _nut_table(low_table, pairs),
                         np.ascontiguousarray(low_rank, dtype=np.int64))


_NUT_TABLES: dict[int, np.ndarray] = {}


def _nut_table(low_table: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """uint16[256 * 256]: at ``have << 8 | b``, the best ``low_table[i, b]`` of the pairs
    ``pairs[i]`` with both ranks in the set ``have``."""
    hit = _NUT_TABLES.get(id(low_table))
    if hit is None:
        have = np.arange(256)[:, None]
        inside = ((have >> pairs[:, 0]) & (have >> pairs[:, 1]) & 1).astype(bool)  # [256, 28]
        values = np.where(inside[:, :, None], low_table[None, :, :], 0)  # [256, 28, 256]
        hit = np.ascontiguousarray(values.max(axis=1).astype(np.uint16).reshape(-1))
        _NUT_TABLES[id(low_table)] = hit
    return hit
