"""Hand values of a block of deals, street by street, cached: the columns PQL functions read.

High ratings are ``category << 20 | order`` (int64; ``category`` 0..8 as in
:data:`values.HAND_TYPES`): five or more cards take the C evaluator's value (``category
<< 12 | order``), fewer (hold'em preflop, stud third and fourth street) rank the cards by
pairs and kickers.  Lows are the C evaluator's eight-or-better value (0: no low) or razz
value (larger is better).  Pot shares are int64 units of 1 / (2 lcm(1..n)) of the pot.
"""
from __future__ import annotations

import numpy as np

from .. import _native
from ..equity.tally import lcm_upto
from ..games import Game
from .block import showdown, street_values
from .deal import Block, Table

__all__ = ["Hands", "full_rating", "high_rating", "street_cards", "STREETS", "STUD_STREETS"]

STREETS = ("preflop", "flop", "turn", "river")
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")


def street_cards(game: Game, street: str) -> int:
    """Board cards (board games) or a player's cards (stud) seen on ``street``."""
    if game.stud:
        return 3 + STUD_STREETS.index(street)
    return (game.min_board, 3, 4, 5)[STREETS.index(street)]


def full_rating(v: np.ndarray) -> np.ndarray:
    v = v.astype(np.int64)
    return (v >> 12) << 20 | (v & 4095)


def _counts(ranks: np.ndarray) -> np.ndarray:
    return (ranks[:, :, None] == np.arange(13)).sum(axis=1)


def _packed(keys: np.ndarray) -> np.ndarray:
    keys = -np.sort(-keys, axis=1)
    out = np.zeros(len(keys), dtype=np.int64)
    for i in range(keys.shape[1]):
        out = out * 16 + (keys[:, i] & 15)
    return out


def partial_high(cards: np.ndarray) -> np.ndarray:
    """High rating of fewer than five cards: pairs, trips, quads, then kickers."""
    ranks = (cards >> 2).astype(np.int64)
    counts = _counts(ranks)
    top = counts.max(axis=1)
    pairs = (counts == 2).sum(axis=1)
    cat = np.select([top == 4, top == 3, pairs == 2, pairs == 1], [7, 3, 2, 1], 0)
    keys = np.take_along_axis(counts, ranks, axis=1) * 16 + ranks
    return cat.astype(np.int64) << 20 | _packed(keys)


def partial_razz(cards: np.ndarray) -> np.ndarray:
    """Razz value of fewer than five cards: the pair shape as in razz (no pair, one pair,
    two pair, trips, quads: one pair beats two pair), then lower cards, is better."""
    ranks = ((cards >> 2).astype(np.int64) + 1) % 13  # ace lowest
    counts = _counts(ranks)
    top, pairs = counts.max(axis=1), (counts == 2).sum(axis=1)
    shape = np.select([top == 4, top == 3, pairs == 2, pairs == 1], [5, 3, 2, 1], 0)
    keys = np.take_along_axis(counts, ranks, axis=1) * 16 + ranks
    return (8 - shape).astype(np.int64) << 16 | (0xFFFF - _packed(keys))


def high_rating(cards: np.ndarray) -> np.ndarray:
    """High rating (``category << 20 | order``) of rows of any number of cards."""
    if cards.shape[1] < 5:
        return partial_high(cards)
    return full_rating(_native.eval_hi_batch(cards))


class Hands:
    """Cached per-(player, street) values of one block."""

    def __init__(self, table: Table, block: Block) -> None:
        self.table, self.block, self.game = table, block, table.game
        self.rows = block.rows
        self.n = len(table.seats)
        self._cache: dict = {}
        #: the rows whose values count (set once the WHERE is evaluated; None: every row):
        #: nested walks compute only these and leave the others 0
        self.live: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.rows)

    def live_rows(self) -> np.ndarray:
        """Indices of the rows whose values count (:attr:`live`)."""
        return np.arange(len(self.rows)) if self.live is None else np.nonzero(self.live)[0]

    def cached(self, key, compute):
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    # cards -----------------------------------------------------------------------
    def hole(self, p: int, count: int | None = None) -> np.ndarray:
        cols = self.table.hole_columns(p)
        if count is not None:
            cols = cols[:count]
        return self.rows[:, cols]

    def board(self, count: int) -> np.ndarray:
        start = self.table.board_start
        return self.rows[:, start:start + count]

    def cards(self, p: int, street: str) -> np.ndarray:
        """Every card p plays from on ``street`` (hole + board so far; stud: p's cards)."""
        k = street_cards(self.game, street)
        if self.game.stud:
            return self.hole(p, k)
        return np.hstack([self.hole(p), self.board(k)])

    def mask(self, cards: np.ndarray) -> np.ndarray:
        m = np.zeros(len(cards), dtype=np.uint64)
        for i in range(cards.shape[1]):
            m |= np.uint64(1) << cards[:, i].astype(np.uint64)
        return m

    # values ------------------------------------------------------------------------
    def _eval(self, p: int, street: str):
        g, k = self.game, street_cards(self.game, street)
        if g.exactly_two:
            hi, lo = _native.eval_omaha_batch(self.hole(p), self.board(k), low=g.eight)
            return full_rating(hi), (lo.astype(np.int64) if lo is not None else None)
        cards = self.cards(p, street)
        if cards.shape[1] < 5:
            hi = partial_high(cards) if g.high else None
            lo = partial_razz(cards) if g.razz else (np.zeros(len(cards), np.int64) if g.eight else None)
            return hi, lo
        hi = full_rating(_native.eval_hi_batch(cards)) if g.high else None
        if g.razz:
            lo = _native.eval_razz_batch(cards).astype(np.int64)
        elif g.eight:
            lo = _native.eval_low8_batch(cards).astype(np.int64)
        else:
            lo = None
        return hi, lo

    def street(self, street: str):
        """(C high values or None, lows or None), int64 [n, N], of every player on
        ``street`` from the block kernel, or None where it does not apply (fewer than five
        cards in a hand: :meth:`_eval` ranks those)."""
        def compute():
            res = street_values(self.table, self.rows, street_cards(self.game, street))
            if res is None:
                return None
            return (res[0] if self.game.high else None), res[1]
        return self.cached(("street", street), compute)

    def hi(self, p: int, street: str) -> np.ndarray:
        values = self.street(street)
        if values is not None:
            if values[0] is None:
                return None
            return self.cached(("rating", street), lambda: full_rating(values[0]))[p]
        return self.cached(("eval", p, street), lambda: self._eval(p, street))[0]

    def lo(self, p: int, street: str) -> np.ndarray:
        values = self.street(street)
        if values is not None:
            return None if values[1] is None else values[1][p]
        return self.cached(("eval", p, street), lambda: self._eval(p, street))[1]

    @property
    def last(self) -> str:
        return STUD_STREETS[-1] if self.game.stud else STREETS[-1]

    def all_hi(self, street: str) -> np.ndarray:
        return np.stack([self.hi(p, street) for p in range(self.n)])

    def all_lo(self, street: str) -> np.ndarray:
        return np.stack([self.lo(p, street) for p in range(self.n)])

    # the showdown ----------------------------------------------------------------------
    @property
    def units(self) -> int:
        """A pot is this many share units: 2 lcm(1..n)."""
        return 2 * lcm_upto(self.n)

    def shares(self) -> np.ndarray:
        """int64 [n, N]: each player's river pot share in units (:attr:`units`)."""
        return self._showdown()[0]

    def _showdown(self):
        """(shares, best high, high winners, best low, low winners) at the river."""
        def compute():
            hi, lo = self.street(self.last)
            return showdown(hi, lo, self.game.razz, self.game.eight, self.units)
        return self.cached("showdown", compute)

    def outcome(self, p: int, low: bool) -> tuple[np.ndarray, np.ndarray]:
        """(p has the best river high / low, how many have it); lows must qualify."""
        hi, lo = self.street(self.last)
        _, bh, kh, bl, kl = self._showdown()
        if not low:
            return hi[p] == bh, kh
        win = lo[p] == bl
        if self.game.eight:
            win &= bl > 0
        return win, kl
