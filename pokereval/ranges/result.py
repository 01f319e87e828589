"""What a range read gives: the immutable Range, and RangeError when it cannot."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..errors import PokerEvalError
from ..games import Game
from .budget import MAX_DEALS, RangeProblem
from .rows import row_masks

if TYPE_CHECKING:
    from .stud_order import DealList


class RangeError(PokerEvalError):
    """A range text that cannot be read, or that matches no holding.

    ``text`` is the range as given; ``position`` the 1-based position of the
    offending character (None when the whole range is at fault).
    """

    def __init__(self, message: str, text: str | None = None, position: int | None = None):
        # one line whatever the input: escape line breaks the text may carry
        message = message.replace("\r", "\\r").replace("\n", "\\n")
        super().__init__(message)
        self.text = text
        self.position = position


# Its public home is pokereval.ranges, the name tracebacks (and pickles) have always shown.
RangeError.__module__ = "pokereval.ranges"


@dataclass(frozen=True, eq=False)
class Range:
    """A weighted set of holdings of one game.

    ``holdings``: uint8 [k, n], one holding per row, each row sorted ascending,
    rows unique (n = ``game.hole``, or the street's 3..7 cards in stud);
    ``weights``: float64 [k], > 0.  Both arrays are read-only.
    ``share``: the fraction of all holdings of that size (C(52, n)) that the
    range covers; for a lone percent term (``15%``) the share its ordering
    reached.
    ``orders`` (stud only, else None): int64 [k], how many ordered deals of
    each holding the range matches (a deal: the two down cards, in either
    order, then the up cards in the order dealt; PPT reads stud patterns so).
    Without ``@`` weights a stud holding's weight is its orders; see
    :meth:`deals`.
    """

    game: Game
    text: str
    holdings: np.ndarray
    weights: np.ndarray
    share: float = -1.0
    orders: np.ndarray | None = None
    _deals: DealList | None = field(default=None, repr=False)
    _masks: np.ndarray | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.share < 0:
            n = self.holdings.shape[1]
            object.__setattr__(self, "share", len(self.holdings) / math.comb(52, n))

    def __len__(self) -> int:
        return len(self.holdings)

    @property
    def cards(self) -> int:
        """Cards per holding."""
        return self.holdings.shape[1]

    def masks(self) -> np.ndarray:
        """uint64 [k]: bit c set when card c is in the holding (for collision checks);
        computed once (read-only: a board range asks for them once per board)."""
        if self._masks is None:
            masks = row_masks(self.holdings)
            masks.setflags(write=False)
            object.__setattr__(self, "_masks", masks)
        return self._masks

    def deals(self, limit: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Stud: every ordered deal the range matches, as ``(uint8 [D, n] cards:
        the two down cards (lower first), then the up cards as dealt; float64 [D]
        each deal's weight)``.  A holding's weight is the sum of its deals'.
        More than ``limit`` (default ``MAX_DEALS``) deals, or a range of another
        game, is a RangeError.

        >>> from pokereval.cards import card_str
        >>> from pokereval.ranges import parse_range
        >>> cards, w = parse_range("stud", "KsJhTd, KsTdJh, JhKsTd").deals()
        >>> [" ".join(card_str(c) for c in row) for row in cards], w.tolist()
        (['Td Ks Jh', 'Jh Ks Td'], [1.0, 1.0])
        """
        limit = MAX_DEALS if limit is None else limit
        if self._deals is None:
            raise RangeError(f"range {quote(self.text)} has no ordered deals: card order "
                             f"is read in stud games only, not {self.game.name}", self.text)
        count = int(self.orders.sum())
        if count > limit:
            raise RangeError(f"range {quote(self.text)} matches {count:,} ordered deals; "
                             f"the most listed is {limit:,}", self.text)
        try:
            return self._deals.listing(self.holdings)
        except RangeProblem as problem:
            raise RangeError(f"range {quote(self.text)}: {problem.message}", self.text) from None

    def __repr__(self) -> str:
        return f"Range({self.game.name!r}, {self.text!r}, {len(self)} holdings)"




def make_range(game: Game, text: str, rows: np.ndarray, weights: np.ndarray,
               share: float = -1.0, orders: np.ndarray | None = None,
               deals: DealList | None = None) -> Range:
    """A Range over read-only copies (or views) of the arrays."""
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    rows.setflags(write=False)
    weights.setflags(write=False)
    if orders is not None:
        orders = np.ascontiguousarray(orders, dtype=np.int64)
        orders.setflags(write=False)
    return Range(game, text, rows, weights, share, orders, deals)


def subset(rng: Range, keep: np.ndarray) -> Range:
    """The holdings of ``rng`` where ``keep`` (bool [k]) holds, with their
    weights (and in stud their orders and deals)."""
    if rng.orders is None:
        out = make_range(rng.game, rng.text, rng.holdings[keep], rng.weights[keep])
    else:
        out = make_range(rng.game, rng.text, rng.holdings[keep], rng.weights[keep],
                         orders=rng.orders[keep], deals=rng._deals)
    if rng._masks is not None:
        masks = rng._masks[keep]
        masks.setflags(write=False)
        object.__setattr__(out, "_masks", masks)
    return out


def quote(text) -> str:
    """The text as a one-line literal, cut short when long."""
    if isinstance(text, str) and len(text) > 120:
        return repr(text[:100]) + f"... ({len(text):,} characters)"
    return repr(text)
