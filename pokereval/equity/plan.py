"""The plan of an equity run, as a value: :func:`plan` ``(spot, options) ->`` :class:`Plan`
(exact or sampled, walked in C or in the Numba kernels, how many samples or to what
standard error, how big the batches are, and why), and the one cost model it uses.

:func:`plan` is a pure function of its arguments (the spot, the options and, with
ranges, the count of compatible combinations of holdings the caller listed): no route
depends on what the process ran before, so the routing is tested by calling it, never
by patching globals.  The runners execute a Plan and never decide again.

>>> from pokereval.equity.options import parse_options
>>> from pokereval.equity.spot import parse_spot
>>> flop = parse_spot("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h", "")
>>> p = plan(flop, parse_options(None, None, None, None, None, None))
>>> p.method, p.backend
('exact', 'c')
>>> p = plan(flop, parse_options(None, 10_000, None, 1, None, None))
>>> p.method, p.backend, p.samples, p.stderr
('sample', 'numba', 10000, None)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from math import comb

from ..errors import HandError
from .options import DEFAULT_MAX_SAMPLES, DEFAULT_STDERR, MAX_SAMPLES, Options
from .spot import Spot

__all__ = ["Plan", "plan", "combinations_to_list", "exact_cost_ns", "tuple_cost_ns",
           "check_exact_cost", "is_small", "rank_walk_ns", "rank_units", "walk_cost_ns",
           "C_RANGED_WALKS", "METHODS", "BACKENDS", "AUTO_EXACT_SECONDS", "MAX_EXACT_SECONDS",
           "SMALL_EXACT", "MAX_TUPLES", "SCAN_TUPLES",
           "BATCH_SECONDS"]

#: How a run computes the equity.
METHODS = ("exact", "sample")
#: Where its showdowns are computed (:mod:`pokereval.equity.backends`).
BACKENDS = ("c", "numba")

#: ``equity`` enumerates when the estimated single-core time is below this (seconds).
AUTO_EXACT_SECONDS = 2.0
#: ``exact=True`` is refused when the estimated single-core time is above this (seconds):
#: an enumeration of days is a mistake, and the kernels count run-outs in int64.
MAX_EXACT_SECONDS = 3600.0
#: Exact stud spots with at most this many (run-out x player) evaluations run in C, no
#: Numba (fixed-hand board spots always run in C: the walk by board rank multisets).
SMALL_EXACT = 40_000
#: A board-game range spot's suit classes are counted for the auto choice (the plan's
#: ``walks``) only when it has at most this many compatible combinations.
C_RANGED_WALKS = 4096
#: Most holding combinations a range spot enumerates (exact with ranges).
MAX_TUPLES = 20_000_000
#: Auto plan: holding combinations are listed (to count the compatible ones)
#: only when their product is at most this.
SCAN_TUPLES = 20_000_000
#: Wall-clock goal for one batch (seconds): a progress callback / Ctrl-C point after each.
BATCH_SECONDS = 0.3

# Estimated single-core nanoseconds, used for the auto choice and batch sizes.
NS_BOARD = 20.0
NS_PLAYER = {2: 15.0, 4: 25.0, 5: 28.0}  # per player per board, by hole cards
NS_STUD_VISIT = 2.5  # per subset looked at by the stud walk
NS_STUD_PREFIX = 2.0  # per deal of the players but the last (the stud walk's leaves)
NS_TUPLE_STUD = 60_000.0  # per holding tuple of a stud range spot (one exact run each)
#: The C board walk (csrc/board_exact.c) per board rank multiset of the missing cards, and
#: per player of it by hole cards (Omaha: every two hole cards with every three board
#: cards; flushes: the patterns of suited cards, counted by binomials).
NS_RANK_UNIT = 40.0
NS_RANK_PLAYER = {2: 70.0, 4: 80.0, 5: 130.0}
#: The C walk of a combination of holdings (players given as ranges): its set-up, and per
#: board rank multiset a share and one per player by hole cards (the Omaha family reads
#: the pair table: one read per pair of hole cards).
NS_TUPLE = 100.0
NS_TUPLE_UNIT = 15.0
NS_TUPLE_PLAYER = {2: 50.0, 4: 12.0, 5: 15.0}


@dataclass(frozen=True, slots=True)
class Plan:
    """How one equity run goes; made by :func:`plan`, executed by the runners.

    ``method``: "exact" (every run-out) or "sample" (Monte Carlo);
    ``backend``: "c" (the C library, no Numba: every exact fixed-hand board spot, small
    stud spots, every sampled run of fixed-hand stud and of ranges) or "numba" (the
    kernels); ``reason``: why, in words; ``cost_ns``: the estimated single-core
    nanoseconds of the enumeration (players given as ranges: of one combination of
    holdings).
    Exact: ``ns_per_unit``, the estimated nanoseconds of one enumeration index (a board
    rank multiset of the C walk; stud: a shared card x the first player's cards; ranged:
    a combination x run-out, stud ranged: a combination), which with ``batch_seconds``
    sizes the batches.
    Sample: ``samples``, the most samples (None: no count, :data:`MAX_SAMPLES`);
    ``stderr``: stop once every player's standard error is at most this.
    """

    method: str
    backend: str
    reason: str
    cost_ns: float = 0.0
    ns_per_unit: float = 1.0
    batch_seconds: float = BATCH_SECONDS
    samples: int | None = None
    stderr: float | None = None

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, got {self.backend!r}")

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    @property
    def sample_budget(self) -> int:
        """The most samples a sampled run draws."""
        return self.samples if self.samples is not None else MAX_SAMPLES

    @property
    def counted(self) -> bool:
        """Whether a sampled run's progress is a known fraction of a fixed count."""
        return self.samples is not None and self.stderr is None

    def units_per_batch(self, threads: int = 1) -> int:
        """Exact: enumeration indices per batch of about ``batch_seconds`` on ``threads``."""
        return max(1, int(self.batch_seconds * 1e9 * threads / self.ns_per_unit))


# --------------------------------------------------------------------------
# The cost model
# --------------------------------------------------------------------------

def exact_cost_ns(spot: Spot, runouts: int | None = None) -> float:
    """Estimated single-core nanoseconds to enumerate ``spot`` in the kernels
    (``runouts``: ``spot.runouts``, when known already)."""
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
    if runouts is None:
        runouts = spot.runouts
    per_player = NS_PLAYER.get(spot.game.hole, 20.0)
    cost = runouts * (NS_BOARD + n * per_player)
    if spot.game.exactly_two:
        pairs = comb(spot.game.hole, 2)
        cost += n * min(runouts, 6175) * pairs * 10 * 3.0  # filling the no-flush cache
    return cost


def tuple_cost_ns(spot: Spot) -> float:
    """Estimated single-core nanoseconds to enumerate one combination of holdings of
    a spot with ranges (stud: one exact run of the fixed-hand engine each)."""
    if spot.game.stud:
        return NS_TUPLE_STUD + exact_cost_ns(spot)
    return NS_TUPLE + rank_units(spot) * (NS_TUPLE_UNIT
                                          + spot.n * NS_TUPLE_PLAYER.get(spot.game.hole, 15.0))


def exact_units(spot: Spot) -> int:
    """A fixed-hand stud spot's enumeration indices in the kernels: a shared card, when
    there is one, x the first player's cards (see kernels.stud_tables)."""
    u = len(spot.unseen)
    return (u if spot.shared else 1) * comb(u, spot.mo)


def check_exact_cost(cost_ns: float, what: str) -> None:
    """Refuse an enumeration estimated above MAX_EXACT_SECONDS on one core."""
    if cost_ns > MAX_EXACT_SECONDS * 1e9:
        hours = cost_ns / 3.6e12
        raise HandError(f"exact enumeration of {what} would take about {hours:,.0f} hours on "
                        f"one core, over the limit of {MAX_EXACT_SECONDS / 3600:g} hour; "
                        f"use Monte Carlo (samples=... or stderr=...)")


def rank_units(spot: Spot) -> int:
    """The units of a board-game spot's C walk, at most: the rank multisets of its missing
    board cards (at most the run-outs)."""
    return min(spot.runouts, comb(12 + spot.k, spot.k))


def rank_walk_ns(spot: Spot) -> float:
    """Estimated nanoseconds of the C walk of a fixed-hand board-game spot."""
    return rank_units(spot) * (NS_RANK_UNIT + spot.n * NS_RANK_PLAYER.get(spot.game.hole, 130.0))


def walk_cost_ns(spot: Spot) -> float:
    """Estimated single-core nanoseconds of an exact run of a fixed-hand spot as the plan
    walks it: a board game in C by rank multisets, stud in the kernels (or C, small)."""
    return exact_cost_ns(spot) if spot.game.stud else rank_walk_ns(spot)


def is_small(spot: Spot) -> bool:
    """Whether an exact fixed-hand spot is small enough for the C walk in any case."""
    return spot.runouts * spot.n <= SMALL_EXACT


# the constant ends of the reasons, formatted once (a plan is made for every run)
_AUTO_LIMIT = f" (at most {AUTO_EXACT_SECONDS:g} s)"
_SMALL_LIMIT = f" (at most {SMALL_EXACT:,}): walked in C"


def _seconds(ns: float) -> str:
    return f"about {ns / 1e9:.2g} s on one core"


# --------------------------------------------------------------------------
# The plan
# --------------------------------------------------------------------------

def plan(spot: Spot, options: Options, *, combinations: int | None = None,
         walks: int | None = None) -> Plan:
    """The plan of an equity run of ``spot`` with ``options``.

    A spot with ranges: ``combinations`` is how many compatible combinations of holdings
    a listing of up to :func:`combinations_to_list` found (required when that is not
    None); ``walks``: how many of them an exact board-game run walks, one per
    suit-renaming class (None: not counted; counted when they are at most
    :data:`C_RANGED_WALKS`: the auto choice then weighs the walks).
    Raises :class:`HandError` for an exact run over the limits, or ranges that never fit
    together.
    """
    if spot.ranged:
        return _ranged_plan(spot, options, combinations, walks)
    runouts = spot.runouts
    board = not spot.game.stud
    cost = walk_cost_ns(spot)
    in_c = not board  # a sampled run of fixed-hand stud: in C, always
    if options.exact is True:
        check_exact_cost(cost, f"{runouts:,} run-outs")
        why = "exact=True"
    elif options.samples is None and options.stderr is None:
        if options.exact is None and cost <= AUTO_EXACT_SECONDS * 1e9:
            why = f"enumerating takes about {cost / 1e9:.2g} s on one core{_AUTO_LIMIT}"
        else:
            why = ("exact=False" if options.exact is False else
                   f"enumerating would take {_seconds(cost)} (over {AUTO_EXACT_SECONDS:g} s)")
            return _sampled(f"{why}: sampled", DEFAULT_MAX_SAMPLES, DEFAULT_STDERR, cost, in_c)
    elif options.exact is None and _unreachable_but_cheap(options, cost):
        why = (f"a standard error of {options.stderr:g} is out of reach of sampling; "
               f"enumerating takes {_seconds(cost)}: answered exactly")
    else:
        check_reachable(options)
        return _sampled("sampled as asked", options.samples, options.stderr, cost, in_c)

    if board:
        units = rank_units(spot)
        return Plan("exact", "c", f"{why}; {runouts:,} run-outs in at most {units:,} board rank "
                    f"multisets: walked in C", cost, max(cost, 1.0) / units)
    ns_per_unit = max(cost, 1.0) / exact_units(spot)
    work = runouts * spot.n
    if work <= SMALL_EXACT:
        return Plan("exact", "c", f"{why}; {work} run-out x player evaluations{_SMALL_LIMIT}",
                    cost, ns_per_unit)
    return Plan("exact", "numba", f"{why}; a bigger stud spot: enumerated in the kernels", cost,
                ns_per_unit)


#: The least spread of one sample's pot share that a target's estimate assumes (a
#: standard deviation of 0.1): a target that needs more than the sample cap even at this
#: spread is refused up front, whatever the spot.
LEAST_VARIANCE = 0.01


def _needed_samples(options: Options) -> float | None:
    """The fewest samples a ``stderr`` target alone needs (at the least spread above);
    None with no target, or with a sample cap given too (the run then stops at whichever
    comes first, as asked)."""
    if options.stderr is None or options.samples is not None:
        return None
    return LEAST_VARIANCE / options.stderr ** 2


def stderr_reachable(options: Options) -> bool:
    """False when ``options`` asks for a ``stderr`` no run under MAX_SAMPLES can reach."""
    need = _needed_samples(options)
    return need is None or need <= MAX_SAMPLES


def check_reachable(options: Options) -> None:
    """Refuse a ``stderr`` target that no run under the sample cap can reach (a run would
    sample for hours and stop at the cap short of it)."""
    need = _needed_samples(options)
    if need is not None and need > MAX_SAMPLES:
        raise HandError(f"stderr={options.stderr:g} is out of reach: it needs about {need:.2g} "
                        f"samples or more, over the limit of {MAX_SAMPLES:,} per run; ask for "
                        f"stderr >= {math.sqrt(LEAST_VARIANCE / MAX_SAMPLES):.0e}, or exact=True",
                        field="option")


def _unreachable_but_cheap(options: Options, cost: float) -> bool:
    """A ``stderr`` target out of reach on a spot cheap to enumerate: the exact answer
    is quicker and better than any sampled one."""
    need = _needed_samples(options)
    return need is not None and need > MAX_SAMPLES and cost <= AUTO_EXACT_SECONDS * 1e9


def _sampled(why: str, samples: int | None, stderr: float | None, cost: float,
             in_c: bool = False, ranges: bool = False) -> Plan:
    """A sampled plan; ``in_c``: fixed-hand stud, always sampled in C (csrc/stud_mc.c);
    ``ranges``: players given as ranges, always sampled in C (csrc/ranged_mc.c)."""
    target = []
    if stderr is not None:
        target.append(f"to a standard error of {stderr:g}")
    target.append(f"at most {samples:,} samples" if samples is not None else
                  f"at most {MAX_SAMPLES:,} samples (no count given)")
    where = "in C" if in_c or ranges else "in the kernels"
    return Plan("sample", "c" if in_c or ranges else "numba", f"{why} {', '.join(target)}, {where}", cost,
                samples=samples, stderr=stderr)


def _most_combinations(per_tuple: float) -> int:
    """exact=True with ranges: the most combinations of holdings enumerated (the time
    limit also bounds the list of combinations, its memory)."""
    return min(MAX_TUPLES, max(1, int(MAX_EXACT_SECONDS * 1e9 / per_tuple)))


def _auto_budget(spot: Spot, per_tuple: float) -> int | None:
    """Auto choice with ranges: enumerate when at most this many combinations of holdings
    are compatible; None: too many to list (or even one too slow), sample."""
    budget = int(AUTO_EXACT_SECONDS * 1e9 / per_tuple)
    product = math.prod(1 if r is None else len(r.holdings) for r in spot.ranges)
    return budget if product <= SCAN_TUPLES and budget >= 1 else None


def _auto(options: Options) -> bool:
    return options.samples is None and options.stderr is None and options.exact is None


def combinations_to_list(spot: Spot, options: Options) -> int | None:
    """A spot with ranges: list its compatible combinations of holdings up to this many
    (one more: too many) and pass their count to :func:`plan`; None: no listing (too
    many to look at).  Raises HandError when exact=True is over the time limit even
    for one combination (before any listing)."""
    per_tuple = max(tuple_cost_ns(spot), 1.0)
    if options.exact is True:
        check_exact_cost(per_tuple, f"{spot.runouts:,} run-outs per combination of holdings")
        return _most_combinations(per_tuple)
    if _auto(options):
        budget = _auto_budget(spot, per_tuple)
        if budget is not None:  # a few thousand more: suit classes may walk fewer
            return min(max(budget, C_RANGED_WALKS), MAX_TUPLES)
    product = math.prod(1 if r is None else len(r.holdings) for r in spot.ranges)
    return 0 if product <= SCAN_TUPLES else None  # 0: is any combination possible at all?


def _ranged_plan(spot: Spot, options: Options, combinations: int | None,
                 walks: int | None) -> Plan:
    per_tuple = max(tuple_cost_ns(spot), 1.0)
    wanted = combinations_to_list(spot, options)  # the exact=True time limit, first
    if wanted is not None and combinations is None:
        raise ValueError("the plan of a spot with ranges needs combinations= (the count of "
                         "compatible combinations listed, see combinations_to_list)")
    counted = "" if combinations is None else f"{combinations:,} combinations of holdings, "
    if walks is not None and combinations is not None and walks < combinations:
        counted += f"{walks:,} walks up to suit renaming, "
    walked = walks if walks is not None else combinations  # what an exact run walks
    cost = tuple_cost_ns(spot)
    if options.exact is True:
        most = _most_combinations(per_tuple)
        assert combinations is not None
        if combinations > most:
            raise HandError(f"too many combinations of holdings to enumerate (more than "
                            f"{most:,}, about {MAX_EXACT_SECONDS / 3600:g} hour on one core"
                            f"{'' if most < MAX_TUPLES else ' or the limit of memory'}); "
                            f"use Monte Carlo (samples=... or stderr=...)")
        exact, why = True, "exact=True"
    elif _auto(options):
        budget = _auto_budget(spot, per_tuple)
        exact = budget is not None and walked is not None and walked <= budget
        why = (f"{counted}each {_seconds(cost)}"
               + (f": enumerating takes at most {AUTO_EXACT_SECONDS:g} s" if exact else
                  f": enumerating would take over {AUTO_EXACT_SECONDS:g} s"))
    else:
        exact, why = False, "sampled as asked"
    if combinations == 0:
        raise HandError("no combination of the players' holdings is possible: "
                        + ", ".join(f"player {i + 1} ({t})" for i, t in enumerate(spot.hand_text)
                                    if spot.ranges[i] is not None)
                        + " always share a card with another player")
    if not exact:
        if options.samples is None and options.stderr is None:
            # the engine's own target, as with fixed hands (exact=False alone used to
            # sample with no target at all, up to MAX_SAMPLES)
            label = "exact=False" if options.exact is False else why
            return _sampled(f"{label}: sampled", DEFAULT_MAX_SAMPLES, DEFAULT_STDERR, cost,
                            ranges=True)
        check_reachable(options)
        return _sampled(why, options.samples, options.stderr, cost, ranges=True)
    if spot.game.stud:  # one exact run of the fixed-hand engine per combination
        small = is_small(spot)  # every combination has the spot's run-outs and players
        return Plan("exact", "c" if small else "numba",
                    f"{why}; each combination walked " + ("in C" if small else "in the kernels"),
                    cost, per_tuple)
    return Plan("exact", "c", f"{why}; each combination walked in C by board rank multisets",
                cost, per_tuple)
