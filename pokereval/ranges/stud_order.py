"""Stud card order: PPT reads a stud pattern in deal order.

Its first two elements are the down cards (either way round), the others the
up cards as dealt.  A holding is still a card set for the engine, weighted by
how many deals of it match (``Range.orders``).  Only the positions some
pattern constrains matter, so the walk lists *partial* deals (the cards at
those positions); each one stands for the same number of full deals (the other
cards in every free arrangement).  The holdings are found as card sets first
(:func:`stud_range`), then weighed by their matching deals.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .alternatives import Alternative, Group, all_terms, evaluate, ordered_alternative
from .budget import MAX_DEAL_WALK, UNION_WORK, RangeProblem, charge
from .macros import ShapeMacro
from .patterns import Patterns
from .rows import (columns, compact, rank_key, rank_representatives, suit_key,
                   suit_representatives, unique_rows)


class DealView:
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

    def take(self, keep) -> DealView:
        return DealView(self.sets, self.hold[keep], self.cards[keep], self.positions, self.cache)

    def of_holdings(self, term) -> np.ndarray:
        if id(term) not in self.cache:
            self.cache[id(term)] = term.match(self.sets)
        return self.cache[id(term)][self.hold]


def _relaxed(alternatives: list[Alternative]) -> list[Alternative]:
    """The alternatives read as card sets that hold every holding with a
    matching deal: a set fits a pattern when some deal order fits, but a deal
    that fits '!KK*' may come from a set that fits 'KK*', so exclusions by
    patterns are left to the deal walk (shape macros see the set and stay)."""
    out = []
    for alt in alternatives:
        literals = []
        for positive, term in alt.literals:
            if isinstance(term, Group):
                if positive:
                    literals.append((True, Group(_relaxed(term.alternatives), term.text,
                                                 term.pos)))
            elif positive or not isinstance(term, Patterns):
                literals.append((positive, term))
        out.append(Alternative(literals, alt.weight, alt.pos, alt.weighted))
    return out


def _constrained_positions(alternatives, n: int) -> tuple[int, ...]:
    """The positions some pattern constrains; both down positions or neither."""
    found: set[int] = set()
    for term in all_terms(alternatives):
        if isinstance(term, Patterns):
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
            if isinstance(term, Patterns):
                fits = [np.zeros(52, bool) for _ in range(n)]
                for p in term.patterns(n):
                    fits = [f | slot[0] for f, slot in zip(fits, p.slots)]
                # element 0 may take either down card: both take what either accepts
                fits[0] = fits[1] = fits[0] | fits[1]
            elif isinstance(term, Group):
                fits = _reach(term.alternatives, n)
            else:
                continue
            acc = [a & f for a, f in zip(acc, fits)]
        out = [o | a for o, a in zip(out, acc)]
    return out


def _deal_problem(found: int, bound: int) -> RangeProblem:
    return RangeProblem(f"stud range too wide to weigh by deal order (more than "
                        f"{MAX_DEAL_WALK:,} partial deals to walk, up to {bound:,} here; "
                        "write more of the known cards)", None)


def _partial_deals(sets: np.ndarray, positions, reach) -> tuple[np.ndarray, np.ndarray]:
    """Every partial deal of each holding whose cards ``reach`` allows at their
    positions: ``(holding index int64 [M], uint8 [M, len(positions)])``, the
    down pair (when constrained) once, lower card first."""
    count, n = sets.shape
    cards8 = columns(sets)  # uint8 columns: the cards kept
    cols = [c.astype(np.intp) for c in cards8]  # intp columns: fast table look-ups
    total = 0
    if positions and positions[0] == 0:
        fit0 = [reach[0][c] for c in cols]  # whether the k-th card may be down card 0, 1
        fit1 = [reach[1][c] for c in cols]
        hold, down, used = [], [[], []], []
        charge(count * n * (n - 1) // 2)
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
        charge(len(hold) * n)
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


class DealList:
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
    view = DealView(sets, hold, cards, positions)
    if len(alternatives) == 1:
        matched = ordered_alternative(alternatives[0], view)
        weight = np.full(len(matched), alternatives[0].weight)
    else:
        best = np.zeros(len(hold))
        for alt in alternatives:
            idx = ordered_alternative(alt, view)
            best[idx] = np.maximum(best[idx], alt.weight)
        matched = np.flatnonzero(best > 0)
        weight = best[matched]
    return hold[matched], cards[matched] if with_cards else None, weight, positions


def _order_kind(alternatives, n: int) -> str:
    """'ranks' ('suits') when every term sees only ranks (suits): then the deal
    orders of a holding depend only on its rank (suit) multiset."""
    ranks = suits = True
    for term in all_terms(alternatives):
        if isinstance(term, Patterns):
            for p in term.patterns(n):
                on_ranks, on_suits = p.sees()
                ranks &= not on_suits
                suits &= not on_ranks
        elif isinstance(term, ShapeMacro):
            ranks &= term.sees == "ranks"  # what the macro looks at (macros.TABLE)
            suits &= term.sees == "suits"
        elif not isinstance(term, Group):
            ranks = suits = False
    return "ranks" if ranks else "suits" if suits else "mixed"


def stud_range(alternatives, n: int):
    """(holdings, weights, orders, deals) of a stud range read in deal order:
    a holding's orders count its matching deals, its weight sums theirs."""
    parts = [evaluate(alt, n) for alt in _relaxed(alternatives)]
    if len(parts) > 1:
        charge(UNION_WORK * sum(len(part) for part in parts))
        sets = unique_rows(np.concatenate(parts))
    else:
        sets = parts[0]
    # walk one representative per rank (suit) multiset when that is all the range sees
    kind, index, reps = _order_kind(alternatives, n), None, sets
    if kind == "ranks":
        distinct, index = compact(rank_key(sets), 13 ** n)
        reps = rank_representatives(distinct, n)
    elif kind == "suits":
        distinct, index = compact(suit_key(sets), 1 << 16)
        reps = suit_representatives(distinct, n)
    hold, _, best, positions = _walk(alternatives, reps, n, with_cards=False)
    per = len(_completions(n, positions))
    orders = np.bincount(hold, minlength=len(reps)) * per
    weights = np.bincount(hold, weights=best, minlength=len(reps)) * per
    if index is not None:
        orders, weights = orders[index], weights[index]
    keep = orders > 0
    deals = DealList(n, functools.partial(_walk, alternatives, n=n))
    return sets[keep], weights[keep], orders[keep], deals


def one_deal(written: list[int]) -> DealList:
    """The deals of an exact stud hand: one, the first two cards down (lower
    first), the rest as written."""
    n = len(written)
    deal = np.array([sorted(written[:2]) + list(written[2:])], np.uint8)
    return DealList(n, lambda held: (np.zeros(len(held), np.int64), deal[:len(held)],
                                     np.ones(len(held)), tuple(range(n))))
