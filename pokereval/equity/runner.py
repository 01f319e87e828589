"""Running a fixed-hand spot as its :class:`~pokereval.equity.plan.Plan` says: the C
walk in one call, or exact enumeration or Monte Carlo in the Numba kernels, in batches
(a ``progress`` callback sees partial results between them, Ctrl-C returns what was
computed so far), and the results built from the outcome counts.  Nothing here
chooses between exact and sampled or between C and the kernels: the plan did.
"""
from __future__ import annotations

import secrets
import time

import numpy as np

from ..cards import cards_str
from .backends import c as c_backend
from .backends.numba import parallel, thread_count
from .options import Options
from .plan import BATCH_SECONDS, Plan, rank_walk_ns
from .results import EquityResult, player_results
from .spot import Spot
from .tally import as_outcomes

__all__ = ["Runner", "exact_batches", "fixed_exact_counts", "MC_CHUNK", "MC_BATCHES",
           "BATCH_SECONDS", "MIN_STDERR_SAMPLES"]

#: Monte Carlo samples per chunk (one random stream each); fixed, so results
#: depend on the seed only, never on the thread count.
MC_CHUNK = 4096
#: Chunks per Monte Carlo batch (a progress callback / Ctrl-C point after each).
MC_BATCHES = (4, 8, 16, 32, 64)
#: At least this many samples before a stderr target may stop a run.
MIN_STDERR_SAMPLES = 16_384


class Runner:
    """Runs a spot as ``plan`` says, in batches, and builds results (``opts``: the
    request's seed, threads and progress callback; what to run is the plan's)."""

    def __init__(self, spot: Spot, opts: Options, started: float, plan: Plan | None = None):
        self.spot = spot
        self.opts = opts
        self.started = started
        self.plan = plan
        self.seed: int | None = None
        self.acceptance: float | None = None
        self.units_are_samples = False  # exact with ranges: samples = units walked
        self.units_done = 0

    # -- results ---------------------------------------------------------
    def result(self, counts, exact: bool, partial: bool, fraction_done=None) -> EquityResult:
        spot = self.spot
        if counts is not None:
            counts = as_outcomes(counts)
        if self.units_are_samples:
            samples = self.units_done
        else:
            samples = int(counts[0].sum()) if counts is not None else 0
        if counts is None:
            counts = np.zeros((spot.n, spot.n + 1, spot.n + 2), dtype=np.int64)
        return EquityResult(
            game=spot.game.name,
            hands=list(spot.hand_text),
            board=cards_str(spot.board),
            dead=cards_str(spot.dead),
            exact=exact,
            samples=samples,
            partial=partial,
            elapsed=time.perf_counter() - self.started,
            players=player_results(spot, counts, exact, final=not partial),
            seed=self.seed,
            fraction_done=1.0 if not partial else fraction_done,
            acceptance=self.acceptance,
        )

    def finish(self, counts, exact: bool) -> EquityResult:
        return self.result(counts, exact, partial=False)

    @property
    def planned(self) -> Plan:
        """The plan this runner executes (given to it, or set before running)."""
        if self.plan is None:
            raise ValueError("a Runner executes a Plan: none was given")
        return self.plan

    def execute(self) -> EquityResult:
        """The result of running :attr:`plan`."""
        plan = self.planned
        if plan.method == "sample":
            return self.run_mc()
        if plan.backend == "c":
            if self.spot.game.stud:
                return self.finish(c_backend.small_exact(self.spot), exact=True)
            threads = c_backend.thread_count(self.opts.threads)
            return self.finish(c_backend.board_exact(self.spot, threads, plan.cost_ns), exact=True)
        return self.run_exact()

    # -- batches -----------------------------------------------------------
    def _loop(self, batches, exact: bool, total_hint):
        """Run ``batches(nthreads)`` (an iterator of callables returning ``(counts, units)``,
        each calling parallel kernels, or the C library as the plan says) with progress
        callbacks and Ctrl-C handling; returns the result.  A kernel batch runs through
        :func:`.backends.numba.parallel` (the kernel lock, the thread count); the
        callbacks run outside it."""
        in_c = self.planned.backend == "c"
        nthreads = (c_backend.thread_count if in_c else thread_count)(self.opts.threads)
        counts = None
        done_units = 0
        interrupted = False
        try:
            pending = None
            for batch in batches(nthreads):
                if pending is not None and self.opts.progress is not None:
                    self.opts.progress(pending)
                step_counts, units = batch() if in_c else parallel(batch, threads=nthreads)
                counts = step_counts if counts is None else counts + step_counts
                done_units += units
                self.units_done = done_units
                if self.opts.progress is not None:  # a partial result only for a listener
                    frac = None if total_hint is None else min(done_units / total_hint, 1.0)
                    pending = self.result(counts, exact, partial=True, fraction_done=frac)
        except KeyboardInterrupt:
            interrupted = True
        if interrupted:
            return self.result(counts, exact, partial=True,
                               fraction_done=None if total_hint is None or counts is None
                               else min(done_units / total_hint, 1.0))
        return self.result(counts, exact, partial=False)

    # -- exact -------------------------------------------------------------
    def run_exact(self) -> EquityResult:
        """A bigger stud spot, enumerated in the kernels (board games are walked in C)."""
        from .. import kernels as K

        spot = self.spot
        if not spot.game.stud:
            raise ValueError("board games are enumerated in C: this plan is not one plan() makes")
        KT = K.kernel_tables(boards=False)
        G = K.game_flags(spot.game)
        known = np.array(spot.holes, dtype=np.uint8)
        unseen = np.array(spot.unseen, dtype=np.uint8)
        masks, hv, lv = parallel(K.stud_tables, KT, G, known, unseen, spot.mo, spot.shared,
                                 K.binomials(), threads=thread_count(self.opts.threads))
        total = hv.shape[1] * hv.shape[2]  # outer indices (shared card x player 1's subset)
        shared = spot.shared

        def call(first, count, chunk):
            return K.stud_exact(G, masks, hv, lv, shared, first, count, chunk)

        return self._loop(exact_batches(total, self.planned, call), exact=True, total_hint=total)

    # -- Monte Carlo ---------------------------------------------------------
    def _mc_seed_and_total(self) -> tuple:
        """The run's seed (drawn when not given; kept for the result) and sample budget."""
        opts = self.opts
        seed = opts.seed if opts.seed is not None else secrets.randbits(63)
        self.seed = seed
        return np.uint64(seed), self.planned.sample_budget

    def run_mc(self) -> EquityResult:
        spot = self.spot
        seed, total = self._mc_seed_and_total()
        target = self.planned.stderr
        if spot.game.stud:  # fixed-hand stud: sampled in C, always (csrc/stud_mc.c)
            threads = c_backend.thread_count(self.opts.threads)

            def c_call(first_chunk, nchunks):
                return c_backend.stud_mc(spot, int(seed), first_chunk, nchunks, MC_CHUNK, total,
                                         threads)

            return self._mc_loop(c_call, total, target)
        if self.planned.backend == "c":
            raise ValueError("sampling in C is for stud games only: this plan is not "
                             "one plan() makes")
        from .. import kernels as K

        g = spot.game
        KT = K.kernel_tables(boards=True)
        G = K.game_flags(g)
        who = np.arange(spot.n, dtype=np.int64)
        holes = np.array(spot.holes, dtype=np.uint8)
        H = K.prep_holdings(KT, holes, G.omaha)
        known = np.array(spot.board, dtype=np.uint8)
        deck = np.array(spot.unseen, dtype=np.uint8)
        cache = np.zeros((spot.n if G.omaha else 1, K.BOARD_SLOTS), dtype=np.uint16)
        k = spot.k

        def call(first_chunk, nchunks):
            return K.board_mc(KT, G, H, who, known, deck, k, seed, first_chunk, nchunks,
                              MC_CHUNK, total, cache)

        return self._mc_loop(call, total, target)

    def _mc_loop(self, call, total: int, target: float | None) -> EquityResult:
        """Sample in growing batches of chunks until ``total`` samples are drawn or every
        player's standard error is at most ``target``; ``call(first_chunk, nchunks)``
        returns the outcome counts of those chunks."""
        state = {"counts": None}
        nchunks_total = -(-total // MC_CHUNK)
        timed = self.opts.progress is None
        batch_seconds = self.planned.batch_seconds

        def batches(nthreads):
            first = 0
            step = 0
            while first < nchunks_total:
                counts = state["counts"]
                if target is not None and counts is not None:
                    done = int(counts[0].sum())
                    if done >= MIN_STDERR_SAMPLES and self._max_stderr(counts) <= target:
                        return
                size = MC_BATCHES[min(step, len(MC_BATCHES) - 1)]
                if target is None and timed and "seconds_per_chunk" in state:
                    # a fixed sample count: batches of about BATCH_SECONDS, in whole rounds
                    # of the threads, so each thread's share outlasts the parallel region's
                    # start-up (the answer depends on the chunks only, not on the batches;
                    # a stderr target keeps the fixed schedule: its stopping points stay
                    # the same whatever the machine's speed; so does a progress listener,
                    # which gets the same number of reports on any machine)
                    fit = int(batch_seconds / max(state["seconds_per_chunk"], 1e-9))
                    size = max(size, -(-fit // nthreads) * nthreads)
                size = min(size, nchunks_total - first)

                def run(first=first, size=size):
                    t0 = time.perf_counter()
                    c = call(first, size)
                    state["seconds_per_chunk"] = (time.perf_counter() - t0) / size
                    state["counts"] = c if state["counts"] is None else state["counts"] + c
                    return c, int(c[0].sum())

                yield run
                first += size
                step += 1

        hint = total if self.planned.counted else None
        return self._loop(batches, exact=False, total_hint=hint)

    def _max_stderr(self, counts) -> float:
        players = player_results(self.spot, counts, exact=False, final=False)
        return max(p.std_error for p in players)


def exact_batches(total: int, plan: Plan, call, units=None):
    """``batches(nthreads)`` for :meth:`Runner._loop` over the enumeration indices
    ``[0, total)``: ranges of about the plan's batch seconds, each split into 16
    chunks a thread for the kernel's prange; ``call(first, count, chunk)`` -> counts;
    ``units(f)``: the units done before index f (default f)."""
    def batches(nthreads):
        # the first batch is a short probe (an eighth of the planned size); later ones are
        # sized from the measured time per index, so a batch lasts about the plan's batch
        # seconds on this machine, however loaded (the cost model's constants are a fast
        # machine's: a loaded one is many times slower, and a batch of the planned size
        # could run for seconds between two stop points); the counts add up the same
        planned = plan.units_per_batch(nthreads)
        per_batch = max(1, planned // 8)
        timing = {"seconds": 0.0, "units": 0}
        first = 0
        while first < total:
            count = min(per_batch, total - first)
            chunk = max(1, -(-count // (nthreads * 16)))

            def run(first=first, count=count, chunk=chunk):
                started = time.perf_counter()
                counts = call(first, count, chunk)
                timing["seconds"] += time.perf_counter() - started
                timing["units"] += count
                done = count if units is None else units(first + count) - units(first)
                return counts, done

            yield run
            first += count
            per_unit = timing["seconds"] / max(timing["units"], 1)
            fit = int(plan.batch_seconds / per_unit) if per_unit > 0 else 4 * per_batch
            per_batch = max(1, min(fit, 4 * per_batch, 4 * planned))
    return batches


def fixed_exact_counts(spot: Spot, holes: list[list[int]], threads: int | None = None, *,
                       backend: str) -> np.ndarray:
    """Exact outcome counts of ``spot`` with every player's cards fixed to ``holes``: a
    board game walked in C (on up to ``threads`` threads, None: one), stud by ``backend``
    ("c" or "numba"; ``threads``: the kernels' thread count, None: as it is)."""
    used = {c for h in holes for c in h}
    sub = Spot(spot.game, holes, spot.board, spot.dead, [c for c in spot.unseen if c not in used],
                [cards_str(h) for h in holes], k=spot.k, mo=spot.mo, shared=spot.shared)
    if not sub.game.stud:
        return c_backend.board_exact(sub, threads or 1, rank_walk_ns(sub))
    if backend == "c":
        return c_backend.small_exact(sub)
    from .. import kernels as K

    G = K.game_flags(sub.game)
    masks, hv, lv = parallel(K.stud_tables, K.kernel_tables(), G, np.array(holes, dtype=np.uint8),
                             np.array(sub.unseen, dtype=np.uint8), sub.mo, sub.shared,
                             K.binomials(), threads=threads)
    outer = hv.shape[1] * hv.shape[2]
    return parallel(K.stud_exact, G, masks, hv, lv, sub.shared, 0, outer, max(1, outer // 64),
                    threads=threads)
