"""The per-class Monte Carlo kernel behind every table, and one chunk of work.

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
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..classes import hand_classes
from ..games import get_game
from ..kernels._jit import jit
from ..kernels.boards import U
from ..kernels.handeval import (board_flush_suit, board_high, board_summary, cards_features,
                                low8_value, omaha_low_value, omaha_nonflush, omaha_with_flush)
from ..kernels.rng import below, seed_stream

UNIT = 5040  # 2 * lcm(1..10): a pot in integer units; every tie share divides it
HALF = UNIT // 2


@jit(inline=True)
def _value(KT, omaha, npairs, has_low, cards, start, hole, board, bkey, blow, bpacked, fs, bsm,
           pk):
    """(high, low) of the hole cards ``cards[start:start + hole]`` on ``board`` (the
    kernels' hand-value layer; ``pk``: scratch for the Omaha pair keys)."""
    hkey, hl, hmask, nfs = cards_features(KT, cards, start, hole, fs)
    lv = np.int64(0)
    if omaha:
        q = 0
        for i in range(hole):
            wi = KT.card_w[U(cards[start + i])]
            for j in range(i + 1, hole):
                pk[q] = wi + KT.card_w[U(cards[start + j])]
                q += 1
        hv = omaha_with_flush(KT, omaha_nonflush(pk, npairs, board, KT.card_w, KT.ph_offset,
                                                 KT.hi_rank), fs, bsm, nfs, hmask)
        if has_low:
            lv = omaha_low_value(KT, hl, blow)
    else:
        hv = board_high(KT, bkey, bpacked, fs, bsm, hkey, nfs, hmask)
        if has_low:
            lv = low8_value(KT, hl | blow)
    return hv, lv


@jit(inline=True)
def _class_key(cards, start, hole):
    """The class key (see :mod:`pokereval.classes`) of ``cards[start:start + hole]``."""
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
def class_trials(KT, omaha, has_low, reps, classes, keys, good, filter_, players, trials, seed,
                 stream_base):
    """For each class ``classes[i]`` (holding ``reps[i]``): the sums over ``trials``
    trials of the hero's winnings (pot size x share, in units) and of its share alone.
    Returns int64 [2, len(classes)]."""
    n = classes.shape[0]
    hole = reps.shape[1]
    npairs = hole * (hole - 1) // 2
    out = np.zeros((2, n), np.int64)
    need = (players - 1) * hole + 5
    d = np.zeros(52 - hole, np.int64)
    board = np.zeros(5, np.int64)
    pk = np.zeros(10, np.int64)
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
            bkey, blow, bpacked = board_summary(KT, board)
            fs, bsm = board_flush_suit(board, bpacked)
            h0, l0 = _value(KT, omaha, npairs, has_low, hero, 0, hole, board, bkey, blow, bpacked,
                            fs, bsm, pk)
            bh, nh, bl, nl, pot = h0, 1, l0, 1, 1
            for s in range(players - 1):
                if s > 0 and filter_:
                    if good[np.searchsorted(keys, _class_key(d, s * hole, hole))] == 0:
                        continue
                pot += 1
                hv, lv = _value(KT, omaha, npairs, has_low, d, s * hole, hole, board, bkey, blow,
                                bpacked, fs, bsm, pk)
                if hv > bh:
                    bh, nh = hv, 1
                elif hv == bh:
                    nh += 1
                if lv > bl:
                    bl, nl = lv, 1
                elif lv == bl:
                    nl += 1
            share = np.int64(0)
            if has_low and bl > 0:
                if h0 == bh:
                    share += HALF // nh
                if l0 == bl:
                    share += HALF // nl
            elif h0 == bh:
                share = UNIT // nh
            win += pot * share
            shr += share
        out[0, i] = win
        out[1, i] = shr
    return out


@dataclass(frozen=True)
class Chunk:
    """One unit of work: ``trials`` trials for each class in ``[start, stop)``.

    ``kind`` "evolution" (round = pass; ``good`` packs the previous pass's good
    classes as bits, None in pass 0) or "equity" (round = number of opponents).
    """

    game: str
    players: int
    kind: str
    round: int
    start: int
    stop: int
    trials: int
    seed: int
    good: bytes | None = None

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.round}-{self.start}-{self.stop}"


_KIND_CODE = {"evolution": 1, "equity": 2}


@lru_cache(maxsize=4)
def _game_data(hole: int):
    hc = hand_classes(hole)
    return hc.representatives(), hc.keys.astype(np.int64)


def run_chunk(chunk: Chunk) -> np.ndarray:
    """int64 [2, stop - start]: the chunk's winnings and share sums (see :func:`class_trials`)."""
    from ..kernels import kernel_tables

    game = get_game(chunk.game)
    reps, keys = _game_data(game.hole)
    classes = np.arange(chunk.start, chunk.stop, dtype=np.int64)
    if chunk.good is None:
        good = np.ones(1, np.uint8)
    else:
        good = np.unpackbits(np.frombuffer(chunk.good, np.uint8))[:len(keys)].copy()
    players = chunk.players if chunk.kind == "evolution" else chunk.round + 1
    stream = (_KIND_CODE[chunk.kind] << 40) | (chunk.round << 24)
    return class_trials(kernel_tables(), 1 if game.exactly_two else 0, 1 if game.split else 0,
                        np.ascontiguousarray(reps[chunk.start:chunk.stop]), classes, keys, good,
                        0 if chunk.good is None else 1, players, chunk.trials, chunk.seed, stream)
