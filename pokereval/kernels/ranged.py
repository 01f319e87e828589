"""Kernels for players given as ranges: a holding drawn (Monte Carlo) or
walked (exact) per trial.

Every player owns a block of rows of the holding features ``H`` (see
:mod:`.handeval`): player ``p``'s holdings are rows ``[pstart[p], pstart[p] +
pcount[p])`` (one row for an exact hand).  The range data travel as one
:class:`.structs.RangeData` ``R``:

* ``prob``/``alias`` (by row): Walker alias table of each player's weights,
  ``prob`` a threshold on 53 random bits, ``alias`` a local row index;
  ``uniform[p]`` = 1 when all the player's weights are equal (no coin needed);
* ``masks`` uint64 (by row): the holding's cards as a bit mask;
* ``rest`` uint8[m, deck - c]: when exactly one player is a listed range (of
  ``m`` holdings), the Monte Carlo deck less each of its holdings (else empty);
* ``holes`` uint8[rows, c]: the holdings' cards;
* Omaha family: ``pclass[13 * r1 + r2]`` the class (0..90) of a pair of
  ranks, ``pair_high[slot * 91 + pc]`` (``T2``) the best no-flush 2 + 3 high of rank pair
  ``pc`` with the five-card board whose rank multiset has slot ``slot``
  (:func:`.boards.board_slot`).  With
  it, a holding's Omaha high costs one read per distinct hole rank pair
  instead of the 60 of a full 2 + 3 walk, for any number of holdings (the
  fixed-hand kernels' per-holding cache would need 16 KB a holding).

Players are of three kinds (``kind[p]``, a :class:`.structs.PlayerKind`): ``EXACT``
an exact hand, ``LISTED`` a listed range (its holdings drawn by weight), ``DEALT`` a
range of every holding of the unseen cards with equal weights (a random hand: dealt
from the deck like the board, no list).

Monte Carlo draws each listed player's holding from its weights, rejects the
trial when two holdings share a card (board, dead cards and exact hands were
removed before), then deals the random hands and the run-out from the
remaining cards: that samples the product of the weights conditioned on no
collision, the stated distribution, without bias (given the listed holdings,
every way to deal a random hand from the same number of remaining cards has the
same weight, so dealing it is exact and needs no rejection).  Trials are dealt
a block at a time (:func:`deal_trials`) and then evaluated.  Each chunk owns its
random stream and stops after ``nsamples`` *accepted* trials (or ``maxtry``
attempts), so a seed gives the same answer on any number of threads.
"""
import numpy as np
from numba import prange

from .._native import PH_SHIFT
from ._jit import jit
from .boards import U, board_slot
from .exact import next_colex, scratch, sum_chunks, unrank_colex
from .handeval import (board_flush_suit, board_summary, cards_values, holding_values,
                       stud_values, tally)
from .rng import seed_stream, xo_below, xo_next
from .structs import PlayerKind, TupleWalk

NPAIR_CLASSES = 91
TRIAL_BLOCK = 256  # trials dealt ahead of their evaluation
_ONE = np.uint64(1)


@jit(inline=True)
def board_values_rows(KT, G, H, kind, offs, cards, n, nc, board, key, low, packed, cache, pair_high,
                      pclass, hv, lv):
    """Fill ``hv[:n]``, ``lv[:n]`` on the five-card board for one trial: the values
    of :func:`.handeval.board_values`, the holdings found by how they were dealt.

    Player ``p`` of ``kind[p]`` ``EXACT`` is ``H`` row ``p`` with the
    per-player Omaha cache, as in the fixed-hand kernels; any other player (a listed
    holding, or every holding dealt from the deck) holds the ``nc`` cards
    ``cards[offs[p]:offs[p] + nc]``.  One call site per kind, so that the hand
    evaluator is inlined twice, not once per way of dealing (compile time)."""
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


@jit(inline=True)
def _draw(p, R, s0, s1, s2, s3):
    """A holding row of player ``p`` drawn by weight (alias method): ``(row, s0..s3)``."""
    pstart, pcount, prob, alias, uniform = R.pstart, R.pcount, R.prob, R.alias, R.uniform
    i, s0, s1, s2, s3 = xo_below(pcount[p], s0, s1, s2, s3)
    if uniform[p] == 0:
        x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
        if (x >> np.uint64(11)) >= prob[U(pstart[p] + i)]:
            i = alias[U(pstart[p] + i)]
    return U(pstart[p] + i), s0, s1, s2, s3


@jit(inline=True)
def _deal_from_rest(R, p, fixed, d, need, ntrials, maxtry, rows, dealt, s0, s1, s2, s3):
    """:func:`deal_trials` for one listed player ``p`` whose holdings' rest of the
    deck is precomputed (``R.rest``): copy the drawn holding's row and shuffle it,
    no card of the deal to reject."""
    rest = R.rest
    nr = rest.shape[1]
    t = 0
    tries = 0
    while t < ntrials and tries < maxtry:
        tries += 1
        h, s0, s1, s2, s3 = _draw(p, R, s0, s1, s2, s3)
        if fixed & R.masks[h]:
            continue  # shares a card with a one-holding range
        rows[t, p] = h
        r = h - U(R.pstart[p])
        for a in range(nr):
            d[a] = rest[r, a]
        for a in range(need):
            j, s0, s1, s2, s3 = xo_below(nr - a, s0, s1, s2, s3)
            j = U(j + a)
            c = d[j]
            d[j] = d[U(a)]
            d[U(a)] = c
            dealt[U(t), U(a)] = c
        t += 1
    return t, tries, s0, s1, s2, s3


@jit(inline=True)
def _deal_rejecting(R, kind, fixed, d, need, ntrials, maxtry, rows, dealt, s0, s1, s2, s3):
    """:func:`deal_trials` in general: reject attempts whose holdings collide, and
    move a listed holding's card met by the deal to the deck's tail."""
    n = kind.shape[0]
    masks = R.masks
    t = 0
    tries = 0
    while t < ntrials and tries < maxtry:
        tries += 1
        used = fixed
        ok = True
        for p in range(n):
            if kind[p] != PlayerKind.LISTED:
                continue
            h, s0, s1, s2, s3 = _draw(p, R, s0, s1, s2, s3)
            m = masks[h]
            if used & m:
                ok = False
                break
            used |= m
            rows[t, p] = h
        if not ok:
            continue
        hi = d.shape[0]  # partial Fisher-Yates over d[:hi]
        i = 0
        while i < need:
            j, s0, s1, s2, s3 = xo_below(hi - i, s0, s1, s2, s3)
            j = U(j + i)
            c = d[j]
            if (used >> np.uint64(c)) & _ONE:
                hi -= 1
                d[j] = d[U(hi)]
                d[U(hi)] = c
                continue
            d[j] = d[U(i)]
            d[U(i)] = c
            dealt[U(t), U(i)] = c
            i += 1
        t += 1
    return t, tries, s0, s1, s2, s3


@jit(hot=True)
def deal_trials(state, R, kind, d, need, ntrials, maxtry, rows, dealt):
    """Draw up to ``ntrials`` trials in at most ``maxtry`` attempts: ``(accepted, attempts)``.

    Trial ``t``: each listed player (``LISTED``) draws a holding row by weight (alias
    method) into ``rows[t, p]`` (other players: their first row; an exact hand's
    cards (``EXACT``) stay out of the deal), the attempt is rejected when two
    holdings share a card; then ``need`` cards are dealt uniformly from ``d``
    less those holdings into ``dealt[t, :need]`` (the ``DEALT`` players' holdings
    first, in player order, then the missing board cards).  A tight loop of its
    own, so the random state stays in registers."""
    pstart, masks = R.pstart, R.masks
    n = kind.shape[0]
    # the other players' rows and cards are the same every trial
    fixed = np.uint64(0)
    listed = -1
    for p in range(n):
        if kind[p] == PlayerKind.EXACT:
            fixed |= masks[U(pstart[p])]  # a one-holding range's cards may be in the deck
        elif kind[p] == PlayerKind.LISTED:
            listed = p
        for t in range(ntrials):
            rows[t, p] = pstart[p]
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    if R.rest.shape[0] > 0:
        t, tries, s0, s1, s2, s3 = _deal_from_rest(R, listed, fixed, d, need, ntrials, maxtry,
                                                   rows, dealt, s0, s1, s2, s3)
    else:
        t, tries, s0, s1, s2, s3 = _deal_rejecting(R, kind, fixed, d, need, ntrials, maxtry,
                                                   rows, dealt, s0, s1, s2, s3)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return t, tries


# --------------------------------------------------------------------------
# Monte Carlo
# --------------------------------------------------------------------------

@jit(hot=True)
def _board_chunk_r(KT, G, H, R, kind, known, d, k, state, nsamples, maxtry, cache, out, board,
                   rows, dealt, offs, hv, lv, info):
    n = kind.shape[0]
    nc = R.holes.shape[1]
    ndealt = 0
    for p in range(n):
        if kind[p] == PlayerKind.DEALT:
            ndealt += 1
    first = ndealt * nc  # the missing board cards follow the dealt holdings
    # where each player's cards are in a trial's row of ``dealt``: the dealt holdings in
    # player order, then the board cards, then copies of the listed holdings
    q = 0
    j = first + k
    for p in range(n):
        if kind[p] == PlayerKind.DEALT:
            offs[p] = q
            q += nc
        elif kind[p] == PlayerKind.LISTED:
            offs[p] = j
            j += nc
    holes = R.holes
    b0 = known.shape[0]
    for i in range(b0):
        board[i] = known[i]
    accepted = 0
    tries = 0
    while accepted < nsamples and tries < maxtry:
        got, t = deal_trials(state, R, kind, d, first + k, min(rows.shape[0], nsamples - accepted),
                             maxtry - tries, rows, dealt)
        tries += t
        for s in range(got):
            for i in range(k):
                board[U(b0 + i)] = dealt[s, U(first + i)]
            for p in range(n):
                if kind[p] == PlayerKind.LISTED:
                    h = U(rows[s, p])
                    o = U(offs[p])
                    for i in range(nc):
                        dealt[s, o + U(i)] = holes[h, U(i)]
            key, low, packed = board_summary(KT, board)
            board_values_rows(KT, G, H, kind, offs, dealt[s], n, nc, board, key, low, packed,
                              cache, R.pair_high, R.pclass, hv, lv)
            tally(G, n, hv, lv, out, 1)
        accepted += got
    info[0] = accepted
    info[1] = tries


@jit(parallel=True)
def board_mc_ranged(KT, G, H, R, kind, known, deck, k, seed, first_chunk, nchunks, chunk, total,
                    maxfactor, cache):
    """Board-game samples in chunks ``[first_chunk, first_chunk + nchunks)``:
    ``(counts int64[n, n + 1, n + 2], info int64[nchunks, 2])`` with
    ``info[c] = (accepted, attempts)``.  ``deck``: cards not on the board, dead
    or in an exact hand (ranged holdings' cards included); ``kind[p]``: see
    :func:`board_values_rows`."""
    n = kind.shape[0]
    nc = R.holes.shape[1]
    out = np.zeros((nchunks, n, n + 1, n + 2), np.int64)
    info = np.zeros((nchunks, 2), np.int64)
    for ci in prange(nchunks):
        g = first_chunk + ci
        ns = min(chunk, total - g * chunk)
        if ns > 0:
            _board_chunk_r(KT, G, H, R, kind, known, deck.astype(np.int64), k, seed_stream(seed, g),
                           ns, ns * maxfactor, cache, out[ci], np.zeros(5, np.int64),
                           np.zeros((TRIAL_BLOCK, n), np.int64),
                           np.zeros((TRIAL_BLOCK, n * nc + 5), np.int64), np.zeros(n, np.int64),
                           np.zeros(n, np.int64), np.zeros(n, np.int64), info[ci])
    return sum_chunks(out), info


@jit(hot=True)
def _stud_chunk_r(KT, G, H, R, kind, d, mo, shared, state, nsamples, maxtry, out, rows, dealt, hv,
                  lv, info):
    n = kind.shape[0]
    hk, hl, hpack, hsm, _ = H
    need = n * mo + (1 if shared else 0)
    accepted = 0
    tries = 0
    while accepted < nsamples and tries < maxtry:
        got, t = deal_trials(state, R, kind, d, need, min(rows.shape[0], nsamples - accepted),
                             maxtry - tries, rows, dealt)
        tries += t
        for s in range(got):
            cards = dealt[s]
            extra = cards[n * mo] if shared else -1
            for p in range(n):
                a, b = stud_values(KT, G, rows[s, p], hk, hl, hpack, hsm, cards, p * mo,
                                   (p + 1) * mo, extra)
                hv[p] = a
                lv[p] = b
            tally(G, n, hv, lv, out, 1)
        accepted += got
    info[0] = accepted
    info[1] = tries


@jit(parallel=True)
def stud_mc_ranged(KT, G, H, R, kind, unseen, mo, shared, seed, first_chunk, nchunks, chunk,
                   total, maxfactor):
    """Stud samples (see :func:`board_mc_ranged`); ``unseen``: cards not dead nor
    in an exact hand (ranged holdings' cards included); ``kind``: ``EXACT`` or ``LISTED``."""
    n = kind.shape[0]
    out = np.zeros((nchunks, n, n + 1, n + 2), np.int64)
    info = np.zeros((nchunks, 2), np.int64)
    for ci in prange(nchunks):
        g = first_chunk + ci
        ns = min(chunk, total - g * chunk)
        if ns > 0:
            _stud_chunk_r(KT, G, H, R, kind, unseen.astype(np.int64), mo, shared,
                          seed_stream(seed, g), ns, ns * maxfactor, out[ci],
                          np.zeros((TRIAL_BLOCK, n), np.int64),
                          np.zeros((TRIAL_BLOCK, n * mo + 1), np.int64), np.zeros(n, np.int64),
                          np.zeros(n, np.int64), info[ci])
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


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------

@jit
def pair_board_table(KT, board_keys, pair_keys):
    """``T2[bc * 91 + pc]``: best no-flush five-card high of rank pair ``pc``
    (rank key ``pair_keys[pc]``) plus three of the five board ranks of class
    ``bc`` (the ranks' card weights ``board_keys[bc, :5]``).  Entries for
    impossible combinations (five of a rank) are never read."""
    ph_offset, hi_rank = KT.ph_offset, KT.hi_rank
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
                        if (key >> PH_SHIFT) >= ph_offset.shape[0]:
                            continue
                        idx = key + ph_offset[key >> PH_SHIFT]
                        if idx >= 0 and idx < size:
                            v = hi_rank[idx]
                            if v > best:
                                best = v
            T2[b * npc + pc] = best
    return T2


@jit
def rest_of_deck_rows(holes, deck):
    """uint8[m, len(deck) - c]: ``deck`` less the cards of each holding of ``holes``
    (uint8[m, c]), in deck order.  A holding with a card outside the deck gets
    the first cards of the deck as filler (it is rejected before its row is read)."""
    m, c = holes.shape
    width = deck.shape[0] - c
    out = np.empty((m, width), np.uint8)
    for h in range(m):
        bits = np.uint64(0)
        for i in range(c):
            bits |= _ONE << U(holes[h, i])
        k = 0
        for i in range(deck.shape[0]):
            if k < width and not ((bits >> U(deck[i])) & _ONE):
                out[h, k] = deck[i]
                k += 1
    return out
