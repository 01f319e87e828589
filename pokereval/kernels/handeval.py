"""The kernels' one hand-value layer: values from the C library's lookup tables,
and the showdown tally.

Everything here is ``@jit`` (nopython, cached) and reads the tables it is given
as arguments: ``KT`` a :class:`.structs.Tables`, ``G`` the
:class:`.structs.GameFlags`, ``H`` the :class:`.structs.Holdings`.  Every board
kernel (exact and Monte Carlo, fixed hands and ranges, distributions, the
starting-hand tables) gets a holding's value from the same functions below; the
kernels differ only in how they deal.

Cards are ints ``4 * rank + suit``.  Suits of a set of cards are tracked as a
"packed" integer with one 4-bit counter per suit (``1 << 4 * suit`` per card):
``(packed + 0x5555) & 0x8888`` flags a suit with >= 3 cards (five-card boards),
``(packed + 0x3333) & 0x8888`` one with >= 5 cards (seven-card hands).

Per holding (a player's hole cards, or a stud player's known cards) the kernels
use precomputed features, one row per holding, built by :func:`prep_holdings`:
rank key, low-rank bits, packed suit counters, rank mask per suit and (Omaha)
the rank key of each pair of hole cards.

Values: high and low are integers, larger is better; a low of 0 does not
qualify.  ``G.has_low`` = a low is contested (eight-or-better, or razz when
``G.razz``); razz has no high.
"""
import numpy as np

from .._native import PH_SHIFT
from ._jit import jit
from .boards import BOARD_SLOTS, U, board_slot
from .structs import Holdings

#: Rank pairs {r1, r2} (r1 <= r2): the columns of a board's row of the pair table ``T2``
#: (:func:`pokereval.kernels.range_tables`).
NPAIR_CLASSES = 91


@jit(inline=True)
def ph(key, ph_offset):
    """Perfect-hash index of a rank key (the C library's ``pe_ph_index``: ``PH_SHIFT``
    is its ``PE_PH_SHIFT``, a constant of the compiled code)."""
    return U(key + ph_offset[U(key >> PH_SHIFT)])


@jit(inline=True)
def suit_of_flag(flag):
    """The suit whose counter set bit 3 in ``flag`` (a ``... & 0x8888`` result with one bit)."""
    if flag & 0x8:
        return 0
    if flag & 0x80:
        return 1
    if flag & 0x800:
        return 2
    return 3


# --------------------------------------------------------------------------
# Values of five to seven cards: the only reads of the value tables
# --------------------------------------------------------------------------

@jit(inline=True)
def high_value(KT, key, fmask):
    """High value of five to seven cards of rank ``key``; ``fmask``: the rank mask of
    their suit with five or more cards (0: none, no flush possible)."""
    if fmask:
        return np.int64(KT.hi_flush[U(fmask)])
    return np.int64(KT.hi_rank[ph(key, KT.ph_offset)])


@jit(inline=True)
def low8_value(KT, lowmask):
    """Eight-or-better low of the cards whose low-rank bits OR to ``lowmask`` (0: none)."""
    return np.int64(KT.low8[U(lowmask)])


@jit(inline=True)
def razz_value(KT, key):
    """Razz (ace-to-five) low of five to seven cards of rank ``key``."""
    return np.int64(KT.razz_rank[ph(key, KT.ph_offset)])


@jit(inline=True)
def omaha_low_value(KT, hlow, blow):
    """Best 2 + 3 eight-or-better low of hole cards / board with low bits ``hlow`` / ``blow``."""
    return np.int64(KT.omaha_low8[U((hlow << 8) | blow)])


# --------------------------------------------------------------------------
# Holding features
# --------------------------------------------------------------------------

@jit
def holding_features(KT, holes, omaha):
    """The fields ``(hk, hl, hpack, hsm, pk)`` of :class:`.structs.Holdings` for each row
    of ``holes`` (uint8[h, ncards]); ``pk`` has one column per hole pair when ``omaha``
    (else a single unused column).  A plain tuple: Python callers wrap it (see
    :func:`pokereval.kernels.prep_holdings`)."""
    card_w = KT.card_w
    card_low = KT.card_low
    nh = holes.shape[0]
    nc = holes.shape[1]
    npairs = nc * (nc - 1) // 2 if omaha else 1
    hk = np.zeros(nh, np.int64)
    hl = np.zeros(nh, np.int64)
    hpack = np.zeros(nh, np.int64)
    hsm = np.zeros((nh, 4), np.int64)
    pk = np.zeros((nh, npairs), np.int64)
    for h in range(nh):
        for i in range(nc):
            c = np.int64(holes[h, i])
            hk[h] += card_w[c]
            hl[h] |= card_low[c]
            hpack[h] += np.int64(1) << ((c & 3) << 2)
            hsm[h, c & 3] |= np.int64(1) << (c >> 2)
        if omaha:
            q = 0
            for i in range(nc):
                for j in range(i + 1, nc):
                    pk[h, q] = card_w[np.int64(holes[h, i])] + card_w[np.int64(holes[h, j])]
                    q += 1
    return hk, hl, hpack, hsm, pk


@jit
def prep_holdings(KT, holes, omaha):
    """:class:`.structs.Holdings` of each row of ``holes``, inside the kernels."""
    hk, hl, hpack, hsm, pk = holding_features(KT, holes, omaha)
    return Holdings(hk, hl, hpack, hsm, pk)


@jit(inline=True)
def _suited(c, fs, mask, count):
    """Add card ``c`` to the rank ``mask`` / ``count`` of suit ``fs`` when it is of that suit."""
    if (c & 3) == fs:
        return mask | (np.int64(1) << (c >> 2)), count + 1
    return mask, count


@jit(inline=True)
def cards_features(KT, src, off, nc, fs):
    """``(rank key, low bits, rank mask and count of suit fs)`` of the holding given as
    the cards ``src[off:off + nc]`` (what :class:`.structs.Holdings` precomputes);
    four cards written out (the hot case: Omaha ranges)."""
    card_w = KT.card_w
    card_low = KT.card_low
    smask = np.int64(0)
    scount = 0
    o = U(off)
    if nc == 4:
        c0 = np.int64(src[o])
        c1 = np.int64(src[o + U(1)])
        c2 = np.int64(src[o + U(2)])
        c3 = np.int64(src[o + U(3)])
        key = card_w[U(c0)] + card_w[U(c1)] + card_w[U(c2)] + card_w[U(c3)]
        low = card_low[U(c0)] | card_low[U(c1)] | card_low[U(c2)] | card_low[U(c3)]
        if fs >= 0:
            smask, scount = _suited(c0, fs, smask, scount)
            smask, scount = _suited(c1, fs, smask, scount)
            smask, scount = _suited(c2, fs, smask, scount)
            smask, scount = _suited(c3, fs, smask, scount)
        return key, low, smask, scount
    key = np.int64(0)
    low = np.int64(0)
    for i in range(nc):
        c = np.int64(src[o + U(i)])
        key += card_w[U(c)]
        low |= card_low[U(c)]
        smask, scount = _suited(c, fs, smask, scount)
    return key, low, smask, scount


# --------------------------------------------------------------------------
# A five-card board
# --------------------------------------------------------------------------

@jit(inline=True)
def board_summary(KT, board):
    """(rank key, low mask, packed suits) of a five-card board."""
    card_w = KT.card_w
    card_low = KT.card_low
    key = np.int64(0)
    low = np.int64(0)
    packed = np.int64(0)
    for i in range(5):
        c = U(board[i])
        key += card_w[c]
        low |= card_low[c]
        packed += np.int64(1) << np.int64((c & U(3)) << U(2))
    return key, low, packed


@jit(inline=True)
def board_flush_suit(board, packed):
    """(suit with >= 3 of the five board cards or -1, that suit's board rank mask);
    ``packed``: the board's 4-bit suit counts (a count of 3 plus 5 sets bit 3)."""
    flag = (packed + 0x5555) & 0x8888
    fs = -1
    bsm = np.int64(0)
    if flag:
        fs = suit_of_flag(flag)
        for i in range(5):
            c = np.int64(board[i])
            if (c & 3) == fs:
                bsm |= np.int64(1) << (c >> 2)
    return fs, bsm


@jit(inline=True)
def board_high(KT, bkey, bpacked, fs, bsm, hkey, hcount, hmask):
    """High value of hole cards (any of them: hold'em) on a five-card board:
    ``hkey`` their rank key, ``hcount`` / ``hmask`` their count / rank mask in the
    board's flush suit ``fs`` (-1: none; ``bsm`` its board rank mask)."""
    fmask = np.int64(0)
    if fs >= 0 and ((bpacked >> (fs << 2)) & 0xF) + hcount >= 5:
        fmask = bsm | hmask
    return high_value(KT, bkey + hkey, fmask)


@jit(inline=True)
def holding_high(KT, H, h, bkey, bpacked, fs, bsm):
    """:func:`board_high` of holding row ``h`` of ``H``."""
    hcount = 0
    hmask = np.int64(0)
    if fs >= 0:
        hcount = (H.packed[h] >> (fs << 2)) & 0xF
        hmask = H.suit_mask[h, U(fs)]
    return board_high(KT, bkey, bpacked, fs, bsm, H.key[h], hcount, hmask)


# --------------------------------------------------------------------------
# Omaha family (exactly two hole cards and three board cards)
# --------------------------------------------------------------------------

@jit(inline=True)
def omaha_nonflush(pk_row, npairs, board, card_w, ph_offset, hi_rank):
    """Best 2+3 high value ignoring flushes, for a five-card ``board``."""
    best = 0
    for i in range(3):
        wi = card_w[U(board[i])]
        for j in range(i + 1, 4):
            wij = wi + card_w[U(board[j])]
            for l in range(j + 1, 5):
                t = wij + card_w[U(board[l])]
                for q in range(npairs):
                    key = pk_row[q] + t
                    v = np.int64(hi_rank[ph(key, ph_offset)])
                    if v > best:
                        best = v
    return best


@jit(inline=True)
def omaha_flush(hmask, bmask, hi_flush):
    """Best flush / straight flush from 2 of the hole ranks ``hmask`` and 3 of the
    board ranks ``bmask`` of one suit (0 if either has too few cards)."""
    best = 0
    h1 = hmask
    while h1:
        a = h1 & -h1
        h1 ^= a
        h2 = h1
        while h2:
            b = h2 & -h2
            h2 ^= b
            ab = a | b
            x1 = bmask
            while x1:
                c = x1 & -x1
                x1 ^= c
                x2 = x1
                while x2:
                    d = x2 & -x2
                    x2 ^= d
                    x3 = x2
                    while x3:
                        e = x3 & -x3
                        x3 ^= e
                        v = np.int64(hi_flush[U(ab | c | d | e)])
                        if v > best:
                            best = v
    return best


@jit(inline=True)
def omaha_with_flush(KT, v, fs, bsm, hcount, hmask):
    """Omaha high from the no-flush best ``v``: the flushes too when the board has
    three of suit ``fs`` and the holding ``hcount`` >= 2 (rank mask ``hmask``) of it."""
    if fs >= 0 and hcount >= 2:
        f = omaha_flush(hmask, bsm, KT.hi_flush)
        if f > v:
            v = f
    return v


@jit(inline=True)
def omaha_holding_flush(KT, H, h, v, fs, bsm):
    """:func:`omaha_with_flush` for holding row ``h`` of ``H``."""
    if fs >= 0:
        v = omaha_with_flush(KT, v, fs, bsm, (H.packed[h] >> (fs << 2)) & 0xF,
                             H.suit_mask[h, U(fs)])
    return v


@jit(inline=True)
def omaha_high(KT, h, npairs, pk, hsm, hpack, board, slot, fs, bsm, cache):
    """Omaha high of holding ``h`` on the five-card ``board``.

    ``slot``: the board's slot (:func:`.boards.board_slot`, unsigned);
    ``fs``: the suit with >= 3 board cards or -1; ``bsm``: that suit's board
    rank mask.  ``cache[h, slot]`` holds the no-flush best (0 = not yet known).
    """
    h = U(h)
    v = np.int64(cache[h, slot])
    if v == 0:
        v = omaha_nonflush(pk[h], npairs, board, KT.card_w, KT.ph_offset, KT.hi_rank)
        cache[h, slot] = v
    if fs >= 0:
        v = omaha_with_flush(KT, v, fs, bsm, (hpack[h] >> (fs << 2)) & 0xF, hsm[h, U(fs)])
    return v


@jit(inline=True)
def omaha_pairs_high(src, off, nc, base, T2, pclass):
    """Best no-flush 2 + 3 high of the hole cards ``src[off:off + nc]`` from the pair
    table ``T2`` (:func:`pokereval.kernels.range_tables`, the board's row at ``base``):
    one read per pair of hole cards, written out for four cards (the hot case)."""
    b = U(base)
    o = U(off)
    if nc == 4:
        r0 = U(np.int64(src[o]) >> 2) * U(13)
        r1 = U(np.int64(src[o + U(1)]) >> 2) * U(13)
        r2 = U(np.int64(src[o + U(2)]) >> 2) * U(13)
        k1 = U(np.int64(src[o + U(1)]) >> 2)
        k2 = U(np.int64(src[o + U(2)]) >> 2)
        k3 = U(np.int64(src[o + U(3)]) >> 2)
        v = max(np.int64(T2[b + U(pclass[r0 + k1])]), np.int64(T2[b + U(pclass[r0 + k2])]))
        v = max(v, np.int64(T2[b + U(pclass[r0 + k3])]))
        v = max(v, np.int64(T2[b + U(pclass[r1 + k2])]))
        v = max(v, np.int64(T2[b + U(pclass[r1 + k3])]))
        return max(v, np.int64(T2[b + U(pclass[r2 + k3])]))
    v = np.int64(0)
    for i in range(nc):
        ri = (np.int64(src[off + i]) >> 2) * 13
        for j in range(i + 1, nc):
            v = max(v, np.int64(T2[base + pclass[ri + (np.int64(src[off + j]) >> 2)]]))
    return v


# --------------------------------------------------------------------------
# Best five of seven (stud)
# --------------------------------------------------------------------------

@jit(inline=True)
def high7(KT, key, packed, hsm_row, cards, start, stop, extra):
    """High value of a holding plus ``cards[start:stop]`` plus ``extra`` (-1: none),
    given the total rank ``key`` and ``packed`` suit counters of all the cards."""
    flag = (packed + 0x3333) & 0x8888
    mask = np.int64(0)
    if flag:
        s = suit_of_flag(flag)
        mask = hsm_row[s]
        for i in range(start, stop):
            c = np.int64(cards[i])
            if (c & 3) == s:
                mask |= np.int64(1) << (c >> 2)
        if extra >= 0 and (extra & 3) == s:
            mask |= np.int64(1) << (extra >> 2)
    return high_value(KT, key, mask)


@jit(inline=True)
def stud_values(KT, G, h, hk, hl, hpack, hsm, cards, start, stop, extra):
    """(high, low) of stud holding ``h`` completed with ``cards[start:stop]`` and
    ``extra`` (-1: none): low is eight-or-better (0 = none), or razz when G[4]."""
    card_w = KT[6]
    card_low = KT[7]
    key = hk[h]
    low = hl[h]
    packed = hpack[h]
    for i in range(start, stop):
        c = np.int64(cards[U(i)])
        key += card_w[U(c)]
        low |= card_low[U(c)]
        packed += np.int64(1) << ((c & 3) << 2)
    if extra >= 0:
        key += card_w[U(extra)]
        low |= card_low[U(extra)]
        packed += np.int64(1) << ((extra & 3) << 2)
    hv = np.int64(0)
    lv = np.int64(0)
    if G[2]:
        hv = high7(KT, key, packed, hsm[h], cards, start, stop, extra)
    if G[3]:
        if G[4]:
            lv = razz_value(KT, key)
        else:
            lv = low8_value(KT, low)
    return hv, lv


# --------------------------------------------------------------------------
# One board, every player (fixed hands)
# --------------------------------------------------------------------------

@jit(inline=True)
def holding_values(KT, G, H, h, board, key, low, packed, fs, bsm, slot, cache):
    """(high, low) of holding row ``h`` of ``H`` on the five-card ``board`` (rank
    ``key``, low mask ``low``, ``packed`` suits, flush suit ``fs`` / ``bsm`` of
    :func:`board_flush_suit`, Omaha: ``slot`` of :func:`.boards.board_slot` and the
    no-flush ``cache``); low 0 when none is contested."""
    lv = np.int64(0)
    if G.omaha:
        hv = omaha_high(KT, h, G.npairs, H.pair_key, H.suit_mask, H.packed, board, slot, fs,
                        bsm, cache)
        if G.has_low:
            lv = omaha_low_value(KT, H.low[h], low)
    else:
        hv = holding_high(KT, H, h, key, packed, fs, bsm)
        if G.has_low:
            lv = low8_value(KT, H.low[h] | low)
    return hv, lv


@jit(inline=True)
def cards_values(KT, G, src, off, nc, key, low, packed, fs, bsm, base, T2, pclass):
    """:func:`holding_values` of the holding given as the cards ``src[off:off + nc]``
    (Omaha: no-flush values from the pair table ``T2``, the board's row at ``base``)."""
    lv = np.int64(0)
    if G.omaha:  # features in each branch: the Omaha one drops the unused rank key
        _, hlow, smask, scount = cards_features(KT, src, off, nc, fs)
        hv = omaha_with_flush(KT, omaha_pairs_high(src, off, nc, base, T2, pclass), fs, bsm,
                              scount, smask)
        if G.has_low:
            lv = omaha_low_value(KT, hlow, low)
    else:
        hkey, hlow, smask, scount = cards_features(KT, src, off, nc, fs)
        hv = board_high(KT, key, packed, fs, bsm, hkey, scount, smask)
        if G.has_low:
            lv = low8_value(KT, hlow | low)
    return hv, lv


@jit(inline=True)
def board_values(KT, G, H, who, n, board, key, low, packed, cache, hv, lv):
    """Fill ``hv[:n]``, ``lv[:n]`` for the holding rows ``who[:n]`` of ``H`` on the
    five-card ``board`` (rank ``key``, low mask ``low``, ``packed`` suit counters)."""
    fs, bsm = board_flush_suit(board, packed)
    slot = board_slot(key, KT.board_offset) if G.omaha else U(0)
    for p in range(n):
        hv[p], lv[p] = holding_values(KT, G, H, U(who[p]), board, key, low, packed, fs, bsm,
                                      slot, cache)


# --------------------------------------------------------------------------
# Showdown
# --------------------------------------------------------------------------

@jit(inline=True)
def showdown(G, n, hv, lv):
    """``(bh, nh, bl, nl)``: the best high / low of ``hv[:n]`` / ``lv[:n]`` and how many
    hold it; ``bh`` is -1 when no high is contested, ``bl`` 0 when no low qualifies.

    Written without data-dependent branches (maxima, then counts of equals):
    who wins is a coin flip to the branch predictor, and a mispredicted branch
    here also throws away the next trial's work already under way.
    """
    bh = np.int64(0)
    bl = np.int64(0)
    for p in range(n):
        bh = max(bh, hv[p])
        bl = max(bl, lv[p])
    nh = 0
    nl = 0
    for p in range(n):
        nh += hv[p] == bh
        nl += lv[p] == bl
    if not G.has_high:
        bh = -1  # no high contested: nobody's row is a win
    if not G.has_low:
        bl = 0
    return bh, nh, bl, nl


@jit(inline=True)
def outcome_cell(bh, nh, bl, nl, h, l):
    """A player's outcome cell ``(row, col)`` with values ``h``, ``l`` (see :func:`tally`)."""
    row = nh * ((h == bh) & (bh > 0))
    col = (bl > 0) * (1 + nl * (l == bl))
    return row, col


@jit(inline=True)
def tally(G, n, hv, lv, out, weight):
    """Add ``weight`` to each player's outcome cell ``out[p, row, col]``.

    row: 0 lost the high (or no high contested), k >= 1 won it among k winners;
    col: 0 no qualifying low (or none contested), 1 lost it, 1 + k won it among k.
    """
    bh, nh, bl, nl = showdown(G, n, hv, lv)
    for p in range(n):
        row, col = outcome_cell(bh, nh, bl, nl, hv[p], lv[p])
        out[p, U(row), U(col)] += weight


# --------------------------------------------------------------------------
# Batch evaluation (tests: the kernels' evaluator against the C library)
# --------------------------------------------------------------------------

@jit
def eval_batch(KT, G, holes, boards):
    """(high, low) values of each row: board games (``boards`` [r, 5]) or stud
    (``holes`` [r, 7], ``boards`` [r, 0]), with the same code paths as the kernels."""
    r = holes.shape[0]
    high = np.zeros(r, np.int64)
    low = np.zeros(r, np.int64)
    hv = np.zeros(1, np.int64)
    lv = np.zeros(1, np.int64)
    who = np.zeros(1, np.int64)
    for i in range(r):
        H = prep_holdings(KT, holes[i:i + 1], G.omaha)
        if boards.shape[1] == 5:
            cache = np.zeros((1, BOARD_SLOTS), np.uint16)
            key, lowm, packed = board_summary(KT, boards[i])
            board_values(KT, G, H, who, 1, boards[i], key, lowm, packed, cache, hv, lv)
            high[i] = hv[0]
            low[i] = lv[0]
        else:
            # stud: the first 4 cards are the holding, the rest are "drawn"
            H4 = prep_holdings(KT, holes[i:i + 1, :4], 0)
            hk, hl, hpack, hsm, _ = H4
            a, b = stud_values(KT, G, 0, hk, hl, hpack, hsm, holes[i], 4, holes.shape[1] - 1,
                               np.int64(holes[i, holes.shape[1] - 1]))
            high[i] = a
            low[i] = b
    return high, low
