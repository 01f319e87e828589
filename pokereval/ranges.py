"""The range language: text that stands for a weighted set of holdings.

The grammar and its exact semantics are in ``docs/RANGES.md``; in short
(ProPokerTools "generic syntax")::

    AhKd2c3s        exact cards                 *         any card
    A               an ace of any suit          [AKQ] [T-7]  one card whose rank is in the set
    Ax Ay  x y z w  suit variables              R O N P   rank variables
    c d h s         a card of that suit         $ds $ss $r $np   macros (suit and pair shapes)
    a:b  a!b        intersection, exclusion (left to right)
    a, b            union (lowest precedence)   a@40      weight of an alternative
    AKs AKo 22+ A2s+ JTs-76s TT-77              hold'em shorthand (holdem only)

A pattern of n elements matches a holding of n cards when some one-to-one
assignment of the cards to the elements satisfies every element and the
variables.  Matching is vectorised with numpy: every candidate holding is a
row of a ``uint8`` array, each element is a 52-entry table of the cards it
accepts, and a pattern is an OR over the (deduplicated) assignments of an AND
of table look-ups and variable (in)equalities.  To keep that cheap: exact
cards are removed before matching and ``*`` elements are never permuted;
assignments that only swap identical elements are tried once; a pattern that
only constrains ranks (or only suits) is matched once per distinct rank (suit)
multiset of the candidates, and a mixed one is first filtered by its rank-only
and suit-only projections; a pattern is generated from its constrained cards
("cores") times free completions when that is much smaller than walking every
hand of the deck (C(52,4) = 270,725; C(52,5) = 2,598,960).

>>> r = parse_range("omaha-hilo", "AA**:$ds")
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
from dataclasses import dataclass

import numpy as np

from .cards import RANKS, card_str, parse_cards
from .errors import CardError, PokerEvalError
from .games import Game, get_game

__all__ = ["RangeError", "Range", "parse_range", "is_exact_hand", "holdings_excluding",
           "MACROS", "MAX_CANDIDATES"]


class RangeError(PokerEvalError):
    """A range text that cannot be read, or that matches no holding.

    ``text`` is the range as given; ``position`` the 1-based position of the
    offending character (None when the whole range is at fault).
    """

    def __init__(self, message: str, text: str | None = None, position: int | None = None):
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
    """

    game: Game
    text: str
    holdings: np.ndarray
    weights: np.ndarray

    def __len__(self) -> int:
        return len(self.holdings)

    @property
    def cards(self) -> int:
        """Cards per holding."""
        return self.holdings.shape[1]

    def masks(self) -> np.ndarray:
        """uint64 [k]: bit c set when card c is in the holding (for collision checks)."""
        return _keys(self.holdings)

    def __repr__(self) -> str:
        return f"Range({self.game.name!r}, {self.text!r}, {len(self)} holdings)"


def _make_range(game: Game, text: str, rows: np.ndarray, weights: np.ndarray) -> Range:
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    rows.setflags(write=False)
    weights.setflags(write=False)
    return Range(game, text, rows, weights)


# --------------------------------------------------------------------------- numpy helpers

MAX_CANDIDATES = 3_000_000
"""The most candidate holdings one term may enumerate (C(52,5) = 2,598,960 fits)."""

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


_MACRO_LUT = {
    "ds": _suit_lut(lambda c: ((c == 2).sum(axis=1) == 2) & (c <= 2).all(axis=1)),
    "ss": _suit_lut(lambda c: ((c == 2).sum(axis=1) == 1) & (c <= 2).all(axis=1)),
    "r": _suit_lut(lambda c: (c <= 1).all(axis=1)),
}


def _no_pair(rows):
    ranks = rows >> 2  # rows are sorted, so equal ranks are adjacent
    found = np.zeros(len(rows), bool)
    for j in range(1, rows.shape[1]):
        found |= ranks[:, j] == ranks[:, j - 1]
    return ~found


MACROS = {
    "ds": "double-suited: exactly two suits have exactly two cards each, no suit has more",
    "ss": "single-suited: exactly one suit has exactly two cards, no suit has more",
    "r": "rainbow: no two cards share a suit",
    "np": "no pair: no two cards share a rank",
}


class _Macro(_Term):
    def __init__(self, name: str, pos: int):
        self.name, self.pos, self.text = name, pos, "$" + name

    def cost(self, n):
        return math.comb(52, n)

    def generate(self, n):
        rows = _combinations(52, n)
        return rows[self.match(rows)]

    def match(self, rows):
        if self.name == "np":
            return _no_pair(rows)
        return _MACRO_LUT[self.name][_suit_key(rows)]


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
        return np.isin(_keys(rows), self.keys)


class _Core:
    """The constrained, non-exact elements of a pattern, and their matcher.

    ``elements``: (rmask, smask, rvar, svar) tuples, sorted so that identical
    ones are adjacent.  ``match(sub)`` tells which rows (k >= len(elements)
    cards, sorted) hold some one-to-one assignment of cards to the elements.
    """

    def __init__(self, elements):
        self.elements = elements
        tables = [((r >> _CARD_RANK) & 1).astype(bool) & ((s >> _CARD_SUIT) & 1).astype(bool)
                  for r, s, _, _ in elements]
        self.tables = tables
        self.active = [i for i, t in enumerate(tables) if not t.all()]
        self.rank_same, self.rank_diff = self._links(2)
        self.suit_same, self.suit_diff = self._links(3)
        on_ranks = any(r != _ALL_RANKS or rv for r, _, rv, _ in elements)
        on_suits = any(s != _ALL_SUITS or sv for _, s, _, sv in elements)
        self.kind = ("mixed" if on_ranks and on_suits else "ranks" if on_ranks
                     else "suits" if on_suits else "none")
        self.projections = []
        if self.kind == "mixed":  # necessary conditions, checked cheaply first
            for drop_suits in (True, False):
                kept = [(r, _ALL_SUITS, rv, None) if drop_suits else (_ALL_RANKS, s, None, sv)
                        for r, s, rv, sv in elements]
                kept = [k for k in kept if k != (_ALL_RANKS, _ALL_SUITS, None, None)]
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
    return sorted(elements, key=lambda k: (k[2] or "", k[3] or "", k[0], k[1]))


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
        for e in elements:
            # Variables never stand for a rank / suit written explicitly in the pattern.
            rmask = e.rmask & ~explicit_ranks if e.rvar else e.rmask
            smask = e.smask & ~explicit_suits if e.svar else e.smask
            rvar = e.rvar if rank_links else None
            svar = e.svar if suit_links else None
            if e.rank is not None and e.suit is not None:
                fixed.append(4 * e.rank + e.suit)
            elif rmask != _ALL_RANKS or smask != _ALL_SUITS or rvar or svar:
                core.append((rmask, smask, rvar, svar))
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
            sub = self._deck(width)
            if m:
                sub = sub[self.core.match(sub)]
        if self.fixed:
            fixed = np.broadcast_to(np.array(self.fixed, np.uint8), (len(sub), len(self.fixed)))
            sub = np.sort(np.concatenate([sub, fixed], axis=1), axis=1)
        return sub


def _extend(cores: np.ndarray, free: np.ndarray) -> np.ndarray:
    """Every core completed by every disjoint free combination, sorted, unique."""
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


_SUIT_CHARS = {}
for _i, _chars in enumerate(("cC♣♧", "dD♦♢", "hH♥♡", "sS♠♤")):
    for _ch in _chars:
        _SUIT_CHARS[_ch] = _i
del _i, _chars, _ch
_SUIT_VARS = "wxyz"
_RANK_VARS = "RONP"
_RANK_OF = {r: i for i, r in enumerate(RANKS)}
_OPERATORS = ",!:@"

_SH = r"([2-9TJQKA])([2-9TJQKA])([so]?)"
_SHORTHAND = re.compile(rf"{_SH}(\+?)", re.IGNORECASE)
_SHORTHAND_SPAN = re.compile(rf"{_SH}-{_SH}", re.IGNORECASE)


@dataclass
class _Alternative:
    literals: list[tuple[bool, _Term]]  # (positive, term): the first is positive
    weight: float
    pos: int


class _Parser:
    def __init__(self, game: Game, text: str):
        self.game, self.text, self.pos = game, text, 0

    # -- scanning helpers
    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_spaces(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def fail(self, message, pos=None, hint=""):
        raise _RangeProblem(message, self.pos if pos is None else pos, hint)

    def unexpected(self, pos=None):
        pos = self.pos if pos is None else pos
        ch = self.text[pos]
        hint = ""
        if ch in "+-":
            hint = (" (hold'em shorthand: AK AKs AKo 22+ A2s+ JTs-76s TT-77)"
                    if self.game.hole == 2 and not self.game.stud
                    else " (shorthand like 22+ or JTs-76s is for holdem)")
        elif ch in "ronp":
            hint = " (rank variables are R O N P, upper case)"
        elif ch in "WXYZ":
            hint = " (suit variables are w x y z, lower case)"
        self.fail(f"unknown symbol {ch!r}", pos, hint)

    # -- grammar
    def parse(self) -> list[_Alternative]:
        alternatives = [self.alternative()]
        while True:
            self.skip_spaces()
            ch = self.peek()
            if not ch:
                return alternatives
            if ch != ",":
                self.fail(f"unexpected {ch!r} (expected ',' or the end)")
            self.pos += 1
            alternatives.append(self.alternative())

    def alternative(self) -> _Alternative:
        self.skip_spaces()
        start = self.pos
        literals = [(True, self.term())]
        while True:
            self.skip_spaces()
            ch = self.peek()
            if ch in ("!", ":"):
                self.pos += 1
                literals.append((ch == ":", self.term()))
            else:
                break
        weight = 1.0
        if self.peek() == "@":
            self.pos += 1
            self.skip_spaces()
            at = self.pos
            number = re.compile(r"\d+(\.\d*)?|\.\d+").match(self.text, self.pos)
            if not number:
                self.fail("expected a weight (a positive number) after '@'")
            self.pos = number.end()
            weight = float(number.group())
            if not weight > 0:
                self.fail("a weight must be positive", at)
            self.skip_spaces()
            if self.peek() and self.peek() != ",":
                self.fail(f"unexpected {self.peek()!r} after a weight "
                          "(a weight ends an alternative: 'AA**:$ds@50, ...')")
        return _Alternative(literals, weight, start)

    def term(self) -> _Term:
        self.skip_spaces()
        start = self.pos
        ch = self.peek()
        if not ch or ch in _OPERATORS:
            self.fail("expected a hand pattern" + (f" before {ch!r}" if ch else " at the end"))
        if ch == "$":
            name = re.compile(r"\$([A-Za-z]*)").match(self.text, self.pos)
            key = name.group(1).lower()
            if key not in MACROS:
                known = ", ".join("$" + k for k in MACROS)
                self.fail(f"unknown macro {name.group()!r} (known: {known})")
            self.pos = name.end()
            self._term_ends("a macro")
            return _Macro(key, start)
        # the raw term: up to the next operator outside brackets
        end, depth = self.pos, 0
        while end < len(self.text):
            ch = self.text[end]
            if ch == "[":
                depth += 1
            elif ch == "]" and depth:
                depth -= 1
            elif not depth and ch in _OPERATORS:
                break
            end += 1
        raw = self.text[start:end].rstrip()
        if self.game.hole == 2 and not self.game.stud:
            shorthand = _holdem_shorthand(raw)  # written without spaces
            if shorthand is not None:
                if isinstance(shorthand, str):
                    self.fail(shorthand, start)
                self.pos = end
                return _Explicit(shorthand, raw, start)
        elements = []
        while self.pos < start + len(raw):
            if self.text[self.pos].isspace():
                self.pos += 1
                continue
            elements.append(self.element())
        self.pos = end
        return _Pattern(elements, raw, start)

    def _term_ends(self, what):
        self.skip_spaces()
        ch = self.peek()
        if ch and ch not in _OPERATORS:
            self.fail(f"{what} is a term of its own: join it with ':' as in 'AA**:$ds' "
                      f"(found {ch!r})")

    def element(self) -> _Element:
        text, at = self.text, self.pos
        ch = text[at]
        if ch in _SUIT_CHARS or ch in _SUIT_VARS:  # a lone suit: a card of that suit
            return self.suit(_Element(_ALL_RANKS, _ALL_SUITS))
        if ch == "*":
            self.pos += 1
            return self.suit(_Element(_ALL_RANKS, _ALL_SUITS))
        if text.startswith("10", at) or ch.upper() in _RANK_OF:
            rank = _RANK_OF["T" if text.startswith("10", at) else ch.upper()]
            self.pos += 2 if text.startswith("10", at) else 1
            return self.suit(_Element(1 << rank, _ALL_SUITS, rank=rank))
        if ch in _RANK_VARS:
            self.pos += 1
            return self.suit(_Element(_ALL_RANKS, _ALL_SUITS, rvar=ch))
        if ch == "[":
            return self.suit(_Element(self.rank_set(), _ALL_SUITS))
        if ch == "$":
            self._term_ends("a macro")  # always fails: '$' inside a pattern
        if ch == "]":
            self.fail("']' without '['")
        self.unexpected()

    def suit(self, element: _Element) -> _Element:
        ch = self.peek()
        if ch in _SUIT_CHARS and ch:
            self.pos += 1
            s = _SUIT_CHARS[ch]
            return _Element(element.rmask, 1 << s, element.rvar, None, element.rank, s)
        if ch in _SUIT_VARS and ch:
            self.pos += 1
            return _Element(element.rmask, _ALL_SUITS, element.rvar, ch, element.rank, None)
        return element

    def rank_set(self) -> int:
        open_at = self.pos
        if "]" not in self.text[open_at:]:
            self.fail("'[' is never closed")
        self.pos += 1
        mask, previous, span_from = 0, None, None
        while True:
            self.skip_spaces()
            ch = self.peek()
            if not ch:
                self.fail("'[' is never closed", open_at)
            if ch == "]":
                if span_from is not None:
                    self.fail("a span needs an end rank, as in [T-7]")
                self.pos += 1
                if not mask:
                    self.fail("empty rank set '[]'", open_at)
                return mask
            if ch == ",":
                self.pos += 1
                continue
            if ch == "-":
                if previous is None or span_from is not None:
                    self.fail("a span needs a start rank, as in [T-7]")
                span_from, previous = previous, None
                self.pos += 1
                continue
            if self.text.startswith("10", self.pos):
                rank, width = _RANK_OF["T"], 2
            elif ch.upper() in _RANK_OF:
                rank, width = _RANK_OF[ch.upper()], 1
            else:
                if ch in _RANK_VARS or ch == "*":
                    self.fail(f"{ch!r} cannot appear in a rank set (only ranks and spans)")
                self.unexpected()
            self.pos += width
            if span_from is not None:
                lo, hi = sorted((span_from, rank))
                for r in range(lo, hi + 1):
                    mask |= 1 << r
                span_from = None
            else:
                mask |= 1 << rank
            previous = rank


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


# --------------------------------------------------------------------------- public API

def _quote(text) -> str:
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


def parse_range(game: str | Game, text: str) -> Range:
    """Read a range (see ``docs/RANGES.md``) into its holdings and weights.

    >>> parse_range("holdem", "AKs").holdings.tolist()
    [[44, 48], [45, 49], [46, 50], [47, 51]]
    >>> len(parse_range("stud", "**7s"))
    1275
    >>> parse_range("omaha", "AA*Z")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pokereval.ranges.RangeError: bad range 'AA*Z': unknown symbol 'Z' at position 4 ...
    """
    game = get_game(game)
    if not isinstance(text, str):
        raise RangeError(f"a range is text, got {text!r}", None, None)
    key = (game.name, text)
    with _RECENT_LOCK:
        hit = _RECENT.pop(key, None)  # re-inserted below: the dict's order is recency
    if hit is None:
        hit = _parse(game, text)
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


def _parse(game: Game, text: str) -> Range:
    if is_exact_hand(game, text):
        cards = sorted(parse_cards(text))
        return _make_range(game, text, np.array([cards], np.uint8), np.ones(1))
    try:
        if not text.strip():
            raise _RangeProblem("empty range", None)
        alternatives = _Parser(game, text).parse()
        n = _holding_size(game, alternatives)
        rows, weights = [], []
        for alt in alternatives:
            held = _evaluate(alt, n)
            rows.append(held)
            weights.append(np.full(len(held), alt.weight))
    except _RangeProblem as problem:
        where = "" if problem.pos is None else f" at position {problem.pos + 1}"
        raise RangeError(f"bad range {_quote(text)}: {problem.message}{where}{problem.hint}", text,
                         None if problem.pos is None else problem.pos + 1) from None
    if len(rows) == 1:
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
    return _make_range(game, text, holdings, weights)


def _holding_size(game: Game, alternatives: list[_Alternative]) -> int:
    """The cards per holding: the game's hole cards, or the stud street of the patterns."""
    sized = [t for alt in alternatives for _, t in alt.literals if t.size is not None]
    if game.stud:
        if not sized:
            raise _RangeProblem("a stud range needs a pattern that shows the street "
                                "(3 to 7 cards, as in '**7s')", 0)
        first = sized[0]
        for t in sized:
            if not game.min_known <= t.size <= game.hole:
                raise _RangeProblem(f"pattern {t.text!r} has {t.size} card"
                                    f"{'s' if t.size != 1 else ''}; a stud hand shows "
                                    f"{game.min_known} to {game.hole}", t.pos)
            if t.size != first.size:
                raise _RangeProblem(f"pattern {t.text!r} has {t.size} cards but "
                                    f"{first.text!r} has {first.size}: every part of a stud "
                                    "range is on the same street", t.pos)
        return first.size
    for t in sized:
        if t.size != game.hole:
            raise _RangeProblem(f"pattern {t.text!r} has {t.size} card"
                                f"{'s' if t.size != 1 else ''} but {game.name} hands have "
                                f"{game.hole}", t.pos)
    return game.hole


def _evaluate(alt: _Alternative, n: int) -> np.ndarray:
    """The holdings of one alternative: a conjunction of terms (':' keeps the
    holdings a term matches, '!' drops them), so generate from the cheapest
    positive term and filter by the others."""
    positives = [t for ok, t in alt.literals if ok]
    source = min(positives, key=lambda t: t.cost(n))
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
    return _make_range(rng.game, rng.text, rng.holdings[keep], rng.weights[keep])
