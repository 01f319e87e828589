"""A player given as a range, holding by holding: each holding's equity against the
other players, best first (the range-equity curve solvers show).

Board games walk every combination and run-out in one kernel when cheap
(:mod:`.scatter`); otherwise one equity run per holding (or per suit-isomorphic
class: :func:`pokereval.suits.class_keys`), exact when cheap, else sampled.
"""
from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..cards import cards_str, holdings_str
from ..equity.options import parse_options
from ..equity.plan import AUTO_EXACT_SECONDS, check_exact_cost, tuple_cost_ns, walk_cost_ns
from ..equity.spot import Spot, parse_spot
from ..equity.tally import lcm_upto
from ..errors import HandError
from ..suits import class_keys, is_symmetric
from .common import plain_equity
from .scatter import run_scatter, scatter_plan

__all__ = ["HoldingEquity", "RangeEquities", "range_equities", "DEAL_SAMPLE_BUDGET",
           "MIN_DEAL_SAMPLES", "MAX_DEAL_SAMPLES"]

#: Per-holding runs of range_equities: samples in all when not exact.
DEAL_SAMPLE_BUDGET = 4_000_000
MIN_DEAL_SAMPLES, MAX_DEAL_SAMPLES = 2_000, 200_000


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
                 and all(is_symmetric(spot.ranges[i].holdings, spot.ranges[i].weights)
                         for i in ranged if i != player))
    if classes and not can_merge:
        raise HandError("suit classes need a spot without known cards where every other "
                        "player is a suit-symmetric range")
    merge = can_merge if classes is None else bool(classes)
    rows = np.asarray(spot.ranges[player].holdings)
    planned = None
    if opts.exact is not False and opts.samples is None and not spot.game.stud:
        planned = scatter_plan(spot, opts.exact is True, 0)
    if planned is not None:
        eq_num, weight, exact_run = _holdings_by_scatter(spot, opts, player, planned)
        fractions = [Fraction(int(a), int(b)) for a, b in zip(*eq_num)]
    else:
        fractions, weight, exact_run = _holdings_by_run(spot, opts, player, rows, merge)
    eq = np.array([float(f) for f in fractions])
    weight = np.asarray(weight, dtype=np.float64)
    keep = weight > 0
    keys = class_keys(rows) if merge else np.arange(len(rows))
    # one pass over the holdings (a loop over classes scanning all of them was quadratic)
    kept = np.nonzero(keep)[0]
    _, first_of, inverse, combos = np.unique(keys[kept], return_index=True,
                                              return_inverse=True, return_counts=True)
    class_weight = np.bincount(inverse.ravel(), weights=weight[kept], minlength=len(combos))
    firsts = kept[first_of]
    out = [HoldingEquity(text, e, w, c, fractions[first] if exact_run else None)
           for text, first, e, w, c in zip(holdings_str(rows[firsts].tolist()), firsts.tolist(),
                                           eq[firsts].tolist(), class_weight.tolist(),
                                           combos.tolist())]
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
    acc, den = run_scatter(spot, opts, 0, planned)
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
    keys = class_keys(rows) if merge else np.arange(len(rows))
    _, first_of, inverse = np.unique(keys, return_index=True, return_inverse=True)

    def hands_with(h):
        return [cards_str(rows[h].tolist()) if q == player else t
                for q, t in enumerate(spot.hand_text)]

    others_ranged = sum(1 for q, r in enumerate(spot.ranges) if r is not None and q != player)
    probe = parse_spot(spot.game, hands_with(int(first_of[0])), cards_str(spot.board),
                       cards_str(spot.dead))
    if probe.ranged:  # every combination of the others' holdings, less the suit classes
        combos = math.prod(len(r.holdings) for r in probe.ranges if r is not None)
        per_run_ns = tuple_cost_ns(probe) * max(combos / 24, 1) + 300_000
    else:
        per_run_ns = walk_cost_ns(probe) + 300_000
    if opts.exact is True:
        check_exact_cost(len(first_of) * per_run_ns, f"{len(first_of):,} holdings of player "
                         f"{player + 1}, one exact run each")
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
            r = plain_equity(spot.game, hands_with(h), cards_str(spot.board),
                             cards_str(spot.dead), threads=opts.threads, **kw)
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
