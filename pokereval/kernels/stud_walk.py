"""Exact stud: the walk over the players' disjoint subsets, the last player counted.

From the value tables of :func:`.exact.stud_tables` (every player's high / low for
every ``mo``-subset of the unseen cards and every shared card), the walk deals
players 0 .. n - 2 depth-first, each a subset that avoids the cards dealt before,
and keeps, at each depth, the best high and low so far and which players hold them
(two bit masks).  The last player's subsets are not tallied one by one: each is
only classed against the best so far (worse / equal / better in each half: 9
classes) and counted under the key (holders of the best high, holders of the best
low).  Every player's outcome follows from the key and the class alone, so at the
end of a chunk each (key, class) count is added to the outcome cells at once
(:func:`_expand`): a few nanoseconds per run-out instead of a showdown.

The outer index ``s * C + j0`` (shared card, player 0's subset) is split into
ranges as before: any split gives the same counts.
"""
import numpy as np
from numba import prange
from numba.cpython.unsafe.numbers import trailing_zeros

from ._jit import jit
from .exact import sum_chunks

#: The key has one bit per player but the last, for each half: 4 ** (n - 1) keys.
MAX_PLAYERS = 8


@jit(inline=True)
def _best(a, b, bit, h0, l0, th0, tl0):
    """Best high / low and their holders once the player ``bit`` shows (a, b), from the
    bests (h0, l0) held by (th0, tl0); without branches on the values."""
    th = bit if a > h0 else th0 | (bit * (a == h0))
    tl = bit if b > l0 else tl0 | (bit * ((b == l0) & (b > 0)))
    return max(a, h0), max(b, l0), th, tl


@jit(inline=True)
def _count_cards(G, hv, lv, q, s, B, L, th, tl, avail, acc):
    """The last player ``q`` with one card, each of the cards ``avail``: classed against
    the bests (B, L) held by (th, tl) and counted."""
    key = ((th if G[2] else 0) | (tl << q)) * 9
    while avail:
        j = np.int64(trailing_zeros(avail))
        avail &= avail - np.uint64(1)
        a = np.int64(hv[q, s, j])
        b = np.int64(lv[q, s, j])
        acc[key + ((a >= B) + (a > B)) * 3 + (b >= L) + (b > L)] += 1


@jit(hot=True)
def _walk_range(G, masks, hv, lv, shared, mo, lo, hi, acc, idx, rest, used, bh, bl, th, tl):
    """Count the run-outs of outer indices [lo, hi) into ``acc[key * 9 + class]``
    (scratch, one entry per depth: the subset dealt idx, the cards still free rest
    (mo == 1), the cards used, best high / low bh, bl and their holders th, tl)."""
    n = hv.shape[0]
    q = n - 1
    count = hv.shape[2]
    one = np.int64(1)
    # mo == 1: subset j is card j; the free cards are walked by their bits, not scanned
    full = (np.uint64(1) << np.uint64(count)) - np.uint64(1)
    for o in range(lo, hi):
        s = o // count
        j0 = o % count
        m0 = masks[j0]
        if shared:
            sb = np.uint64(1) << np.uint64(s)
            if m0 & sb:
                continue
            m0 |= sb
        bh[0] = hv[0, s, j0]
        bl[0] = lv[0, s, j0]
        th[0] = 1
        tl[0] = 1 if bl[0] > 0 else 0
        used[0] = m0
        p = 1
        idx[1] = -1
        rest[1] = full & ~m0
        while p >= 1:
            if p == q:
                # the last player: class each subset against the best of the others
                d = q - 1
                if mo == 1:
                    _count_cards(G, hv, lv, q, s, bh[d], bl[d], th[d], tl[d], full & ~used[d], acc)
                else:
                    key = ((th[d] if G[2] else 0) | (tl[d] << q)) * 9
                    B = bh[d]
                    L = bl[d]
                    for j in range(count):
                        if masks[j] & used[d]:
                            continue
                        a = np.int64(hv[q, s, j])
                        b = np.int64(lv[q, s, j])
                        acc[key + ((a >= B) + (a > B)) * 3 + (b >= L) + (b > L)] += 1
                p -= 1
                continue
            if mo == 1 and p == q - 1:
                # one card each: the last two players in two plain loops, off the stack
                d = p - 1
                free = full & ~used[d]
                r = free
                while r:
                    j = np.int64(trailing_zeros(r))
                    r &= r - np.uint64(1)
                    B, L, th1, tl1 = _best(np.int64(hv[p, s, j]), np.int64(lv[p, s, j]), one << p,
                                           bh[d], bl[d], th[d], tl[d])
                    _count_cards(G, hv, lv, q, s, B, L, th1, tl1,
                                 free & ~(np.uint64(1) << np.uint64(j)), acc)
                p -= 1
                continue
            # player p's next subset that avoids the cards dealt
            if mo == 1:
                r = rest[p]
                if r == 0:
                    p -= 1
                    continue
                j = np.int64(trailing_zeros(r))
                rest[p] = r & (r - np.uint64(1))
                mm = np.uint64(1) << np.uint64(j)
            else:
                idx[p] += 1
                j = idx[p]
                if j >= count:
                    p -= 1
                    continue
                mm = masks[j]
                if mm & used[p - 1]:
                    continue
            bh[p], bl[p], th[p], tl[p] = _best(np.int64(hv[p, s, j]), np.int64(lv[p, s, j]),
                                               one << p, bh[p - 1], bl[p - 1], th[p - 1],
                                               tl[p - 1])
            used[p] = used[p - 1] | mm
            p += 1
            idx[p] = -1
            rest[p] = full & ~used[p - 1]


@jit(hot=True)
def _expand(G, n, acc, out):
    """Add the counts ``acc[key * 9 + class]`` to every player's outcome cells ``out``.

    key: the players before the last holding the best high (bit p) and the best
    qualifying low (bit q + p); class: the last player's high, then low, against
    those bests: 0 worse, 1 equal, 2 better.
    """
    q = n - 1
    for key in range(acc.shape[0] // 9):
        th = key & ((1 << q) - 1)
        tl = key >> q
        nh = 0
        nl = 0
        for p in range(q):
            nh += (th >> p) & 1
            nl += (tl >> p) & 1
        for ch in range(3):
            for cl in range(3):
                c = acc[key * 9 + ch * 3 + cl]
                if c == 0:
                    continue
                # the last player's row / col, and whether the others keep theirs
                q_row = 0
                prefix_high = True
                if G[2]:
                    if ch == 2:
                        q_row = 1
                        prefix_high = False
                    elif ch == 1:
                        q_row = nh + 1
                q_col = 0
                prefix_low = True
                qualifies = False
                if G[3]:
                    qualifies = cl == 2 or tl != 0
                    if cl == 2:
                        q_col = 2
                        prefix_low = False
                    elif qualifies:
                        q_col = nl + 2 if cl == 1 else 1
                h_winners = nh + (1 if ch == 1 else 0)
                l_winners = nl + (1 if cl == 1 else 0)
                for p in range(q):
                    row = 0
                    if G[2] and prefix_high and (th >> p) & 1:
                        row = h_winners
                    col = 0
                    if qualifies:
                        col = 1
                        if prefix_low and (tl >> p) & 1:
                            col = 1 + l_winners
                    out[p, row, col] += c
                out[q, q_row, q_col] += c


@jit(parallel=True)
def stud_walk(G, masks, hv, lv, shared, mo, first, count, chunk):
    """Outcome counts over the outer indices ``[first, first + count)`` in chunks of
    ``chunk``, run in prange (see the module doc)."""
    n = hv.shape[0]
    nch = (count + chunk - 1) // chunk
    out = np.zeros((nch, n, n + 1, n + 2), np.int64)
    for ci in prange(nch):
        lo = first + ci * chunk
        hi = min(lo + chunk, first + count)
        acc = np.zeros((1 << (2 * (n - 1))) * 9, np.int64)
        _walk_range(G, masks, hv, lv, shared, mo, lo, hi, acc, np.zeros(n + 1, np.int64),
                    np.zeros(n + 1, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                    np.zeros(n, np.int64), np.zeros(n, np.int64))
        _expand(G, n, acc, out[ci])
    return sum_chunks(out)


def stud_exact(G, masks, hv, lv, shared, first, count, chunk):
    """Outcome counts ``int64[n, n + 1, n + 2]`` over the outer indices
    ``[first, first + count)`` of the tables ``(masks, hv, lv)`` of
    :func:`.exact.stud_tables`, in chunks of ``chunk`` outer indices."""
    n = hv.shape[0]
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"stud_exact: 2 to {MAX_PLAYERS} players, got {n}")
    mo = int(masks[0]).bit_length()  # the first subset in colex order is {0 .. mo - 1}
    return stud_walk(G, masks, hv, lv, bool(shared), mo, first, count, chunk)
