"""The cost model of an equity run: estimated single-core time of an enumeration,
the exact-or-sample limits, and whether an exact board spot is walked in C.
"""
from __future__ import annotations

from math import comb

from ..errors import HandError
from .backends import numba as numba_backend
from .spot import Spot

__all__ = ["exact_cost_ns", "check_exact_cost", "walk_in_c", "is_small", "AUTO_EXACT_SECONDS",
           "MAX_EXACT_SECONDS", "SMALL_EXACT", "C_WALK_SECONDS", "MAX_TUPLES", "SCAN_TUPLES"]

#: ``equity`` enumerates when the estimated single-core time is below this (seconds).
AUTO_EXACT_SECONDS = 2.0
#: ``exact=True`` is refused when the estimated single-core time is above this (seconds):
#: an enumeration of days is a mistake, and the kernels count run-outs in int64.
MAX_EXACT_SECONDS = 3600.0
#: Exact spots with at most this many (run-out x player) evaluations run in C, no Numba.
SMALL_EXACT = 40_000
#: A process's first bigger exact board spot also runs in C (one thread) while the
#: kernels are not loaded, if the walk is estimated under this (seconds): importing
#: Numba and loading the kernels takes about 0.4 s before they compute anything.  Later
#: ones load the kernels (parallel, faster for a batch or a server).
C_WALK_SECONDS = 0.3
#: Most holding combinations a range spot enumerates (exact with ranges).
MAX_TUPLES = 20_000_000
#: Auto plan: holding combinations are listed (to count the compatible ones)
#: only when their product is at most this.
SCAN_TUPLES = 20_000_000

# Estimated single-core nanoseconds, used for the auto choice and batch sizes.
NS_BOARD = 20.0
NS_PLAYER = {2: 15.0, 4: 25.0, 5: 28.0}  # per player per board, by hole cards
NS_STUD_VISIT = 2.5  # per subset looked at by the stud walk
NS_STUD_PREFIX = 2.0  # per deal of the players but the last (the stud walk's leaves)
NS_RANGED_PLAYER = 30.0  # per ranged-kernel player per board
NS_TUPLE_STUD = 60_000.0  # per holding tuple of a stud range spot (one exact run each)
#: The C walk per run-out and player, by hole cards.
NS_C_PLAYER = {2: 10.0, 4: 80.0, 5: 110.0}

_c_walked = False  # has this process walked a bigger spot in C?


def exact_cost_ns(spot: Spot) -> float:
    """Estimated single-core nanoseconds to enumerate ``spot`` in the kernels."""
    n = spot.n
    if spot.game.stud:
        u = len(spot.unseen)
        mo = spot.mo
        ncomb = comb(u, mo)
        outer = (u if spot.shared else 1) * ncomb
        # depth-first walk over players 0 .. n - 2 (kernels.stud_walk): below each deal
        # of the players before, the next player's subsets are looked at (with one
        # card each, only the free cards; else every subset, the colliding ones
        # rejected); the last player's subsets are only classed and counted
        visits = outer
        prefixes = (u if spot.shared else 1) * comb(u - spot.shared, mo)
        left = u - spot.shared - mo
        for level in range(n - 1):
            visits += prefixes * (left if mo == 1 else ncomb)
            if level < n - 2:
                prefixes *= comb(left, mo)
                left -= mo
        return visits * NS_STUD_VISIT + prefixes * NS_STUD_PREFIX + outer * n * 40.0
    per_player = NS_PLAYER.get(spot.game.hole, 20.0)
    cost = spot.runouts * (NS_BOARD + n * per_player)
    if spot.game.exactly_two:
        pairs = comb(spot.game.hole, 2)
        cost += n * min(spot.runouts, 6175) * pairs * 10 * 3.0  # filling the no-flush cache
    return cost


def check_exact_cost(cost_ns: float, what: str) -> None:
    """Refuse an enumeration estimated above MAX_EXACT_SECONDS on one core."""
    if cost_ns > MAX_EXACT_SECONDS * 1e9:
        hours = cost_ns / 3.6e12
        raise HandError(f"exact enumeration of {what} would take about {hours:,.0f} hours on "
                        f"one core, over the limit of {MAX_EXACT_SECONDS / 3600:g} hour; "
                        f"use Monte Carlo (samples=... or stderr=...)")


def is_small(spot: Spot) -> bool:
    """Whether an exact fixed-hand spot is small enough for the C walk in any case."""
    return spot.runouts * spot.n <= SMALL_EXACT


def walk_in_c(spot: Spot) -> bool:
    """Whether an exact fixed-hand spot is walked in C (one call, no progress calls)
    rather than in the kernels: small spots always; the process's first board spot up
    to ``C_WALK_SECONDS`` of C if the kernels are not loaded."""
    global _c_walked
    work = spot.runouts * spot.n
    if work <= SMALL_EXACT:
        return True
    if (_c_walked or spot.game.stud or numba_backend.loaded()
            or work * NS_C_PLAYER.get(spot.game.hole, 110.0) > C_WALK_SECONDS * 1e9):
        return False
    _c_walked = True
    return True
