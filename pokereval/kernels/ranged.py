"""Kernels for players given as ranges: a holding drawn (Monte Carlo) or
walked (exact) per trial.

Every player owns a block of rows of the holding features ``H`` (see
:mod:`.handeval`): player ``p``'s holdings are rows ``[pstart[p], pstart[p] +
pcount[p])`` (one row for an exact hand).  The range data travel as one tuple

``R = (pstart, pcount, prob, alias, uniform, masks, holes, pclass, T2, bclass)``

* ``prob``/``alias`` (by row): Walker alias table of each player's weights,
  ``prob`` a threshold on 53 random bits, ``alias`` a local row index;
  ``uniform[p]`` = 1 when all the player's weights are equal (no coin needed);
* ``masks`` uint64 (by row): the holding's cards as a bit mask;
* ``holes`` uint8[rows, c]: the holdings' cards;
* Omaha family: ``pclass[13 * r1 + r2]`` the class (0..90) of a pair of
  ranks, ``T2[bc * 91 + pc]`` the best no-flush 2 + 3
  high of rank pair ``pc`` with the five-card board rank class ``bc``
  (``bclass[perfect-hash index of the board's rank key]``, 0..6174).  With
  it, a holding's Omaha high costs one read per distinct hole rank pair
  instead of the 60 of a full 2 + 3 walk, for any number of holdings (the
  fixed-hand kernels' per-holding cache would need 150 KB a holding).

Monte Carlo draws each player's holding from its weights, rejects the trial
when two holdings share a card (board and dead cards were removed before),
then deals the run-out from the remaining cards: that samples the product of
the weights conditioned on no collision, the stated distribution, without bias.
Each chunk owns its random stream and stops after ``nsamples`` *accepted*
trials (or ``maxtry`` attempts), so a seed gives the same answer on any number
of threads.
"""
import numpy as np
from numba import prange

from ._jit import jit
from .exact import next_colex, sum_chunks, unrank_colex
from .handeval import board_flush_suit, board_summary, omaha_flush, omaha_high, stud_values, tally
from .rng import below, next_u64, seed_stream

NPAIR_CLASSES = 91
_ONE = np.uint64(1)


@jit(inline=True)
def draw_row(state, p, R):
    """A holding row of player ``p`` drawn by weight (alias method)."""
    pstart, pcount, prob, alias, uniform = R[0], R[1], R[2], R[3], R[4]
    c = pcount[p]
    s = pstart[p]
    if c == 1:
        return s
    i = below(state, c)
    if uniform[p] == 0:
        x = next_u64(state) >> np.uint64(11)
        if x >= prob[s + i]:
            i = alias[s + i]
    return s + i


@jit(inline=True)
def eval_board_rows(KT, G, H, R, rows, n, board, key, low, packed, cache, hv, lv):
    """Fill ``hv[:n]``, ``lv[:n]`` for holding rows ``rows[:n]`` on the five-card board.

    A player with one holding (an exact hand) reads its features from ``H``
    row ``p`` and the per-player Omaha cache, as the fixed-hand kernels do; a
    ranged player's holding is evaluated from its cards ``R[6][row]`` (one
    memory read per holding: wide ranges do not fit in the caches)."""
    hk, hl, hpack, hsm, pk = H
    pcount, holes, pclass, T2, bclass = R[1], R[6], R[7], R[8], R[9]
    card_w = KT[6]
    card_low = KT[7]
    fs, bsm = board_flush_suit(board, packed)
    nc = holes.shape[1]
    if G[0]:
        bidx = key + KT[0][key >> 8]
        base = np.int64(bclass[bidx]) * 91
        for p in range(n):
            if pcount[p] == 1:
                hv[p] = omaha_high(KT, p, G[1], pk, hsm, hpack, board, bidx, fs, bsm, cache)
                if G[3]:
                    lv[p] = np.int64(KT[5][(hl[p] << 8) | low])
                continue
            h = rows[p]
            v = np.int64(0)
            hlow = np.int64(0)
            smask = np.int64(0)
            scount = 0
            for i in range(nc):
                ci = np.int64(holes[h, i])
                hlow |= card_low[ci]
                if (ci & 3) == fs:
                    smask |= np.int64(1) << (ci >> 2)
                    scount += 1
                ri = (ci >> 2) * 13
                for j in range(i + 1, nc):
                    x = np.int64(T2[base + pclass[ri + (np.int64(holes[h, j]) >> 2)]])
                    if x > v:
                        v = x
            if scount >= 2:
                f = omaha_flush(smask, bsm, KT[3])
                if f > v:
                    v = f
            hv[p] = v
            if G[3]:
                lv[p] = np.int64(KT[5][(hlow << 8) | low])
    else:
        for p in range(n):
            if pcount[p] == 1:
                hkey = hk[p]
                hlow = hl[p]
                scount = (hpack[p] >> (fs << 2)) & 0xF if fs >= 0 else 0
                smask = hsm[p, fs] if fs >= 0 else 0
            else:
                h = rows[p]
                hkey = np.int64(0)
                hlow = np.int64(0)
                scount = 0
                smask = np.int64(0)
                for i in range(nc):
                    ci = np.int64(holes[h, i])
                    hkey += card_w[ci]
                    hlow |= card_low[ci]
                    if (ci & 3) == fs:
                        smask |= np.int64(1) << (ci >> 2)
                        scount += 1
            k7 = key + hkey
            v = np.int64(KT[1][k7 + KT[0][k7 >> 8]])
            if fs >= 0 and ((packed >> (fs << 2)) & 0xF) + scount >= 5:
                v = np.int64(KT[3][bsm | smask])
            hv[p] = v
            if G[3]:
                lv[p] = np.int64(KT[4][hlow | low])


@jit(inline=True)
def draw_holdings(state, R, n, rows):
    """Draw every player's holding; the union mask, or 0 when two collide.
    (The mask is built from the holding's cards: one memory read per holding.)"""
    holes = R[6]
    nc = holes.shape[1]
    used = np.uint64(0)
    for p in range(n):
        h = draw_row(state, p, R)
        m = np.uint64(0)
        for i in range(nc):
            m |= _ONE << np.uint64(holes[h, i])
        if used & m:
            return np.uint64(0)
        used |= m
        rows[p] = h
    return used


@jit(inline=True)
def deal_avoiding(state, d, need, used):
    """Move a uniform random ``need``-subset of the cards of ``d`` not in ``used``
    to ``d[:need]`` (partial Fisher-Yates; held cards met on the way are moved
    to the tail and skipped)."""
    hi = d.shape[0]
    i = 0
    while i < need:
        j = i + below(state, hi - i)
        t = d[j]
        if (used >> np.uint64(t)) & _ONE:
            hi -= 1
            d[j] = d[hi]
            d[hi] = t
            continue
        d[j] = d[i]
        d[i] = t
        i += 1


# --------------------------------------------------------------------------
# Monte Carlo
# --------------------------------------------------------------------------

@jit(hot=True)
def _board_chunk_r(KT, G, H, R, known, d, k, state, nsamples, maxtry, cache, out, board, rows,
                   hv, lv, info):
    n = rows.shape[0]
    b0 = known.shape[0]
    for i in range(b0):
        board[i] = known[i]
    accepted = 0
    tries = 0
    while accepted < nsamples and tries < maxtry:
        tries += 1
        used = draw_holdings(state, R, n, rows)
        if used == 0:
            continue
        deal_avoiding(state, d, k, used)
        for i in range(k):
            board[b0 + i] = d[i]
        key, low, packed = board_summary(KT, board)
        eval_board_rows(KT, G, H, R, rows, n, board, key, low, packed, cache, hv, lv)
        tally(G, n, hv, lv, out, 1)
        accepted += 1
    info[0] = accepted
    info[1] = tries


@jit(parallel=True)
def board_mc_ranged(KT, G, H, R, n, known, deck, k, seed, first_chunk, nchunks, chunk, total,
                    maxfactor, cache):
    """Board-game samples in chunks ``[first_chunk, first_chunk + nchunks)``:
    ``(counts int64[n, n + 1, n + 2], info int64[nchunks, 2])`` with
    ``info[c] = (accepted, attempts)``.  ``deck``: cards not on the board, dead
    or in an exact hand (ranged holdings' cards included)."""
    out = np.zeros((nchunks, n, n + 1, n + 2), np.int64)
    info = np.zeros((nchunks, 2), np.int64)
    for ci in prange(nchunks):
        g = first_chunk + ci
        ns = min(chunk, total - g * chunk)
        if ns > 0:
            _board_chunk_r(KT, G, H, R, known, deck.astype(np.int64), k, seed_stream(seed, g), ns,
                           ns * maxfactor, cache, out[ci], np.zeros(5, np.int64), np.zeros(n, np.int64),
                           np.zeros(n, np.int64), np.zeros(n, np.int64), info[ci])
    return sum_chunks(out), info


@jit(hot=True)
def _stud_chunk_r(KT, G, H, R, d, mo, shared, state, nsamples, maxtry, out, rows, hv, lv, info):
    n = rows.shape[0]
    hk, hl, hpack, hsm, _ = H
    need = n * mo + (1 if shared else 0)
    accepted = 0
    tries = 0
    while accepted < nsamples and tries < maxtry:
        tries += 1
        used = draw_holdings(state, R, n, rows)
        if used == 0:
            continue
        deal_avoiding(state, d, need, used)
        extra = d[n * mo] if shared else -1
        for p in range(n):
            a, b = stud_values(KT, G, rows[p], hk, hl, hpack, hsm, d, p * mo, (p + 1) * mo, extra)
            hv[p] = a
            lv[p] = b
        tally(G, n, hv, lv, out, 1)
        accepted += 1
    info[0] = accepted
    info[1] = tries


@jit(parallel=True)
def stud_mc_ranged(KT, G, H, R, n, unseen, mo, shared, seed, first_chunk, nchunks, chunk, total,
                   maxfactor):
    """Stud samples (see :func:`board_mc_ranged`); ``unseen``: cards not dead nor
    in an exact hand (ranged holdings' cards included)."""
    out = np.zeros((nchunks, n, n + 1, n + 2), np.int64)
    info = np.zeros((nchunks, 2), np.int64)
    for ci in prange(nchunks):
        g = first_chunk + ci
        ns = min(chunk, total - g * chunk)
        if ns > 0:
            _stud_chunk_r(KT, G, H, R, unseen.astype(np.int64), mo, shared, seed_stream(seed, g),
                          ns, ns * maxfactor, out[ci], np.zeros(n, np.int64),
                          np.zeros(n, np.int64), np.zeros(n, np.int64), info[ci])
    return sum_chunks(out), info


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
def _board_tuples(KT, G, H, R, tuples, tgroup, known, base, k, nruns, lo, hi, binom, cache, out,
                  c, deck, board, rows, hv, lv):
    n = rows.shape[0]
    masks = R[5]
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
            eval_board_rows(KT, G, H, R, rows, n, board, key, low, packed, cache, hv, lv)
            tally(G, n, hv, lv, out[g], 1)
            next_colex(c, k)
        f = stop


@jit(parallel=True)
def board_exact_ranged(KT, G, H, R, tuples, tgroup, ngroups, known, base, k, nruns, first,
                       count, chunk, binom, cache):
    """Outcome counts ``int64[ngroups, n, n + 1, n + 2]`` over the flat indices
    ``[first, first + count)`` of (tuple ``f // nruns``, run-out ``f % nruns``);
    run-outs of a tuple are the ``k``-subsets (colex) of ``base`` less its cards.
    Counts go to the tuple's weight group ``tgroup[t]``."""
    n = tuples.shape[1]
    nch = (count + chunk - 1) // chunk
    out = np.zeros((nch, ngroups, n, n + 1, n + 2), np.int64)
    for ci in prange(nch):
        lo = first + ci * chunk
        hi = min(lo + chunk, first + count)
        _board_tuples(KT, G, H, R, tuples, tgroup, known, base, k, nruns, lo, hi, binom, cache,
                      out[ci],
                      np.zeros(k + 1, np.int64), np.zeros(base.shape[0], np.int64),
                      np.zeros(5, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                      np.zeros(n, np.int64))
    return sum_chunks(out)


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------

@jit
def pair_board_table(KT, board_keys, pair_keys):
    """``T2[bc * 91 + pc]``: best no-flush five-card high of rank pair ``pc``
    (rank key ``pair_keys[pc]``) plus three of the five board ranks of class
    ``bc`` (the ranks' card weights ``board_keys[bc, :5]``).  Entries for
    impossible combinations (five of a rank) are never read."""
    ph_offset, hi_rank = KT[0], KT[1]
    nb = board_keys.shape[0]
    npc = pair_keys.shape[0]
    size = hi_rank.shape[0]
    T2 = np.zeros(nb * npc, np.uint16)
    for b in range(nb):
        for pc in range(npc):
            best = 0
            for i in range(3):
                for j in range(i + 1, 4):
                    for l in range(j + 1, 5):
                        key = pair_keys[pc] + board_keys[b, i] + board_keys[b, j] + board_keys[b, l]
                        if (key >> 8) >= ph_offset.shape[0]:
                            continue
                        idx = key + ph_offset[key >> 8]
                        if idx >= 0 and idx < size:
                            v = hi_rank[idx]
                            if v > best:
                                best = v
            T2[b * npc + pc] = best
    return T2


@jit
def alias_table(weights, out_prob, out_alias):
    """Walker / Vose alias table of ``weights`` (float64[m] > 0) into ``out_prob``
    (uint64 thresholds on 53 random bits) and ``out_alias`` (int64 local indices)."""
    m = weights.shape[0]
    total = 0.0
    for i in range(m):
        total += weights[i]
    q = np.empty(m, np.float64)
    for i in range(m):
        q[i] = weights[i] * m / total
    small = np.empty(m, np.int64)
    large = np.empty(m, np.int64)
    ns = 0
    nl = 0
    for i in range(m):
        if q[i] < 1.0:
            small[ns] = i
            ns += 1
        else:
            large[nl] = i
            nl += 1
    scale = float(1 << 53)
    while ns > 0 and nl > 0:
        ns -= 1
        s = small[ns]
        l = large[nl - 1]
        out_prob[s] = np.uint64(q[s] * scale)
        out_alias[s] = l
        q[l] = (q[l] + q[s]) - 1.0
        if q[l] < 1.0:
            nl -= 1
            small[ns] = l
            ns += 1
    for i in range(nl):
        out_prob[large[i]] = np.uint64(1 << 53)
        out_alias[large[i]] = large[i]
    for i in range(ns):
        out_prob[small[i]] = np.uint64(1 << 53)
        out_alias[small[i]] = small[i]
