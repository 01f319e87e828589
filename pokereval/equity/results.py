"""Equity results: :class:`EquityResult` and :class:`PlayerResult`, built from
integer outcome counts (the cells: :mod:`pokereval.equity.tally`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from .tally import lcm_upto, share_units

if TYPE_CHECKING:
    from .spot import Spot

__all__ = ["EquityResult", "PlayerResult", "player_results"]


@dataclass(eq=False)
class PlayerResult:
    """One player's result; every number derives from :attr:`outcomes`.

    ``outcomes[row, col]``: run-outs (or samples) by high result (row 0 lost,
    1 won alone, k + 1 tied with k others) and low result (col 0 no qualifying
    low, 1 lost, 2 won alone, k + 2 tied with k others).  High-only games put
    everything in column 0; razz (one pot, won by the low) everything in row 0.
    """

    hand: str
    equity: float
    high_win: float
    high_tie: float
    low_win: float
    low_tie: float
    scoop: float
    std_error: float
    outcomes: np.ndarray = field(repr=False)
    pot: str = field(default="high", repr=False)  # Game.pot: "high", "split" or "razz"
    exact: bool = field(default=False, repr=False)
    fraction: Fraction | None = field(default=None, repr=False)
    #: ``equity(..., breakdown=True)``: hand types won / tied / lost (pokereval.breakdown)
    breakdown: dict | None = field(default=None, repr=False)

    def _p(self, count: Any) -> float:
        if self.outcomes.dtype.kind == "f":
            total = float(self.outcomes.sum())
            return float(count) / total if total else float("nan")
        total = int(self.outcomes.sum())
        # int / int is correctly rounded in Python: the float of the exact fraction
        return int(count) / total if total else float("nan")

    @property
    def three_quarters(self) -> float:
        """P(won one half alone and tied the other half with exactly one other player)."""
        if self.pot != "split":
            return 0.0
        o = self.outcomes
        return self._p(o[1, 3] + o[2, 2]) if o.shape[0] > 2 else 0.0

    @property
    def quartered(self) -> float:
        """P(tied the low with exactly one other player: a quarter of the pot from that half)."""
        if self.pot != "split":
            return 0.0
        return self._p(self.outcomes[:, 3].sum()) if self.outcomes.shape[1] > 3 else 0.0

    @property
    def no_low(self) -> float:
        """P(no qualifying low) in hi/lo games; 0 in games without an eight-or-better low."""
        if self.pot != "split":
            return 0.0
        return self._p(self.outcomes[:, 0].sum())

    @property
    def equity_fraction(self) -> Fraction | None:
        """The exact equity as a Fraction (None for Monte Carlo or partial results)."""
        return self.fraction

    def to_dict(self) -> dict:
        frac = self.equity_fraction
        out = {
            "hand": self.hand,
            "equity": self.equity,
            "high_win": self.high_win,
            "high_tie": self.high_tie,
            "low_win": self.low_win,
            "low_tie": self.low_tie,
            "scoop": self.scoop,
            "std_error": self.std_error,
            "three_quarters": self.three_quarters,
            "quartered": self.quartered,
            "no_low": self.no_low,
            "outcomes": self.outcomes.tolist(),
            "equity_fraction": None if frac is None else f"{frac.numerator}/{frac.denominator}",
        }
        if self.breakdown is not None:
            out["breakdown"] = self.breakdown
        return out


@dataclass(eq=False)
class EquityResult:
    """The answer of :func:`equity`.

    ``exact``: every run-out was walked (``samples`` = run-outs walked) or
    sampled (``samples`` = samples drawn).  ``partial``: the run stopped early
    (Ctrl-C) or this is an intermediate result given to a progress callback.
    Extra attributes: ``seed`` (Monte Carlo seed used; also in :meth:`to_dict`),
    ``fraction_done`` (0..1, None when unknown, e.g. running to a stderr target),
    ``acceptance`` (players given as ranges, else None: Monte Carlo, the share of
    draws of the listed ranges' holdings that shared no card -- 1.0 when at most
    one range is drawn from a list, random hands being dealt; exact, the weight
    share of the holding combinations that share no card).

    With ranges, ``hands`` holds each range's text; exact ``samples`` counts the
    (holding combination, run-out) pairs walked, and ``outcomes`` are counted
    with the combination's weight (the product of the players' weights, scaled
    to the smallest whole numbers), so every derived number is weighted.
    """

    game: str
    hands: list[str]
    board: str
    dead: str
    exact: bool
    samples: int
    partial: bool
    elapsed: float
    players: list[PlayerResult]
    seed: int | None = field(default=None, repr=False)
    fraction_done: float | None = field(default=None, repr=False)
    acceptance: float | None = field(default=None, repr=False)

    @property
    def equities(self) -> list[float]:
        return [p.equity for p in self.players]

    def to_dict(self) -> dict:
        """A JSON-ready dict with stable field names."""
        out = {
            "game": self.game,
            "hands": list(self.hands),
            "board": self.board,
            "dead": self.dead,
            "exact": self.exact,
            "samples": self.samples,
            "partial": self.partial,
            "seed": self.seed,
            "elapsed": self.elapsed,
            "players": [p.to_dict() for p in self.players],
        }
        if self.acceptance is not None:  # players given as ranges
            out["acceptance"] = self.acceptance
        return out


def player_results(spot: "Spot", counts: np.ndarray, exact: bool, final: bool) -> list[PlayerResult]:
    """PlayerResults from outcome counts ``int64[n, n + 1, n + 2]``."""
    n = spot.n
    pot = spot.game.pot
    units = share_units(pot, n)
    denom_unit = 2 * lcm_upto(n)
    units_list = units.ravel().tolist()
    out = []
    for p in range(n):
        exact_frac = True
        o = np.asarray(counts[p])
        if o.dtype.kind != "f":
            o = o.astype(np.int64)
        else:  # weighted counts too large for int64: floats, no exact fraction
            exact_frac = False
        total = sum(o.ravel().tolist()) if exact_frac else float(o.sum())
        if total == 0:
            nan = float("nan")
            out.append(PlayerResult(spot.hand_text[p], nan, nan, nan, nan, nan, nan, nan,
                                    o.copy(), pot, exact, None))
            continue
        if exact_frac:
            num = sum(x * u for x, u in zip(o.ravel().tolist(), units_list))
            frac = Fraction(num, int(total) * denom_unit)

            def pr(c: Any) -> float:  # int / int is correctly rounded: the float of the exact fraction
                return int(c) / total
        else:
            frac = float((o * units).sum()) / (total * denom_unit)  # type: ignore[assignment]

            def pr(c: Any) -> float:
                return float(c) / total

        # sums over Python lists: a few small NumPy reductions cost more than the
        # whole C walk of a flop spot
        if exact_frac:
            cells = o.tolist()
            high_win = pr(sum(cells[1]))
            high_tie = pr(sum(sum(r) for r in cells[2:]))
            low_win = pr(sum(r[2] for r in cells))
            low_tie = pr(sum(sum(r[3:]) for r in cells))
        else:
            high_win = pr(o[1, :].sum())
            high_tie = pr(o[2:, :].sum())
            low_win = pr(o[:, 2].sum())
            low_tie = pr(o[:, 3:].sum())
        if pot == "split":
            scoop = pr(o[1, 0] + o[1, 2])
        elif pot == "razz":
            scoop = low_win
        else:
            scoop = high_win
        if exact:
            std_error = 0.0
        else:
            share = units.astype(np.float64) / denom_unit
            mean = float((o * share).sum()) / total
            second = float((o * share * share).sum()) / total
            var = max(second - mean * mean, 0.0)
            std_error = math.sqrt(var / (total - 1)) if total > 1 else float("inf")
        out.append(PlayerResult(spot.hand_text[p], float(frac), high_win, high_tie, low_win,
                                low_tie, scoop, std_error, o.copy(), pot, exact,
                                frac if (exact and final and exact_frac) else None))
    return out


