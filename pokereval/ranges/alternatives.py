"""Alternatives: the conjunctions a range is a union of, parenthesised groups of
them, and how one alternative's holdings are found (and, in stud, its deals).

``a:b!c@w`` is one alternative: the holdings term ``a`` and ``b`` match and ``c``
does not, weighing ``w``; ``a, b`` is the union of two alternatives (the
largest weight wins); ``(a, b)`` is a group, a term made of alternatives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..games import Game
from .budget import UNION_WORK, RangeProblem, charge
from .patterns import Patterns
from .rows import unique_rows
from .terms import STAR, Term

if TYPE_CHECKING:
    from .stud_order import DealView


class Group(Term):
    """A parenthesised range: the union of its alternatives."""

    def __init__(self, alternatives: list, text: str, pos: int):
        self.alternatives, self.text, self.pos = alternatives, text, pos
        sizes = [t.size for t in sized_terms(alternatives)]
        self.size = max(sizes) if sizes else None

    def cost(self, n):
        return sum(alternative_cost(alt, n) for alt in self.alternatives)

    def generate(self, n):
        parts = [evaluate(alt, n) for alt in self.alternatives]
        if len(parts) == 1:
            return parts[0]
        charge(UNION_WORK * sum(len(part) for part in parts))
        return unique_rows(np.concatenate(parts))

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
            hit[ordered_alternative(alt, view)] = True
        return hit


@dataclass
class Alternative:
    """One alternative of a range: a conjunction of literals and its weight."""

    literals: list[tuple[bool, Term]]  # (positive, term); none positive: a leading '!'
    weight: float
    pos: int
    weighted: bool = False


def sized_terms(alternatives):
    """The terms that fix a number of cards (patterns, explicit lists), groups opened."""
    for alt in alternatives:
        for _, t in alt.literals:
            if isinstance(t, Group):
                yield from sized_terms(t.alternatives)
            elif t.size is not None:
                yield t


def all_terms(alternatives):
    """Every term of the alternatives, groups and the terms inside them."""
    for alt in alternatives:
        for _, t in alt.literals:
            yield t
            if isinstance(t, Group):
                yield from all_terms(t.alternatives)


def holding_size(game: Game, alternatives: list[Alternative]) -> int:
    """The cards per holding: the game's hole cards, or in stud the street of
    the longest pattern; shorter patterns are padded with '*'."""
    sized = list(sized_terms(alternatives))
    if game.stud:
        widest = max(sized, key=lambda t: t.size, default=None)
        if widest is None or widest.size < game.min_known:
            raise RangeProblem("a stud range needs a pattern that shows the street "
                               f"({game.min_known} to {game.hole} cards, as in '**7s')",
                               0 if widest is None else widest.pos)
        if widest.size > game.hole:
            raise RangeProblem(f"pattern {widest.text!r} has {widest.size} cards; a stud hand "
                               f"shows {game.min_known} to {game.hole}", widest.pos)
        return widest.size
    for t in sized:
        if t.size > game.hole:
            raise RangeProblem(f"pattern {t.text!r} has {t.size} cards but {game.name} hands "
                               f"have {game.hole}", t.pos)
    return game.hole


def alternative_cost(alt: Alternative, n: int) -> float:
    positives = [t.cost(n) for ok, t in alt.literals if ok]
    return min(positives) if positives else math.comb(52, n)


def evaluate(alt: Alternative, n: int) -> np.ndarray:
    """The holdings of one alternative: a conjunction of terms (':' keeps the
    holdings a term matches, '!' drops them), so generate from the cheapest
    positive term (every hand when there is none: '!RR') and filter by the others."""
    positives = [t for ok, t in alt.literals if ok]
    if positives:
        source = min(positives, key=lambda t: t.cost(n))
    else:
        source = Patterns([[STAR] * n], "*", alt.pos)
    rows = source.generate(n)
    for positive, term in alt.literals:
        if term is source or len(rows) == 0:
            continue
        hit = term.match(rows)
        rows = rows[hit if positive else ~hit]
    return rows


def ordered_alternative(alt: Alternative, view: DealView) -> np.ndarray:
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

