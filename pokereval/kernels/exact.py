"""Exhaustive enumeration of run-outs, with integer counters.

Combinations are walked in colexicographic order (:func:`unrank_colex`,
:func:`next_colex`); a kernel covers a range of ranks split into chunks run in
``prange`` (each chunk unranks its first combination, then steps to the next), so
Python can walk a big spot in batches (progress, Ctrl-C) and any batch / chunk split
gives the same counts.  (Fixed-hand board games are walked in C by board rank
multisets, ``csrc/board_exact.c``; the ranged kernels walk their run-outs here.)

Stud: each player's own missing cards (``mo`` of them) come from the unseen
cards ``U``; with the eight-handed rule one more card ``U[s]`` is shared by
all.  :func:`stud_tables` evaluates every player's hand for every ``mo``-subset
of ``U`` (and shared card) once; :mod:`.stud_walk` then walks the "outer"
index ``s * C + j0`` (shared card, player 1's subset) in ranges, and for each
the disjoint subsets of the other players depth-first, reading values from
the tables.

Every walk returns outcome counts ``int64[n, n + 1, n + 2]`` (see
:func:`pokereval.kernels.handeval.tally`).
"""
import numpy as np
from numba import prange

from ._jit import jit
from .handeval import prep_holdings, stud_values
from .structs import Scratch


@jit(inline=True)
def unrank_colex(r, k, binom, c):
    """Set ``c[:k]`` to the combination of colex rank ``r`` (``binom[n, j]`` = C(n, j))."""
    for i in range(k - 1, -1, -1):
        x = i
        while binom[x + 1, i + 1] <= r:
            x += 1
        c[i] = x
        r -= binom[x, i + 1]


@jit(inline=True)
def next_colex(c, k):
    """Step ``c[:k]`` to the next combination in colex order."""
    if k == 0:
        return
    i = 0
    while i < k - 1 and c[i] + 1 == c[i + 1]:
        c[i] = i
        i += 1
    c[i] += 1


@jit(inline=True)
def scratch(k, ndeck, n):
    """A parallel chunk's :class:`.structs.Scratch` for ``k``-card run-outs of ``ndeck``
    cards and ``n`` players."""
    return Scratch(np.zeros(k + 1, np.int64), np.zeros(ndeck, np.int64), np.zeros(5, np.int64),
                   np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                   np.zeros(n, np.int64))


@jit
def sum_chunks(out):
    """Sum per-chunk counters ``out[chunk, ...]`` over the chunks."""
    total = np.zeros(out.shape[1:], np.int64)
    for ci in range(out.shape[0]):
        total += out[ci]
    return total


# --------------------------------------------------------------------------
# Stud
# --------------------------------------------------------------------------

@jit
def combinations_of(u, m, binom):
    """All ``m``-subsets of ``range(u)`` in colex order: (int64[C, m], uint64 bit masks[C])."""
    count = binom[u, m]
    combos = np.zeros((count, m), np.int64)
    masks = np.zeros(count, np.uint64)
    c = np.zeros(m + 1, np.int64)
    for i in range(m):
        c[i] = i
    for j in range(count):
        bits = np.uint64(0)
        for i in range(m):
            combos[j, i] = c[i]
            bits |= np.uint64(1) << np.uint64(c[i])
        masks[j] = bits
        next_colex(c, m)
    return combos, masks


@jit(hot=True)
def _stud_fill(KT, G, hk, hl, hpack, hsm, unseen, combos, masks, mo, shared, lo, hi, hv, lv, cards):
    """Fill the value tables for the indices t = s * C + j in [lo, hi)."""
    n = hv.shape[0]
    count = hv.shape[2]
    for t in range(lo, hi):
        s = t // count
        j = t % count
        extra = -1
        if shared:
            if (masks[j] >> np.uint64(s)) & np.uint64(1):
                continue
            extra = np.int64(unseen[s])
        for i in range(mo):
            cards[i] = unseen[combos[j, i]]
        for p in range(n):
            a, b = stud_values(KT, G, p, hk, hl, hpack, hsm, cards, 0, mo, extra)
            hv[p, s, j] = a
            lv[p, s, j] = b


@jit(parallel=True)
def stud_tables(KT, G, known, unseen, mo, shared, binom):
    """Every player's (high, low) for every ``mo``-subset of ``unseen`` (and, when
    ``shared``, every shared card): ``(masks, hv[n, S, C], lv[n, S, C])``."""
    n = known.shape[0]
    u = unseen.shape[0]
    combos, masks = combinations_of(u, mo, binom)
    count = combos.shape[0]
    ns = u if shared else 1
    hk, hl, hpack, hsm, _ = prep_holdings(KT, known, 0)
    hv = np.zeros((n, ns, count), np.uint16)
    lv = np.zeros((n, ns, count), np.uint16)
    total = ns * count
    chunk = 4096
    nch = (total + chunk - 1) // chunk
    for ci in prange(nch):
        lo = ci * chunk
        hi = min(lo + chunk, total)
        _stud_fill(KT, G, hk, hl, hpack, hsm, unseen, combos, masks, mo, shared, lo, hi, hv, lv,
                   np.zeros(mo + 1, np.int64))
    return masks, hv, lv
