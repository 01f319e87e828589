"""Brute-force oracle for the PPT range fixtures (tests/ranges/test_ppt_syntax.py).

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


class StudDeals:
    """Every ordered stud deal of n cards, the meaning PPT gives stud patterns:
    two down cards (unordered: listed lower card first) then the up cards in
    the order dealt.  Third street has C(52,2) * 50 = 66,300 deals, fourth
    street 3,248,700.  Predicates take a column (0, 1 down; 2.. up) and give
    one bool per deal."""

    def __init__(self, n: int):
        self.n = n
        deals = np.array(list(itertools.combinations(range(52), 2)), dtype=np.int8)
        for _ in range(n - 2):  # every card not dealt yet, as the next up card
            nxt = np.tile(np.arange(52, dtype=np.int8), len(deals))
            deals = np.repeat(deals, 52, axis=0)
            deals = np.concatenate([deals[(deals != nxt[:, None]).all(axis=1)],
                                    nxt[(deals != nxt[:, None]).all(axis=1)][:, None]], axis=1)
        self.cards = deals
        self.rank = deals // 4
        self.suit = deals % 4
        self.keys = (np.left_shift(np.uint64(1), deals.astype(np.uint64))).sum(axis=1)

    def __len__(self):
        return len(self.cards)

    # -- per-column predicates
    def is_card(self, name: str):
        return lambda j: self.cards[:, j] == card(name)

    def rank_in(self, ranks: str):
        return lambda j: np.isin(self.rank[:, j], [rank(r) for r in ranks])

    def suit_is(self, s: str):
        return lambda j: self.suit[:, j] == SUITS.index(s)

    def anything(self):
        return lambda j: np.ones(len(self), bool)

    def down(self, first, second):
        """The down cards fit ``first`` and ``second``, either way round."""
        return (first(0) & second(1)) | (first(1) & second(0))

    def set_rank_counts(self):
        """int [D, 13]: cards of each rank in the deal's set."""
        counts = np.zeros((len(self), 13), np.int64)
        for j in range(self.n):
            counts[np.arange(len(self)), self.rank[:, j]] += 1
        return counts

    def per_set(self, weight):
        """(set keys ascending, matching deals per set, summed weight per set) for
        deal weights ``weight`` (0 where a deal does not match)."""
        weight = np.asarray(weight, dtype=np.float64)
        hit = weight > 0
        keys, inverse = np.unique(self.keys[hit], return_inverse=True)
        return (keys, np.bincount(inverse, minlength=len(keys)),
                np.bincount(inverse, weights=weight[hit], minlength=len(keys)))


@lru_cache(maxsize=2)
def stud_deals(n: int) -> StudDeals:
    return StudDeals(n)
