"""What the analyses share: one plain equity run and the names of the streets."""
from __future__ import annotations

import time

from ..equity.options import parse_options
from ..equity.results import EquityResult
from ..equity.run import run
from ..equity.spot import parse_spot

__all__ = ["STREETS", "STUD_STREETS", "plain_equity"]

#: Board size -> the street it completes.
STREETS = {3: "flop", 4: "turn", 5: "river"}
#: Stud: the cards each player holds -> the street that dealt the last of them.
STUD_STREETS = {4: "fourth street", 5: "fifth street", 6: "sixth street", 7: "seventh street"}


def plain_equity(game, hands, board, dead, *, exact=None, samples=None, stderr=None,
                 seed=None, threads=None) -> EquityResult:
    """:func:`pokereval.equity` of a spot of plain cards (no board range, no breakdown),
    run on the core directly (the analyses never call the front door)."""
    started = time.perf_counter()
    spot = parse_spot(game, hands, board, dead)
    return run(spot, parse_options(exact, samples, stderr, seed, threads, None), started)

