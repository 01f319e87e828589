"""PQL's block kernels (:mod:`pokereval.query`): a block of trials dealt, and the values
a compiled query reads, for the whole block in one call each.

* :func:`deal_block` deals ``n`` rows of PQL's deal model (:mod:`pokereval.query.deal`):
  each listing (a ranged seat or a board range) draws a holding by weight (alias
  method), a deal with a card twice is redrawn as a whole, then the open columns get
  cards from the rest of the deck (partial Fisher-Yates, the listings' cards moved
  aside).  Chunk ``stream`` of ``seed`` owns its xoshiro stream (:mod:`.rng`): the same
  rows on any thread.
* :func:`street_values` the high and low value (the C library's scale, from its
  tables: :mod:`.handeval`) of every player on one street, for every row.
* :func:`showdown_block` river pot shares and the high / low winner counts.
* :func:`nut_low_block` the best Omaha eight-or-better low any two unseen cards make.
"""
import numpy as np

from ._jit import jit
from .boards import U, board_slot
from .handeval import (NPAIR_CLASSES, board_flush_suit, board_summary, cards_values, high_value,
                       low8_value, omaha_low_value, ph, razz_value)
from .rng import seed_stream, xo_below, xo_next

_ONE = np.uint64(1)


# --------------------------------------------------------------------------
# Dealing
# --------------------------------------------------------------------------

@jit
def deal_block(seed, stream, n, base, lcol, lwidth, lstart, lcount, luniform, prob, alias,
               masks, cards, fixed, deck, ocols):
    """``(rows uint8[n, width], dealt)``: ``n`` deals, or fewer (``dealt < n``) when the
    listings almost never fit together (fewer than one attempt in 1,000 after 200 per
    row, or 10,000 attempts per row).

    ``base`` uint8[width]: the fixed cards in place; listing ``l`` writes holding rows
    ``[lstart[l], lstart[l] + lcount[l])`` of ``cards`` (their first ``lwidth[l]``
    cards; ``masks`` their bit masks; ``prob`` / ``alias`` their alias table,
    ``luniform[l]`` = 1: equal weights, no coin) at column ``lcol[l]``; ``fixed``: the
    fixed cards' mask; ``deck``: the cards not fixed; ``ocols``: the open columns, in
    deal order."""
    rows = np.empty((n, base.shape[0]), np.uint8)
    pick = np.zeros(max(lcol.shape[0], 1), np.int64)
    dealt = _deal_rows(seed_stream(seed, stream), rows, pick, deck.astype(np.int64), base, lcol,
                       lwidth, lstart, lcount, luniform, prob, alias, masks, cards, fixed, ocols)
    return rows, dealt


@jit(hot=True)
def _deal_rows(state, rows, pick, d, base, lcol, lwidth, lstart, lcount, luniform, prob, alias,
               masks, cards, fixed, ocols):
    """:func:`deal_block`'s loop (no allocation, no reference counts: the random state in
    locals)."""
    n, width = rows.shape
    nl = lcol.shape[0]
    no = ocols.shape[0]
    nd = d.shape[0]
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    tries = 0
    most = 10_000 * n
    for t in range(n):
        used = fixed
        while True:
            tries += 1
            if tries > most or (tries > 200 * n and t * 1000 < tries):
                return t
            used = fixed
            ok = True
            for l in range(nl):
                i, s0, s1, s2, s3 = xo_below(lcount[l], s0, s1, s2, s3)
                h = lstart[l] + i
                if luniform[l] == 0:
                    x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
                    if (x >> np.uint64(11)) >= prob[U(h)]:
                        h = lstart[l] + alias[U(h)]
                m = masks[U(h)]
                if used & m:
                    ok = False
                    break
                used |= m
                pick[l] = h
            if ok:
                break
        for c in range(width):
            rows[t, c] = base[c]
        for l in range(nl):
            h = U(pick[l])
            col = lcol[l]
            for c in range(lwidth[l]):
                rows[t, col + c] = cards[h, c]
        hi = nd
        i = 0
        while i < no:
            j, s0, s1, s2, s3 = xo_below(hi - i, s0, s1, s2, s3)
            j = j + i
            c = d[j]
            if (used >> U(c)) & _ONE:  # a listed card: aside to the tail, draw again
                hi -= 1
                d[j] = d[hi]
                d[hi] = c
                continue
            d[j] = d[i]
            d[i] = c
            rows[t, ocols[i]] = c
            i += 1
    return n


# --------------------------------------------------------------------------
# Values on a street
# --------------------------------------------------------------------------

@jit(inline=True)
def _omaha_partial(KT, row, off, nc, bstart, kb):
    """Omaha high of hole ``row[off:off + nc]`` with a board of ``kb`` < 5 cards at
    ``bstart``: every two hole cards with every three board cards."""
    card_w = KT.card_w
    best = np.int64(0)
    for a in range(kb):
        for b in range(a + 1, kb):
            for e in range(b + 1, kb):
                ca = np.int64(row[bstart + a])
                cb = np.int64(row[bstart + b])
                ce = np.int64(row[bstart + e])
                t = card_w[U(ca)] + card_w[U(cb)] + card_w[U(ce)]
                same = (ca & 3) == (cb & 3) and (cb & 3) == (ce & 3)
                for i in range(nc):
                    ci = np.int64(row[off + i])
                    for j in range(i + 1, nc):
                        cj = np.int64(row[off + j])
                        if same and (ci & 3) == (ca & 3) and (cj & 3) == (ca & 3):
                            m = ((np.int64(1) << (ca >> 2)) | (np.int64(1) << (cb >> 2))
                                 | (np.int64(1) << (ce >> 2)) | (np.int64(1) << (ci >> 2))
                                 | (np.int64(1) << (cj >> 2)))
                            v = np.int64(KT.hi_flush[U(m)])
                        else:
                            v = np.int64(KT.hi_rank[ph(t + card_w[U(ci)] + card_w[U(cj)],
                                                       KT.ph_offset)])
                        if v > best:
                            best = v
    return best


@jit
def street_values(KT, G, T2, pclass, rows, nplayers, hw, m, bstart, kb, hi, lo):
    """Fill ``hi`` / ``lo`` (int64[nplayers, N]) with each player's high and low (0: none;
    razz: ``lo`` the razz value) on one street: player ``p`` holds ``rows[:, p * hw:
    p * hw + m]``, the board is ``rows[:, bstart:bstart + kb]`` (stud: ``kb`` 0).  Omaha
    family: exactly two hole cards and three of the board (``kb`` >= 3); else the best
    five of the ``m + kb`` >= 5 cards."""
    _street_rows(KT, G, T2, pclass, rows.reshape(-1), rows.shape[1], nplayers, hw, m, bstart,
                 kb, np.zeros(5, np.int64), hi, lo)


@jit(hot=True)
def _street_rows(KT, G, T2, pclass, flat, width, nplayers, hw, m, bstart, kb, board, hi, lo):
    """:func:`street_values` over the rows of ``flat`` (``width`` cards each), in the
    scratch ``board`` (no allocation, no reference counts: the value helpers inline)."""
    card_w = KT.card_w
    card_low = KT.card_low
    N = hi.shape[1]
    for t in range(N):
        row = flat[t * width:(t + 1) * width]
        if G.omaha and kb == 5:
            for i in range(5):
                board[i] = row[bstart + i]
            key, low, packed = board_summary(KT, board)
            fs, bsm = board_flush_suit(board, packed)
            base = np.int64(board_slot(key, KT.board_offset)) * NPAIR_CLASSES
            for p in range(nplayers):
                a, b = cards_values(KT, G, row, p * hw, m, key, low, packed, fs, bsm, base,
                                    T2, pclass)
                hi[p, t] = a
                lo[p, t] = b
            continue
        if G.omaha:
            blow = np.int64(0)
            for i in range(kb):
                blow |= card_low[U(row[bstart + i])]
            for p in range(nplayers):
                hi[p, t] = _omaha_partial(KT, row, p * hw, m, bstart, kb)
                if G.has_low:
                    hlow = np.int64(0)
                    for i in range(m):
                        hlow |= card_low[U(row[p * hw + i])]
                    lo[p, t] = omaha_low_value(KT, hlow, blow)
            continue
        bkey = np.int64(0)
        blow = np.int64(0)
        bpack = np.int64(0)
        for i in range(kb):
            c = np.int64(row[bstart + i])
            bkey += card_w[U(c)]
            blow |= card_low[U(c)]
            bpack += np.int64(1) << ((c & 3) << 2)
        for p in range(nplayers):
            key = bkey
            low = blow
            packed = bpack
            for i in range(m):
                c = np.int64(row[p * hw + i])
                key += card_w[U(c)]
                low |= card_low[U(c)]
                packed += np.int64(1) << ((c & 3) << 2)
            if G.has_high:
                flag = (packed + 0x3333) & 0x8888  # a suit with five or more cards
                fmask = np.int64(0)
                if flag:
                    s = 0 if flag & 0x8 else (1 if flag & 0x80 else (2 if flag & 0x800 else 3))
                    for i in range(m):
                        c = np.int64(row[p * hw + i])
                        if (c & 3) == s:
                            fmask |= np.int64(1) << (c >> 2)
                    for i in range(kb):
                        c = np.int64(row[bstart + i])
                        if (c & 3) == s:
                            fmask |= np.int64(1) << (c >> 2)
                hi[p, t] = high_value(KT, key, fmask)
            if G.has_low:
                lo[p, t] = razz_value(KT, key) if G.razz else low8_value(KT, low)


# --------------------------------------------------------------------------
# The showdown and the nut low
# --------------------------------------------------------------------------

@jit
def showdown_block(hi, lo, razz, eight, units):
    """``(shares int64[n, N], best high, high winners, best low, low winners)`` (each
    int64[N]) at the river, from each player's ``hi`` / ``lo`` (int64[n, N]): razz, the
    best ``lo`` takes the pot; else the best ``hi``, and with ``eight`` half of it goes
    to the best qualifying ``lo`` (> 0) when one is made (low winners then 0 when none
    is); ``units`` per pot, shared equally."""
    n, N = hi.shape
    shares = np.zeros((n, N), np.int64)
    bhs = np.zeros(N, np.int64)
    khs = np.zeros(N, np.int64)
    bls = np.zeros(N, np.int64)
    kls = np.zeros(N, np.int64)
    _showdown_rows(hi, lo, razz, eight, units, shares, bhs, khs, bls, kls)
    return shares, bhs, khs, bls, kls


@jit(hot=True)
def _showdown_rows(hi, lo, razz, eight, units, shares, bhs, khs, bls, kls):
    """:func:`showdown_block`'s loop, into its outputs."""
    n, N = hi.shape
    half = units // 2
    for t in range(N):
        bh = hi[0, t]
        bl = lo[0, t]
        for p in range(1, n):
            bh = max(bh, hi[p, t])
            bl = max(bl, lo[p, t])
        nh = 0
        nl = 0
        for p in range(n):
            nh += hi[p, t] == bh
            nl += lo[p, t] == bl
        if eight and bl <= 0:
            nl = 0
        bhs[t] = bh
        khs[t] = nh
        bls[t] = bl
        kls[t] = nl
        for p in range(n):
            if razz:
                s = units // nl if lo[p, t] == bl else 0
            else:
                s = units // nh if hi[p, t] == bh else 0
                if eight and nl > 0:
                    s = s // 2 + (half // nl if lo[p, t] == bl else 0)
            shares[p, t] = s


@jit
def nut_low_block(rows, hole_start, hw, bstart, kb, dead, table, low_rank):
    """Per row, the best Omaha eight-or-better low (0: none) of two cards unseen by the
    player (``rows[:, hole_start:hole_start + hw]``: not his, not on the board, not in
    ``dead``) on the board ``rows[:, bstart:bstart + kb]``: ``table[have << 8 | b]``,
    ``have`` the low ranks with a card unseen and ``b`` the board's low ranks (bit ``j``:
    rank ``low_rank[j]``)."""
    out = np.zeros(rows.shape[0], np.int64)
    _nut_low_rows(rows, hole_start, hw, bstart, kb, dead, table, low_rank, out)
    return out


@jit(hot=True)
def _nut_low_rows(rows, hole_start, hw, bstart, kb, dead, table, low_rank, out):
    """:func:`nut_low_block`'s loop, into ``out``."""
    for t in range(rows.shape[0]):
        seen = dead
        for i in range(hw):
            seen |= _ONE << U(rows[t, hole_start + i])
        b = 0
        for i in range(kb):
            c = U(rows[t, bstart + i])
            seen |= _ONE << c
            r = np.int64(c >> U(2))
            if r == 12:
                b |= 1
            elif r <= 6:
                b |= 1 << (r + 1)
        unseen = ~seen
        have = 0
        for j in range(8):
            if (unseen >> U(4 * low_rank[j])) & U(15):
                have |= 1 << j
        out[t] = table[U((have << 8) | b)]
