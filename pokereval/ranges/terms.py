"""The pieces a range is built of: one card of a pattern (Element), the Term
interface every term keeps, and the terms that are plain lists of holdings
(hold'em shorthand, percent cuts).

A term generates its holdings of n cards, matches given holdings, and says
what generating would cost; the reader generates from the cheapest positive
term of an alternative and filters by the others (see ``alternatives``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import PokerEvalError
from ..games import Game
from .budget import RangeProblem, charge
from .rows import ALL_CARDS, ALL_RANKS, ALL_SUITS, card_table, row_masks


@dataclass(frozen=True)
class Element:
    """One card of a pattern: a rank constraint and a suit constraint."""

    rmask: int              # accepted ranks (13 bits)
    smask: int              # accepted suits (4 bits)
    rvar: str | None = None  # rank variable letter
    svar: str | None = None  # suit variable letter
    rank: int | None = None  # the rank when written as a single rank (A, Ah, Ax)
    suit: int | None = None  # the suit when written as a fixed suit (h, Ah, [AK]h)
    cmask: int = ALL_CARDS  # accepted cards (a card list: [As,Ah,Kd])

    def table(self) -> np.ndarray:
        """bool[52]: the cards this element accepts (variables aside)."""
        return card_table(self.rmask, self.smask, self.cmask)


STAR = Element(ALL_RANKS, ALL_SUITS)
"""'*': any card."""


class Term:
    """A pattern, macro or explicit set: generates holdings, matches holdings."""

    pos = 0
    size: int | None = None  # cards per holding, None = any (macros)

    def cost(self, n: int) -> float:
        raise NotImplementedError

    def generate(self, n: int) -> np.ndarray:
        raise NotImplementedError

    def match(self, rows: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def ordered(self, view) -> np.ndarray:
        """Which partial stud deals of ``view`` (a ``stud_order.DealView``) the
        term matches; a term blind to card order (a shape macro) tests the
        deal's holding."""
        return view.of_holdings(self)


class Explicit(Term):
    """A fixed list of holdings (hold'em shorthand)."""

    def __init__(self, rows: np.ndarray, text: str, pos: int):
        self.rows, self.text, self.pos, self.size = rows, text, pos, rows.shape[1]
        self.keys = row_masks(rows)

    def cost(self, n):
        return len(self.rows)

    def generate(self, n):
        return self.rows

    def match(self, rows):
        charge(len(rows))
        return np.isin(row_masks(rows), self.keys)


class Percent(Explicit):
    """``N%`` / ``a%-b%`` (``6h``: six-handed): the holdings between two shares
    of the game's ordering, from pokereval.percent (``players`` None: full ring, or
    the whole of ``ordering``, an ordering the reader was given)."""

    def __init__(self, game: Game, lo: float, hi: float, players: int | None, text: str,
                 pos: int, ordering=None):
        try:
            from ..percent import percent_holdings
        except ImportError:
            raise RangeProblem("percent ranges are not available", pos) from None
        try:
            rows, share = percent_holdings(game, lo, hi, players, ordering=ordering)
        except PokerEvalError as error:
            raise RangeProblem(str(error), pos) from None
        super().__init__(np.asarray(rows, np.uint8).reshape(-1, game.hole), text, pos)
        self.share = float(share)
