"""The plain equity run of a parsed spot: :func:`run` (no board range, no breakdown;
those are above, in :mod:`pokereval.board_range` and :mod:`pokereval.breakdown`).

:func:`run` lists a range spot's compatible combinations of holdings, asks
:func:`~pokereval.equity.plan.plan` for the :class:`~pokereval.equity.plan.Plan`,
and :func:`execute` runs it.  Exact board spots, fixed hands or ranges, are walked by the
C library (by the rank multisets of the missing board cards: heads-up Omaha preflop in
about a millisecond), without importing Numba; so are small stud spots, and Monte Carlo
of stud and of ranges; the rest (Monte Carlo of fixed-hand board spots, bigger exact stud
spots) runs in the Numba kernels (:class:`Runner`, :class:`RangedRunner`).
"""
from __future__ import annotations

from .options import Options
from .plan import C_RANGED_WALKS, Plan, combinations_to_list, plan
from .ranged import RangedRunner, whole_weights
from .results import EquityResult
from .runner import Runner, fixed_exact_counts
from .spot import Spot

__all__ = ["run", "execute", "Runner", "RangedRunner", "whole_weights", "fixed_exact_counts"]


def run(spot: Spot, opts: Options, started: float) -> EquityResult:
    """The equity of ``spot`` (exact or sampled as ``opts`` and the plan say);
    ``started``: the ``time.perf_counter()`` the request arrived at (for ``elapsed``)."""
    if spot.ranged:
        runner = RangedRunner(spot, opts, started)
        wanted = combinations_to_list(spot, opts)
        try:
            tuples = None if wanted is None else runner.compatible_tuples(wanted)
            # few combinations, an exact run possible: how many it walks (one per suit
            # class); a sampled request does not look (a listing of one, to check)
            enumerable = opts.samples is None and opts.stderr is None and opts.exact is not False
            walks = (runner.walks(tuples) if enumerable and tuples is not None
                     and not spot.game.stud and 0 < len(tuples) <= C_RANGED_WALKS else None)
            runner.plan = plan(spot, opts, combinations=None if tuples is None else len(tuples),
                               walks=walks)
            return runner.execute(tuples)
        except KeyboardInterrupt:
            # Ctrl-C while the combinations were listed or prepared (the walk itself
            # returns what it counted): the partial result of nothing counted yet
            exact = runner.plan.exact if runner.plan is not None else opts.exact is not False
            return runner.result(None, exact, partial=True, fraction_done=0.0)
    return execute(spot, opts, plan(spot, opts), started)


def execute(spot: Spot, opts: Options, plan: Plan, started: float) -> EquityResult:
    """Run ``plan`` (of ``spot`` and ``opts``; see :func:`~pokereval.equity.plan.plan`):
    the runners follow it and decide nothing again."""
    if spot.ranged:
        return RangedRunner(spot, opts, started, plan).execute()
    return Runner(spot, opts, started, plan).execute()
