"""What the analyses share: one plain equity run and the names of the streets."""
from __future__ import annotations

import math
import time

from ..equity.options import parse_options
from ..equity.plan import tuple_cost_ns, walk_cost_ns
from ..equity.results import EquityResult
from ..equity.run import run
from ..equity.spot import parse_spot

__all__ = ["STREETS", "STUD_STREETS", "plain_equity", "exact_run_ns"]

#: Board size -> the street it completes.
STREETS = {3: "flop", 4: "turn", 5: "river"}
#: Stud: the cards each player holds -> the street that dealt the last of them.
STUD_STREETS = {4: "fourth street", 5: "fifth street", 6: "sixth street", 7: "seventh street"}


def exact_run_ns(spot) -> float:
    """Estimated single-core nanoseconds of one exact run of ``spot`` (players given as
    ranges: every combination of their holdings, less the most the suit classes save)."""
    if not spot.ranged:
        return walk_cost_ns(spot)
    combos = math.prod(len(r.holdings) for r in spot.ranges if r is not None)
    return tuple_cost_ns(spot) * max(combos / 24, 1)


def plain_equity(game, hands, board, dead, *, exact=None, samples=None, stderr=None,
                 seed=None, threads=None) -> EquityResult:
    """:func:`pokereval.equity` of a spot of plain cards (no board range, no breakdown),
    run on the core directly (the analyses never call the front door).

    Ctrl-C inside the run raises KeyboardInterrupt (the core would return the partial
    result: an analysis made of many runs has no partial answer to give, and must stop,
    not go on to the next run)."""
    started = time.perf_counter()
    spot = parse_spot(game, hands, board, dead)
    result = run(spot, parse_options(exact, samples, stderr, seed, threads, None), started)
    if result.partial:
        raise KeyboardInterrupt
    return result

