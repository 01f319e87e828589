"""The starting-hand tables' kernel: per-class Monte Carlo trials (:mod:`pokereval.tables`).

A trial deals one starting hand of a class (the class's representative holding:
suits are symmetric, so any holding of the class gives the same statistics),
``players - 1`` random hands and a random board.  Seat 1 is the "blind" and is
always in the pot; any other seat is in when its class is flagged ``good``
(``filter_`` off: everybody is in).  Every player in has put one chip in; the
hero's share of the pot is counted in integer units of ``1 / UNIT`` of a pot
(halves for hi/lo, ties split equally: ``UNIT = 2 * lcm(1..10)`` divides every
share), so sums over trials are exact integers and chunks add up in any order.

Each class draws from its own random stream, seeded from ``(seed, stream_base +
class)``: a chunk's result depends only on its classes, round and seed, never
on the process or the order that ran it.

Values and the showdown come from :mod:`.handeval`, as in every board kernel
(Omaha highs from the pair table ``T2`` of :func:`pokereval.kernels.pair_tables`).
"""
import numpy as np

from ._jit import jit
from .boards import board_slot
from .handeval import NPAIR_CLASSES, board_flush_suit, board_summary, cards_values, showdown
from .rng import below, seed_stream

UNIT = 5040  # 2 * lcm(1..10): a pot in integer units; every tie share divides it
HALF = UNIT // 2


@jit(inline=True)
def class_key(cards, start, hole):
    """The class key (see :mod:`pokereval.classes`) of ``cards[start:start + hole]``:
    the four suits' rank masks, sorted, packed 13 bits each."""
    m0 = np.int64(0)
    m1 = np.int64(0)
    m2 = np.int64(0)
    m3 = np.int64(0)
    for i in range(hole):
        c = np.int64(cards[start + i])
        bit = np.int64(1) << (c >> 2)
        s = c & 3
        if s == 0:
            m0 |= bit
        elif s == 1:
            m1 |= bit
        elif s == 2:
            m2 |= bit
        else:
            m3 |= bit
    a, b = max(m0, m1), min(m0, m1)
    c_, d = max(m2, m3), min(m2, m3)
    m0, m2 = max(a, c_), min(a, c_)
    m1, m3 = max(b, d), min(b, d)
    m1, m2 = max(m1, m2), min(m1, m2)
    return (m0 << 39) | (m1 << 26) | (m2 << 13) | m3


@jit
def class_trials(KT, G, T2, pclass, reps, classes, keys, good, filter_, players, trials, seed,
                 stream_base):
    """For each class ``classes[i]`` (holding ``reps[i]``): the sums over ``trials``
    trials of the hero's winnings (pot size x share, in units) and of its share alone.
    ``keys``: the sorted class keys, ``good[class]``: whether a seat of that class is in
    (read when ``filter_``).  Returns int64 [2, len(classes)]."""
    n = classes.shape[0]
    hole = reps.shape[1]
    out = np.zeros((2, n), np.int64)
    need = (players - 1) * hole + 5
    d = np.zeros(52 - hole, np.int64)
    board = np.zeros(5, np.int64)
    hv = np.zeros(players, np.int64)  # the values of the players in, the hero first
    lv = np.zeros(players, np.int64)
    for i in range(n):
        hero = reps[i]
        k = 0
        for c in range(52):
            free = True
            for j in range(hole):
                if hero[j] == c:
                    free = False
            if free:
                d[k] = c
                k += 1
        state = seed_stream(seed, stream_base + classes[i])
        nd = d.shape[0]
        win = np.int64(0)
        shr = np.int64(0)
        for _ in range(trials):
            for j in range(need):
                r = j + below(state, nd - j)
                t = d[r]
                d[r] = d[j]
                d[j] = t
            for j in range(5):
                board[j] = d[need - 5 + j]
            key, low, packed = board_summary(KT, board)
            fs, bsm = board_flush_suit(board, packed)
            base = np.int64(board_slot(key, KT.board_offset)) * NPAIR_CLASSES if G.omaha else 0
            hv[0], lv[0] = cards_values(KT, G, hero, 0, hole, key, low, packed, fs, bsm, base,
                                        T2, pclass)
            m = 1
            for s in range(players - 1):
                if s > 0 and filter_:
                    if good[np.searchsorted(keys, class_key(d, s * hole, hole))] == 0:
                        continue
                hv[m], lv[m] = cards_values(KT, G, d, s * hole, hole, key, low, packed, fs, bsm,
                                            base, T2, pclass)
                m += 1
            bh, nh, bl, nl = showdown(G, m, hv, lv)
            share = np.int64(0)
            if bl > 0:  # a low qualifies: the pot is split in halves
                if hv[0] == bh:
                    share += HALF // nh
                if lv[0] == bl:
                    share += HALF // nl
            elif hv[0] == bh:
                share = UNIT // nh
            win += m * share  # the pot: one chip from each player in
            shr += share
        out[0, i] = win
        out[1, i] = shr
    return out
