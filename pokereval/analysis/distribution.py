"""Beyond one number: each player's equity on every deal of the next street.

:func:`equity_distribution` -- for every deal of the next street (the flop from
preflop, the turn from the flop, the river from the turn; Courchevel: the two
flop cards after the exposed one; stud: the next card of every player, jointly),
each player's equity at that point, as a sorted curve of ``(equity, weight)``.
Its weighted mean is :func:`pokereval.equity` on the same spot (law of total
expectation; as a Fraction when both are exact).  A range holding by holding is
:mod:`.range_equities`; a finished deal street by street, :mod:`.streets`.

>>> import pokereval as pe
>>> r = pe.equity_distribution("holdem", ["AhAd", "7c8c"], board="2c9cKd")
>>> r.deals, r.players[0].equity_fraction == pe.equity("holdem", ["AhAd", "7c8c"],
...                                                    board="2c9cKd").players[0].equity_fraction
(45, True)

Board games with exact hands (or ranges small enough) run in one kernel
(:mod:`pokereval.kernels.distribution`, set up in :mod:`.scatter`) that walks every
run-out once and adds it to each of its next-street deals; heads-up stud tallies
every pair of the players' remaining cards from the kernels' stud tables; stud,
and spots too big to walk, run the core once per deal (exact when cheap), or
sample run-outs, each added to the deal of its next cards.
"""
from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, islice, permutations

import numpy as np

from ..cards import card_str, cards_str
from ..equity.backends.c import row_values
from ..equity.backends.numba import parallel, thread_count
from ..equity.deal import sampled_rows
from ..equity.options import parse_options
from ..equity.plan import AUTO_EXACT_SECONDS, check_exact_cost, exact_cost_ns, walk_cost_ns
from ..equity.results import EquityResult, player_results
from ..equity.spot import Spot, parse_spot
from ..equity.tally import lcm_upto, tally_outcomes
from ..errors import HandError
from .common import STREETS, STUD_STREETS, plain_equity
from .scatter import cells_table, joint_codes, joint_fields, pair_cells, run_scatter, scatter_plan

__all__ = ["DistributionResult", "PlayerDistribution", "equity_distribution", "DEFAULT_SAMPLES",
           "SAMPLE_BATCH", "MAX_LISTED_DEALS", "MAX_STUD_PAIRS", "LEVELS"]

#: Sampled run-outs (in all) when walking every run-out is too slow, and per batch.
DEFAULT_SAMPLES, SAMPLE_BATCH = 2_000_000, 250_000
#: Deals are listed (for one exact run each) only up to this many.
MAX_LISTED_DEALS = 100_000
#: Heads-up stud walks every pair of the players' remaining-card subsets up to this.
MAX_STUD_PAIRS = 4_000_000
#: Equity levels of :attr:`PlayerDistribution.at_least`.
LEVELS = (0.25, 0.5, 0.75)


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------

def _curve(values: np.ndarray, weights: np.ndarray) -> list[tuple[float, float]]:
    """Sorted ``(value, weight)`` pairs, equal values merged, weights summing to 1."""
    if len(values) == 0:
        return []
    uniq, inverse = np.unique(values, return_inverse=True)
    merged = np.bincount(inverse, weights=weights, minlength=len(uniq))
    merged = merged / merged.sum()
    return [(float(v), float(w)) for v, w in zip(uniq, merged)]


@dataclass(eq=False)
class PlayerDistribution:
    """One player's next-street distribution.

    ``curve``: ``(equity on the next street, probability)`` sorted by equity, the
    weights summing to 1; ``equity`` its weighted mean (= the player's
    :func:`pokereval.equity`); ``at_least``: P(equity >= 25 / 50 / 75 %).
    Split games also give per deal the probability of scooping and of taking
    (some of) the low half: ``scoop_curve`` / ``low_curve`` and their means
    ``scoop`` / ``low``.  ``by_deal``: the per-deal arrays, aligned with
    :attr:`DistributionResult.next_cards`.
    """

    hand: str
    equity: float
    curve: list[tuple[float, float]]
    at_least: dict[str, float]
    std_error: float
    scoop: float | None = None
    low: float | None = None
    scoop_curve: list[tuple[float, float]] | None = field(default=None, repr=False)
    low_curve: list[tuple[float, float]] | None = field(default=None, repr=False)
    fraction: Fraction | None = field(default=None, repr=False)
    by_deal: dict = field(default_factory=dict, repr=False)

    @property
    def equity_fraction(self) -> Fraction | None:
        """The weighted mean as a Fraction when every deal was exact."""
        return self.fraction

    def to_dict(self) -> dict:
        frac = self.fraction
        return {
            "hand": self.hand,
            "equity": self.equity,
            "equity_fraction": None if frac is None else f"{frac.numerator}/{frac.denominator}",
            "std_error": self.std_error,
            "at_least": dict(self.at_least),
            "scoop": self.scoop,
            "low": self.low,
            "curve": [list(p) for p in self.curve],
            "scoop_curve": None if self.scoop_curve is None else [list(p) for p in self.scoop_curve],
            "low_curve": None if self.low_curve is None else [list(p) for p in self.low_curve],
        }


@dataclass(eq=False)
class DistributionResult:
    """The answer of :func:`equity_distribution`.

    ``street``: the next street's name; ``deals``: the number of its deals (those
    possible at all); ``next_cards``: each deal's cards (stud: one card a player,
    in seat order); ``weights``: each deal's probability; ``exact``: every deal's
    equity exact (else sampled, ``samples`` run-outs per deal).
    """

    game: str
    hands: list[str]
    board: str
    dead: str
    street: str
    deals: int
    exact: bool
    samples: int | None
    seed: int | None
    elapsed: float
    players: list[PlayerDistribution]
    next_cards: list[str] = field(repr=False, default_factory=list)
    weights: np.ndarray | None = field(repr=False, default=None)

    def to_dict(self) -> dict:
        """A JSON-ready dict (the curves, not the per-deal arrays)."""
        return {
            "game": self.game, "hands": list(self.hands), "board": self.board, "dead": self.dead,
            "street": self.street, "deals": self.deals, "exact": self.exact,
            "samples": self.samples, "seed": self.seed, "elapsed": self.elapsed,
            "players": [p.to_dict() for p in self.players],
        }


def _mean(weights: np.ndarray, x: np.ndarray) -> float:
    """The weighted mean, without BLAS: NumPy's dot product of more than 10,000 deals
    runs on OpenBLAS's threads, which then spin for a while and take the core that the
    next kernel call's second thread needs (2 threads were no faster than 1)."""
    return float((weights * x).sum())


def _player(spot: Spot, p: int, eq: np.ndarray, scoop: np.ndarray, low: np.ndarray,
            weights: np.ndarray, fraction, std_error: float,
            means: tuple[float, float, float] | None = None) -> PlayerDistribution:
    """``means``: the equity, scoop and low means from the integer sums (each the
    correctly rounded ratio), else the weighted means of the per-deal figures."""
    split = spot.game.split
    if means is None:
        means = (float(fraction) if fraction is not None else _mean(weights, eq),
                 _mean(weights, scoop), _mean(weights, low))
    return PlayerDistribution(
        hand=spot.hand_text[p], equity=means[0], curve=_curve(eq, weights),
        at_least={f"{round(100 * x)}%": float(weights[eq >= x].sum()) for x in LEVELS},
        std_error=std_error,
        scoop=means[1] if split else None,
        low=means[2] if split else None,
        scoop_curve=_curve(scoop, weights) if split else None,
        low_curve=_curve(low, weights) if split else None,
        fraction=fraction, by_deal={"equity": eq, "scoop": scoop, "low": low})


# --------------------------------------------------------------------------
# The next street
# --------------------------------------------------------------------------

def _next_street(spot: Spot) -> tuple[str, int]:
    """(name, new board cards) of the next street; stud: (name, 0)."""
    g = spot.game
    if g.stud:
        held = 7 - spot.mo - spot.shared
        if held >= 7:
            raise HandError(f"{g.name}: every player already has 7 cards: there is no next "
                            f"street (use equity for the final result)")
        return STUD_STREETS[held + 1], 0
    b = len(spot.board)
    if b >= 5:
        raise HandError(f"the board {cards_str(spot.board)} is complete: there is no next "
                        f"street (use equity for the result at showdown)")
    size = min(s for s in (3, 4, 5) if s > b)
    return STREETS[size], size - b


def equity_distribution(game, hands, board="", dead="", *, exact=None, samples=None,
                        seed=None, threads=None) -> DistributionResult:
    """Each player's equity on every deal of the next street, as a sorted curve.

    ``exact=None`` walks every run-out when that is cheap, else samples run-outs
    (``DEFAULT_SAMPLES``, or ``samples=N`` in all), each deal's equity then being
    the mean over the sampled run-outs it starts; ``exact=True`` always walks them.
    Players may be ranges (their holdings drawn as in :func:`pokereval.equity`);
    a deal's weight is its probability.  ``seed``: reproducible sampling;
    ``threads``: kernel threads.

    >>> r = equity_distribution("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], board="7c8d9h")
    >>> r.street, r.deals, round(sum(w for _, w in r.players[0].curve), 12)
    ('turn', 41, 1.0)
    """
    started = time.perf_counter()
    spot = parse_spot(game, hands, board, dead)
    opts = parse_options(exact, samples, None, seed, threads, None)
    street, j = _next_street(spot)
    if opts.exact is not False and opts.samples is None and not spot.game.stud:
        planned = scatter_plan(spot, opts.exact is True, j)
        if planned is not None:
            return _scatter(spot, opts, street, j, planned, started)
    if (opts.exact is not False and opts.samples is None and spot.game.stud and spot.n == 2
            and not spot.ranged and not spot.shared and spot.mo >= 1
            and math.comb(len(spot.unseen), spot.mo) ** 2 <= MAX_STUD_PAIRS):
        return _heads_up_stud(spot, opts, street, started)
    if opts.exact is True and _deal_count(spot, j) > MAX_LISTED_DEALS:
        raise HandError(f"too many {street} deals to walk exactly "
                        f"({_deal_count(spot, j):,}); sample them (samples=...)")
    if opts.exact is True or (opts.exact is None and opts.samples is None and not spot.ranged
                              and _deal_count(spot, j) <= MAX_LISTED_DEALS):
        deals = list(_deals(spot, j))
        cost = len(deals) * _per_deal_ns(spot, deals) if deals else 0.0
        if opts.exact is True:
            check_exact_cost(cost, f"{len(deals):,} {street} deals")
        if opts.exact is True or cost <= AUTO_EXACT_SECONDS * 1e9:
            return _per_deal(spot, opts, street, deals, started)
    return _sampled(spot, opts, street, j, started)


def _deal_count(spot: Spot, j: int) -> int:
    """The number of next-street deals (stud: ordered, one card a player)."""
    u = len(spot.unseen)
    if not spot.game.stud:
        return math.comb(u, j)
    return u if spot.mo == 0 else math.perm(u, spot.n)


def _heads_up_stud(spot: Spot, opts, street: str, started: float) -> DistributionResult:
    """Heads-up stud: every pair of the players' remaining cards, tallied once (the C
    library's values of every subset, from the kernels' stud tables) and added to
    the deals of its next cards: each player's next card is any one of its new cards."""
    from .. import kernels as K
    from ..kernels.exact import combinations_of

    g, u, mo = spot.game, len(spot.unseen), spot.mo
    KT, G, binom = K.kernel_tables(), K.game_flags(g), K.binomials()
    unseen = np.array(spot.unseen, dtype=np.uint8)
    masks, hv, lv = parallel(K.stud_tables, KT, G, np.array(spot.holes, dtype=np.uint8), unseen,
                             mo, False, binom, threads=thread_count(opts.threads))
    combos, _ = combinations_of(u, mo, binom)  # the tables' subsets, in their order
    a, b = np.nonzero((masks[:, None] & masks[None, :]) == 0)
    hvals = np.stack([hv[0, 0, a], hv[1, 0, b]]).astype(np.int64)
    lvals = np.stack([lv[0, 0, a], lv[1, 0, b]]).astype(np.int64)
    # one count per (deal, joint outcome) as the scatter kernel keeps, turned into the
    # players' fields once: 4 whole-number bincounts instead of 28 weighted ones
    code = joint_codes(g, hvals, lvals)
    fields = joint_fields(g, 2)
    ncodes = len(fields)
    ndeals = u * u
    firsts = [combos[a, x] * (u * ncodes) + code for x in range(mo)]
    seconds = [combos[b, y] * ncodes for y in range(mo)]
    counts = np.zeros(ndeals * ncodes, dtype=np.int64)
    for first in firsts:
        for second in seconds:
            counts += np.bincount(first + second, minlength=ndeals * ncodes)
    counts = counts.reshape(ndeals, ncodes)
    acc = (counts @ fields).reshape(ndeals, 2, 3)
    den = counts.sum(axis=1)
    names = [card_str(c) for c in spot.unseen]
    return _from_scatter(spot, street, acc, den, [x + y for x in names for y in names], started)


def _scatter(spot: Spot, opts, street: str, j: int, planned, started: float) -> DistributionResult:
    """Every (combination, run-out) walked once in the kernel, scattered into the deals."""
    acc, den = run_scatter(spot, opts, j, planned)
    return _from_scatter(spot, street, acc, den,
                         _colex_names([card_str(c) for c in spot.unseen], j), started)


def _colex_names(names: list[str], j: int) -> list[str]:
    """Every ``j``-card deal of the cards ``names``, joined, in colex order (the
    kernel's deal index): each card after the ``j - 1``-card deals of the cards before
    it, the first ``C(i, j - 1)`` of them in colex order.  Joined from the cards' names:
    checking each card of 13,000 flops again took longer than the kernel's second
    thread saves."""
    out = [""]
    for m in range(1, j + 1):
        prev = out
        out = [s + x for i, x in enumerate(names) for s in islice(prev, math.comb(i, m - 1))]
    return out


def _from_scatter(spot: Spot, street: str, acc: np.ndarray, den: np.ndarray, names: list,
                  started: float) -> DistributionResult:
    """The result from per-deal sums: ``acc[deal, player, field]`` (see
    :func:`.scatter.cells_table`) over ``den[deal]`` equally weighted run-outs."""
    g, n = spot.game, spot.n
    live = np.nonzero(den)[0]
    acc, den = acc[live], den[live]
    unit = 2 * lcm_upto(n)
    weights = den / den.sum()
    total = int(den.sum())
    players = []
    for p in range(n):
        eq = acc[:, p, 0] / (den * unit)
        fraction = Fraction(int(acc[:, p, 0].sum()), total * unit)
        means = (float(fraction), int(acc[:, p, 1].sum()) / total,
                 int(acc[:, p, 2].sum()) / total)
        players.append(_player(spot, p, eq, acc[:, p, 1] / den, acc[:, p, 2] / den, weights,
                               fraction, 0.0, means))
    return DistributionResult(
        game=g.name, hands=list(spot.hand_text), board=cards_str(spot.board),
        dead=cards_str(spot.dead), street=street, deals=len(live), exact=True, samples=None,
        seed=None, elapsed=time.perf_counter() - started, players=players,
        next_cards=names if len(live) == len(names) else [names[i] for i in live],
        weights=weights)


# --------------------------------------------------------------------------
# One equity run per deal (stud, sampled spots)
# --------------------------------------------------------------------------

def _deals(spot: Spot, j: int):
    """Every next-street deal: (cards, new hands, new board)."""
    if not spot.game.stud:
        for cards in combinations(spot.unseen, j):
            yield list(cards), list(spot.hand_text), spot.board + list(cards)
        return
    if spot.ranged:
        raise HandError(f"{spot.game.name}: an exact next-street distribution takes exact "
                        f"stud hands, not ranges (sample it: samples=...)")
    if spot.mo == 0:  # seventh street is one shared card (the eight-handed rule)
        for c in spot.unseen:
            yield [c], [cards_str(h + [c]) for h in spot.holes], []
        return
    for cards in permutations(spot.unseen, spot.n):
        yield list(cards), [cards_str(h + [c]) for h, c in zip(spot.holes, cards)], []


def _range_weight(spot: Spot, cards: list[int]) -> float:
    """The total weight each ranged player keeps once ``cards`` are dealt (product)."""
    mask = np.uint64(sum(1 << c for c in cards))
    w = 1.0
    for r in spot.ranges:
        if r is not None:
            w *= float(r.weights[(r.masks() & mask) == 0].sum())
    return w


def _shared_showdown(spot: Spot, card: int) -> EquityResult:
    """The result once the shared seventh card (eight-handed stud) is dealt."""
    from ..evaluate import evaluate_batch

    values = [evaluate_batch(spot.game, np.array([h + [card]], dtype=np.uint8))
              for h in spot.holes]
    hv = np.array([[v[0][0]] for v in values], dtype=np.int64)
    lv = np.array([[v[1][0]] for v in values], dtype=np.int64)
    counts = tally_outcomes(spot.game, hv, lv)
    return EquityResult(spot.game.name, list(spot.hand_text), "", cards_str(spot.dead), True, 1,
                        False, 0.0, player_results(spot, counts, True, final=True))


def _per_deal_ns(spot: Spot, deals: list) -> float:
    """Estimated nanoseconds of one exact equity run per deal."""
    if spot.game.stud and spot.mo == 0:
        return 300_000.0
    first = parse_spot(spot.game, deals[0][1], cards_str(deals[0][2]), cards_str(spot.dead))
    if not first.ranged:
        return walk_cost_ns(first) + 300_000.0
    return exact_cost_ns(first) * 20 + 300_000.0


def _per_deal(spot: Spot, opts, street: str, deals: list, started: float) -> DistributionResult:
    """One exact :func:`pokereval.equity` run per deal."""
    if not deals:
        raise HandError("no card is left to deal the next street")
    n = spot.n
    rows = []
    for cards, hands, board in deals:
        w = _range_weight(spot, cards) if spot.ranged else 1.0
        if w == 0.0:
            continue
        if spot.game.stud and spot.mo == 0:  # the shared seventh card ends the hand
            rows.append((cards, w, _shared_showdown(spot, cards[0])))
            continue
        try:
            r = plain_equity(spot.game, hands, cards_str(board), cards_str(spot.dead),
                             threads=opts.threads, exact=True)
        except HandError:
            if spot.ranged:  # no combination of holdings fits this deal
                continue
            raise
        if r.acceptance is not None:
            w *= r.acceptance
        rows.append((cards, w, r))
    weights = np.array([w for _, w, _ in rows], dtype=np.float64)
    weights = weights / weights.sum()
    players = []
    for p in range(n):
        eq = np.array([r.players[p].equity for _, _, r in rows])
        scoop = np.array([r.players[p].scoop for _, _, r in rows])
        low = np.array([r.players[p].low_win + r.players[p].low_tie for _, _, r in rows])
        fraction = None
        if not spot.ranged:
            fraction = sum((r.players[p].equity_fraction for _, _, r in rows), Fraction(0))
            fraction /= len(rows)
        players.append(_player(spot, p, eq, scoop, low, weights, fraction, 0.0))
    return DistributionResult(
        game=spot.game.name, hands=list(spot.hand_text), board=cards_str(spot.board),
        dead=cards_str(spot.dead), street=street, deals=len(rows), exact=True,
        samples=None, seed=None,
        elapsed=time.perf_counter() - started, players=players,
        next_cards=[cards_str(c) for c, _, _ in rows], weights=weights)


# --------------------------------------------------------------------------
# Sampled: random run-outs, each added to the deal of its next cards
# --------------------------------------------------------------------------

def _sampled(spot: Spot, opts, street: str, j: int, started: float) -> DistributionResult:
    """``samples`` random run-outs in all (holdings drawn as :func:`pokereval.equity`
    does), each added to its next-street deal: the first new card(s) dealt."""
    seed = opts.seed if opts.seed is not None else secrets.randbits(63)
    rng = np.random.default_rng(seed)
    n, g = spot.n, spot.game
    total = opts.samples or DEFAULT_SAMPLES
    cells = cells_table(g, n)
    batches = []
    done = 0
    while done < total:
        size = min(SAMPLE_BATCH, total - done)
        holes, boards = sampled_rows(spot, size, rng)
        hv, lv = row_values(spot, (holes, boards))
        cell = pair_cells(g, hv, lv)
        if g.stud:  # each player's next card; with the shared seventh card, that card
            held = len(holes[0][0]) - spot.mo - spot.shared
            cols = [h[:, held].astype(np.int64) for h in holes] if spot.mo else \
                [holes[0][:, -1].astype(np.int64)]
        else:
            new = np.sort(boards[:, len(spot.board):len(spot.board) + j], axis=1)
            cols = [new[:, i].astype(np.int64) for i in range(j)]
        key = np.zeros(size, dtype=np.int64)
        for c in cols:
            key = key * 52 + c
        uniq, inverse = np.unique(key, return_inverse=True)
        parts = [np.bincount(inverse, minlength=len(uniq)).astype(np.float64)]
        for p in range(n):
            for f in range(3):
                v = cells[f][cell[p]].astype(np.float64)
                parts.append(np.bincount(inverse, weights=v, minlength=len(uniq)))
                if f == 0:
                    parts.append(np.bincount(inverse, weights=v * v, minlength=len(uniq)))
        batches.append((uniq, np.stack(parts, axis=1)))
        done += size
    every = np.concatenate([k for k, _ in batches])
    keys, inverse = np.unique(every, return_inverse=True)
    rows = np.concatenate([t for _, t in batches])
    table = np.stack([np.bincount(inverse, weights=rows[:, c], minlength=len(keys))
                      for c in range(rows.shape[1])], axis=1)  # [deals, 1 + 4 n]
    keys = keys.tolist()
    count = table[:, 0]
    weights = count / count.sum()
    runs = int(count.sum())
    unit = 2 * lcm_upto(n)
    players = []
    for p in range(n):
        s1, s2 = table[:, 1 + 4 * p] / unit, table[:, 2 + 4 * p] / unit ** 2
        eq = s1 / count
        overall = s1.sum() / total
        var = max(s2.sum() / total - overall ** 2, 0.0)
        # the sums are whole numbers (below 2 ** 53 in float64): exact sample means
        means = (int(table[:, 1 + 4 * p].sum()) / (unit * runs),
                 int(table[:, 3 + 4 * p].sum()) / runs, int(table[:, 4 + 4 * p].sum()) / runs)
        players.append(_player(spot, p, eq, table[:, 3 + 4 * p] / count,
                               table[:, 4 + 4 * p] / count, weights, None,
                               math.sqrt(var / max(total - 1, 1)), means))
    names = []
    for k in keys:
        cards = []
        for _ in cols:
            cards.append(k % 52)
            k //= 52
        names.append(cards_str(cards[::-1]))
    return DistributionResult(
        game=g.name, hands=list(spot.hand_text), board=cards_str(spot.board),
        dead=cards_str(spot.dead), street=street, deals=len(keys), exact=False, samples=total,
        seed=seed, elapsed=time.perf_counter() - started, players=players,
        next_cards=names, weights=weights)
