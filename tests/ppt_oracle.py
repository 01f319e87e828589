"""Brute-force oracle for the PPT range fixtures (tests/test_ppt_syntax.py).

Every hand of n cards is listed (1,326 hold'em, 22,100 three-card stud,
270,725 Omaha hands) with a few plain per-hand tallies; a fixture's expected
set is a predicate over those tallies written from the documented meaning of
the range text.  Nothing here imports pokereval.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def rank(r: str) -> int:
    return RANKS.index(r.upper())


def card(text: str) -> int:
    return 4 * rank(text[0]) + SUITS.index(text[1])


class Hands:
    """Every n-card hand, with per-hand tallies for predicates."""

    def __init__(self, n: int):
        self.n = n
        self.cards = np.array(list(itertools.combinations(range(52), n)), dtype=np.int64)
        count = len(self.cards)
        self.has = np.zeros((count, 52), bool)  # has[h, c]: hand h holds card c
        self.has[np.arange(count)[:, None], self.cards] = True
        self.rc = self.has.reshape(count, 13, 4).sum(axis=2)  # cards of each rank
        self.sc = self.has.reshape(count, 13, 4).sum(axis=1)  # cards of each suit
        self.keys = (np.left_shift(np.uint64(1), self.cards.astype(np.uint64))).sum(axis=1)

    def __len__(self):
        return len(self.cards)

    # -- predicates written from the documented meanings
    def all(self):
        return np.ones(len(self), bool)

    def holds(self, *names):
        """Holds every one of these exact cards."""
        ok = self.all()
        for name in names:
            ok &= self.has[:, card(name)]
        return ok

    def at_least(self, ranks: str):
        """Holds at least these ranks, with multiplicity ('AA': two aces or more)."""
        ok = self.all()
        for r in set(ranks):
            ok &= self.rc[:, rank(r)] >= ranks.count(r)
        return ok

    def exactly(self, r: str, k: int):
        return self.rc[:, rank(r)] == k

    def in_ranks(self, ranks: str):
        """How many cards have a rank in ``ranks``."""
        return self.rc[:, [rank(r) for r in ranks]].sum(axis=1)

    def suit_count(self, s: str):
        return self.sc[:, SUITS.index(s)]

    def suits_used(self):
        return (self.sc > 0).sum(axis=1)

    def pairs(self):
        return (self.rc == 2).sum(axis=1)

    def most_of_a_rank(self):
        return self.rc.max(axis=1)

    def double_suited(self):  # exactly two suits with two cards, none more
        return ((self.sc == 2).sum(axis=1) == 2) & (self.sc.max(axis=1) <= 2)

    def single_suited(self):
        return ((self.sc == 2).sum(axis=1) == 1) & (self.sc.max(axis=1) <= 2)

    def rainbow(self):
        return self.sc.max(axis=1) <= 1

    def no_pair(self):
        return self.rc.max(axis=1) <= 1

    def rundown(self, gaps: int):
        """Distinct ranks, top minus bottom = cards - 1 + gaps (aces high)."""
        ranks = self.cards // 4
        return self.no_pair() & (ranks.max(axis=1) - ranks.min(axis=1) == self.n - 1 + gaps)

    def suited_with(self, ranks_x: str, ranks_y: str = ""):
        """Some suit x holds ranks_x and a different suit y holds ranks_y."""
        ok = np.zeros(len(self), bool)
        for x in SUITS:
            hx = self.all()
            for r in ranks_x:
                hx &= self.has[:, card(r + x)]
            if not ranks_y:
                ok |= hx
                continue
            for y in SUITS:
                if y != x:
                    hy = hx.copy()
                    for r in ranks_y:
                        hy &= self.has[:, card(r + y)]
                    ok |= hy
        return ok

    def any_of(self, predicates):
        ok = np.zeros(len(self), bool)
        for p in predicates:
            ok |= p
        return ok


@lru_cache(maxsize=4)
def hands(n: int) -> Hands:
    return Hands(n)


def run(top: str, bottom: str, width: int) -> list[str]:
    """Rank runs from ``top`` down to ``bottom`` moving together: run('K', 'T', 4) for
    KQJT-T987 gives ['KQJT', 'QJT9', 'JT98', 'T987']."""
    hi, lo = rank(top), rank(bottom)
    return ["".join(RANKS[h - j] for j in range(width)) for h in range(hi, lo - 1, -1)]
