"""The plain equity run of a parsed spot: :func:`run` (no board range, no breakdown;
those are above, in :mod:`pokereval.board_range` and :mod:`pokereval.breakdown`).

Small exact spots (a flop, a turn, a river) are walked by the C library in one batch
call, without importing Numba (a second process answers them in well under a
second); so is a process's first bigger fixed-hand board spot while the kernels are
not loaded, when the C walk is shorter than loading Numba would be; everything else
runs in the Numba kernels (:class:`Runner`, :class:`RangedRunner`).
"""
from __future__ import annotations

from dataclasses import replace

from .backends.c import small_exact
from .options import DEFAULT_MAX_SAMPLES, DEFAULT_STDERR, Options
from .plan import AUTO_EXACT_SECONDS, check_exact_cost, exact_cost_ns, walk_in_c
from .ranged import RangedRunner, whole_weights
from .results import EquityResult
from .runner import Runner, fixed_exact_counts
from .spot import Spot

__all__ = ["run", "Runner", "RangedRunner", "whole_weights", "fixed_exact_counts"]


def run(spot: Spot, opts: Options, started: float) -> EquityResult:
    """The equity of ``spot`` (exact or sampled as ``opts`` and the cost model say);
    ``started``: the ``time.perf_counter()`` the request arrived at (for ``elapsed``)."""
    if spot.ranged:
        return RangedRunner(spot, opts, started).run()
    if opts.exact is True:
        use_exact = True
    elif opts.samples is None and opts.stderr is None:
        use_exact = opts.exact is None and exact_cost_ns(spot) <= AUTO_EXACT_SECONDS * 1e9
        if not use_exact:
            opts = replace(opts, stderr=DEFAULT_STDERR, samples=DEFAULT_MAX_SAMPLES)
    else:
        use_exact = False

    if use_exact:
        check_exact_cost(exact_cost_ns(spot), f"{spot.runouts:,} run-outs")
    runner = Runner(spot, opts, started)
    if use_exact:
        if walk_in_c(spot):
            return runner.finish(small_exact(spot), exact=True)
        return runner.run_exact()
    return runner.run_mc()
