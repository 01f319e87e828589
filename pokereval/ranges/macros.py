"""The range macros, in one table: name -> what it means, its test, what it looks at.

Two kinds (docs/RANGES.md, "Macros"):

* shape macros (``$ds``, ``$np``, ...): filters over whole holdings, a term of
  their own or appended to one (``AA$ds`` = ``AA:$ds``);
* rank classes (``$B``, ``$L``, ...): one card whose rank is in the class, an
  element of a pattern.

Each entry is made by the helper that builds its test (``_suits``, ``_ranks``,
``_rundown``, ``_rank_class``), and that helper records what the test sees
(only suits, or only ranks).  The reader uses it to match a stud range once per
rank (suit) multiset, so it is never written down a second time.  To add a
macro, add one line to ``TABLE``; docs/RANGES.md lists them, and
tests/ranges/test_macros.py checks that the two agree and that each test sees
no more than it says.

>>> TABLE["ds"].sees, TABLE["b"].kind, TABLE["b"].doc
('suits', 'class', 'big: A-J')
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..cards import RANKS
from .budget import MAX_CANDIDATES, RangeProblem, charge
from .rows import (combinations, compact, mask_of, rank_counts, rank_key, rank_representatives,
                   suit_counts_of, suit_key)
from .terms import Term


@dataclass(frozen=True)
class Macro:
    """One macro: ``kind`` "shape" (a filter, ``test``: bool per sorted row) or
    "class" (a card of a rank in ``ranks``, a 13-bit mask); ``sees``: "ranks"
    or "suits", all the test looks at."""

    doc: str
    kind: str
    sees: str
    test: Callable[[np.ndarray], np.ndarray] | None = None
    ranks: int = 0


def _by_rank_multiset(test):
    """A test that only looks at ranks, run once per distinct rank multiset."""
    def run(rows):
        width = rows.shape[1]
        distinct, index = compact(rank_key(rows), 13 ** width)
        return test(rank_representatives(distinct, width))[index]
    return run


def _suits(doc: str, test) -> Macro:
    """A shape macro over the suit counts (int [N, 4]): a look-up table over
    the packed counts, built on first use (not at import)."""
    lut = functools.cache(lambda: test(suit_counts_of(np.arange(1 << 16))))
    return Macro(doc, "shape", "suits", lambda rows: lut()[suit_key(rows)])


def _ranks(doc: str, test) -> Macro:
    """A shape macro over the rank counts (int8 [N, 13])."""
    return Macro(doc, "shape", "ranks", _by_rank_multiset(lambda rows: test(rank_counts(rows))))


def _rundown(doc: str, gaps: int) -> Macro:
    """n distinct ranks from top to bottom spanning n-1+gaps ranks (aces high)."""
    def test(rows):
        ranks = (rows >> 2).astype(int)  # sorted rows: the first card is the lowest rank
        return (rank_counts(rows).max(axis=1) <= 1) & \
            (ranks[:, -1] - ranks[:, 0] == rows.shape[1] - 1 + gaps)
    return Macro(doc, "shape", "ranks", _by_rank_multiset(test))


def _rank_class(doc: str, ranks: str) -> Macro:
    return Macro(doc, "class", "ranks", ranks=mask_of(RANKS.index(r) for r in ranks))


#: Every macro: name (lower case, written after '$' in any case) -> Macro.
TABLE: dict[str, Macro] = {
    "ds": _suits("double-suited: exactly two suits have exactly two cards each, no suit has more",
                 lambda c: ((c == 2).sum(axis=1) == 2) & (c <= 2).all(axis=1)),
    "ss": _suits("single-suited: exactly one suit has exactly two cards, no suit has more",
                 lambda c: ((c == 2).sum(axis=1) == 1) & (c <= 2).all(axis=1)),
    "rb": _suits("rainbow: no two cards share a suit", lambda c: (c <= 1).all(axis=1)),
    "o": _suits("offsuit: no two cards share a suit (hold'em AKo; the same test as $rb)",
                lambda c: (c <= 1).all(axis=1)),
    "s": _suits("suited: every card of one suit", lambda c: c.max(axis=1) == c.sum(axis=1)),
    "np": _ranks("no pair: no two cards share a rank", lambda c: c.max(axis=1) <= 1),
    "op": _ranks("one pair: exactly one rank twice, no other rank repeated",
                 lambda c: ((c == 2).sum(axis=1) == 1) & (c.max(axis=1) <= 2)),
    "tp": _ranks("two pair: exactly two ranks twice, no rank three times",
                 lambda c: ((c == 2).sum(axis=1) == 2) & (c.max(axis=1) <= 2)),
    "nt": _ranks("no trips: no rank three or more times", lambda c: c.max(axis=1) <= 2),
    "0g": _rundown("zero-gap rundown: distinct ranks in a row (KQJT, 5432; aces high)", 0),
    "1g": _rundown("one-gap rundown: distinct ranks with one missing rank between the ends (KQJ9)",
                   1),
    "2g": _rundown("two-gap rundown: distinct ranks spanning two ranks more than a run (KQT8)",
                   2),
    "b": _rank_class("big: A-J", "AKQJ"),
    "r": _rank_class("broadway: A-T", "AKQJT"),
    "m": _rank_class("middle: T-7", "T987"),
    "z": _rank_class("small: 6-2", "65432"),
    "l": _rank_class("low: A, 2-8", "A2345678"),
    "w": _rank_class("wheel: A, 2-5", "A2345"),
    "n": _rank_class("no-low: K-9", "KQJT9"),
    "f": _rank_class("face: K-J", "KQJ"),
}

MACROS = {(name if m.kind == "shape" else name.upper()): m.doc for name, m in TABLE.items()}
"""Every macro (written after '$', any case): name -> meaning (shape macros in
lower case, rank classes in upper case)."""

#: The names, longest first, so that $ss is not $s followed by a spade.
NAMES = sorted(TABLE, key=len, reverse=True)


def macro_at(text: str, at: int) -> str | None:
    """The macro written at ``text[at]`` ('$' + name, any case, longest name first)."""
    for name in NAMES:
        if text[at + 1:at + 1 + len(name)].lower() == name:
            return name
    return None


def is_shape(name: str | None) -> bool:
    return name is not None and TABLE[name].kind == "shape"


def is_class(name: str | None) -> bool:
    return name is not None and TABLE[name].kind == "class"


def unknown(word: str) -> str:
    """The message for an unknown macro ``word`` ('$zz'), naming every known one."""
    return f"unknown macro {word!r} (known: {', '.join('$' + k for k in MACROS)})"


class ShapeMacro(Term):
    """A shape macro ($ds, $OP, ...) as a term: a filter over whole holdings."""

    def __init__(self, name: str, pos: int):
        self.name, self.pos, self.text = name, pos, "$" + name
        self.sees = TABLE[name].sees
        self.test = TABLE[name].test

    def cost(self, n):
        return math.comb(52, n)

    def generate(self, n):
        if math.comb(52, n) > MAX_CANDIDATES:
            raise RangeProblem(
                f"macro {self.text!r} alone would list every {n}-card hand "
                f"({math.comb(52, n):,}; the limit is {MAX_CANDIDATES:,}): "
                "combine it with a pattern, as in 'AA:$ds'", self.pos)
        rows = combinations(52, n)
        charge(len(rows))
        return rows[self.test(rows)]

    def match(self, rows):
        charge(len(rows))
        return self.test(rows)
