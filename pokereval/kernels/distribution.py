"""Next-street distributions: every run-out walked once, scattered into its deals.

Equity on the flop, averaged over the turn and river, is the same sum for every
flop: rather than one exact run per flop (13,244 runs of 820 boards in Omaha),
:func:`scatter_exact` walks every five-card board once and adds each player's
share of the pot (in integer units) to each of the board's next-street deals:
the ``j``-subsets of its ``k`` new cards (10 flops in a five-card run-out).
With ``j == 0`` the key is the combination of holdings instead (a range's
equity holding by holding).

Players given as ranges come as combinations of holding rows (``tuples``,
whole-number ``tweights``); a run-out sharing a card with the combination is
skipped (``tmasks``: bits of the deck indices the combination uses).
"""
import numpy as np
from numba import prange

from ._jit import jit
from .boards import U
from .exact import next_colex, scratch, unrank_colex
from .handeval import (board_flush_suit, board_summary, board_values, omaha_holding_flush,
                       omaha_low_value, omaha_nonflush, outcome_cell, showdown)
from .structs import ScatterWalk

FIELDS = 3  # per deal and player: share units, scoops, low halves won or tied
#: Up to this many players a run-out adds one count to its deals' joint outcome
#: (who shares the high, who shares the low: 4 ** n columns, 2 ** n in a game with
#: one of them) instead of 3 fields a player: 10 additions a five-card board
#: instead of 60.
JOINT_PLAYERS = 3


@jit(inline=True)
def _values(KT, G, H, who, n, board, cache, use_cache, hv, lv):
    """Every player's (high, low) on the five-card ``board``; Omaha without the
    no-flush cache when the holdings change from run to run (ranges)."""
    key, low, packed = board_summary(KT, board)
    if use_cache or not G.omaha:
        board_values(KT, G, H, who, n, board, key, low, packed, cache, hv, lv)
        return
    fs, bsm = board_flush_suit(board, packed)
    for p in range(n):
        h = U(who[p])
        v = omaha_nonflush(H.pair_key[h], G.npairs, board, KT.card_w, KT.ph_offset, KT.hi_rank)
        hv[p] = omaha_holding_flush(KT, H, h, v, fs, bsm)
        lv[p] = omaha_low_value(KT, H.low[h], low) if G.has_low else 0


@jit(inline=True)
def _joint(G, n, hv, lv):
    """The showdown as ``high winners mask | low winners mask << n`` (bit p: player p
    has the best high / qualifying low; no low mask when none qualifies); a game
    without a high (razz) has the low mask alone, unshifted: ``2 ** n`` codes."""
    bh, _, bl, _ = showdown(G, n, hv, lv)
    shift = n if G.has_high else 0
    code = 0
    for q in range(n):
        if bh > 0 and hv[q] == bh:
            code |= 1 << q
        if bl > 0 and lv[q] == bl:
            code |= 1 << (q + shift)
    return code


@jit(hot=True)
def _scatter_range(KT, G, H, W, lo, hi, acc, den, S, cb):
    """Walk the flat (combination, run-out) indices [lo, hi) of ``W`` (a
    :class:`.structs.ScatterWalk`) into ``acc`` / ``den``, in the scratch arrays ``S``
    and ``cb`` (int64[k * j]: the run-out's cards' terms of a deal's colex rank)."""
    tuples, tweights, tmasks, known, deck, k, subs, binom, cache, use_cache, cells = W
    c, board, hv, lv, sel = S.c, S.board, S.hv, S.lv, S.sel
    n = tuples.shape[1]
    b0 = known.shape[0]
    nsub = subs.shape[0]
    j = subs.shape[1]
    runs = binom[deck.shape[0], k]
    for i in range(b0):
        board[i] = known[i]
    t = lo // runs
    unrank_colex(lo % runs, k, binom, c)
    r = lo % runs
    for _ in range(lo, hi):
        if r == runs:
            t += 1
            r = 0
            unrank_colex(0, k, binom, c)
        bits = np.uint64(0)
        for i in range(k):
            bits |= np.uint64(1) << np.uint64(c[i])
        if (bits & tmasks[t]) == 0:
            w = tweights[t]
            for i in range(k):
                board[b0 + i] = deck[c[i]]
            _values(KT, G, H, tuples[t], n, board, cache, use_cache, hv, lv)
            joint = n <= JOINT_PLAYERS
            code = 0
            if joint:
                code = _joint(G, n, hv, lv)
            else:
                bh, nh, bl, nl = showdown(G, n, hv, lv)
                for p in range(n):
                    row, col = outcome_cell(bh, nh, bl, nl, hv[p], lv[p])
                    sel[p] = row * (n + 2) + col
            if j > 0:  # each new card's terms of a deal's colex rank, read once
                for i in range(k):
                    for m in range(j):
                        cb[i * j + m] = binom[c[i], m + 1]
            for s in range(nsub):
                d = t
                if j > 0:
                    d = 0
                    for m in range(j):
                        d += cb[subs[s, m] * j + m]
                if joint:  # den is the sum of the row (scatter_exact): half the scatter
                    acc[d, code] += w
                else:
                    den[d] += w
                    for p in range(n):
                        for f in range(FIELDS):
                            acc[d, p * FIELDS + f] += w * cells[f, sel[p]]
        next_colex(c, k)
        r += 1


@jit(parallel=True)
def scatter_exact(KT, G, H, tuples, tweights, tmasks, known, deck, k, subs, ndeals, binom,
                  cache, use_cache, cells, fields, nch):
    """``(acc int64[ndeals, 3 * n], den int64[ndeals])`` over every combination of
    holdings (``tuples`` rows of ``H``) and every ``k``-card run-out of ``deck``, in
    ``nch`` chunks: field ``f`` of player ``p`` at ``3 * p + f``.

    Each chunk sums into columns: joint outcomes (see :func:`_joint`) up
    to JOINT_PLAYERS players, else the ``3 * n`` fields; ``fields[col]``: the fields a
    run-out of column ``col`` adds (the identity beyond JOINT_PLAYERS).
    A run-out's deals are the colex ranks (over ``deck`` indices) of its cards at the
    positions ``subs[s]`` (or, with ``subs`` of width 0, the combination's index);
    ``cells[f, cell]``: field ``f`` of an outcome cell (share units, scoop, low).
    """
    n = tuples.shape[1]
    total = tuples.shape[0] * binom[deck.shape[0], k]
    chunk = (total + nch - 1) // nch
    joint = n <= JOINT_PLAYERS
    ncols, nf = fields.shape
    # a chunk's sums are zeroed by the thread that fills them, and added up over the
    # chunks a slice of the deals a thread: nothing the size of the output is serial
    acc = np.empty((nch, ndeals, ncols), np.int64)
    den = np.empty((nch, ndeals), np.int64)
    W = ScatterWalk(tuples, tweights, tmasks, known, deck, k, subs, binom, cache, use_cache, cells)
    for ci in prange(nch):
        acc[ci] = 0
        den[ci] = 0
        lo = min(ci * chunk, total)
        hi = min(lo + chunk, total)
        _scatter_range(KT, G, H, W, lo, hi, acc[ci], den[ci], scratch(k, 0, n),
                       np.zeros(k * max(subs.shape[1], 1), np.int64))
    out = np.empty((ndeals, nf), np.int64)
    dsum = np.empty(ndeals, np.int64)
    for d in prange(ndeals):  # scalar loops: an array sum here becomes a parfor a deal
        for f in range(nf):
            out[d, f] = 0
        runs = 0
        for col in range(ncols):
            v = 0
            for ci in range(nch):
                v += acc[ci, d, col]
            if v:
                runs += v
                for f in range(nf):
                    out[d, f] += v * fields[col, f]
        if not joint:  # else every run-out is counted in one joint column of the deal
            runs = 0
            for ci in range(nch):
                runs += den[ci, d]
        dsum[d] = runs
    return out, dsum
