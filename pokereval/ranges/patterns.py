"""Patterns: how one written pattern generates and matches holdings (the matcher).

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
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .budget import MAX_CANDIDATES, UNION_WORK, RangeProblem, charge
from .rows import (ALL_CARDS, ALL_RANKS, ALL_SUITS, CARD_RANK, CARD_SUIT, card_table, columns,
                   combinations, compact, mask_of, rank_key, rank_representatives, row_masks,
                   suit_key, suit_representatives, unique_rows)
from .terms import STAR, Element, Term


class Core:
    """The constrained, non-exact elements of a pattern, and their matcher.

    ``elements``: (rmask, smask, cmask, rvar, svar) tuples, sorted so that
    identical ones are adjacent.  ``match(sub)`` tells which rows (k >= len(elements)
    cards, sorted) hold some one-to-one assignment of cards to the elements.
    """

    def __init__(self, elements):
        self.elements = elements
        tables = [card_table(r, s, c) for r, s, c, _, _ in elements]
        self.tables = tables
        self.active = [i for i, t in enumerate(tables) if not t.all()]
        self.rank_same, self.rank_diff = self._links(3)
        self.suit_same, self.suit_diff = self._links(4)
        on_ranks = any(r != ALL_RANKS or c != ALL_CARDS or rv for r, _, c, rv, _ in elements)
        on_suits = any(s != ALL_SUITS or c != ALL_CARDS or sv for _, s, c, _, sv in elements)
        self.kind = ("mixed" if on_ranks and on_suits else "ranks" if on_ranks
                     else "suits" if on_suits else "none")
        self.projections = []
        if self.kind == "mixed":  # necessary conditions, checked cheaply first
            for drop_suits in (True, False):
                kept = []
                for (r, s, c, rv, sv), t in zip(elements, tables):
                    if drop_suits:  # the ranks (suits) of the cards the element accepts
                        kept.append((mask_of(set(CARD_RANK[t].tolist())), ALL_SUITS,
                                     ALL_CARDS, rv, None))
                    else:
                        kept.append((ALL_RANKS, mask_of(set(CARD_SUIT[t].tolist())),
                                     ALL_CARDS, None, sv))
                kept = [k for k in kept if k != (ALL_RANKS, ALL_SUITS, ALL_CARDS, None, None)]
                self.projections.append(Core(sort_elements(kept)))
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
        charge(count * width)
        if self.kind == "ranks":
            # only the rank multiset matters: match one representative of each
            distinct, index = compact(rank_key(sub), 13 ** width)
            return self._assign(rank_representatives(distinct, width))[index]
        if self.kind == "suits":
            distinct, index = compact(suit_key(sub), 1 << 16)
            return self._assign(suit_representatives(distinct, width))[index]
        keep = np.ones(count, bool)
        for projection in self.projections:
            keep &= projection.match(sub)
        idx = np.flatnonzero(keep)
        keep[idx] = self._assign(sub[idx])
        return keep

    def _assign(self, sub: np.ndarray) -> np.ndarray:
        """The OR over assignments of the AND of the element and variable tests."""
        count, width = sub.shape
        charge(count * max(1, len(self._assignments(width))))
        cols = [c.astype(np.intp) for c in columns(sub)]  # intp: fast table look-ups
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


def sort_elements(elements):
    return sorted(elements, key=lambda k: (k[3] or "", k[4] or "", k[0], k[1], k[2]))



class Pattern(Term):
    """n elements: exact cards, constrained elements (the core) and free '*'s."""

    def __init__(self, elements: list[Element], text: str, pos: int):
        self.text, self.pos, self.size = text, pos, len(elements)
        explicit_ranks = mask_of(e.rank for e in elements if e.rank is not None)
        explicit_suits = mask_of(e.suit for e in elements if e.suit is not None)
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
            self.slots.append((card_table(rmask, smask, e.cmask), rvar, svar))
            if e.rank is not None and e.suit is not None and e.cmask == ALL_CARDS:
                fixed.append(4 * e.rank + e.suit)
            elif (rmask != ALL_RANKS or smask != ALL_SUITS or e.cmask != ALL_CARDS
                  or rvar or svar):
                core.append((rmask, smask, e.cmask, rvar, svar))
        self.fixed = sorted(fixed)
        self.void = len(set(fixed)) < len(fixed)  # the same exact card twice: matches nothing
        self.fixed_table = np.zeros(52, bool)
        self.fixed_table[self.fixed] = True
        self.core = Core(sort_elements(core))
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
        charge(count * max(1, len(self.constrained)) * len(swaps))
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
        combos = combinations(len(self.rest), k)
        return combos if len(self.rest) == 52 else self.rest[combos]

    def _too_wide(self, count):
        return RangeProblem(
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
            cores = self.domain[combinations(len(self.domain), m)]
            charge(cores.size)
            cores = cores[self.core.match(cores)]
            product = len(cores) * math.comb(len(self.rest), self.free)
            if self.free == 0:
                sub = cores
            elif product <= MAX_CANDIDATES and (product * 4 <= full or full > MAX_CANDIDATES):
                # (deduplicating the product sorts it: only worth it when much smaller)
                sub = extend(cores, self._deck(self.free))
        if sub is None:  # walk every hand of the remaining deck
            if full > MAX_CANDIDATES:
                raise self._too_wide(full)
            charge(full)
            sub = self._deck(width)
            if m:
                sub = sub[self.core.match(sub)]
        if self.fixed:
            fixed = np.broadcast_to(np.array(self.fixed, np.uint8), (len(sub), len(self.fixed)))
            sub = np.sort(np.concatenate([sub, fixed], axis=1), axis=1)
        return sub


def extend(cores: np.ndarray, free: np.ndarray) -> np.ndarray:
    """Every core completed by every disjoint free combination, sorted, unique."""
    charge(UNION_WORK * len(cores) * len(free))  # the product is sorted and deduplicated
    ck, fk = row_masks(cores), row_masks(free)
    ci = np.repeat(np.arange(len(cores)), len(free))
    fi = np.tile(np.arange(len(free)), len(cores))
    disjoint = (ck[ci] & fk[fi]) == 0
    ci, fi = ci[disjoint], fi[disjoint]
    rows = np.sort(np.concatenate([cores[ci], free[fi]], axis=1), axis=1)
    return unique_rows(rows) if len(cores) > 1 else rows



class Patterns(Term):
    """A pattern as written: one or more concrete element lists (spans and
    bracket lists expand to several), each padded with '*' to the hand size."""

    def __init__(self, lists: list[list[Element]], text: str, pos: int):
        self.lists, self.text, self.pos = lists, text, pos
        self.size = max(len(els) for els in lists)
        self._bound: dict[int, list[Pattern]] = {}

    def patterns(self, n: int) -> list[Pattern]:
        if n not in self._bound:
            self._bound[n] = [Pattern(els + [STAR] * (n - len(els)), self.text, self.pos)
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
            rows = combinations(52, n)
            charge(len(rows))
            return rows[self.match(rows)]
        parts = [p.generate(n) for p in patterns]
        if len(parts) == 1:
            return parts[0]
        charge(UNION_WORK * sum(len(part) for part in parts))
        return unique_rows(np.concatenate(parts))

    def match(self, rows):
        hit = np.zeros(len(rows), bool)
        for p in self.patterns(rows.shape[1]):
            charge(len(rows))
            hit |= p.match(rows)
        return hit

    def ordered(self, view):
        hit = np.zeros(len(view), bool)
        for p in self.patterns(view.n):
            hit |= p.ordered(view)
        return hit

