"""The range language: text that stands for a weighted set of holdings.

The grammar and its exact semantics are in ``docs/RANGES.md``; in short
(ProPokerTools "generic syntax", as Omaha players write it)::

    AhKd2c3s        exact cards                 *         any card
    A  a            an ace of any suit          [AKQ] [T-7] [A,2,3]  a rank from a list
    [s,h] [As,Ah]   a suit / a card from a list  $B $R $M $Z $L $W $N $F  rank classes
    Ax Ay  x y z w  suit variables              R O G F ...  rank variables (other letters)
    c d h s         a card of that suit         AA = AA** (short patterns mean "at least")
    $ds $ss $rb $np $s $o $op $tp $nt $0g $1g $2g   shape macros (AK$OP = AK:$OP)
    KQJT-T987  TT+  KQJT-  [KK-TT][55-22]       rank spans
    a:b  a!b  !a    intersection, exclusion     (a, b):c   grouping
    a, b            union (lowest precedence)   a@40      weight of an alternative
    15%  5%-10%6h   the top share of hands by an ordering (pokereval.percent)
    AKs AKo 22+ A2s+ JTs-76s TT-77              hold'em shorthand (holdem only)

How a pattern is matched: ``patterns``; stud's deal order: ``stud_order``.
Every range is read in bounded time and memory: see ``MAX_CANDIDATES``,
``MAX_WORK``, ``MAX_TEXT``, ``MAX_PATTERNS`` and ``MAX_DEAL_WALK`` (``budget``).

The package, bottom to top: ``budget`` (limits, the work meter), ``rows``
(NumPy helpers over holdings), ``result`` (Range, RangeError), ``terms``
(Element, the Term interface, explicit lists), ``macros`` (the one macro
table), ``patterns`` (the matcher), ``alternatives`` (conjunctions, groups),
``holdem`` (shorthand), ``syntax`` (the parser), ``stud_order`` (deal order);
here: the public API and the cache of recent ranges.

>>> r = parse_range("omaha-hilo", "AA:$ds")
>>> len(r), r.holdings.shape
(864, (864, 4))
>>> len(parse_range("holdem", "22+, A2s+"))
126
"""

from __future__ import annotations

import math

import os
import threading
from typing import TYPE_CHECKING

import numpy as np

from ..cards import card_str, parse_cards
from ..errors import CardError
from ..games import Game, get_game
from .alternatives import all_terms, evaluate, holding_size
from .budget import (MAX_CANDIDATES, MAX_DEAL_WALK, MAX_DEALS, MAX_PATTERNS, MAX_TEXT, MAX_WORK,
                     TERM_WORK, UNION_WORK, RangeProblem, charge, metered)
from .macros import MACROS
from .result import Range, RangeError, make_range, quote, subset
from .rows import DENSE_UNION, dense_union, mask_of, row_masks
from .stud_order import one_deal, stud_range
from .syntax import Parser
from .terms import Percent

if TYPE_CHECKING:
    from ..percent import HandOrdering

__all__ = ["RangeError", "Range", "parse_range", "is_exact_hand", "holdings_excluding",
           "MACROS", "MAX_CANDIDATES", "MAX_DEALS", "MAX_DEAL_WALK"]


def _card_count_ok(game: Game, n: int) -> bool:
    return game.min_known <= n <= game.hole if game.stud else n == game.hole


def is_exact_hand(game: str | Game, text) -> bool:
    """True when ``text`` is plain cards (as :func:`pokereval.cards.parse_cards`
    reads them: spaces or commas between cards allowed) forming one legal hand
    of the game: ``game.hole`` distinct cards, or 3..7 in stud.  Such a text is
    the one holding it names, and the equity layer can take its fast path.

    In stud a comma-separated list whose every part is itself a street
    (``"AhKdQc, JhTs9c"``) is a range of alternatives, not one hand.

    >>> is_exact_hand("omaha", "AhAd2c3s"), is_exact_hand("omaha", "Ah Ad, 2c 3s")
    (True, True)
    >>> is_exact_hand("omaha", "AA**"), is_exact_hand("omaha", "AhAd2c")
    (False, False)
    >>> is_exact_hand("holdem", "AhAh")
    False
    """
    game = get_game(game)
    try:
        cards = parse_cards(text)
    except (CardError, TypeError):
        return False
    if not _card_count_ok(game, len(cards)):
        return False
    if game.stud and isinstance(text, str) and "," in text:
        parts = text.split(",")
        try:
            if all(len(parse_cards(p)) >= game.min_known for p in parts):
                return False
        except CardError:
            pass
    return True


def parse_range(game: str | Game, text: str, *, ordered: bool | None = None,
                ordering: str | os.PathLike[str] | HandOrdering | None = None) -> Range:
    """Read a range (see ``docs/RANGES.md``) into its holdings and weights.

    In stud games (``ordered`` None or True) the patterns follow the deal
    order: the first two cards are the down cards, in either order, the
    others the up cards as dealt (``KsJhTd`` is not ``KsTdJh``); each holding
    is weighted by the deals that match (``Range.orders``).  ``ordered=False``
    reads every pattern as a card set (board and dead-card ranges).

    ``ordering``: the hand ordering percent terms (``15%``) cut, instead of the
    shipped ones: an ordering file's path (``pokereval table build ordering ...
    --out FILE``) or a :class:`pokereval.HandOrdering`; it must be the game's, and
    a ``6h`` term needs a six-handed one (see :mod:`pokereval.percent`).

    >>> parse_range("holdem", "AKs").holdings.tolist()
    [[44, 48], [45, 49], [46, 50], [47, 51]]
    >>> len(parse_range("stud", "**7s"))
    1275
    >>> len(parse_range("omaha", "AA")), len(parse_range("omaha", "(AA,KK):$ds"))
    (6961, 1722)
    >>> parse_range("omaha", "AA*%")
    Traceback (most recent call last):
    ...
    pokereval.ranges.RangeError: bad range 'AA*%': unknown symbol '%' at position 4
    """
    game = get_game(game)
    if not isinstance(text, str):
        raise RangeError(f"a range is text, got {text!r}", None, None)
    ordered = game.stud if ordered is None else bool(ordered) and game.stud
    if ordering is not None:  # read (once per process) and checked, used or not
        from ..percent import ordering_for

        ordering = ordering_for(game, None, ordering)
    key = (game.name, text, ordered, ordering)  # an Ordering compares by identity
    with _RECENT_LOCK:
        hit = _RECENT.pop(key, None)  # re-inserted below: the dict's order is recency
    if hit is None:
        hit = _parse(game, text, ordered, ordering)
    if len(hit) <= _RECENT_MAX_HOLDINGS:
        with _RECENT_LOCK:
            _RECENT[key] = hit
            while len(_RECENT) > _RECENT_SIZE:
                del _RECENT[next(iter(_RECENT))]
    return hit


#: The last ranges read (Range is immutable), so that a tool asking many
#: questions about the same ranges reads each once: at most _RECENT_SIZE ranges
#: of at most _RECENT_MAX_HOLDINGS holdings (all Omaha hands: 270,725) are kept.
_RECENT: dict = {}
_RECENT_LOCK = threading.Lock()
_RECENT_SIZE = 8
_RECENT_MAX_HOLDINGS = 300_000


def clear_recent() -> None:
    """Forget the recent ranges (benchmarks time a first read with it)."""
    with _RECENT_LOCK:
        _RECENT.clear()


def _parse(game: Game, text: str, ordered: bool, ordering=None) -> Range:
    if len(text) > MAX_TEXT:
        raise RangeError(f"range too long ({len(text):,} characters; the limit is "
                         f"{MAX_TEXT:,})", text, None)
    if is_exact_hand(game, text):
        written = parse_cards(text)
        rows = np.array([sorted(written)], np.uint8)
        if not ordered:
            return make_range(game, text, rows, np.ones(1))
        return make_range(game, text, rows, np.ones(1), orders=np.ones(1),
                          deals=one_deal(written))
    parser = Parser(game, text, ordering)
    try:
        with metered():  # a parse inside a parse (percent terms) keeps its own meter
            if not parser.text:
                raise RangeProblem("empty range", None)
            alternatives = parser.parse()
            charge(TERM_WORK * len(list(all_terms(alternatives))))
            n = holding_size(game, alternatives)
            orders = deals = None
            rows, weights = [], []
            if ordered:
                holdings, weights, orders, deals = stud_range(alternatives, n)
            for alt in alternatives if not ordered else ():
                held = evaluate(alt, n)
                if len(alternatives) > 1:
                    charge(UNION_WORK * len(held))  # the union below sorts every row
                rows.append(held)
                weights.append(np.full(len(held), alt.weight))
    except RangeProblem as problem:
        pos = None
        if problem.pos is not None:  # back to the text as written (spaces included)
            pos = parser.orig[problem.pos] if problem.pos < len(parser.orig) else len(text)
        where = "" if pos is None else f" at position {pos + 1}"
        raise RangeError(f"bad range {quote(text)}: {problem.message}{where}{problem.hint}", text,
                         None if pos is None else pos + 1) from None
    if ordered:
        pass  # stud_range gave holdings and weights
    elif len(rows) == 1:
        holdings, weights = rows[0], weights[0]
    elif math.comb(52, rows[0].shape[1]) <= DENSE_UNION:
        holdings, weights = dense_union(rows, [float(w[0]) if len(w) else 0.0 for w in weights])
    else:
        holdings = np.concatenate(rows)
        every = np.concatenate(weights)
        unique, first, inverse = np.unique(row_masks(holdings), return_index=True,
                                           return_inverse=True)
        weights = np.zeros(len(unique))
        np.maximum.at(weights, inverse.ravel(), every)  # several alternatives: the largest weight
        holdings = holdings[first]
    if len(holdings) == 0:
        raise RangeError(f"range {quote(text)} matches no holding", text, None)
    share = -1.0
    if len(alternatives) == 1 and len(alternatives[0].literals) == 1:
        only = alternatives[0].literals[0]
        if only[0] and isinstance(only[1], Percent):
            share = only[1].share  # the share the ordering reached
    return make_range(game, text, holdings, weights, share, orders, deals)


def holdings_excluding(rng: Range, dead) -> Range:
    """The holdings of ``rng`` that share no card with ``dead`` (card indices or
    card text: board and dead cards, other players' known cards).

    Raises RangeError when no holding is left.

    >>> r = parse_range("holdem", "AA")
    >>> len(holdings_excluding(r, "Ah")), len(holdings_excluding(r, [48, 49]))
    (3, 1)
    """
    cards = parse_cards(dead, "dead cards")
    if not cards:
        return rng
    keep = (rng.masks() & np.uint64(mask_of(cards))) == 0
    if not keep.any():
        raise RangeError(f"no holding of range {quote(rng.text)} is left without "
                         f"{' '.join(card_str(c) for c in cards)}", rng.text, None)
    return subset(rng, keep)