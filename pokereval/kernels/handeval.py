"""Hand evaluation inside Numba kernels, from the C library's lookup tables.

Everything here is ``@jit`` (nopython, cached) and reads the tables it is
given as arguments (see :func:`pokereval.kernels.kernel_tables` for the
tuple ``KT``):

====  ==============  =============================================================
KT    name            meaning
====  ==============  =============================================================
0     ph_offset       perfect hash of a rank key: ``index = key + ph_offset[key >> 8]``
1     hi_rank         high value of a rank multiset (no flushes), by perfect-hash index
2     razz_rank       razz value of a rank multiset (5..7 cards), by perfect-hash index
3     hi_flush        high value of a 13-bit single-suit rank mask (>= 5 bits)
4     low8            eight-or-better low of an 8-bit low-rank mask
5     omaha_low8      ``[hole_lowmask << 8 | board_lowmask]`` best 2+3 low
6     card_w          int64[52]: rank weight of each card (its rank key contribution)
7     card_low        int64[52]: low-rank bit of each card (ace 1 ... eight 128, else 0)
8     board_offset    slot of a five-card board's rank key (see :mod:`.boards`)
====  ==============  =============================================================

Cards are ints ``4 * rank + suit``.  Suits of a set of cards are tracked as a
"packed" integer with one 4-bit counter per suit (``1 << 4 * suit`` per card):
``(packed + 0x5555) & 0x8888`` flags a suit with >= 3 cards (five-card boards),
``(packed + 0x3333) & 0x8888`` one with >= 5 cards (seven-card hands).

Per holding (a player's hole cards, or a stud player's known cards) the kernels
use precomputed features, one row per holding, built by :func:`prep_holdings`
(so a later change can draw holdings per trial from a range):

* ``hk[h]``      rank key of the holding's cards
* ``hl[h]``      OR of the low-rank bits
* ``hpack[h]``   packed suit counters
* ``hsm[h, s]``  13-bit rank mask of the holding's cards of suit ``s``
* ``pk[h, q]``   rank key of the ``q``-th pair of hole cards (Omaha family)

Game flags ``G = (omaha, npairs, has_high, has_low, razz)``: ``omaha`` = exactly
two hole cards; ``has_low`` = a low is contested (eight-or-better, or razz when
``razz``); razz has no high.
"""
import numpy as np

from ._jit import jit
from .boards import BOARD_SLOTS, U, board_slot



@jit(inline=True)
def ph(key, ph_offset):
    """Perfect-hash index of a rank key."""
    return U(key + ph_offset[U(key >> 8)])


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


# --------------------------------------------------------------------------
# Holding features
# --------------------------------------------------------------------------

@jit
def prep_holdings(KT, holes, omaha):
    """Features of each row of ``holes`` (uint8[h, ncards]); see the module docstring.

    Returns ``(hk, hl, hpack, hsm, pk)``; ``pk`` has one column per hole pair
    when ``omaha`` (else a single unused column).
    """
    card_w = KT[6]
    card_low = KT[7]
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
def omaha_high(KT, h, npairs, pk, hsm, hpack, board, slot, fs, bsm, cache):
    """Omaha high of holding ``h`` on the five-card ``board``.

    ``slot``: the board's slot (:func:`.boards.board_slot`, unsigned);
    ``fs``: the suit with >= 3 board cards or -1; ``bsm``: that suit's board
    rank mask.  ``cache[h, slot]`` holds the no-flush best (0 = not yet known).
    """
    h = U(h)
    v = np.int64(cache[h, slot])
    if v == 0:
        v = omaha_nonflush(pk[h], npairs, board, KT[6], KT[0], KT[1])
        cache[h, slot] = v
    if fs >= 0 and ((hpack[h] >> (fs << 2)) & 0xF) >= 2:
        f = omaha_flush(hsm[h, U(fs)], bsm, KT[3])
        if f > v:
            v = f
    return v


# --------------------------------------------------------------------------
# Best five of seven (Hold'em, stud)
# --------------------------------------------------------------------------

@jit(inline=True)
def high7(KT, key, packed, hsm_row, cards, start, stop, extra):
    """High value of a holding plus ``cards[start:stop]`` plus ``extra`` (-1: none),
    given the total rank ``key`` and ``packed`` suit counters of all the cards."""
    flag = (packed + 0x3333) & 0x8888
    if flag:
        s = suit_of_flag(flag)
        mask = hsm_row[s]
        for i in range(start, stop):
            c = np.int64(cards[i])
            if (c & 3) == s:
                mask |= np.int64(1) << (c >> 2)
        if extra >= 0 and (extra & 3) == s:
            mask |= np.int64(1) << (extra >> 2)
        return np.int64(KT[3][U(mask)])
    return np.int64(KT[1][ph(key, KT[0])])


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
            lv = np.int64(KT[2][ph(key, KT[0])])
        else:
            lv = np.int64(KT[4][U(low)])
    return hv, lv


# --------------------------------------------------------------------------
# One board, every player
# --------------------------------------------------------------------------

@jit(inline=True)
def board_summary(KT, board):
    """(rank key, low mask, packed suits) of a five-card board."""
    card_w = KT[6]
    card_low = KT[7]
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
def eval_board(KT, G, H, who, n, board, key, low, packed, cache, hv, lv):
    """Fill ``hv[:n]``, ``lv[:n]`` for the holdings ``who[:n]`` on the five-card ``board``
    (rank ``key``, low mask ``low``, ``packed`` suit counters of the board)."""
    hk, hl, hpack, hsm, pk = H
    omaha = G[0]
    npairs = G[1]
    fs, bsm = board_flush_suit(board, packed)
    if omaha:
        slot = board_slot(key, KT[8])
        for p in range(n):
            h = U(who[p])
            hv[p] = omaha_high(KT, h, npairs, pk, hsm, hpack, board, slot, fs, bsm, cache)
            if G[3]:
                lv[p] = np.int64(KT[5][U((hl[h] << 8) | low)])
    else:
        for p in range(n):
            h = U(who[p])
            k7 = key + hk[h]
            v = np.int64(KT[1][ph(k7, KT[0])])
            if fs >= 0:
                sh = fs << 2
                if ((packed >> sh) & 0xF) + ((hpack[h] >> sh) & 0xF) >= 5:
                    v = np.int64(KT[3][U(bsm | hsm[h, U(fs)])])
            hv[p] = v
            if G[3]:
                lv[p] = np.int64(KT[4][U(hl[h] | low)])


# --------------------------------------------------------------------------
# Showdown tally
# --------------------------------------------------------------------------

@jit(inline=True)
def tally(G, n, hv, lv, out, weight):
    """Add ``weight`` to each player's outcome cell ``out[p, row, col]``.

    row: 0 lost the high (or no high contested), k >= 1 won it among k winners;
    col: 0 no qualifying low (or none contested), 1 lost it, 1 + k won it among k.

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
    if not G[2]:
        bh = -1  # no high contested: nobody's row is a win
    if not G[3]:
        bl = 0
    has_low = bl > 0
    for p in range(n):
        row = nh * ((hv[p] == bh) & (bh > 0))
        col = has_low * (1 + nl * (lv[p] == bl))
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
        H = prep_holdings(KT, holes[i:i + 1], G[0])
        if boards.shape[1] == 5:
            cache = np.zeros((1, BOARD_SLOTS), np.uint16)
            key, lowm, packed = board_summary(KT, boards[i])
            eval_board(KT, G, H, who, 1, boards[i], key, lowm, packed, cache, hv, lv)
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
