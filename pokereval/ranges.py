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

A pattern of n elements (padded with ``*`` to the hand size) matches a holding
of n cards when some one-to-one assignment of the cards to the elements
satisfies every element and the variables.  Matching is vectorised with numpy:
every candidate holding is a row of a ``uint8`` array, each element is a
52-entry table of the cards it accepts, and a pattern is an OR over the
(deduplicated) assignments of an AND of table look-ups and variable
(in)equalities.  To keep that cheap: exact cards are removed before matching
and ``*`` elements are never permuted; assignments that only swap identical
elements are tried once; a pattern that only constrains ranks (or only suits)
is matched once per distinct rank (suit) multiset of the candidates, and a
mixed one is first filtered by its rank-only and suit-only projections; a
pattern is generated from its constrained cards ("cores") times free
completions when that is much smaller than walking every hand of the deck.
In stud the patterns follow PPT's deal order (the first two cards are the
down cards, either way round; the others the up cards as dealt): the
holdings are found as sets, then weighed by their matching deals (see
"stud card order" below and ``Range.orders``).
Every range is read in bounded time and memory: see ``MAX_CANDIDATES``,
``MAX_WORK``, ``MAX_TEXT``, ``MAX_PATTERNS`` and ``MAX_DEAL_WALK``.

>>> r = parse_range("omaha-hilo", "AA:$ds")
>>> len(r), r.holdings.shape
(864, (864, 4))
>>> len(parse_range("holdem", "22+, A2s+"))
126
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from .cards import RANKS, card_str, parse_card, parse_cards
from .errors import CardError, PokerEvalError
from .games import Game, get_game

__all__ = ["RangeError", "Range", "parse_range", "is_exact_hand", "holdings_excluding",
           "MACROS", "MAX_CANDIDATES", "MAX_DEALS", "MAX_DEAL_WALK"]


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


# --------------------------------------------------------------------------- result

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
    _deals: _DealList | None = field(default=None, repr=False)

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
        """uint64 [k]: bit c set when card c is in the holding (for collision checks)."""
        return _keys(self.holdings)

    def deals(self, limit: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Stud: every ordered deal the range matches, as ``(uint8 [D, n] cards:
        the two down cards (lower first), then the up cards as dealt; float64 [D]
        each deal's weight)``.  A holding's weight is the sum of its deals'.
        More than ``limit`` (default ``MAX_DEALS``) deals, or a range of another
        game, is a RangeError.

        >>> cards, w = parse_range("stud", "KsJhTd, KsTdJh, JhKsTd").deals()
        >>> [" ".join(card_str(c) for c in row) for row in cards], w.tolist()
        (['Td Ks Jh', 'Jh Ks Td'], [1.0, 1.0])
        """
        limit = MAX_DEALS if limit is None else limit
        if self._deals is None:
            raise RangeError(f"range {_quote(self.text)} has no ordered deals: card order "
                             f"is read in stud games only, not {self.game.name}", self.text)
        count = int(self.orders.sum())
        if count > limit:
            raise RangeError(f"range {_quote(self.text)} matches {count:,} ordered deals; "
                             f"the most listed is {limit:,}", self.text)
        try:
            return self._deals.listing(self.holdings)
        except _RangeProblem as problem:
            raise RangeError(f"range {_quote(self.text)}: {problem.message}", self.text) from None

    def __repr__(self) -> str:
        return f"Range({self.game.name!r}, {self.text!r}, {len(self)} holdings)"


def _make_range(game: Game, text: str, rows: np.ndarray, weights: np.ndarray,
                share: float = -1.0, orders: np.ndarray | None = None,
                deals: _DealList | None = None) -> Range:
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    rows.setflags(write=False)
    weights.setflags(write=False)
    if orders is not None:
        orders = np.ascontiguousarray(orders, dtype=np.int64)
        orders.setflags(write=False)
    return Range(game, text, rows, weights, share, orders, deals)


# --------------------------------------------------------------------------- numpy helpers

MAX_CANDIDATES = 3_000_000
"""The most candidate holdings one term may enumerate (C(52,5) = 2,598,960 fits)."""
MAX_WORK = 500_000_000
"""The most card checks (candidate rows times assignments tried) one range may
cost; with MAX_CANDIDATES it bounds the time and memory of any range text."""
MAX_TEXT = 100_000
"""The longest range text read (characters)."""
MAX_PATTERNS = 5_000
"""The most concrete patterns one term may expand to (spans, bracket lists)."""
MAX_DEALS = 3_000_000
"""The most ordered stud deals :meth:`Range.deals` lists."""
MAX_DEAL_WALK = 10_000_000
"""The most partial stud deals (cards at the positions the patterns constrain)
one range may walk to count its holdings' orders."""
_TERM_WORK = 20_000  # work charged per term: bounds the Python overhead of long lists
_UNION_WORK = 20  # work charged per row of a union: bounds its memory (15 M rows)

_WORK = threading.local()


def _charge(units: int) -> None:
    """Count work against MAX_WORK for the range being read (see _parse)."""
    left = getattr(_WORK, "left", None)
    if left is None:
        return
    left -= units
    _WORK.left = left
    if left < 0:
        _WORK.left = None  # report once
        raise _RangeProblem(f"range too costly to read (more than {MAX_WORK:,} card checks; "
                            "narrow the patterns or write known cards)", None)

_CARD = np.arange(52)
_CARD_RANK = _CARD >> 2
_CARD_SUIT = _CARD & 3
_ALL_RANKS = (1 << 13) - 1
_ALL_SUITS = 0b1111
_ONE = np.uint64(1)


@functools.lru_cache(maxsize=24)
def _combinations(m: int, k: int) -> np.ndarray:
    """uint8 [C(m, k), k]: every k-subset of range(m), rows ascending, lexicographic.

    Built column by column with repeat/arange (no Python loop per row):
    C(52, 4) takes a few milliseconds, C(52, 5) well under 0.1 s.
    """
    if k > m:
        rows = np.zeros((0, k), np.uint8)
    elif k == 0:
        rows = np.zeros((1, 0), np.uint8)
    else:
        rows = np.arange(m - k + 1, dtype=np.uint8)[:, None]
        for j in range(1, k):
            last = rows[:, -1].astype(np.int64)
            counts = (m - k + j) - last  # next element: last+1 .. m-k+j
            starts = np.cumsum(counts) - counts
            total = int(counts.sum())
            nxt = (np.arange(total, dtype=np.int64) - np.repeat(starts - last - 1, counts))
            rows = np.concatenate(
                [np.repeat(rows, counts, axis=0), nxt.astype(np.uint8)[:, None]], axis=1)
    rows.setflags(write=False)
    return rows


def _columns(rows: np.ndarray) -> np.ndarray:
    """The columns of ``rows``, each contiguous (arithmetic on them is fast)."""
    return np.ascontiguousarray(rows.T)


def _keys(rows: np.ndarray) -> np.ndarray:
    """uint64 bit mask of each row's cards."""
    keys = np.zeros(len(rows), np.uint64)
    for col in _columns(rows):
        keys |= np.left_shift(_ONE, col.astype(np.uint64))
    return keys


def _unique_rows(rows: np.ndarray) -> np.ndarray:
    """Rows (sorted cards) without repeats, in key order."""
    keys = _keys(rows)
    order = np.argsort(keys)
    keys = keys[order]
    first = np.ones(len(keys), bool)
    first[1:] = keys[1:] != keys[:-1]
    return rows[order[first]]


def _mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


# --------------------------------------------------------------------------- terms

@dataclass(frozen=True)
class _Element:
    """One card of a pattern: a rank constraint and a suit constraint."""

    rmask: int              # accepted ranks (13 bits)
    smask: int              # accepted suits (4 bits)
    rvar: str | None = None  # rank variable letter
    svar: str | None = None  # suit variable letter
    rank: int | None = None  # the rank when written as a single rank (A, Ah, Ax)
    suit: int | None = None  # the suit when written as a fixed suit (h, Ah, [AK]h)
    cmask: int = (1 << 52) - 1  # accepted cards (a card list: [As,Ah,Kd])

    def table(self) -> np.ndarray:
        """bool[52]: the cards this element accepts (variables aside)."""
        return _card_table(self.rmask, self.smask, self.cmask)


_ALL_CARDS = (1 << 52) - 1


def _card_table(rmask: int, smask: int, cmask: int) -> np.ndarray:
    bits = ((rmask >> _CARD_RANK) & 1) & ((smask >> _CARD_SUIT) & 1)
    if cmask != _ALL_CARDS:
        bits = bits & np.array([(cmask >> c) & 1 for c in range(52)])
    return bits.astype(bool)


_STAR = _Element(_ALL_RANKS, _ALL_SUITS)


class _Term:
    """A pattern, macro or explicit set: generates holdings, matches holdings."""

    pos = 0
    size: int | None = None  # cards per holding, None = any (macros)

    def cost(self, n: int) -> float:
        raise NotImplementedError

    def generate(self, n: int) -> np.ndarray:
        raise NotImplementedError

    def match(self, rows: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def ordered(self, view: _DealView) -> np.ndarray:
        """Which partial stud deals of ``view`` the term matches; a term blind
        to card order (a shape macro) tests the deal's holding."""
        return view.of_holdings(self)


# Shape keys: a holding's suit multiset packed as four 4-bit counts (clubs in
# the low nibble), and its rank multiset as a base-13 number of its sorted ranks.

def _suit_key(rows: np.ndarray) -> np.ndarray:
    key = np.zeros(len(rows), np.int32)
    for col in _columns(rows):
        key += np.left_shift(np.int32(1), ((col & 3) << 2).astype(np.int32))
    return key


def _rank_key(rows: np.ndarray) -> np.ndarray:
    key = np.zeros(len(rows), np.int32)  # 13**7 < 2**31
    for col in _columns(rows):  # rows are sorted, so their ranks are too
        key *= 13
        key += col >> 2
    return key


def _compact(keys: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(distinct keys ascending, index of each key among them), like np.unique
    with return_inverse but linear when the key space is small."""
    if size > 1 << 22:
        return np.unique(keys, return_inverse=True)
    present = np.zeros(size, bool)
    present[keys] = True
    distinct = np.flatnonzero(present)
    where = np.zeros(size, np.int64)
    where[distinct] = np.arange(len(distinct))
    return distinct, where[keys]


def _suit_counts_of(key) -> np.ndarray:
    return np.stack([(key >> (4 * s)) & 15 for s in range(4)], axis=-1)


def _suit_lut(test) -> np.ndarray:
    """bool[65536] over packed suit counts."""
    return test(_suit_counts_of(np.arange(1 << 16)))


def _rank_counts(rows: np.ndarray) -> np.ndarray:
    """int8 [N, 13]: how many cards of each rank a holding has."""
    counts = np.zeros((len(rows), 13), np.int8)
    at = np.arange(len(rows))
    for col in _columns(rows):
        counts[at, col >> 2] += 1
    return counts


def _by_rank_multiset(test):
    """A test that only looks at ranks, run once per distinct rank multiset."""
    def run(rows):
        width = rows.shape[1]
        distinct, index = _compact(_rank_key(rows), 13 ** width)
        return test(_rank_representatives(distinct, width))[index]
    return run


def _rundown(gaps: int):
    """n distinct ranks from top to bottom spanning n-1+gaps ranks (aces high)."""
    def test(rows):
        ranks = (rows >> 2).astype(int)  # sorted rows: the first card is the lowest rank
        return (_rank_counts(rows).max(axis=1) <= 1) & \
            (ranks[:, -1] - ranks[:, 0] == rows.shape[1] - 1 + gaps)
    return _by_rank_multiset(test)


def _suit_test(test):
    lut = functools.cache(lambda: _suit_lut(test))  # built on first use, not at import
    return lambda rows: lut()[_suit_key(rows)]


def _rank_test(test):
    return _by_rank_multiset(lambda rows: test(_rank_counts(rows)))


#: Shape macros: name (lower case) -> (description, test over sorted rows).
_FILTERS = {
    "ds": ("double-suited: exactly two suits have exactly two cards each, no suit has more",
           _suit_test(lambda c: ((c == 2).sum(axis=1) == 2) & (c <= 2).all(axis=1))),
    "ss": ("single-suited: exactly one suit has exactly two cards, no suit has more",
           _suit_test(lambda c: ((c == 2).sum(axis=1) == 1) & (c <= 2).all(axis=1))),
    "rb": ("rainbow: no two cards share a suit",
           _suit_test(lambda c: (c <= 1).all(axis=1))),
    "o": ("offsuit: no two cards share a suit (hold'em AKo; the same test as $rb)",
          _suit_test(lambda c: (c <= 1).all(axis=1))),
    "s": ("suited: every card of one suit",
          _suit_test(lambda c: c.max(axis=1) == c.sum(axis=1))),
    "np": ("no pair: no two cards share a rank", _rank_test(lambda c: c.max(axis=1) <= 1)),
    "op": ("one pair: exactly one rank twice, no other rank repeated",
           _rank_test(lambda c: ((c == 2).sum(axis=1) == 1) & (c.max(axis=1) <= 2))),
    "tp": ("two pair: exactly two ranks twice, no rank three times",
           _rank_test(lambda c: ((c == 2).sum(axis=1) == 2) & (c.max(axis=1) <= 2))),
    "nt": ("no trips: no rank three or more times", _rank_test(lambda c: c.max(axis=1) <= 2)),
    "0g": ("zero-gap rundown: distinct ranks in a row (KQJT, 5432; aces high)", _rundown(0)),
    "1g": ("one-gap rundown: distinct ranks with one missing rank between the ends (KQJ9)",
           _rundown(1)),
    "2g": ("two-gap rundown: distinct ranks spanning two ranks more than a run (KQT8)",
           _rundown(2)),
}


_RANK_MACROS = frozenset({"np", "op", "tp", "nt", "0g", "1g", "2g"})  # see only ranks
_SUIT_MACROS = frozenset({"ds", "ss", "rb", "o", "s"})  # see only suits


def _ranks_mask(text: str) -> int:
    return _mask_of(RANKS.index(r) for r in text)


#: Rank-class macros: one card whose rank is in the class (usable as an element).
_CLASSES = {
    "b": ("big: A-J", _ranks_mask("AKQJ")),
    "r": ("broadway: A-T", _ranks_mask("AKQJT")),
    "m": ("middle: T-7", _ranks_mask("T987")),
    "z": ("small: 6-2", _ranks_mask("65432")),
    "l": ("low: A, 2-8", _ranks_mask("A2345678")),
    "w": ("wheel: A, 2-5", _ranks_mask("A2345")),
    "n": ("no-low: K-9", _ranks_mask("KQJT9")),
    "f": ("face: K-J", _ranks_mask("KQJ")),
}

MACROS = {**{k: v[0] for k, v in _FILTERS.items()}, **{k.upper(): v[0] for k, v in _CLASSES.items()}}
"""Every macro (written after '$', any case): name -> meaning."""

# longest names first, so that $ss is not $s followed by a spade
_MACRO_NAMES = sorted([*_FILTERS, *_CLASSES], key=len, reverse=True)


class _Macro(_Term):
    """A shape macro ($ds, $OP, ...): a filter over whole holdings."""

    def __init__(self, name: str, pos: int):
        self.name, self.pos, self.text = name, pos, "$" + name
        self.test = _FILTERS[name][1]

    def cost(self, n):
        return math.comb(52, n)

    def generate(self, n):
        if math.comb(52, n) > MAX_CANDIDATES:
            raise _RangeProblem(
                f"macro {self.text!r} alone would list every {n}-card hand "
                f"({math.comb(52, n):,}; the limit is {MAX_CANDIDATES:,}): "
                "combine it with a pattern, as in 'AA:$ds'", self.pos)
        rows = _combinations(52, n)
        _charge(len(rows))
        return rows[self.test(rows)]

    def match(self, rows):
        _charge(len(rows))
        return self.test(rows)


class _Explicit(_Term):
    """A fixed list of holdings (hold'em shorthand)."""

    def __init__(self, rows: np.ndarray, text: str, pos: int):
        self.rows, self.text, self.pos, self.size = rows, text, pos, rows.shape[1]
        self.keys = _keys(rows)

    def cost(self, n):
        return len(self.rows)

    def generate(self, n):
        return self.rows

    def match(self, rows):
        _charge(len(rows))
        return np.isin(_keys(rows), self.keys)


class _Core:
    """The constrained, non-exact elements of a pattern, and their matcher.

    ``elements``: (rmask, smask, cmask, rvar, svar) tuples, sorted so that
    identical ones are adjacent.  ``match(sub)`` tells which rows (k >= len(elements)
    cards, sorted) hold some one-to-one assignment of cards to the elements.
    """

    def __init__(self, elements):
        self.elements = elements
        tables = [_card_table(r, s, c) for r, s, c, _, _ in elements]
        self.tables = tables
        self.active = [i for i, t in enumerate(tables) if not t.all()]
        self.rank_same, self.rank_diff = self._links(3)
        self.suit_same, self.suit_diff = self._links(4)
        on_ranks = any(r != _ALL_RANKS or c != _ALL_CARDS or rv for r, _, c, rv, _ in elements)
        on_suits = any(s != _ALL_SUITS or c != _ALL_CARDS or sv for _, s, c, _, sv in elements)
        self.kind = ("mixed" if on_ranks and on_suits else "ranks" if on_ranks
                     else "suits" if on_suits else "none")
        self.projections = []
        if self.kind == "mixed":  # necessary conditions, checked cheaply first
            for drop_suits in (True, False):
                kept = []
                for (r, s, c, rv, sv), t in zip(elements, tables):
                    if drop_suits:  # the ranks (suits) of the cards the element accepts
                        kept.append((_mask_of(set(_CARD_RANK[t].tolist())), _ALL_SUITS,
                                     _ALL_CARDS, rv, None))
                    else:
                        kept.append((_ALL_RANKS, _mask_of(set(_CARD_SUIT[t].tolist())),
                                     _ALL_CARDS, None, sv))
                kept = [k for k in kept if k != (_ALL_RANKS, _ALL_SUITS, _ALL_CARDS, None, None)]
                self.projections.append(_Core(_sort(kept)))
        self._assigned: dict[int, list] = {}

    def _links(self, index):
        """(same pairs, different pairs) of element indices for one variable kind."""
        classes: dict[str, list[int]] = {}
        for i, k in enumerate(self.elements):
            if k[index]:
                classes.setdefault(k[index], []).append(i)
        same = [(c[0], j) for c in classes.values() for j in c[1:]]
        reps = [c[0] for c in classes.values()]
        return same, list(itertools.combinations(reps, 2))

    def _assignments(self, width: int) -> list[tuple[int, ...]]:
        """Injective maps element -> position among ``width`` cards, one per
        class of maps that differ only by swapping identical elements."""
        if width not in self._assigned:
            m = len(self.elements)
            twins = [i for i in range(1, m) if self.elements[i] == self.elements[i - 1]]
            self._assigned[width] = [p for p in itertools.permutations(range(width), m)
                                     if all(p[i - 1] < p[i] for i in twins)]
        return self._assigned[width]

    def match(self, sub: np.ndarray) -> np.ndarray:
        count, width = sub.shape
        if self.kind == "none" or count == 0:
            return np.ones(count, bool)
        _charge(count * width)
        if self.kind == "ranks":
            # only the rank multiset matters: match one representative of each
            distinct, index = _compact(_rank_key(sub), 13 ** width)
            return self._assign(_rank_representatives(distinct, width))[index]
        if self.kind == "suits":
            distinct, index = _compact(_suit_key(sub), 1 << 16)
            return self._assign(_suit_representatives(distinct, width))[index]
        keep = np.ones(count, bool)
        for projection in self.projections:
            keep &= projection.match(sub)
        idx = np.flatnonzero(keep)
        keep[idx] = self._assign(sub[idx])
        return keep

    def _assign(self, sub: np.ndarray) -> np.ndarray:
        """The OR over assignments of the AND of the element and variable tests."""
        count, width = sub.shape
        _charge(count * max(1, len(self._assignments(width))))
        cols = [c.astype(np.intp) for c in _columns(sub)]  # intp: fast table look-ups
        hit = {e: [self.tables[e].take(c) for c in cols] for e in self.active}  # hit[e][p]
        keep = np.ones(count, bool)
        for e in self.active:  # necessary: every element fits some card
            keep &= np.logical_or.reduce(hit[e])
        idx = np.flatnonzero(keep)
        if len(idx) < count:
            if len(idx) == 0:
                return keep
            cols = [c[idx] for c in cols]
            hit = {e: [h[idx] for h in row] for e, row in hit.items()}
        ranks = [c >> 2 for c in cols]
        suits = [c & 3 for c in cols]
        same: dict = {}

        def eq(values, a, b):
            key = (values is ranks, min(a, b), max(a, b))
            if key not in same:
                same[key] = values[a] == values[b]
            return same[key]

        found = np.zeros(len(idx), bool)
        tests = ([(ranks, a, b, True) for a, b in self.rank_same]
                 + [(suits, a, b, True) for a, b in self.suit_same]
                 + [(ranks, a, b, False) for a, b in self.rank_diff]
                 + [(suits, a, b, False) for a, b in self.suit_diff])
        for p in self._assignments(width):
            acc = None
            for e in self.active:
                acc = hit[e][p[e]].copy() if acc is None else acc.__iand__(hit[e][p[e]])
            for values, a, b, equal in tests:
                t = eq(values, p[a], p[b])
                if acc is None:
                    acc = t.copy() if equal else ~t
                elif equal:
                    acc &= t
                else:
                    acc &= ~t
            if acc is None:  # nothing to test: every row fits
                found[:] = True
                break
            found |= acc
        keep[idx] = found
        return keep


def _sort(elements):
    return sorted(elements, key=lambda k: (k[3] or "", k[4] or "", k[0], k[1], k[2]))


def _rank_representatives(keys: np.ndarray, width: int) -> np.ndarray:
    """One holding (sorted cards) per rank-multiset key: suits 0, 1, ... within a rank."""
    ranks = np.stack([(keys // 13 ** (width - 1 - j)) % 13 for j in range(width)], axis=1)
    suits = np.zeros_like(ranks)
    for j in range(1, width):
        suits[:, j] = np.where(ranks[:, j] == ranks[:, j - 1], suits[:, j - 1] + 1, 0)
    return (4 * ranks + suits).astype(np.uint8)


def _suit_representatives(keys: np.ndarray, width: int) -> np.ndarray:
    """One holding per packed suit-count key: card j has rank j (all ranks differ)."""
    counts = _suit_counts_of(keys)
    suits = np.stack([np.repeat(np.arange(4), c) for c in counts]) if len(keys) else \
        np.zeros((0, width), np.int64)
    return (4 * np.arange(width) + suits).astype(np.uint8)


class _Pattern(_Term):
    """n elements: exact cards, constrained elements (the core) and free '*'s."""

    def __init__(self, elements: list[_Element], text: str, pos: int):
        self.text, self.pos, self.size = text, pos, len(elements)
        explicit_ranks = _mask_of(e.rank for e in elements if e.rank is not None)
        explicit_suits = _mask_of(e.suit for e in elements if e.suit is not None)
        rvars = [e.rvar for e in elements if e.rvar]
        svars = [e.svar for e in elements if e.svar]
        # A variable only constrains other cards when it repeats or has a sibling.
        rank_links = len(set(rvars)) > 1 or len(rvars) > len(set(rvars))
        suit_links = len(set(svars)) > 1 or len(svars) > len(set(svars))
        fixed, core = [], []
        self.slots = []  # per position: (bool[52] cards accepted, rank var, suit var)
        for e in elements:
            # Variables never stand for a rank / suit written explicitly in the pattern.
            rmask = e.rmask & ~explicit_ranks if e.rvar else e.rmask
            smask = e.smask & ~explicit_suits if e.svar else e.smask
            rvar = e.rvar if rank_links else None
            svar = e.svar if suit_links else None
            self.slots.append((_card_table(rmask, smask, e.cmask), rvar, svar))
            if e.rank is not None and e.suit is not None and e.cmask == _ALL_CARDS:
                fixed.append(4 * e.rank + e.suit)
            elif (rmask != _ALL_RANKS or smask != _ALL_SUITS or e.cmask != _ALL_CARDS
                  or rvar or svar):
                core.append((rmask, smask, e.cmask, rvar, svar))
        self.fixed = sorted(fixed)
        self.void = len(set(fixed)) < len(fixed)  # the same exact card twice: matches nothing
        self.fixed_table = np.zeros(52, bool)
        self.fixed_table[self.fixed] = True
        self.core = _Core(_sort(core))
        self.free = len(elements) - len(fixed) - len(core)  # pure '*' elements
        self.rest = np.flatnonzero(~self.fixed_table).astype(np.uint8)
        accepted = np.zeros(52, bool)
        for t in self.core.tables:
            accepted |= t
        self.domain = self.rest[accepted[self.rest]]  # cards some core element accepts
        self.constrained = [q for q, (t, rv, sv) in enumerate(self.slots)
                            if rv or sv or not t.all()]

    def sees(self) -> tuple[bool, bool]:
        """(whether some element tells ranks apart, whether some tells suits apart)."""
        grids = [t.reshape(13, 4) for t, _, _ in self.slots]  # [rank, suit]
        on_ranks = any(rv or not (g == g[:1, :]).all() for g, (_, rv, _) in zip(grids, self.slots))
        on_suits = any(sv or not (g == g[:, :1]).all() for g, (_, _, sv) in zip(grids, self.slots))
        return on_ranks, on_suits

    def ordered(self, view):
        """Stud: the partial deals whose card at each position fits this
        pattern's element there (the two down cards either way round)."""
        count = len(view)
        hit = np.zeros(count, bool)
        if self.void or count == 0:
            return hit
        slots = self.slots
        swaps = [False]
        if 0 in self.constrained or 1 in self.constrained:
            a, b = slots[0], slots[1]
            if not (a[1:] == b[1:] and np.array_equal(a[0], b[0])):
                swaps.append(True)  # identical down elements: one way round is enough
        _charge(count * max(1, len(self.constrained)) * len(swaps))
        for swap in swaps:
            def sw(q, swap=swap):  # the position whose card element q takes
                return 1 - q if swap and q < 2 else q
            col = {q: view.card(sw(q)) for q in self.constrained if not slots[q][0].all()}
            acc = np.ones(count, bool)
            for q in self.constrained:
                table = slots[q][0]
                if not table.all():
                    acc &= table[col[q]]
            for index, part in ((1, 2), (2, 3)):  # rank variables on c >> 2, suits on c & 3
                groups: dict[str, list[int]] = {}
                for q in self.constrained:
                    if slots[q][index]:
                        groups.setdefault(slots[q][index], []).append(q)
                value = {q: view.rank(sw(q)) if part == 2 else view.suit(sw(q))
                         for qs in groups.values() for q in qs}
                for qs in groups.values():  # one variable: one value
                    for q in qs[1:]:
                        acc &= value[q] == value[qs[0]]
                for g, h in itertools.combinations([qs[0] for qs in groups.values()], 2):
                    acc &= value[g] != value[h]  # different variables: different values
            hit |= acc
        return hit

    def match(self, rows):
        count, n = rows.shape
        if self.void or n != self.size:
            return np.zeros(count, bool)
        if not self.fixed:
            return self.core.match(rows)
        is_fixed = self.fixed_table[rows]
        ok = is_fixed.sum(axis=1) == len(self.fixed)
        idx = np.flatnonzero(ok)
        sub = rows[idx][~is_fixed[idx]].reshape(len(idx), n - len(self.fixed))
        ok[idx] = self.core.match(sub)
        return ok

    # -- generation

    def cost(self, n):
        if self.void:
            return 0
        m = len(self.core.elements)
        full = math.comb(len(self.rest), n - len(self.fixed))
        if m == 0:
            return full
        return min(full, math.comb(len(self.domain), m) * math.comb(len(self.rest), self.free))

    def _deck(self, k):
        """Every k cards of the deck less the exact cards (sorted rows)."""
        combos = _combinations(len(self.rest), k)
        return combos if len(self.rest) == 52 else self.rest[combos]

    def _too_wide(self, count):
        return _RangeProblem(
            f"pattern {self.text!r} is too wide to list ({count:,} candidate holdings, "
            f"the limit is {MAX_CANDIDATES:,})", self.pos)

    def generate(self, n):
        if self.void:
            return np.zeros((0, n), np.uint8)
        m, width = len(self.core.elements), n - len(self.fixed)
        full = math.comb(len(self.rest), width)
        sub = None
        if m and math.comb(len(self.domain), m) <= min(MAX_CANDIDATES, full):
            # cores: the constrained cards, drawn from the cards they accept,
            # then completed by every choice of the free '*' cards
            cores = self.domain[_combinations(len(self.domain), m)]
            _charge(cores.size)
            cores = cores[self.core.match(cores)]
            product = len(cores) * math.comb(len(self.rest), self.free)
            if self.free == 0:
                sub = cores
            elif product <= MAX_CANDIDATES and (product * 4 <= full or full > MAX_CANDIDATES):
                # (deduplicating the product sorts it: only worth it when much smaller)
                sub = _extend(cores, self._deck(self.free))
        if sub is None:  # walk every hand of the remaining deck
            if full > MAX_CANDIDATES:
                raise self._too_wide(full)
            _charge(full)
            sub = self._deck(width)
            if m:
                sub = sub[self.core.match(sub)]
        if self.fixed:
            fixed = np.broadcast_to(np.array(self.fixed, np.uint8), (len(sub), len(self.fixed)))
            sub = np.sort(np.concatenate([sub, fixed], axis=1), axis=1)
        return sub


def _extend(cores: np.ndarray, free: np.ndarray) -> np.ndarray:
    """Every core completed by every disjoint free combination, sorted, unique."""
    _charge(_UNION_WORK * len(cores) * len(free))  # the product is sorted and deduplicated
    ck, fk = _keys(cores), _keys(free)
    ci = np.repeat(np.arange(len(cores)), len(free))
    fi = np.tile(np.arange(len(free)), len(cores))
    disjoint = (ck[ci] & fk[fi]) == 0
    ci, fi = ci[disjoint], fi[disjoint]
    rows = np.sort(np.concatenate([cores[ci], free[fi]], axis=1), axis=1)
    return _unique_rows(rows) if len(cores) > 1 else rows


# --------------------------------------------------------------------------- parser

class _RangeProblem(Exception):
    """Raised inside the parser; turned into a RangeError that quotes the text."""

    def __init__(self, message: str, pos: int | None, hint: str = ""):
        super().__init__(message)
        self.message, self.pos, self.hint = message, pos, hint


class _Patterns(_Term):
    """A pattern as written: one or more concrete element lists (spans and
    bracket lists expand to several), each padded with '*' to the hand size."""

    def __init__(self, lists: list[list[_Element]], text: str, pos: int):
        self.lists, self.text, self.pos = lists, text, pos
        self.size = max(len(els) for els in lists)
        self._bound: dict[int, list[_Pattern]] = {}

    def patterns(self, n: int) -> list[_Pattern]:
        if n not in self._bound:
            self._bound[n] = [_Pattern(els + [_STAR] * (n - len(els)), self.text, self.pos)
                              for els in self.lists]
        return self._bound[n]

    def cost(self, n):
        return sum(p.cost(n) for p in self.patterns(n))

    def generate(self, n):
        patterns = self.patterns(n)
        if len(patterns) > 1 and self.cost(n) >= math.comb(52, n):
            # wide spans (K-3 in 5-card Omaha): one walk of the deck beats a huge union
            if math.comb(52, n) > MAX_CANDIDATES:
                raise patterns[0]._too_wide(math.comb(52, n))
            rows = _combinations(52, n)
            _charge(len(rows))
            return rows[self.match(rows)]
        parts = [p.generate(n) for p in patterns]
        if len(parts) == 1:
            return parts[0]
        _charge(_UNION_WORK * sum(len(part) for part in parts))
        return _unique_rows(np.concatenate(parts))

    def match(self, rows):
        hit = np.zeros(len(rows), bool)
        for p in self.patterns(rows.shape[1]):
            _charge(len(rows))
            hit |= p.match(rows)
        return hit

    def ordered(self, view):
        hit = np.zeros(len(view), bool)
        for p in self.patterns(view.n):
            hit |= p.ordered(view)
        return hit


class _Group(_Term):
    """A parenthesised range: the union of its alternatives."""

    def __init__(self, alternatives: list, text: str, pos: int):
        self.alternatives, self.text, self.pos = alternatives, text, pos
        sizes = [t.size for t in _sized_terms(alternatives)]
        self.size = max(sizes) if sizes else None

    def cost(self, n):
        return sum(_alternative_cost(alt, n) for alt in self.alternatives)

    def generate(self, n):
        parts = [_evaluate(alt, n) for alt in self.alternatives]
        if len(parts) == 1:
            return parts[0]
        _charge(_UNION_WORK * sum(len(part) for part in parts))
        return _unique_rows(np.concatenate(parts))

    def match(self, rows):
        hit = np.zeros(len(rows), bool)
        for alt in self.alternatives:
            ok = np.ones(len(rows), bool)
            for positive, term in alt.literals:
                t = term.match(rows)
                ok &= t if positive else ~t
            hit |= ok
        return hit

    def ordered(self, view):
        hit = np.zeros(len(view), bool)
        for alt in self.alternatives:
            hit[_ordered_alternative(alt, view)] = True
        return hit


class _Percent(_Explicit):
    """``N%`` / ``a%-b%`` (``6h``: six-handed): the holdings between two shares
    of the game's ordering, from pokereval.percent."""

    def __init__(self, game: Game, lo: float, hi: float, players: int, text: str, pos: int):
        try:
            from .percent import percent_holdings
        except ImportError:
            raise _RangeProblem("percent ranges are not available", pos) from None
        try:
            rows, share = percent_holdings(game, lo, hi, players)
        except PokerEvalError as error:
            raise _RangeProblem(str(error), pos) from None
        super().__init__(np.asarray(rows, np.uint8).reshape(-1, game.hole), text, pos)
        self.share = float(share)


_SUIT_CHARS = {}  # the suit symbols a pattern accepts: lower-case letters and ♣♦♥♠ ♧♢♡♤
for _ch in "cdhs♣♦♥♠♧♢♡♤":
    _SUIT_CHARS[_ch] = parse_card("A" + _ch) & 3
del _ch
_SUIT_VARS = "wxyz"
_RANK_OF = {r: i for i, r in enumerate(RANKS)}
_RANK_OF.update({r.lower(): i for r, i in _RANK_OF.items()})
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_OPERATORS = ",!:@()"
_NUMBER = re.compile(r"\d+(?:\.\d*)?|\.\d+")
_PERCENT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)%(?:-(\d+(?:\.\d*)?|\.\d+)%)?(6h)?", re.IGNORECASE)
_MAX_DEPTH = 32

_SH = r"([2-9TJQKA])([2-9TJQKA])([so]?)"
_SHORTHAND = re.compile(rf"{_SH}(\+?)", re.IGNORECASE)
_SHORTHAND_SPAN = re.compile(rf"{_SH}-{_SH}", re.IGNORECASE)


@dataclass
class _Alternative:
    literals: list[tuple[bool, _Term]]  # (positive, term); none positive: a leading '!'
    weight: float
    pos: int
    weighted: bool = False


def _sized_terms(alternatives):
    """The terms that fix a number of cards (patterns, explicit lists), groups opened."""
    for alt in alternatives:
        for _, t in alt.literals:
            if isinstance(t, _Group):
                yield from _sized_terms(t.alternatives)
            elif t.size is not None:
                yield t


def _shift(e: _Element, step: int) -> _Element:
    rank = e.rank + step
    return _Element(1 << rank, e.smask, e.rvar, e.svar, rank, e.suit, e.cmask)


class _Parser:
    """Recursive descent over the text with its whitespace removed (``orig``
    maps each kept character back to its position in the text as written)."""

    def __init__(self, game: Game, text: str):
        self.game = game
        self.orig = [i for i, ch in enumerate(text) if not ch.isspace()]
        self.text = "".join(text[i] for i in self.orig)
        self.pos = 0
        self.depth = 0
        self.holdem = game.hole == 2 and not game.stud

    # -- scanning helpers
    def peek(self, ahead: int = 0) -> str:
        at = self.pos + ahead
        return self.text[at] if at < len(self.text) else ""

    def fail(self, message, pos=None, hint=""):
        raise _RangeProblem(message, self.pos if pos is None else pos, hint)

    def unexpected(self, pos=None):
        pos = self.pos if pos is None else pos
        ch = self.text[pos]
        hint = ""
        if ch in "+-":
            hint = " (a span: KK-TT, KQJT-T987, TT+, KQJT-)"
        self.fail(f"unknown symbol {ch!r}", pos, hint)

    def macro_name(self, at: int) -> str | None:
        """The macro written at ``at`` ('$' + name, any case, longest name first)."""
        for name in _MACRO_NAMES:
            if self.text[at + 1:at + 1 + len(name)].lower() == name:
                return name
        return None

    def filter_macro_here(self) -> bool:
        return self.peek() == "$" and self.macro_name(self.pos) in _FILTERS

    def ends_term(self, ch: str) -> bool:
        return not ch or ch in _OPERATORS

    # -- grammar
    def parse(self) -> list[_Alternative]:
        alternatives = self.alternatives()
        if self.pos < len(self.text):
            ch = self.peek()
            self.fail("')' without '('" if ch == ")" else f"unexpected {ch!r}")
        return alternatives

    def alternatives(self) -> list[_Alternative]:
        alternatives = [self.alternative()]
        while self.peek() == ",":
            self.pos += 1
            alternatives.append(self.alternative())
        return alternatives

    def alternative(self) -> _Alternative:
        start = self.pos
        literals = []
        positive = True
        if self.peek() == "!":  # a leading '!': every hand but these
            self.pos += 1
            positive = False
        literals.append((positive, self.term()))
        self.appended_macros(literals)
        while self.peek() in ("!", ":") and self.peek():
            ch = self.peek()
            self.pos += 1
            literals.append((ch == ":", self.term()))
            self.appended_macros(literals)
        alt = _Alternative(literals, 1.0, start)
        if self.peek() == "@":
            self.pos += 1
            at = self.pos
            number = _NUMBER.match(self.text, self.pos)
            if not number:
                self.fail("expected a weight (a positive number) after '@'")
            self.pos = number.end()
            alt.weight, alt.weighted = float(number.group()), True
            if not alt.weight > 0 or not math.isfinite(alt.weight):
                self.fail("a weight must be positive", at)
            if self.peek() not in ("", ",", ")"):
                self.fail(f"unexpected {self.peek()!r} after a weight "
                          "(a weight ends an alternative: 'AA:$ds@50, ...')")
        elif self.peek() not in ("", ",", ")"):
            self.fail(f"unexpected {self.peek()!r} (expected ':', '!', '@', ',' or the end)")
        return alt

    def appended_macros(self, literals):
        """'AK$OP' = 'AK:$OP': shape macros written right after a term filter it."""
        while self.filter_macro_here():
            start = self.pos
            name = self.macro_name(start)
            self.pos += 1 + len(name)
            literals.append((True, _Macro(name, start)))

    def term(self) -> _Term:
        start = self.pos
        ch = self.peek()
        if ch == "(":
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                self.fail(f"parentheses nested more than {_MAX_DEPTH} deep")
            self.pos += 1
            alternatives = self.alternatives()
            if self.peek() != ")":
                self.fail("'(' is never closed", start)
            self.pos += 1
            self.depth -= 1
            if any(alt.weighted for alt in alternatives):
                self.fail("a weight belongs to a whole alternative, not inside parentheses: "
                          "write '(AA, KK):$ds@50'", start)
            return _Group(alternatives, self.text[start:self.pos], start)
        if self.ends_term(ch):
            self.fail("expected a hand pattern" + (f" before {ch!r}" if ch else " at the end"))
        percent = _PERCENT.match(self.text, self.pos)
        if percent:
            return self.percent(percent)
        if ch == "$":
            name = self.macro_name(self.pos)
            if name is None:
                word = re.compile(r"\$\w*").match(self.text, self.pos).group()
                known = ", ".join("$" + k for k in MACROS)
                self.fail(f"unknown macro {word!r} (known: {known})")
            if name in _FILTERS:
                self.pos += 1 + len(name)
                return _Macro(name, start)
        if self.holdem:  # hold'em shorthand: AKs AKo 22+ A2s+ JTs-76s TT-77
            end = start
            while end < len(self.text) and self.text[end] not in _OPERATORS + "$":
                end += 1
            raw = self.text[start:end]
            shorthand = _holdem_shorthand(raw)
            if shorthand is not None:
                if isinstance(shorthand, str):
                    self.fail(shorthand, start)
                self.pos = end
                return _Explicit(shorthand, raw, start)
        return self.pattern()

    def percent(self, match) -> _Term:
        first, second, six = match.group(1, 2, 3)
        lo, hi = (0.0, float(first)) if second is None else (float(first), float(second))
        if not 0 <= lo < hi <= 100:
            self.fail(f"a percent range needs 0 <= low < high <= 100, got {match.group()!r}")
        if self.game.stud:
            self.fail(f"percent ranges need a hand ordering; {self.game.name} has none")
        start = self.pos
        self.pos = match.end()
        if not self.ends_term(self.peek()) and not self.filter_macro_here():
            self.unexpected()
        return _Percent(self.game, lo / 100, hi / 100, 6 if six else 10, match.group(), start)

    def pattern(self) -> _Patterns:
        """Elements, then an optional span: '-' and a second pattern, or a trailing '+'/'-'."""
        start = self.pos
        left = self.slots()
        ch = self.peek()
        if ch in ("+", "-") and ch:
            self.pos += 1
            nxt = self.peek()
            if ch == "-" and not self.ends_term(nxt) and not self.filter_macro_here():
                right = self.slots()
                lists = self.span(self.single(left, start), self.single(right, start), start)
            else:
                lists = self.trail(self.single(left, start), ch, start)
        else:
            lists = [[]]
            for slot in left:  # every choice of every bracket list
                lists = [a + b for a in lists for b in slot]
                if len(lists) > MAX_PATTERNS:
                    self.fail(f"pattern expands to more than {MAX_PATTERNS:,} patterns", start)
        return _Patterns(lists, self.text[start:self.pos], start)

    def single(self, slots, start) -> list[_Element]:
        if any(len(slot) > 1 for slot in slots):
            self.fail("a span cannot contain a bracket list of patterns", start)
        return [e for slot in slots for e in slot[0]]

    def slots(self) -> list[list[list[_Element]]]:
        """The pattern's cards: each slot is a list of choices (element lists)."""
        slots = []
        while True:
            ch = self.peek()
            if self.ends_term(ch) or ch in "+-" or self.filter_macro_here():
                break
            if ch == "[":
                slots.append(self.bracket())
            else:
                slots.append([[self.element()]])
        if not slots:
            self.unexpected() if ch else self.fail("expected a hand pattern at the end")
        return slots

    def element(self) -> _Element:
        text, at = self.text, self.pos
        if at >= len(text):
            self.fail("expected a card at the end")
        ch = text[at]
        if ch == "*":
            self.pos += 1
            return self.suit(_STAR)
        if text.startswith("10", at) or ch in _RANK_OF:
            rank = _RANK_OF["T" if text.startswith("10", at) else ch]
            self.pos += 2 if text.startswith("10", at) else 1
            return self.suit(_Element(1 << rank, _ALL_SUITS, rank=rank))
        if ch in _SUIT_CHARS:  # a lone suit: a card of that suit
            self.pos += 1
            return _Element(_ALL_RANKS, 1 << _SUIT_CHARS[ch], suit=_SUIT_CHARS[ch])
        if ch in _SUIT_VARS:
            self.pos += 1
            return _Element(_ALL_RANKS, _ALL_SUITS, svar=ch)
        if ch == "$":
            name = self.macro_name(at)
            if name in _CLASSES:
                self.pos += 1 + len(name)
                return self.suit(_Element(_CLASSES[name][1], _ALL_SUITS))
            self.term_ends()
        if ch in _LETTERS:  # every other letter is a rank variable
            self.pos += 1
            return self.suit(_Element(_ALL_RANKS, _ALL_SUITS, rvar=ch))
        if ch == "]":
            self.fail("']' without '['")
        if ch == "[":
            self.fail("brackets cannot be nested")
        self.unexpected()

    def term_ends(self):
        name = self.macro_name(self.pos)
        if name is None:
            word = re.compile(r"\$\w*").match(self.text, self.pos).group()
            known = ", ".join("$" + k for k in MACROS)
            self.fail(f"unknown macro {word!r} (known: {known})")
        self.unexpected()

    def suit(self, element: _Element) -> _Element:
        """The suit written right after a rank part (Ah, Ax, [AK]s), if any."""
        ch = self.peek()
        e = element
        if ch in _SUIT_CHARS and ch:
            self.pos += 1
            s = _SUIT_CHARS[ch]
            return _Element(e.rmask, 1 << s, e.rvar, None, e.rank, s, e.cmask)
        if ch in _SUIT_VARS and ch:
            self.pos += 1
            return _Element(e.rmask, _ALL_SUITS, e.rvar, ch, e.rank, None, e.cmask)
        return element

    def bracket(self) -> list[list[_Element]]:
        """'[...]': one card from a list of ranks, suits or cards ([A,2,3], [T-7],
        [s,h], [As,Ah]), or one of several patterns ([KK-TT], [AK,QJ])."""
        open_at = self.pos
        self.pos += 1
        items, commas = [], False
        while True:
            ch = self.peek()
            if not ch:
                self.fail("'[' is never closed", open_at)
            if ch == "]":
                self.pos += 1
                break
            if ch == ",":
                commas = True
                self.pos += 1
                continue
            if ch in _OPERATORS:
                self.fail("'[' is never closed", open_at)
            at = self.pos
            left = self.run()
            if self.peek() in ("-", "+") and self.peek():
                sign = self.peek()
                self.pos += 1
                if sign == "-" and self.peek() not in ("", ",", "]"):
                    right = [self.element()] if len(left) == 1 else self.run()
                    items.append(self.span(left, right, at))
                else:
                    items.append(self.trail(left, sign, at))
            else:
                items.append([left])
        choices = [c for item in items for c in item]
        if not choices:
            self.fail("empty list '[]'", open_at)
        if len(choices) == 1 and len(choices[0]) > 1 and not commas:
            choices = [[e] for e in choices[0]]  # [AKQ]: one card, A or K or Q
        if all(len(c) == 1 for c in choices):
            return [[self.suit(self.merged([c[0] for c in choices], open_at))]]
        if len({len(c) for c in choices}) > 1:
            self.fail("the patterns of a bracket list need the same number of cards", open_at)
        return choices

    def run(self) -> list[_Element]:
        elements = []
        while self.peek() and self.peek() not in ",]-+" + _OPERATORS:
            elements.append(self.element())
        if not elements:
            self.unexpected() if self.peek() else self.fail("'[' is never closed")
        return elements

    def merged(self, elements: list[_Element], pos: int) -> _Element:
        """One element accepting what any of the listed single cards accepts."""
        if any(e.rvar or e.svar for e in elements):
            self.fail("variables cannot be listed in brackets (only ranks, suits and cards)", pos)
        if all(e.smask == _ALL_SUITS and e.cmask == _ALL_CARDS for e in elements):
            return _Element(_mask_of_bits(e.rmask for e in elements), _ALL_SUITS)
        if all(e.rmask == _ALL_RANKS and e.cmask == _ALL_CARDS for e in elements):
            return _Element(_ALL_RANKS, _mask_of_bits(e.smask for e in elements))
        cards = 0
        for e in elements:
            cards |= _mask_of(np.flatnonzero(e.table()).tolist())
        return _Element(_ALL_RANKS, _ALL_SUITS, cmask=cards)

    def span(self, left, right, pos) -> list[list[_Element]]:
        """'KQJT-T987': every pattern from left to right, the written ranks that
        differ moving together one rank at a time (KQJT, QJT9, JT98, T987)."""
        if len(left) != len(right):
            self.fail("both ends of a span need the same number of cards", pos)
        steps = []
        for a, b in zip(left, right):
            if a.rank is not None and b.rank is not None and _shift(a, b.rank - a.rank) == b:
                steps.append(b.rank - a.rank)
            elif a == b:
                steps.append(0)
            else:
                self.fail("the two ends of a span may differ only in their ranks", pos)
        moves = {d for d in steps if d}
        if len(moves) > 1:
            self.fail("the ranks that differ between the ends of a span must differ by the "
                      "same amount (KQJT-T987, KwQw-KwTw)", pos)
        d = moves.pop() if moves else 0
        sign = 1 if d > 0 else -1
        return [[_shift(e, sign * t) if s else e for e, s in zip(left, steps)]
                for t in range(abs(d) + 1)]

    def trail(self, left, sign, pos) -> list[list[_Element]]:
        """'TT+' (up to AA), 'KQJT-' (down to 5432): the written ranks move
        together one rank at a time while they stay on the deck; with '+' aces
        stay put and the others move up below them (A2+ = A2 .. AK)."""
        ranks = [e.rank for e in left if e.rank is not None]
        if not ranks:
            self.fail(f"a trailing {sign!r} needs written ranks (TT+, KQJT-)", pos)
        step = 1 if sign == "+" else -1
        fixed_top = sign == "+" and 12 in ranks and min(ranks) < 12
        moving = [e.rank is not None and not (fixed_top and e.rank == 12) for e in left]
        limit = 11 if fixed_top else 12
        out, t = [], 0
        while all(0 <= e.rank + step * t <= limit for e, m in zip(left, moving) if m):
            out.append([_shift(e, step * t) if m else e for e, m in zip(left, moving)])
            t += 1
        return out


def _mask_of_bits(masks) -> int:
    total = 0
    for m in masks:
        total |= m
    return total


# --------------------------------------------------------------------------- hold'em shorthand

def _holdem_rows(classes: list[tuple[int, int]], kind: str) -> np.ndarray:
    rows = []
    for hi, lo in classes:
        for s1 in range(4):
            for s2 in range(4):
                a, b = 4 * hi + s1, 4 * lo + s2
                if hi == lo:
                    if s1 < s2:
                        rows.append((a, b))
                elif kind != "s" and s1 != s2 or kind != "o" and s1 == s2:
                    rows.append((b, a))
    return np.array(rows, np.uint8).reshape(-1, 2)


def _holdem_shorthand(raw: str) -> np.ndarray | str | None:
    """Rows for a hold'em shorthand term, an error message, or None (not shorthand)."""

    def side(r1, r2, kind):
        hi, lo = sorted((_RANK_OF[r1.upper()], _RANK_OF[r2.upper()]), reverse=True)
        return hi, lo, kind.lower()

    single = _SHORTHAND.fullmatch(raw)
    span = _SHORTHAND_SPAN.fullmatch(raw)
    if single:
        hi, lo, kind = side(*single.group(1, 2, 3))
        plus = single.group(4)
        if hi == lo:
            classes = [(r, r) for r in range(hi, 13)] if plus else [(hi, lo)]
        else:
            classes = [(hi, k) for k in range(lo, hi)] if plus else [(hi, lo)]
    elif span:
        a_hi, a_lo, kind = side(*span.group(1, 2, 3))
        b_hi, b_lo, kind2 = side(*span.group(4, 5, 6))
        if kind != kind2:
            return f"both ends of the span {raw!r} must have the same suffix"
        if (a_hi, a_lo) < (b_hi, b_lo):
            a_hi, a_lo, b_hi, b_lo = b_hi, b_lo, a_hi, a_lo
        if a_hi == a_lo and b_hi == b_lo:
            classes = [(r, r) for r in range(b_hi, a_hi + 1)]
        elif a_hi == b_hi and a_lo != a_hi and b_lo != b_hi:
            classes = [(a_hi, k) for k in range(b_lo, a_lo + 1)]
        elif a_hi - a_lo == b_hi - b_lo and a_hi != a_lo:
            classes = [(b_hi + d, b_lo + d) for d in range(a_hi - b_hi + 1)]
        else:
            return (f"cannot span {raw!r}: give two pairs (TT-77), the same top card "
                    "(A5s-A2s) or the same gap (JTs-76s)")
    else:
        return None
    if kind and any(h == l for h, l in classes):
        return f"a pair cannot be suited or offsuit in {raw!r}"
    return _holdem_rows(classes, kind)


# --------------------------------------------------------------------------- stud card order
#
# PPT reads a stud pattern in deal order: its first two elements are the down
# cards (either way round), the others the up cards as dealt.  A holding is
# still a card set for the engine, weighted by how many deals of it match.
# Only the positions some pattern constrains matter, so the walk lists
# *partial* deals (the cards at those positions); each one stands for the
# same number of full deals (the other cards in every free arrangement).

class _DealView:
    """Partial stud deals under test: each one's holding (a row of ``sets``)
    and its cards at ``positions`` (the down pair, when there, lower card first)."""

    def __init__(self, sets, hold, cards, positions, cache=None):
        self.sets, self.hold, self.cards, self.positions = sets, hold, cards, positions
        self.n = sets.shape[1]
        self.column = {q: j for j, q in enumerate(positions)}
        self._cols: dict[tuple, np.ndarray] = {}
        self.cache = {} if cache is None else cache  # order-blind tests, per holding

    def __len__(self):
        return len(self.hold)

    def card(self, q: int) -> np.ndarray:
        """intp [M]: each deal's card at position q (intp: fast table look-ups)."""
        return self._cached(("card", q), lambda c: c.astype(np.intp))

    def rank(self, q: int) -> np.ndarray:
        return self._cached(("rank", q), lambda c: c >> 2)

    def suit(self, q: int) -> np.ndarray:
        return self._cached(("suit", q), lambda c: c & 3)

    def _cached(self, key, make):
        if key not in self._cols:
            self._cols[key] = make(self.cards[:, self.column[key[1]]])
        return self._cols[key]

    def take(self, keep) -> _DealView:
        return _DealView(self.sets, self.hold[keep], self.cards[keep], self.positions, self.cache)

    def of_holdings(self, term) -> np.ndarray:
        if id(term) not in self.cache:
            self.cache[id(term)] = term.match(self.sets)
        return self.cache[id(term)][self.hold]


def _ordered_alternative(alt: _Alternative, view: _DealView) -> np.ndarray:
    """Indices of the deals of ``view`` that match every literal of ``alt``."""
    alive, sub = np.arange(len(view)), view
    for i, (positive, term) in enumerate(alt.literals):
        if len(alive) == 0:
            break
        hit = term.ordered(sub)
        keep = hit if positive else ~hit
        alive = alive[keep]
        if i + 1 < len(alt.literals) and len(alive) < len(keep):
            sub = sub.take(keep)
    return alive


def _relaxed(alternatives: list[_Alternative]) -> list[_Alternative]:
    """The alternatives read as card sets that hold every holding with a
    matching deal: a set fits a pattern when some deal order fits, but a deal
    that fits '!KK*' may come from a set that fits 'KK*', so exclusions by
    patterns are left to the deal walk (shape macros see the set and stay)."""
    out = []
    for alt in alternatives:
        literals = []
        for positive, term in alt.literals:
            if isinstance(term, _Group):
                if positive:
                    literals.append((True, _Group(_relaxed(term.alternatives), term.text,
                                                  term.pos)))
            elif positive or not isinstance(term, _Patterns):
                literals.append((positive, term))
        out.append(_Alternative(literals, alt.weight, alt.pos, alt.weighted))
    return out


def _constrained_positions(alternatives, n: int) -> tuple[int, ...]:
    """The positions some pattern constrains; both down positions or neither."""
    found: set[int] = set()
    for term in _all_terms(alternatives):
        if isinstance(term, _Patterns):
            for p in term.patterns(n):
                found.update(p.constrained)
    if found & {0, 1}:
        found |= {0, 1}
    return tuple(sorted(found))


def _reach(alternatives, n: int) -> list[np.ndarray]:
    """Per position, the cards a matching deal can hold there: for each
    alternative the cards every positive pattern accepts there (either down
    position for a down card), united.  A necessary condition (variables
    aside) that prunes the walk."""
    out = [np.zeros(52, bool) for _ in range(n)]
    for alt in alternatives:
        acc = [np.ones(52, bool) for _ in range(n)]
        for positive, term in alt.literals:
            if not positive:
                continue
            if isinstance(term, _Patterns):
                fits = [np.zeros(52, bool) for _ in range(n)]
                for p in term.patterns(n):
                    fits = [f | slot[0] for f, slot in zip(fits, p.slots)]
                # element 0 may take either down card: both take what either accepts
                fits[0] = fits[1] = fits[0] | fits[1]
            elif isinstance(term, _Group):
                fits = _reach(term.alternatives, n)
            else:
                continue
            acc = [a & f for a, f in zip(acc, fits)]
        out = [o | a for o, a in zip(out, acc)]
    return out


def _deal_problem(found: int, bound: int) -> _RangeProblem:
    return _RangeProblem(f"stud range too wide to weigh by deal order (more than "
                         f"{MAX_DEAL_WALK:,} partial deals to walk, up to {bound:,} here; "
                         "write more of the known cards)", None)


def _partial_deals(sets: np.ndarray, positions, reach) -> tuple[np.ndarray, np.ndarray]:
    """Every partial deal of each holding whose cards ``reach`` allows at their
    positions: ``(holding index int64 [M], uint8 [M, len(positions)])``, the
    down pair (when constrained) once, lower card first."""
    count, n = sets.shape
    cards8 = _columns(sets)  # uint8 columns: the cards kept
    cols = [c.astype(np.intp) for c in cards8]  # intp columns: fast table look-ups
    total = 0
    if positions and positions[0] == 0:
        fit0 = [reach[0][c] for c in cols]  # whether the k-th card may be down card 0, 1
        fit1 = [reach[1][c] for c in cols]
        hold, down, used = [], [[], []], []
        _charge(count * n * (n - 1) // 2)
        for i, j in itertools.combinations(range(n), 2):  # rows are sorted: lower first
            idx = np.flatnonzero((fit0[i] & fit1[j]) | (fit0[j] & fit1[i]))
            total += len(idx)
            if total > MAX_DEAL_WALK:  # before the lists grow past the limit
                raise _deal_problem(total, count * n * (n - 1) // 2)
            hold.append(idx)
            down[0].append(cards8[i][idx])
            down[1].append(cards8[j][idx])
            used.append(np.full(len(idx), (1 << i) | (1 << j), np.uint8))
        hold = np.concatenate(hold)
        chosen = [np.concatenate(d) for d in down]
        used = np.concatenate(used)
    else:
        hold, chosen, used = np.arange(count), [], np.zeros(count, np.uint8)
    for q in positions:
        if q < 2:
            continue
        _charge(len(hold) * n)
        picks, total = [], 0
        for k in range(n):  # the card at position q is the holding's k-th card
            idx = np.flatnonzero(((used >> k) & 1 == 0) & reach[q][cols[k][hold]])
            total += len(idx)
            if total > MAX_DEAL_WALK:
                raise _deal_problem(total, len(hold) * n)
            picks.append((idx, k))
        chosen = [np.concatenate([c[idx] for idx, _ in picks]) for c in chosen] + \
            [np.concatenate([cards8[k][hold[idx]] for idx, k in picks])]
        used = np.concatenate([used[idx] | np.uint8(1 << k) for idx, k in picks])
        hold = np.concatenate([hold[idx] for idx, _ in picks])
    cards = np.stack(chosen, axis=1) if chosen else np.zeros((len(hold), 0), np.uint8)
    return hold.astype(np.int64), cards


@functools.lru_cache(maxsize=64)
def _completions(n: int, positions: tuple[int, ...]) -> np.ndarray:
    """intp [K, r]: every arrangement of a holding's r cards outside a partial
    deal (by index) over the free positions, ascending; a free down pair is
    unordered.  K full deals complete each partial deal."""
    r = n - len(positions)
    if 0 in positions:
        rows = list(itertools.permutations(range(r)))
    else:
        rows = [(i, j) + rest for i, j in itertools.combinations(range(r), 2)
                for rest in itertools.permutations([k for k in range(r) if k not in (i, j)])]
    out = np.array(rows, np.intp).reshape(len(rows), r)
    out.setflags(write=False)
    return out


class _DealList:
    """A stud range's matching deals, recomputed on demand: ``walk(holdings)``
    gives the matching partial deals of those holdings (see :func:`_walk`),
    each completed by every arrangement of the holding's other cards."""

    def __init__(self, n: int, walk):
        self.n, self.walk = n, walk

    def listing(self, holdings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(uint8 [D, n] deals, float64 [D] weights), deals in ascending order."""
        hold, cards, weight, positions = self.walk(holdings)
        n, m = self.n, len(hold)
        arrange = _completions(n, positions)
        rows = holdings[hold]
        used = np.zeros(rows.shape, bool)
        for j in range(cards.shape[1]):
            used |= rows == cards[:, j:j + 1]
        rest = rows[~used].reshape(m, n - len(positions))
        full = np.empty((m, len(arrange), n), np.uint8)
        full[:, :, list(positions)] = cards[:, None, :]
        free = [q for q in range(n) if q not in positions]
        full[:, :, free] = rest[:, arrange]
        full = full.reshape(-1, n)
        full[:, :2] = np.sort(full[:, :2], axis=1)
        weights = np.repeat(weight, len(arrange))
        order = np.lexsort(full.T[::-1])
        return full[order], weights[order]


def _walk(alternatives, sets: np.ndarray, n: int, with_cards: bool = True):
    """``(holding index, cards, weight, positions)`` of the partial deals of
    ``sets`` that match the range: a deal matches when some alternative does,
    and weighs the largest such alternative's weight (cards None unless
    ``with_cards``)."""
    positions = _constrained_positions(alternatives, n)
    hold, cards = _partial_deals(sets, positions, _reach(alternatives, n))
    view = _DealView(sets, hold, cards, positions)
    if len(alternatives) == 1:
        matched = _ordered_alternative(alternatives[0], view)
        weight = np.full(len(matched), alternatives[0].weight)
    else:
        best = np.zeros(len(hold))
        for alt in alternatives:
            idx = _ordered_alternative(alt, view)
            best[idx] = np.maximum(best[idx], alt.weight)
        matched = np.flatnonzero(best > 0)
        weight = best[matched]
    return hold[matched], cards[matched] if with_cards else None, weight, positions


def _order_kind(alternatives, n: int) -> str:
    """'ranks' ('suits') when every term sees only ranks (suits): then the deal
    orders of a holding depend only on its rank (suit) multiset."""
    ranks = suits = True
    for term in _all_terms(alternatives):
        if isinstance(term, _Patterns):
            for p in term.patterns(n):
                on_ranks, on_suits = p.sees()
                ranks &= not on_suits
                suits &= not on_ranks
        elif isinstance(term, _Macro):
            ranks &= term.name in _RANK_MACROS
            suits &= term.name in _SUIT_MACROS
        elif not isinstance(term, _Group):
            ranks = suits = False
    return "ranks" if ranks else "suits" if suits else "mixed"


def _stud_range(alternatives, n: int):
    """(holdings, weights, orders, deals) of a stud range read in deal order:
    a holding's orders count its matching deals, its weight sums theirs."""
    parts = [_evaluate(alt, n) for alt in _relaxed(alternatives)]
    if len(parts) > 1:
        _charge(_UNION_WORK * sum(len(part) for part in parts))
        sets = _unique_rows(np.concatenate(parts))
    else:
        sets = parts[0]
    # walk one representative per rank (suit) multiset when that is all the range sees
    kind, index, reps = _order_kind(alternatives, n), None, sets
    if kind == "ranks":
        distinct, index = _compact(_rank_key(sets), 13 ** n)
        reps = _rank_representatives(distinct, n)
    elif kind == "suits":
        distinct, index = _compact(_suit_key(sets), 1 << 16)
        reps = _suit_representatives(distinct, n)
    hold, _, best, positions = _walk(alternatives, reps, n, with_cards=False)
    per = len(_completions(n, positions))
    orders = np.bincount(hold, minlength=len(reps)) * per
    weights = np.bincount(hold, weights=best, minlength=len(reps)) * per
    if index is not None:
        orders, weights = orders[index], weights[index]
    keep = orders > 0
    deals = _DealList(n, functools.partial(_walk, alternatives, n=n))
    return sets[keep], weights[keep], orders[keep], deals

# --------------------------------------------------------------------------- public API

def _quote(text) -> str:
    """The text as a one-line literal, cut short when long."""
    if isinstance(text, str) and len(text) > 120:
        return repr(text[:100]) + f"... ({len(text):,} characters)"
    return repr(text)


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


def parse_range(game: str | Game, text: str, *, ordered: bool | None = None) -> Range:
    """Read a range (see ``docs/RANGES.md``) into its holdings and weights.

    In stud games (``ordered`` None or True) the patterns follow the deal
    order: the first two cards are the down cards, in either order, the
    others the up cards as dealt (``KsJhTd`` is not ``KsTdJh``); each holding
    is weighted by the deals that match (``Range.orders``).  ``ordered=False``
    reads every pattern as a card set (board and dead-card ranges).

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
    key = (game.name, text, ordered)
    with _RECENT_LOCK:
        hit = _RECENT.pop(key, None)  # re-inserted below: the dict's order is recency
    if hit is None:
        hit = _parse(game, text, ordered)
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


def _parse(game: Game, text: str, ordered: bool) -> Range:
    if len(text) > MAX_TEXT:
        raise RangeError(f"range too long ({len(text):,} characters; the limit is "
                         f"{MAX_TEXT:,})", text, None)
    if is_exact_hand(game, text):
        written = parse_cards(text)
        rows = np.array([sorted(written)], np.uint8)
        if not ordered:
            return _make_range(game, text, rows, np.ones(1))
        n = len(written)  # one deal: the first two cards down, the rest as written
        deal = np.array([sorted(written[:2]) + list(written[2:])], np.uint8)
        deals = _DealList(n, lambda held: (np.zeros(len(held), np.int64), deal[:len(held)],
                                           np.ones(len(held)), tuple(range(n))))
        return _make_range(game, text, rows, np.ones(1), orders=np.ones(1), deals=deals)
    parser = _Parser(game, text)
    outer = getattr(_WORK, "left", None)  # a parse inside a parse (percent terms) keeps its own
    _WORK.left = MAX_WORK
    try:
        if not parser.text:
            raise _RangeProblem("empty range", None)
        alternatives = parser.parse()
        _charge(_TERM_WORK * len(list(_all_terms(alternatives))))
        n = _holding_size(game, alternatives)
        orders = deals = None
        rows, weights = [], []
        if ordered:
            holdings, weights, orders, deals = _stud_range(alternatives, n)
        for alt in alternatives if not ordered else ():
            held = _evaluate(alt, n)
            if len(alternatives) > 1:
                _charge(_UNION_WORK * len(held))  # the union below sorts every row
            rows.append(held)
            weights.append(np.full(len(held), alt.weight))
    except _RangeProblem as problem:
        pos = None
        if problem.pos is not None:  # back to the text as written (spaces included)
            pos = parser.orig[problem.pos] if problem.pos < len(parser.orig) else len(text)
        where = "" if pos is None else f" at position {pos + 1}"
        raise RangeError(f"bad range {_quote(text)}: {problem.message}{where}{problem.hint}", text,
                         None if pos is None else pos + 1) from None
    finally:
        _WORK.left = outer
    if ordered:
        pass  # _stud_range gave holdings and weights
    elif len(rows) == 1:
        holdings, weights = rows[0], weights[0]
    else:
        holdings = np.concatenate(rows)
        every = np.concatenate(weights)
        unique, first, inverse = np.unique(_keys(holdings), return_index=True, return_inverse=True)
        weights = np.zeros(len(unique))
        np.maximum.at(weights, inverse.ravel(), every)  # several alternatives: the largest weight
        holdings = holdings[first]
    if len(holdings) == 0:
        raise RangeError(f"range {_quote(text)} matches no holding", text, None)
    share = -1.0
    if len(alternatives) == 1 and len(alternatives[0].literals) == 1:
        only = alternatives[0].literals[0]
        if only[0] and isinstance(only[1], _Percent):
            share = only[1].share  # the share the ordering reached
    return _make_range(game, text, holdings, weights, share, orders, deals)


def _all_terms(alternatives):
    for alt in alternatives:
        for _, t in alt.literals:
            yield t
            if isinstance(t, _Group):
                yield from _all_terms(t.alternatives)


def _holding_size(game: Game, alternatives: list[_Alternative]) -> int:
    """The cards per holding: the game's hole cards, or in stud the street of
    the longest pattern; shorter patterns are padded with '*'."""
    sized = list(_sized_terms(alternatives))
    if game.stud:
        widest = max(sized, key=lambda t: t.size, default=None)
        if widest is None or widest.size < game.min_known:
            raise _RangeProblem("a stud range needs a pattern that shows the street "
                                f"({game.min_known} to {game.hole} cards, as in '**7s')",
                                0 if widest is None else widest.pos)
        if widest.size > game.hole:
            raise _RangeProblem(f"pattern {widest.text!r} has {widest.size} cards; a stud hand "
                                f"shows {game.min_known} to {game.hole}", widest.pos)
        return widest.size
    for t in sized:
        if t.size > game.hole:
            raise _RangeProblem(f"pattern {t.text!r} has {t.size} cards but {game.name} hands "
                                f"have {game.hole}", t.pos)
    return game.hole


def _alternative_cost(alt: _Alternative, n: int) -> float:
    positives = [t.cost(n) for ok, t in alt.literals if ok]
    return min(positives) if positives else math.comb(52, n)


def _evaluate(alt: _Alternative, n: int) -> np.ndarray:
    """The holdings of one alternative: a conjunction of terms (':' keeps the
    holdings a term matches, '!' drops them), so generate from the cheapest
    positive term (every hand when there is none: '!RR') and filter by the others."""
    positives = [t for ok, t in alt.literals if ok]
    if positives:
        source = min(positives, key=lambda t: t.cost(n))
    else:
        source = _Patterns([[_STAR] * n], "*", alt.pos)
    rows = source.generate(n)
    for positive, term in alt.literals:
        if term is source or len(rows) == 0:
            continue
        hit = term.match(rows)
        rows = rows[hit if positive else ~hit]
    return rows


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
    keep = (rng.masks() & np.uint64(_mask_of(cards))) == 0
    if not keep.any():
        raise RangeError(f"no holding of range {_quote(rng.text)} is left without "
                         f"{' '.join(card_str(c) for c in cards)}", rng.text, None)
    if rng.orders is None:
        return _make_range(rng.game, rng.text, rng.holdings[keep], rng.weights[keep])
    return _make_range(rng.game, rng.text, rng.holdings[keep], rng.weights[keep],
                       orders=rng.orders[keep], deals=rng._deals)
