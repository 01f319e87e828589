"""The PQL functions that walk more than the deal itself: equity on a street (every
remaining run-out), equity against the ranges, the nuts and outs (every holding or next
card unseen by the player), range membership and hand rankings.

Each is cached per distinct key (hands and board so far) in :class:`Nested`, which lives
for one query: a fixed-hand query on the flop walks each flop once however many trials
land on it.  Costs (see docs/PQL.md): ``equity`` on the flop is one C walk of ~1,000
run-outs per distinct (hands, flop); ``HvREquity`` one ``pe.equity`` run per distinct
(hand, board); ``nutHi`` / ``nutLo`` evaluate the ~1,300 unseen two-card holdings once per
distinct board; outs functions repeat that for each of the ~45 next cards.
"""
from __future__ import annotations

import threading
from fractions import Fraction
from math import lcm

import numpy as np

from .. import _native
from ..analysis.board_range import card_range
from ..cards import cards_str
from ..classes import subsets
from ..equity.options import parse_options
from ..equity.run import run
from ..equity.spot import parse_spot
from ..equity.tally import lcm_upto, share_units
from ..percent import percentile
from ..ranges import parse_range
from .deal import Table
from .hands import Hands, high_rating, street_cards
from .values import Num

__all__ = ["Nested"]

_ONE = np.uint64(1)


def _mask_of(cards) -> int:
    return sum(1 << int(c) for c in cards)


def _fraction_column(fractions: list) -> Num:
    """Exact fractions over one denominator, or floats when some are not exact."""
    if all(isinstance(f, Fraction) for f in fractions):
        den = lcm(*(f.denominator for f in fractions)) if fractions else 1
        if den < (1 << 40):
            return Num(np.array([f.numerator * (den // f.denominator) for f in fractions],
                                dtype=np.int64), den)
    return Num(np.array([float(f) for f in fractions], dtype=np.float64), None)


class Nested:
    """One query's caches of nested walks (thread-safe: a lock per cache fill)."""

    def __init__(self, table: Table, seed: int) -> None:
        self.table, self.game, self.seed = table, table.game, seed
        self.dead_mask = _mask_of(table.dead)
        self._equity: dict = {}
        self._hvr: dict = {}
        self._nuts: dict = {}
        self._ranges: dict = {}
        self._percentile: dict = {}
        self._lock = threading.Lock()

    # equity on a street -------------------------------------------------------------
    def equity(self, h: Hands, p: int, st: str) -> Num:
        g, k, n = self.game, street_cards(self.game, st), h.n
        if g.stud:
            return self._stud_equity(h, p, k)
        holes = np.stack([h.hole(q) for q in range(n)], axis=1)  # [N, n, hole]
        board = h.board(k)
        keys = np.hstack([holes.reshape(len(h), -1), board])
        units = share_units(g.pot, n)
        out = np.empty(len(h), dtype=np.int64)
        runouts = None
        for i, key in enumerate(map(bytes, keys)):
            hit = self._equity.get(key)
            if hit is None:
                used = _mask_of(keys[i]) | self.dead_mask
                deck = np.array([c for c in range(52) if not used >> c & 1], dtype=np.uint8)
                counts = _native.board_exact_counts(holes[i], g.exactly_two, g.eight, board[i], deck)
                hit = ((counts * units).sum(axis=(1, 2)), int(counts[0].sum()))
                self._equity[key] = hit
            out[i] = hit[0][p]
            runouts = hit[1]
        return Num(out, (runouts or 1) * 2 * lcm_upto(n))

    def _stud_equity(self, h: Hands, p: int, k: int) -> Num:
        n = h.n
        cards = [h.hole(q, k) for q in range(n)]
        dead = cards_str(self.table.dead)
        values = []
        for i in range(len(h)):
            hands = tuple(cards_str(c[i]) for c in cards)
            hit = self._equity.get(hands)
            if hit is None:
                r = run(parse_spot(self.game, list(hands), "", dead),
                        parse_options(None, None, None, self.seed, 1, None), 0.0)
                hit = [pl.fraction if r.exact else pl.equity for pl in r.players]
                self._equity[hands] = hit
            values.append(hit[p])
        return _fraction_column(values)

    def hvr_equity(self, h: Hands, p: int, st: str) -> Num:
        """p's actual hand against the other seats' ranges as written, board so far."""
        k = street_cards(self.game, st)
        mine = h.hole(p, k) if self.game.stud else h.hole(p)
        board = None if self.game.stud else h.board(k)
        values = []
        for i in range(len(h)):
            hand = cards_str(mine[i])
            b = cards_str(board[i]) if board is not None else ""
            hit = self._hvr.get((p, hand, b))
            if hit is None:
                texts = [hand if q == p else s.text for q, s in enumerate(self.table.seats)]
                r = run(parse_spot(self.game, texts, b, cards_str(self.table.dead)),
                        parse_options(None, None, None, self.seed, 1, None), 0.0)
                hit = r.players[p].fraction if r.exact else r.players[p].equity
                self._hvr[(p, hand, b)] = hit
            values.append(hit)
        return _fraction_column(values)

    # the nuts -------------------------------------------------------------------------
    def _pairs(self, board: np.ndarray, low: bool):
        """Every two-card holding of cards off the board and not dead, best first:
        (values, masks).  A better Omaha hand needs only two hole cards, so pairs suffice."""
        key = (bytes(np.sort(board)), low)
        hit = self._nuts.get(key)
        if hit is not None:
            return hit
        used = _mask_of(board) | self.dead_mask
        pool = np.array([c for c in range(52) if not used >> c & 1], dtype=np.uint8)
        pairs = pool[subsets(len(pool), 2)]
        g = self.game
        if g.exactly_two:
            triples = board[subsets(len(board), 3)]
            best = np.zeros(len(pairs), dtype=np.int64)
            for t in triples:
                five = np.hstack([pairs, np.tile(t, (len(pairs), 1))])
                v = _native.eval_low8_batch(five) if low else _native.eval_hi_batch(five)
                best = np.maximum(best, v.astype(np.int64))
        else:
            cards = np.hstack([pairs, np.tile(board, (len(pairs), 1))])
            best = (_native.eval_low8_batch(cards) if low else _native.eval_hi_batch(cards)).astype(np.int64)
        order = np.argsort(-best, kind="stable")
        masks = (_ONE << pairs[:, 0].astype(np.uint64)) | (_ONE << pairs[:, 1].astype(np.uint64))
        hit = (best[order], masks[order])
        self._nuts[key] = hit
        return hit

    def _nut_values(self, hole: np.ndarray, board: np.ndarray, low: bool) -> np.ndarray:
        """The best value any holding of cards unseen by the player makes, per row."""
        holes = np.zeros(len(hole), dtype=np.uint64)
        for i in range(hole.shape[1]):
            holes |= _ONE << hole[:, i].astype(np.uint64)
        out = np.zeros(len(hole), dtype=np.int64)
        keys = np.sort(board, axis=1)
        _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        for g_i, row in enumerate(first):
            rows = np.nonzero(inverse == g_i)[0]
            values, masks = self._pairs(board[row], low)
            top = min(len(masks), 64 * hole.shape[1])
            free = (masks[None, :top] & holes[rows, None]) == 0
            out[rows] = values[:top][np.argmax(free, axis=1)]
        return out

    def nut(self, h: Hands, p: int, st: str, low: bool) -> np.ndarray:
        k = street_cards(self.game, st)
        mine = _native_value(h, p, st, low)
        nut = self._nut_values(h.hole(p), h.board(k), low)
        return (mine >= nut) & ((mine > 0) if low else True)

    def outs(self, h: Hands, p: int, st: str, test) -> Num:
        """Cards unseen by p that, as the next board card, make ``test(hole, board)`` true."""
        k = street_cards(self.game, st)
        hole, board = h.hole(p), h.board(k)
        seen = np.zeros(len(h), dtype=np.uint64)
        for cards in (hole, board):
            for i in range(cards.shape[1]):
                seen |= _ONE << cards[:, i].astype(np.uint64)
        seen |= np.uint64(self.dead_mask)
        count = np.zeros(len(h), dtype=np.int64)
        for c in range(52):
            free = ((seen >> np.uint64(c)) & _ONE) == 0
            rows = np.nonzero(free)[0]
            if not len(rows):
                continue
            nxt = np.hstack([board[rows], np.full((len(rows), 1), c, dtype=np.uint8)])
            count[rows] += test(hole[rows], nxt)
        return Num(count, 1)

    def stud_outs(self, h: Hands, p: int, st: str, category: int) -> Num:
        """Stud: cards unseen by p (not p's cards so far, not another player's up cards so
        far, not dead) that, as p's next card, give p at least hand type ``category``."""
        k = street_cards(self.game, st)
        mine = h.hole(p, k)
        seen = h.mask(mine) | np.uint64(self.dead_mask)
        for q in range(h.n):
            if q != p and min(k, 6) > 2:  # third to sixth street are dealt face up
                seen |= h.mask(h.hole(q, min(k, 6))[:, 2:])
        count = np.zeros(len(h), dtype=np.int64)
        for c in range(52):
            rows = np.nonzero(((seen >> np.uint64(c)) & _ONE) == 0)[0]
            if not len(rows):
                continue
            cards = np.hstack([mine[rows], np.full((len(rows), 1), c, dtype=np.uint8)])
            count[rows] += (high_rating(cards) >> 20) >= category
        return Num(count, 1)

    def nut_test(self, low: bool):
        def test(hole, board):
            mine = _value(self.game, hole, board, low)
            return (mine >= self._nut_values(hole, board, low)) & ((mine > 0) if low else True)
        return test

    def type_test(self, category: int):
        def test(hole, board):
            return (_value(self.game, hole, board, False) >> 12) >= category
        return test

    # ranges and rankings ------------------------------------------------------------------
    def in_range(self, h: Hands, p: int, text: str) -> np.ndarray:
        g = self.game
        hit = self._ranges.get(("hand", text))
        if hit is None:
            r = parse_range(g, text)
            rows = r.deals()[0] if g.stud else r.holdings
            hit = (rows.shape[1], np.unique(_row_keys(rows, g.stud)))
            self._ranges[("hand", text)] = hit
        m, keys = hit
        mine = h.hole(p, m) if g.stud else h.hole(p)
        if mine.shape[1] != m:
            return np.zeros(len(h), dtype=bool)
        return np.isin(_row_keys(mine, g.stud), keys)

    def board_in_range(self, h: Hands, text: str) -> np.ndarray:
        hit = self._ranges.get(("board", text))
        if hit is None:
            rows, _ = card_range(self.game, text, "board")
            hit = (rows.shape[1], np.unique(_row_keys(rows, False)))
            self._ranges[("board", text)] = hit
        m, keys = hit
        return np.isin(_row_keys(h.board(m), False), keys)

    def hand_ranking(self, h: Hands, p: int) -> Num:
        hole = h.hole(p)
        out = np.empty(len(h), dtype=np.float64)
        for i, key in enumerate(map(bytes, np.sort(hole, axis=1))):
            hit = self._percentile.get(key)
            if hit is None:
                hit = percentile(self.game, cards_str(hole[i]))
                self._percentile[key] = hit
            out[i] = hit
        return Num(out, None)


def _row_keys(rows: np.ndarray, ordered: bool) -> np.ndarray:
    """One int per row: the card set (bit mask), or in stud the deal order (down cards as
    a set, then the up cards in order)."""
    rows = rows.astype(np.uint64)
    if not ordered:
        key = np.zeros(len(rows), dtype=np.uint64)
        for i in range(rows.shape[1]):
            key |= _ONE << rows[:, i]
        return key
    down = np.sort(rows[:, :2], axis=1)
    key = down[:, 0] * np.uint64(52) + down[:, 1]
    for i in range(2, rows.shape[1]):
        key = key * np.uint64(52) + rows[:, i]
    return key


def _value(game, hole: np.ndarray, board: np.ndarray, low: bool) -> np.ndarray:
    """C value (uint16 scale) of holes with boards under the game's rule."""
    if game.exactly_two:
        hi, lo = _native.eval_omaha_batch(hole, board, low=low)
        return (lo if low else hi).astype(np.int64)
    cards = np.hstack([hole, board])
    return (_native.eval_low8_batch(cards) if low else _native.eval_hi_batch(cards)).astype(np.int64)


def _native_value(h: Hands, p: int, st: str, low: bool) -> np.ndarray:
    return _value(h.game, h.hole(p), h.board(street_cards(h.game, st)), low)
