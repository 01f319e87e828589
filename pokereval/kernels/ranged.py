"""Kernels for players given as ranges, walked exactly: every compatible combination of
holdings (one player's row each) times every run-out.  (Monte Carlo of ranges is C's:
``csrc/ranged_mc.c``.)

Every player owns a block of rows of the holding features ``H`` (see
:mod:`.handeval`): player ``p``'s holdings are rows ``[pstart[p], pstart[p] +
pcount[p])`` (one row for an exact hand).  The range data travel as one
:class:`.structs.RangeData` ``R``:

* ``masks`` uint64 (by row): the holding's cards as a bit mask;
* ``holes`` uint8[rows, c]: the holdings' cards;
* Omaha family: ``pclass[13 * r1 + r2]`` the class (0..90) of a pair of
  ranks, ``pair_high[slot * 91 + pc]`` (``T2``) the best no-flush 2 + 3 high of rank pair
  ``pc`` with the five-card board whose rank multiset has slot ``slot``
  (:func:`.boards.board_slot`; the C library builds it, see
  :func:`pokereval.kernels.range_tables`).  With it, a holding's Omaha high costs one
  read per distinct hole rank pair instead of the 60 of a full 2 + 3 walk, for any number
  of holdings (the fixed-hand kernels' per-holding cache would need 16 KB a holding).

Players are of the kinds ``kind[p]`` (a :class:`.structs.PlayerKind`): ``EXACT`` an exact
hand, ``LISTED`` a listed range (walked holding by holding).
"""
import numpy as np
from numba import prange

from ._jit import jit
from .boards import U, board_slot
from .exact import next_colex, scratch, sum_chunks, unrank_colex
from .handeval import board_flush_suit, board_summary, cards_values, holding_values, tally
from .structs import PlayerKind, TupleWalk

NPAIR_CLASSES = 91
_ONE = np.uint64(1)


@jit(inline=True)
def board_values_rows(KT, G, H, kind, offs, cards, n, nc, board, key, low, packed, cache, pair_high,
                      pclass, hv, lv):
    """Fill ``hv[:n]``, ``lv[:n]`` on the five-card board for one combination of
    holdings: the values of :func:`.handeval.board_values`, each holding found by kind.

    Player ``p`` of ``kind[p]`` ``EXACT`` is ``H`` row ``p`` with the
    per-player Omaha cache, as in the fixed-hand kernels; a listed player holds the
    ``nc`` cards ``cards[offs[p]:offs[p] + nc]``.  One call site per kind, so that the
    hand evaluator is inlined twice, not once per kind (compile time)."""
    fs, bsm = board_flush_suit(board, packed)
    slot = board_slot(key, KT.board_offset) if G.omaha else U(0)
    base = np.int64(slot) * NPAIR_CLASSES
    for p in range(n):
        if kind[p] == PlayerKind.EXACT:
            hv[p], lv[p] = holding_values(KT, G, H, U(p), board, key, low, packed, fs, bsm, slot,
                                          cache)
        else:
            hv[p], lv[p] = cards_values(KT, G, cards, offs[p], nc, key, low, packed, fs, bsm,
                                        base, pair_high, pclass)


# --------------------------------------------------------------------------
# Exact: every compatible tuple of holdings x every run-out
# --------------------------------------------------------------------------

@jit
def compatible_tuples(pstart, pcount, masks, limit):
    """Every tuple of holding rows (one per player) whose holdings share no card,
    depth-first, as ``int32[T, n]``; stops after ``limit`` + 1 tuples (the
    caller treats more than ``limit`` as too many)."""
    n = pstart.shape[0]
    cap = 1024
    res = np.zeros((cap, n), np.int32)
    count = 0
    idx = np.zeros(n, np.int64)
    used = np.zeros(n + 1, np.uint64)
    p = 0
    idx[0] = -1
    while p >= 0:
        idx[p] += 1
        if idx[p] >= pcount[p]:
            p -= 1
            continue
        h = pstart[p] + idx[p]
        m = masks[h]
        if used[p] & m:
            continue
        if p == n - 1:
            if count == cap:
                cap *= 2
                bigger = np.zeros((cap, n), np.int32)
                bigger[:count] = res[:count]
                res = bigger
            for q in range(n - 1):
                res[count, q] = pstart[q] + idx[q]
            res[count, n - 1] = h
            count += 1
            if count > limit:
                break
            continue
        used[p + 1] = used[p] | m
        p += 1
        idx[p] = -1
    return res[:count].copy()


@jit(hot=True)
def _board_tuples(KT, G, H, R, kind, W, lo, hi, cache, out, S, cards, offs):
    """Walk the flat (combination, run-out) indices [lo, hi) of ``W`` (a
    :class:`.structs.TupleWalk`) into ``out[group]``, in the scratch arrays ``S``;
    ``cards``: each player's holding cards (at ``offs[p] = p * nc``) of the combination."""
    c, deck, board, rows, hv, lv = S.c, S.deck, S.board, S.rows, S.hv, S.lv
    tuples, tgroup, known, base, k, nruns, binom = W
    n = rows.shape[0]
    masks = R.masks
    holes = R.holes
    nc = holes.shape[1]
    for p in range(n):
        offs[p] = p * nc
    b0 = known.shape[0]
    for i in range(b0):
        board[i] = known[i]
    f = lo
    while f < hi:
        t = f // nruns
        r = f - t * nruns
        used = np.uint64(0)
        for p in range(n):
            rows[p] = tuples[t, p]
            used |= masks[rows[p]]
            for i in range(nc):
                cards[U(p * nc + i)] = holes[U(rows[p]), U(i)]
        nd = 0
        for i in range(base.shape[0]):
            card = base[i]
            if not ((used >> np.uint64(card)) & _ONE):
                deck[nd] = card
                nd += 1
        stop = min(hi, (t + 1) * nruns)
        g = tgroup[t]
        unrank_colex(r, k, binom, c)
        for _ in range(f, stop):
            for i in range(k):
                board[b0 + i] = deck[c[i]]
            key, low, packed = board_summary(KT, board)
            board_values_rows(KT, G, H, kind, offs, cards, n, nc, board, key, low, packed, cache,
                              R.pair_high, R.pclass, hv, lv)
            tally(G, n, hv, lv, out[g], 1)
            next_colex(c, k)
        f = stop


@jit(parallel=True)
def board_exact_ranged(KT, G, H, R, kind, tuples, tgroup, ngroups, known, base, k, nruns, first,
                       count, chunk, binom, cache):
    """Outcome counts ``int64[ngroups, n, n + 1, n + 2]`` over the flat indices
    ``[first, first + count)`` of (tuple ``f // nruns``, run-out ``f % nruns``);
    run-outs of a tuple are the ``k``-subsets (colex) of ``base`` less its cards.
    Counts go to the tuple's weight group ``tgroup[t]``; ``kind``: ``EXACT`` or ``LISTED`` (see
    :func:`board_values_rows`)."""
    n = tuples.shape[1]
    nch = (count + chunk - 1) // chunk
    out = np.zeros((nch, ngroups, n, n + 1, n + 2), np.int64)
    W = TupleWalk(tuples, tgroup, known, base, k, nruns, binom)
    for ci in prange(nch):
        lo = first + ci * chunk
        hi = min(lo + chunk, first + count)
        _board_tuples(KT, G, H, R, kind, W, lo, hi, cache, out[ci], scratch(k, base.shape[0], n),
                      np.zeros(n * R.holes.shape[1], np.int64), np.zeros(n, np.int64))
    return sum_chunks(out)
