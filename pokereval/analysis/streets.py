"""A finished deal, street by street: the equity before the flop, on the flop, turn
and river (stud: on each street), each from the cards known then (the "unroll")."""
from __future__ import annotations

from dataclasses import dataclass

from ..cards import cards_str
from ..equity.results import EquityResult
from ..equity.plan import check_exact_cost
from ..equity.spot import parse_spot
from ..errors import HandError
from .common import STREETS, STUD_STREETS, exact_run_ns, plain_equity

__all__ = ["StreetResult", "equity_by_street"]


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
        if exact is True:  # every street's walk, against the one-hour limit together
            check_exact_cost(sum(exact_run_ns(parse_spot(g, [cards_str(h[:s]) for h in spot.holes],
                                                         "", cards_str(spot.dead)))
                                 for s in range(3, held + 1)), f"{held - 2} streets")
        for s in range(3, held + 1):
            shown = [cards_str(h[:s]) for h in spot.holes]
            name = "third street" if s == 3 else STUD_STREETS[s]
            out.append(StreetResult(name, shown, "", plain_equity(g.name, shown, "",
                                                                  cards_str(spot.dead), **kw)))
        return out
    sizes = [(g.min_board, "preflop")] + [(s, STREETS[s]) for s in (3, 4, 5)]
    if exact is True:
        shown = [(size, name) for size, name in sizes if size <= len(spot.board)]
        check_exact_cost(sum(exact_run_ns(parse_spot(g, list(hands), cards_str(spot.board[:size]),
                                                     dead)) for size, _ in shown),
                         f"{len(shown)} streets")
    for size, name in sizes:
        if size > len(spot.board):
            break
        cut = cards_str(spot.board[:size])
        out.append(StreetResult(name, list(spot.hand_text), cut,
                                plain_equity(g.name, list(hands), cut, dead, **kw)))
    return out
