"""Beyond one number: equity on the next street, holding by holding, street by street.

* :func:`equity_distribution` -- for every deal of the next street (the flop from
  preflop, the turn from the flop, the river from the turn; Courchevel: the two
  flop cards after the exposed one; stud: the next card of every player, jointly),
  each player's equity at that point, as a sorted curve of ``(equity, weight)``.
  Its weighted mean is :func:`pokereval.equity` on the same spot (law of total
  expectation; as a Fraction when both are exact).
* :func:`range_equities` -- a player given as a range: each holding's equity
  against the others, best first (the range-equity curve solvers show).
* :func:`equity_by_street` -- a finished deal: the equity on every street.

>>> import pokereval as pe
>>> r = pe.equity_distribution("holdem", ["AhAd", "7c8c"], board="2c9cKd")
>>> r.deals, r.players[0].equity_fraction == pe.equity("holdem", ["AhAd", "7c8c"],
...                                                    board="2c9cKd").players[0].equity_fraction
(45, True)

Board games with exact hands (or ranges small enough) run in one kernel
(:mod:`pokereval.kernels.distribution`) that walks every run-out once and adds
it to each of its next-street deals; stud, and spots too big to walk, run
:func:`pokereval.equity` once per deal (exact when cheap, else sampled).
"""
from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np

from .cards import cards_str
from .equity.backends.c import row_values
from .equity.backends.numba import parallel, thread_count
from .equity.deal import sampled_rows
from .equity.options import parse_options
from .equity.plan import AUTO_EXACT_SECONDS, exact_cost_ns
from .equity.results import EquityResult, player_results
from .equity.run import RangedRunner, run
from .equity.spot import Spot, parse_spot
from .equity.tally import lcm_upto, share_units, tally_outcomes
from .errors import HandError

__all__ = ["DistributionResult", "PlayerDistribution", "HoldingEquity", "RangeEquities",
           "StreetResult", "equity_distribution", "range_equities", "equity_by_street"]

#: The kernel walks at most this many (combination of holdings x run-out x player)
#: evaluations when ``exact`` is left to choose (about a second).
AUTO_SCATTER_EVALS = 40_000_000
#: The same for Omaha ranges: no per-holding cache, 60 to 100 lookups an evaluation.
AUTO_SCATTER_EVALS_RANGED_OMAHA = 15_000_000
#: The kernel runs on one thread up to this many evaluations (a flop's turns and rivers).
ONE_THREAD_EVALS = 200_000
#: Sampled run-outs (in all) when walking every run-out is too slow, and per batch.
DEFAULT_SAMPLES, SAMPLE_BATCH = 2_000_000, 250_000
#: Per-holding runs of range_equities: samples in all when not exact.
DEAL_SAMPLE_BUDGET = 4_000_000
MIN_DEAL_SAMPLES, MAX_DEAL_SAMPLES = 2_000, 200_000
#: Deals are listed (for one exact run each) only up to this many.
MAX_LISTED_DEALS = 100_000
#: Heads-up stud walks every pair of the players' remaining-card subsets up to this.
MAX_STUD_PAIRS = 4_000_000
#: Equity levels of :attr:`PlayerDistribution.at_least`.
LEVELS = (0.25, 0.5, 0.75)


def _equity(game, hands, board, dead, *, exact=None, samples=None, stderr=None, seed=None,
            threads=None) -> EquityResult:
    """:func:`pokereval.equity` of a spot of plain cards (no board range, no breakdown)."""
    started = time.perf_counter()
    spot = parse_spot(game, hands, board, dead)
    return run(spot, parse_options(exact, samples, stderr, seed, threads, None), started)


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


def _player(spot: Spot, p: int, eq: np.ndarray, scoop: np.ndarray, low: np.ndarray,
            weights: np.ndarray, fraction, std_error: float) -> PlayerDistribution:
    split = spot.game.split
    mean = float(fraction) if fraction is not None else float(np.dot(weights, eq))
    return PlayerDistribution(
        hand=spot.hand_text[p], equity=mean, curve=_curve(eq, weights),
        at_least={f"{round(100 * x)}%": float(weights[eq >= x].sum()) for x in LEVELS},
        std_error=std_error,
        scoop=float(np.dot(weights, scoop)) if split else None,
        low=float(np.dot(weights, low)) if split else None,
        scoop_curve=_curve(scoop, weights) if split else None,
        low_curve=_curve(low, weights) if split else None,
        fraction=fraction, by_deal={"equity": eq, "scoop": scoop, "low": low})


# --------------------------------------------------------------------------
# The next street
# --------------------------------------------------------------------------

_STREETS = {3: "flop", 4: "turn", 5: "river"}
_STUD_STREETS = {4: "fourth street", 5: "fifth street", 6: "sixth street", 7: "seventh street"}


def _next_street(spot: Spot) -> tuple[str, int]:
    """(name, new board cards) of the next street; stud: (name, 0)."""
    g = spot.game
    if g.stud:
        held = 7 - spot.mo - spot.shared
        if held >= 7:
            raise HandError(f"{g.name}: every player already has 7 cards: there is no next "
                            f"street (use equity for the final result)")
        return _STUD_STREETS[held + 1], 0
    b = len(spot.board)
    if b >= 5:
        raise HandError(f"the board {cards_str(spot.board)} is complete: there is no next "
                        f"street (use equity for the result at showdown)")
    size = min(s for s in (3, 4, 5) if s > b)
    return _STREETS[size], size - b


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
        planned = _scatter_plan(spot, opts.exact is True)
        if planned is not None:
            return _scatter(spot, opts, street, j, planned, started)
    if (opts.exact is not False and opts.samples is None and spot.game.stud and spot.n == 2
            and not spot.ranged and not spot.shared and spot.mo >= 1
            and math.comb(len(spot.unseen), spot.mo) ** 2 <= MAX_STUD_PAIRS):
        return _heads_up_stud(spot, street, started)
    if opts.exact is True and _deal_count(spot, j) > MAX_LISTED_DEALS:
        raise HandError(f"too many {street} deals to walk exactly "
                        f"({_deal_count(spot, j):,}); sample them (samples=...)")
    if opts.exact is True or (opts.exact is None and opts.samples is None and not spot.ranged
                              and _deal_count(spot, j) <= MAX_LISTED_DEALS):
        deals = list(_deals(spot, j))
        if opts.exact is True or len(deals) * _per_deal_ns(spot, deals) <= \
                AUTO_EXACT_SECONDS * 1e9:
            return _per_deal(spot, opts, street, deals, started)
    return _sampled(spot, opts, street, j, started)


def _deal_count(spot: Spot, j: int) -> int:
    """The number of next-street deals (stud: ordered, one card a player)."""
    u = len(spot.unseen)
    if not spot.game.stud:
        return math.comb(u, j)
    return u if spot.mo == 0 else math.perm(u, spot.n)


def _heads_up_stud(spot: Spot, street: str, started: float) -> DistributionResult:
    """Heads-up stud: every pair of the players' remaining cards, tallied once (the C
    library's values of every subset, from the kernels' stud tables) and added to
    the deals of its next cards: each player's next card is any one of its new cards."""
    from . import kernels as K
    from .kernels.exact import combinations_of

    g, u, mo = spot.game, len(spot.unseen), spot.mo
    KT, G, binom = K.kernel_tables(), K.game_flags(g), K.binomials()
    unseen = np.array(spot.unseen, dtype=np.uint8)
    masks, hv, lv = parallel(K.stud_tables, KT, G, np.array(spot.holes, dtype=np.uint8), unseen,
                             mo, False, binom)
    combos, _ = combinations_of(u, mo, binom)  # the tables' subsets, in their order
    a, b = np.nonzero((masks[:, None] & masks[None, :]) == 0)
    hvals = np.stack([hv[0, 0, a], hv[1, 0, b]]).astype(np.int64)
    lvals = np.stack([lv[0, 0, a], lv[1, 0, b]]).astype(np.int64)
    cells = _cells_table(g, 2)
    cell = _pair_cells(g, hvals, lvals)  # [2, pairs]
    ndeals = u * u
    acc = np.zeros((ndeals, 2, 3), dtype=np.int64)
    den = np.zeros(ndeals, dtype=np.int64)
    for x in range(mo):
        for y in range(mo):
            deal = combos[a, x] * u + combos[b, y]
            den += np.bincount(deal, minlength=ndeals)
            for p in range(2):
                for f in range(3):
                    acc[:, p, f] += np.bincount(deal, weights=cells[f][cell[p]],
                                                minlength=ndeals).astype(np.int64)
    return _from_scatter(spot, street, acc, den,
                         [cards_str([x, y]) for x in spot.unseen for y in spot.unseen], started)


def _combinations(spot: Spot, limit: int):
    """``(tuples int64[T, n], whole weights, holding rows uint8[m, c])`` for the kernel,
    or None when more than ``limit`` combinations (or the weights too large)."""
    if not spot.ranged:
        return np.arange(spot.n, dtype=np.int64)[None, :], [1], np.array(spot.holes, np.uint8)
    runner = RangedRunner(spot, parse_options(None, None, None, None, None, None), 0.0)
    product = math.prod(len(b) for b in runner.blocks)
    if product > 50 * limit:
        return None
    tuples = runner.compatible_tuples(limit)
    if len(tuples) > limit:
        return None
    if len(tuples) == 0:
        raise HandError("no combination of the players' holdings is possible")
    tgroup, gweights = runner.weight_groups(tuples)
    if max(gweights) > (1 << 20):
        return None
    return tuples.astype(np.int64), [gweights[i] for i in tgroup], np.vstack(runner.blocks)


def _scatter_plan(spot: Spot, forced: bool):
    runs = math.comb(len(spot.unseen), spot.k)
    budget = AUTO_SCATTER_EVALS
    if spot.ranged and spot.game.exactly_two:
        budget = AUTO_SCATTER_EVALS_RANGED_OMAHA
    if forced:
        budget = 1 << 40
    limit = max(1, budget // max(runs * spot.n, 1))
    return _combinations(spot, limit)


def _cells_table(g, n: int) -> np.ndarray:
    """int64[3, cells]: per outcome cell ``row * (n + 2) + col``, the share units, the
    scoop (0/1) and the low half won or tied (0/1)."""
    pot = g.pot
    cells = np.zeros((3, (n + 1) * (n + 2)), dtype=np.int64)
    cells[0] = share_units(pot, n).ravel()
    for row in range(n + 1):
        for col in range(n + 2):
            c = row * (n + 2) + col
            cells[1, c] = (row == 1 and col in (0, 2)) if pot == "split" else \
                (col == 2 if pot == "razz" else row == 1)
            cells[2, c] = col >= 2
    return cells


def _pair_cells(g, hv: np.ndarray, lv: np.ndarray) -> np.ndarray:
    """Each player's outcome cell on each row of values ``[n, rows]`` (as the tally)."""
    n = hv.shape[0]
    row = np.zeros(hv.shape, dtype=np.int64)
    col = np.zeros(hv.shape, dtype=np.int64)
    if g.high:
        win = hv == hv.max(axis=0)
        row = np.where(win, win.sum(axis=0), 0)
    if g.low:
        best = lv.max(axis=0)
        win = (lv == best) & (best > 0)
        col = np.where(best > 0, np.where(win, 1 + win.sum(axis=0), 1), 0)
    return row * (n + 2) + col


def _run_scatter(spot: Spot, opts, j: int, planned):
    """The kernel's ``(acc, den)``: by ``j``-card deal, or (``j == 0``) by combination."""
    from . import kernels as K
    from .kernels.distribution import JOINT_PLAYERS, scatter_exact

    g, n, k = spot.game, spot.n, spot.k
    tuples, tweights, rows = planned
    deck = np.array(spot.unseen, dtype=np.uint8)
    pos = {c: i for i, c in enumerate(spot.unseen)}
    tmasks = np.zeros(len(tuples), dtype=np.uint64)
    if spot.ranged:
        bits = np.zeros(len(rows), dtype=np.uint64)
        for r, h in enumerate(rows.tolist()):
            for c in h:
                if c in pos:
                    bits[r] |= np.uint64(1) << np.uint64(pos[c])
        tmasks = np.bitwise_or.reduce(bits[tuples], axis=1).astype(np.uint64)
    KT, G, binom = K.kernel_tables(), K.game_flags(g), K.binomials()
    H = K.prep_holdings(KT, np.ascontiguousarray(rows), G.omaha)
    use_cache = not spot.ranged  # a range's holdings change from run to run
    cache = np.zeros((len(rows) if use_cache and G.omaha else 1, K.BOARD_SLOTS), dtype=np.uint16)
    if j:
        subs = np.array(list(combinations(range(k), j)), dtype=np.int64).reshape(-1, j)
        ndeals = math.comb(len(deck), j)
    else:
        subs = np.zeros((1, 0), dtype=np.int64)
        ndeals = len(tuples)
    cells = _cells_table(g, n)
    threads = thread_count(opts.threads)
    if len(tuples) * math.comb(len(deck), k) * n <= ONE_THREAD_EVALS:
        threads = 1  # waking the other threads costs more than the work
    acc, den = parallel(scatter_exact, KT, G, H, np.ascontiguousarray(tuples),
                        np.array(tweights, dtype=np.int64), tmasks,
                        np.array(spot.board, dtype=np.uint8), deck, k, subs, ndeals, binom, cache,
                        use_cache, cells, threads, threads=threads)
    if n <= JOINT_PLAYERS:
        return (acc @ _joint_fields(g, n)).reshape(ndeals, n, 3), den
    return acc.reshape(ndeals, n, 3), den


def _joint_fields(g, n: int) -> np.ndarray:
    """int64[4 ** n, n, 3]: each joint outcome's fields per player (see
    :func:`_cells_table` and :func:`.kernels.distribution._joint`)."""
    cells = _cells_table(g, n)
    out = np.zeros((4 ** n, n, 3), dtype=np.int64)
    for code in range(4 ** n):
        high, low = code & ((1 << n) - 1), code >> n
        for p in range(n):
            row = bin(high).count("1") if high >> p & 1 else 0
            col = 0 if not low else (1 + bin(low).count("1") if low >> p & 1 else 1)
            out[code, p] = cells[:, row * (n + 2) + col]
    return out.reshape(4 ** n, n * 3)


def _scatter(spot: Spot, opts, street: str, j: int, planned, started: float) -> DistributionResult:
    """Every (combination, run-out) walked once in the kernel, scattered into the deals."""
    acc, den = _run_scatter(spot, opts, j, planned)
    return _from_scatter(spot, street, acc, den,
                         [cards_str(c) for c in combinations(spot.unseen, j)], started)


def _from_scatter(spot: Spot, street: str, acc: np.ndarray, den: np.ndarray, names: list,
                  started: float) -> DistributionResult:
    """The result from per-deal sums: ``acc[deal, player, field]`` (see
    :func:`_cells_table`) over ``den[deal]`` equally weighted run-outs."""
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
        players.append(_player(spot, p, eq, acc[:, p, 1] / den, acc[:, p, 2] / den, weights,
                               fraction, 0.0))
    return DistributionResult(
        game=g.name, hands=list(spot.hand_text), board=cards_str(spot.board),
        dead=cards_str(spot.dead), street=street, deals=len(live), exact=True, samples=None,
        seed=None, elapsed=time.perf_counter() - started, players=players,
        next_cards=[names[i] for i in live], weights=weights)


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
    from .evaluate import evaluate_batch

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
    return exact_cost_ns(first) * (20 if spot.ranged else 1) + 300_000.0


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
            r = _equity(spot.game, hands, cards_str(board), cards_str(spot.dead),
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
# A range, holding by holding
# --------------------------------------------------------------------------

@dataclass(eq=False)
class HoldingEquity:
    """One holding (or suit-isomorphic class) of a range: its ``equity`` against the
    other players, its probability ``weight`` in the spot, and ``combos`` (holdings
    in the class: 1 without classes)."""

    holding: str
    equity: float
    weight: float
    combos: int = 1
    fraction: Fraction | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        frac = self.fraction
        return {"holding": self.holding, "equity": self.equity, "weight": self.weight,
                "combos": self.combos,
                "equity_fraction": None if frac is None else f"{frac.numerator}/{frac.denominator}"}


@dataclass(eq=False)
class RangeEquities:
    """The answer of :func:`range_equities`: ``holdings`` best first; ``equity`` their
    weighted mean (the player's :func:`pokereval.equity`)."""

    game: str
    hands: list[str]
    board: str
    dead: str
    player: int
    exact: bool
    classes: bool
    equity: float
    holdings: list[HoldingEquity]
    elapsed: float

    def to_dict(self) -> dict:
        return {"game": self.game, "hands": list(self.hands), "board": self.board,
                "dead": self.dead, "player": self.player, "exact": self.exact,
                "classes": self.classes, "equity": self.equity, "elapsed": self.elapsed,
                "holdings": [h.to_dict() for h in self.holdings]}


_SUIT_PERMS = np.array(list(permutations(range(4))), dtype=np.int64)


def _suit_classes(rows: np.ndarray) -> np.ndarray:
    """The suit-isomorphic class key of each holding row (the least of its 24 relabellings)."""
    cards = rows.astype(np.int64)
    best = None
    for perm in _SUIT_PERMS:
        moved = np.sort((cards & ~3) | perm[cards & 3], axis=1)
        key = np.zeros(len(rows), dtype=np.int64)
        for col in range(moved.shape[1]):
            key = key * 52 + moved[:, col]
        best = key if best is None else np.minimum(best, key)
    return best


def _symmetric(rng) -> bool:
    """True when a range is the same under every relabelling of the suits (weights too)."""
    keys = _suit_classes(rng.holdings)
    base = {tuple(r): w for r, w in zip(rng.holdings.tolist(), rng.weights.tolist())}
    cards = rng.holdings.astype(np.int64)
    for perm in _SUIT_PERMS:
        moved = np.sort((cards & ~3) | perm[cards & 3], axis=1)
        if any(base.get(tuple(r)) != w for r, w in zip(moved.tolist(), rng.weights.tolist())):
            return False
    return len(keys) > 0


def range_equities(game, hands, board="", dead="", *, player=None, classes=None, exact=None,
                   samples=None, seed=None, threads=None) -> RangeEquities:
    """Each holding of a player's range: its equity against the other players, best first.

    ``player``: the index of the player given as a range (default: the first one).
    ``classes``: merge suit-isomorphic holdings (``None``: when no card is known
    and every other player is a suit-symmetric range, where they are equal).
    Board games walk every combination and run-out in one kernel when cheap;
    otherwise one :func:`pokereval.equity` run per holding (class), exact when
    cheap (or ``exact=True``), else ``samples`` run-outs each.

    >>> r = range_equities("holdem", ["AKs", "QQ"])
    >>> [(h.holding, h.combos) for h in r.holdings]
    [('AcKc', 4)]
    """
    started = time.perf_counter()
    spot = parse_spot(game, hands, board, dead)
    opts = parse_options(exact, samples, None, seed, threads, None)
    ranged = [i for i, r in enumerate(spot.ranges) if r is not None] if spot.ranged else []
    if player is None:
        if not ranged:
            raise HandError("range_equities needs a player given as a range (e.g. 'AA**')")
        player = ranged[0]
    if not isinstance(player, int) or not 0 <= player < spot.n or player not in ranged:
        raise HandError(f"player must be the index of a player given as a range "
                        f"({', '.join(map(str, ranged)) or 'none'}), got {player!r}")
    can_merge = (not spot.board and not spot.dead and all(h is None for h in spot.holes)
                 and all(_symmetric(spot.ranges[i]) for i in ranged if i != player))
    if classes and not can_merge:
        raise HandError("suit classes need a spot without known cards where every other "
                        "player is a suit-symmetric range")
    merge = can_merge if classes is None else bool(classes)
    rows = np.asarray(spot.ranges[player].holdings)
    planned = None
    if opts.exact is not False and opts.samples is None and not spot.game.stud:
        planned = _scatter_plan(spot, opts.exact is True)
    if planned is not None:
        eq_num, weight, exact_run = _holdings_by_scatter(spot, opts, player, planned)
        fractions = [Fraction(int(a), int(b)) for a, b in zip(*eq_num)]
    else:
        fractions, weight, exact_run = _holdings_by_run(spot, opts, player, rows, merge)
    eq = np.array([float(f) for f in fractions])
    weight = np.asarray(weight, dtype=np.float64)
    keep = weight > 0
    keys = _suit_classes(rows) if merge else np.arange(len(rows))
    out = []
    for key in np.unique(keys[keep]):
        members = np.nonzero((keys == key) & keep)[0]
        w = float(weight[members].sum())
        first = members[0]
        out.append(HoldingEquity(cards_str(sorted(rows[first].tolist(), reverse=True)), float(eq[first]), w,
                                 len(members), fractions[first] if exact_run else None))
    total = sum(h.weight for h in out)
    for h in out:
        h.weight /= total
    out.sort(key=lambda h: (-h.equity, h.holding))
    return RangeEquities(spot.game.name, list(spot.hand_text), cards_str(spot.board),
                         cards_str(spot.dead), player, exact_run, merge,
                         float(sum(h.equity * h.weight for h in out)), out,
                         time.perf_counter() - started)


def _holdings_by_scatter(spot: Spot, opts, player: int, planned):
    """Per holding of ``player``: (equity numerators, denominators), weights, exact."""
    tuples, tweights, rows = planned
    acc, den = _run_scatter(spot, opts, 0, planned)
    n = spot.n
    unit = 2 * lcm_upto(n)
    start = sum(len(r) for r in spot.ranges[:player] if r is not None) + \
        sum(1 for h in spot.holes[:player] if h is not None)
    local = tuples[:, player] - start
    m = len(spot.ranges[player].holdings)
    num = [0] * m
    dsum = [0] * m
    for t, h in enumerate(local.tolist()):
        num[h] += int(acc[t, player, 0])
        dsum[h] += int(den[t])
    denom = [d * unit if d else 1 for d in dsum]
    return (num, denom), dsum, True


def _holdings_by_run(spot: Spot, opts, player: int, rows: np.ndarray, merge: bool):
    """Per holding of ``player``: one :func:`pokereval.equity` run (one per suit class
    when ``merge``); returns (equities, weights, exact)."""
    rng = spot.ranges[player]
    keys = _suit_classes(rows) if merge else np.arange(len(rows))
    _, first_of, inverse = np.unique(keys, return_index=True, return_inverse=True)

    def hands_with(h):
        return [cards_str(rows[h].tolist()) if q == player else t
                for q, t in enumerate(spot.hand_text)]

    others_ranged = sum(1 for q, r in enumerate(spot.ranges) if r is not None and q != player)
    probe = parse_spot(spot.game, hands_with(int(first_of[0])), cards_str(spot.board),
                       cards_str(spot.dead))
    per_run_ns = exact_cost_ns(probe) * (20 if others_ranged else 1) + 300_000
    exact = opts.exact is True or (opts.samples is None and opts.exact is None and
                                   len(first_of) * per_run_ns <= AUTO_EXACT_SECONDS * 1e9)
    samples = opts.samples
    if not exact and samples is None:
        samples = min(max(DEAL_SAMPLE_BUDGET // len(first_of), MIN_DEAL_SAMPLES),
                      MAX_DEAL_SAMPLES)
    seed = opts.seed if opts.seed is not None else secrets.randbits(63)
    rep_eq, rep_factor = [], []
    for i, h in enumerate(first_of.tolist()):
        kw = dict(exact=True) if exact else dict(samples=samples, seed=(seed + i) % (1 << 64))
        try:
            r = _equity(spot.game, hands_with(h), cards_str(spot.board), cards_str(spot.dead),
                        threads=opts.threads, **kw)
        except HandError:
            if not others_ranged:
                raise
            rep_eq.append(Fraction(0))
            rep_factor.append(0.0)  # no holding of the others fits this one
            continue
        p = r.players[player]
        rep_eq.append(p.equity_fraction if exact and p.equity_fraction is not None else p.equity)
        factor = r.acceptance if r.acceptance is not None else 1.0
        mask = np.uint64(sum(1 << int(c) for c in rows[h]))
        for q, other in enumerate(spot.ranges):
            if other is not None and q != player:
                factor *= float(other.weights[(other.masks() & mask) == 0].sum())
        rep_factor.append(factor)
    equities = [rep_eq[c] for c in inverse]
    weights = np.asarray(rng.weights, dtype=np.float64) * np.array([rep_factor[c] for c in inverse])
    return equities, weights, exact


# --------------------------------------------------------------------------
# Street by street
# --------------------------------------------------------------------------

@dataclass(eq=False)
class StreetResult:
    """One street of :func:`equity_by_street`: its name, the cards known then
    (``board``; stud: ``hands``) and the :class:`EquityResult` at that point."""

    street: str
    hands: list[str]
    board: str
    result: EquityResult

    @property
    def equities(self) -> list[float]:
        return self.result.equities

    def to_dict(self) -> dict:
        return {"street": self.street, "hands": list(self.hands), "board": self.board,
                "result": self.result.to_dict()}


def equity_by_street(game, hands, board="", dead="", *, exact=None, samples=None,
                     stderr=None, seed=None, threads=None) -> list[StreetResult]:
    """The equity on every street of a deal (the "unroll"): before the flop, on the
    flop, turn and river (Courchevel: from the exposed card); stud: each player's
    first 3, 4, ... cards up to the cards given.  Streets stop at the cards known.

    >>> [s.street for s in equity_by_street("holdem", ["AhAd", "7c8c"], "2c9cKdTh5s")]
    ['preflop', 'flop', 'turn', 'river']
    """
    spot = parse_spot(game, hands, board, dead)
    g = spot.game
    kw = dict(exact=exact, samples=samples, stderr=stderr, seed=seed, threads=threads)
    out = []
    if g.stud:
        if spot.ranged:
            raise HandError(f"{g.name}: equity_by_street takes exact stud hands, not ranges")
        held = len(spot.holes[0])
        for s in range(3, held + 1):
            shown = [cards_str(h[:s]) for h in spot.holes]
            name = "third street" if s == 3 else _STUD_STREETS[s]
            out.append(StreetResult(name, shown, "", _equity(g.name, shown, "",
                                                             cards_str(spot.dead), **kw)))
        return out
    sizes = [(g.min_board, "preflop")] + [(s, _STREETS[s]) for s in (3, 4, 5)]
    for size, name in sizes:
        if size > len(spot.board):
            break
        cut = cards_str(spot.board[:size])
        out.append(StreetResult(name, list(spot.hand_text), cut,
                                _equity(g.name, list(hands), cut, dead, **kw)))
    return out


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
    cells = _cells_table(g, n)
    batches = []
    done = 0
    while done < total:
        size = min(SAMPLE_BATCH, total - done)
        holes, boards = sampled_rows(spot, size, rng)
        hv, lv = row_values(spot, (holes, boards))
        cell = _pair_cells(g, hv, lv)
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
    unit = 2 * lcm_upto(n)
    players = []
    for p in range(n):
        s1, s2 = table[:, 1 + 4 * p] / unit, table[:, 2 + 4 * p] / unit ** 2
        eq = s1 / count
        overall = s1.sum() / total
        var = max(s2.sum() / total - overall ** 2, 0.0)
        players.append(_player(spot, p, eq, table[:, 3 + 4 * p] / count,
                               table[:, 4 + 4 * p] / count, weights, None,
                               math.sqrt(var / max(total - 1, 1))))
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
