"""The public equity API: the exact / Monte Carlo plan and the runs
(validation is :mod:`pokereval.spot`, results :mod:`pokereval.results`).

>>> from pokereval.equity_api import equity
>>> r = equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], board="7c8d9h", dead="2h")
>>> r.exact, r.samples, r.players[0].equity_fraction
(True, 780, Fraction(199, 260))

Data flow: text -> cards -> game rules -> (validated) spot -> plan -> kernel
-> outcome counts -> :class:`EquityResult`.

Every run-out (exact) or sample (Monte Carlo) adds one to each player's
*outcome cell*: row = 0 if the player did not win the high (or the game has
no high), else the number of players sharing the high; column = 0 if no low
qualified (or the game has no low), 1 if the player lost the low, else 1 +
the number of players sharing it.  Every reported number derives from these
integer counts; exact equities are counted in units of 1 / (2 * lcm(1..n)) of
a pot and divided once (:attr:`PlayerResult.equity_fraction`).

Small exact spots (a flop, a turn, a river) are walked by the C library in one
batch call, without importing Numba (a second process answers them in well
under a second); so is a process's first bigger fixed-hand board spot (a
preflop hold'em or Omaha spot) while the kernels are not loaded, when the C walk
is shorter than loading Numba would be; everything else runs in the Numba kernels
(:mod:`pokereval.kernels`), in batches so that a ``progress`` callback sees
partial results and Ctrl-C returns what was computed so far.
"""
from __future__ import annotations

import math
import secrets
import sys
import threading
import time
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Callable, Sequence

import numpy as np

from .cards import cards_str
from .errors import HandError
from .games import Game
from .results import EquityResult, PlayerResult, player_results
from .spot import MAX_SAMPLES, Options, Spot, parse_options, parse_spot

__all__ = ["equity", "EquityResult", "PlayerResult", "DEFAULT_STDERR"]

#: Monte Carlo precision target when ``equity`` chooses to sample.
DEFAULT_STDERR = 0.001
#: Sample cap when ``equity`` chooses to sample.
DEFAULT_MAX_SAMPLES = 10_000_000
#: ``equity`` enumerates when the estimated single-core time is below this (seconds).
AUTO_EXACT_SECONDS = 2.0
#: Exact spots with at most this many (run-out x player) evaluations run in C, no Numba.
SMALL_EXACT = 40_000
#: A process's first bigger exact board spot also runs in C (one thread) while the
#: kernels are not loaded, if the walk is estimated under this (seconds): importing
#: Numba and loading the kernels takes about 0.4 s before they compute anything.  Later
#: ones load the kernels (parallel, faster for a batch or a server).
C_WALK_SECONDS = 0.3
#: Estimated nanoseconds of the C walk per run-out and player, by hole cards.
_NS_C_PLAYER = {2: 10.0, 4: 80.0, 5: 110.0}
_c_walked = False  # has this process walked a bigger spot in C?
#: Monte Carlo samples per chunk (one random stream each); fixed, so results
#: depend on the seed only, never on the thread count.
MC_CHUNK = 4096
#: Chunks per Monte Carlo batch (a progress callback / Ctrl-C point after each).
MC_BATCHES = (4, 8, 16, 32, 64)
#: Wall-clock goal for one exact batch (seconds).
BATCH_SECONDS = 0.3
#: At least this many samples before a stderr target may stop a run.
MIN_STDERR_SAMPLES = 16_384

#: Parallel kernel calls from several Python threads take turns (each already uses
#: every core, and Numba's "workqueue" threading layer, the fork-safe choice without
#: TBB, aborts the process when entered twice: see kernels/_jit.py).
_KERNEL_LOCK = threading.Lock()


# Estimated single-core nanoseconds, used for the auto choice and batch sizes.
_NS_BOARD = 20.0
_NS_PLAYER = {2: 15.0, 4: 25.0, 5: 28.0}  # per player per board, by hole cards
_NS_STUD_VISIT = 2.5  # per subset looked at by the stud walk
_NS_STUD_PREFIX = 2.0  # per deal of the players but the last (the stud walk's leaves)
_NS_RANGED_PLAYER = 30.0  # per ranged-kernel player per board
_NS_TUPLE_STUD = 60_000.0  # per holding tuple of a stud range spot (one exact run each)

#: Most holding combinations a range spot enumerates (exact with ranges).
MAX_TUPLES = 20_000_000
#: ``exact=True`` is refused when the estimated single-core time is above this (seconds):
#: an enumeration of days is a mistake, and the kernels count run-outs in int64.
MAX_EXACT_SECONDS = 3600.0
#: Auto plan: holding combinations are listed (to count the compatible ones)
#: only when their product is at most this.
SCAN_TUPLES = 20_000_000
#: A Monte Carlo chunk of ranged players gives up after this many attempts
#: per wanted sample (acceptance below 1 / MAX_TRIES_FACTOR: an error).
MAX_TRIES_FACTOR = 1000


# --------------------------------------------------------------------------
# The plan
# --------------------------------------------------------------------------

def _exact_cost_ns(spot: Spot) -> float:
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
        return visits * _NS_STUD_VISIT + prefixes * _NS_STUD_PREFIX + outer * n * 40.0
    per_player = _NS_PLAYER.get(spot.game.hole, 20.0)
    cost = spot.runouts * (_NS_BOARD + n * per_player)
    if spot.game.exactly_two:
        pairs = comb(spot.game.hole, 2)
        cost += n * min(spot.runouts, 6175) * pairs * 10 * 3.0  # filling the no-flush cache
    return cost


def equity(game: str | Game, hands: Sequence[str | Sequence[int]], board: str | Sequence[int] = "",
           dead: str | Sequence[int] = "", *, exact: bool | None = None,
           samples: int | None = None, stderr: float | None = None, seed: int | None = None,
           threads: int | None = None,
           progress: Callable[[EquityResult], object] | None = None,
           breakdown: bool = False) -> EquityResult:
    """Each hand's share of the pot: exact enumeration or Monte Carlo.

    ``game``: a game name (see :func:`pokereval.games`); ``hands``: one value per
    player (hole cards; stud: all the player's cards so far, the same count for
    everyone); ``board``: known board cards; ``dead``: cards out of play.  Board
    and dead cards may be ranges (``board="K**"``: every flop with a king), the
    equity then being averaged over the boards (see :mod:`pokereval.board_range`).

    ``exact=None`` walks every run-out when that is cheap (a couple of seconds at
    most), otherwise samples to a standard error of ``DEFAULT_STDERR``;
    ``exact=True`` always enumerates; ``samples=N`` / ``stderr=X`` sample (both:
    stop at whichever comes first).  ``seed`` makes sampling reproducible, with
    any thread count.  ``threads``: worker threads (default: all cores).
    ``progress(result)`` is called between batches with a partial result; Ctrl-C
    stops the run and returns the partial result (``partial=True``).
    ``breakdown=True`` adds ``p.breakdown`` (what each hand makes, won / tied / lost;
    see :mod:`pokereval.breakdown`), the figures coming from the same run-outs.
    """
    from .board_range import equity_over_boards, is_card_range
    if is_card_range(board) or is_card_range(dead):  # generic syntax: 'K**', 'Aw9x2y'
        return equity_over_boards(game, hands, board, dead, exact=exact, samples=samples,
                                  stderr=stderr, seed=seed, threads=threads, progress=progress)
    started = time.perf_counter()
    spot = parse_spot(game, hands, board, dead)
    opts = parse_options(exact, samples, stderr, seed, threads, progress)
    if breakdown:
        from .breakdown import equity_with_breakdown

        return equity_with_breakdown(spot, opts, started)
    if spot.ranged:
        return _RangedRunner(spot, opts, started).run()
    if opts.exact is True:
        use_exact = True
    elif opts.samples is None and opts.stderr is None:
        use_exact = opts.exact is None and _exact_cost_ns(spot) <= AUTO_EXACT_SECONDS * 1e9
        if not use_exact:
            opts.stderr = DEFAULT_STDERR
            opts.samples = DEFAULT_MAX_SAMPLES
    else:
        use_exact = False

    if use_exact:
        _check_exact_cost(_exact_cost_ns(spot), f"{spot.runouts:,} run-outs")
    runner = _Runner(spot, opts, started)
    if use_exact:
        if _walk_in_c(spot):
            return runner.finish(_small_exact(spot), exact=True)
        return runner.run_exact()
    return runner.run_mc()


def _check_exact_cost(cost_ns: float, what: str) -> None:
    """Refuse an enumeration estimated above MAX_EXACT_SECONDS on one core."""
    if cost_ns > MAX_EXACT_SECONDS * 1e9:
        hours = cost_ns / 3.6e12
        raise HandError(f"exact enumeration of {what} would take about {hours:,.0f} hours on "
                        f"one core, over the limit of {MAX_EXACT_SECONDS / 3600:g} hour; "
                        f"use Monte Carlo (samples=... or stderr=...)")


# --------------------------------------------------------------------------
# Small exact spots: one C batch call per player, tallied in NumPy
# --------------------------------------------------------------------------

def _walk_in_c(spot: Spot) -> bool:
    """Whether an exact fixed-hand spot is walked in C (:func:`_small_exact`, one call,
    no progress calls) rather than in the kernels: small spots always; the process's
    first board spot up to ``C_WALK_SECONDS`` of C if the kernels are not loaded."""
    global _c_walked
    work = spot.runouts * spot.n
    if work <= SMALL_EXACT:
        return True
    if (_c_walked or spot.game.stud or "pokereval.kernels" in sys.modules
            or work * _NS_C_PLAYER.get(spot.game.hole, 110.0) > C_WALK_SECONDS * 1e9):
        return False
    _c_walked = True
    return True


def _small_exact(spot: Spot) -> np.ndarray:
    from .evaluate import evaluate_batch

    g, n = spot.game, spot.n
    if not g.stud:  # run-outs, evaluation and tally in one C call
        from ._native import board_exact_counts

        return board_exact_counts(np.array(spot.holes, dtype=np.uint8), g.exactly_two,
                                  g.low == "eight", np.array(spot.board, dtype=np.uint8),
                                  np.array(spot.unseen, dtype=np.uint8))
    deals = np.array(list(_stud_deals(spot)), dtype=np.uint8)  # [rows, n, 7]
    values = [evaluate_batch(g, np.ascontiguousarray(deals[:, p, :])) for p in range(n)]
    hv = np.stack([v[0] for v in values]).astype(np.int64)
    lv = np.stack([v[1] for v in values]).astype(np.int64)
    return _tally_numpy(g, hv, lv)


def _stud_deals(spot: Spot):
    """Every stud run-out as [player][7 cards] (same order of run-outs as the kernels' count)."""
    holes, mo, n = spot.holes, spot.mo, spot.n
    shared_cards = spot.unseen if spot.shared else [None]
    for s in shared_cards:
        pool = [c for c in spot.unseen if c != s]

        def deal(p, remaining, dealt):
            if p == n:
                yield [holes[i] + dealt[i] + ([s] if s is not None else []) for i in range(n)]
                return
            for mine in combinations(remaining, mo):
                rest = [c for c in remaining if c not in mine]
                yield from deal(p + 1, rest, dealt + [list(mine)])

        yield from deal(0, pool, [])


def _tally_numpy(game: Game, hv: np.ndarray, lv: np.ndarray) -> np.ndarray:
    """Outcome counts [n, n + 1, n + 2] from values hv, lv [n, rows] (as the kernels' tally)."""
    n, rows = hv.shape
    row = np.zeros((n, rows), dtype=np.int64)
    col = np.zeros((n, rows), dtype=np.int64)
    if game.high:
        best = hv.max(axis=0)
        win = hv == best
        row = np.where(win, win.sum(axis=0), 0)
    if game.low:
        best = lv.max(axis=0)
        win = (lv == best) & (best > 0)
        col = np.where(best > 0, np.where(win, 1 + win.sum(axis=0), 1), 0)
    cells = (n + 1) * (n + 2)
    flat = row * (n + 2) + col
    return np.stack([np.bincount(flat[p], minlength=cells) for p in range(n)]).reshape(n, n + 1, n + 2)


# --------------------------------------------------------------------------
# Kernel runs
# --------------------------------------------------------------------------

class _Runner:
    """Runs a spot in the Numba kernels, in batches, and builds results."""

    def __init__(self, spot: Spot, opts: Options, started: float):
        self.spot = spot
        self.opts = opts
        self.started = started
        self.seed: int | None = None
        self.acceptance: float | None = None
        self.units_are_samples = False  # exact with ranges: samples = units walked
        self.units_done = 0

    # -- results ---------------------------------------------------------
    def result(self, counts, exact: bool, partial: bool, fraction_done=None) -> EquityResult:
        spot = self.spot
        if counts is not None:
            counts = _as_outcomes(counts)
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

    # -- threads -----------------------------------------------------------
    def _threads(self):
        import numba

        wanted = self.opts.threads
        most = numba.config.NUMBA_NUM_THREADS
        return numba, (most if wanted is None else min(wanted, most))

    def _loop(self, batches, exact: bool, total_hint):
        """Run ``batches`` (an iterator of callables returning counts) with the thread
        setting, progress callbacks and Ctrl-C handling; returns the result."""
        numba, nthreads = self._threads()
        previous = numba.get_num_threads()
        counts = None
        done_units = 0
        interrupted = False
        numba.set_num_threads(nthreads)
        try:
            pending = None
            for batch in batches(nthreads):
                if pending is not None and self.opts.progress is not None:
                    self.opts.progress(pending)
                with _KERNEL_LOCK:
                    step_counts, units = batch()
                counts = step_counts if counts is None else counts + step_counts
                done_units += units
                self.units_done = done_units
                if self.opts.progress is not None:  # a partial result only for a listener
                    frac = None if total_hint is None else min(done_units / total_hint, 1.0)
                    pending = self.result(counts, exact, partial=True, fraction_done=frac)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            numba.set_num_threads(previous)
        if interrupted:
            return self.result(counts, exact, partial=True,
                               fraction_done=None if total_hint is None or counts is None
                               else min(done_units / total_hint, 1.0))
        return self.result(counts, exact, partial=False)

    # -- exact -------------------------------------------------------------
    def run_exact(self) -> EquityResult:
        from . import kernels as K

        spot = self.spot
        g = spot.game
        KT = K.kernel_tables()
        G = K.game_flags(g)
        binom = K.binomials()
        total_ns = max(_exact_cost_ns(spot), 1.0)

        if not g.stud:
            holes = np.array(spot.holes, dtype=np.uint8)
            H = K.prep_holdings(KT, holes, G.omaha)
            who = np.arange(spot.n, dtype=np.int64)
            known = np.array(spot.board, dtype=np.uint8)
            deck = np.array(spot.unseen, dtype=np.uint8)
            cache = np.zeros((spot.n if G.omaha else 1, K.BOARD_SLOTS), dtype=np.uint16)
            total = spot.runouts
            k = spot.k

            def call(first, count, chunk):
                return K.board_exact(KT, G, H, who, known, deck, k, first, count, chunk, binom, cache)
        else:
            known = np.array(spot.holes, dtype=np.uint8)
            unseen = np.array(spot.unseen, dtype=np.uint8)
            with _KERNEL_LOCK:  # a parallel kernel too
                masks, hv, lv = K.stud_tables(KT, G, known, unseen, spot.mo, spot.shared, binom)
            total = hv.shape[1] * hv.shape[2]  # outer indices (shared card x player 1's subset)
            shared = spot.shared

            def call(first, count, chunk):
                return K.stud_exact(G, masks, hv, lv, shared, first, count, chunk)

        return self._loop(_exact_batches(total, total_ns / total, call), exact=True,
                          total_hint=total)

    # -- Monte Carlo ---------------------------------------------------------
    def _mc_seed_and_total(self) -> tuple:
        """The run's seed (drawn when not given; kept for the result) and sample budget."""
        opts = self.opts
        seed = opts.seed if opts.seed is not None else secrets.randbits(63)
        self.seed = seed
        return np.uint64(seed), (opts.samples if opts.samples is not None else MAX_SAMPLES)

    def run_mc(self) -> EquityResult:
        from . import kernels as K

        spot = self.spot
        g = spot.game
        seed, total = self._mc_seed_and_total()
        KT = K.kernel_tables()
        G = K.game_flags(g)
        who = np.arange(spot.n, dtype=np.int64)
        target = self.opts.stderr

        if not g.stud:
            holes = np.array(spot.holes, dtype=np.uint8)
            H = K.prep_holdings(KT, holes, G.omaha)
            known = np.array(spot.board, dtype=np.uint8)
            deck = np.array(spot.unseen, dtype=np.uint8)
            cache = np.zeros((spot.n if G.omaha else 1, K.BOARD_SLOTS), dtype=np.uint16)
            k = spot.k

            def call(first_chunk, nchunks):
                return K.board_mc(KT, G, H, who, known, deck, k, seed, first_chunk, nchunks,
                                  MC_CHUNK, total, cache)
        else:
            holes = np.array(spot.holes, dtype=np.uint8)
            unseen = np.array(spot.unseen, dtype=np.uint8)
            mo, shared = spot.mo, spot.shared
            T = K.stud_mc_tables(KT, G, holes, unseen, mo, shared)

            def call(first_chunk, nchunks):
                return K.stud_mc(KT, G, T, unseen, mo, shared, seed, first_chunk, nchunks,
                                 MC_CHUNK, total)

        return self._mc_loop(call, total, target)

    def _mc_loop(self, call, total: int, target: float | None) -> EquityResult:
        """Sample in growing batches of chunks until ``total`` samples are drawn or every
        player's standard error is at most ``target``; ``call(first_chunk, nchunks)``
        returns the outcome counts of those chunks."""
        state = {"counts": None}
        nchunks_total = -(-total // MC_CHUNK)
        timed = self.opts.progress is None

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
                    fit = int(BATCH_SECONDS / max(state["seconds_per_chunk"], 1e-9))
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

        hint = None if self.opts.samples is None or target is not None else total
        return self._loop(batches, exact=False, total_hint=hint)

    def _max_stderr(self, counts) -> float:
        players = player_results(self.spot, counts, exact=False, final=False)
        return max(p.std_error for p in players)



# --------------------------------------------------------------------------
# Players given as ranges
# --------------------------------------------------------------------------

def _exact_batches(total: int, ns_per_unit: float, call, units=None):
    """``batches(nthreads)`` for :meth:`_Runner._loop` over the enumeration indices
    ``[0, total)``: ranges of about BATCH_SECONDS, each split into 16 chunks a
    thread for the kernel's prange; ``call(first, count, chunk)`` -> counts;
    ``units(f)``: the units done before index f (default f)."""
    def batches(nthreads):
        per_batch = max(1, int(BATCH_SECONDS * 1e9 * nthreads / ns_per_unit))
        first = 0
        while first < total:
            count = min(per_batch, total - first)
            chunk = max(1, -(-count // (nthreads * 16)))

            def run(first=first, count=count, chunk=chunk):
                done = count if units is None else units(first + count) - units(first)
                return call(first, count, chunk), done

            yield run
            first += count
    return batches


def _as_outcomes(counts) -> np.ndarray:
    """int64 outcome counts; weighted counts (Python ints) too large for int64
    become float64 (the result then has no exact fraction)."""
    counts = np.asarray(counts)
    if counts.dtype != object:
        return counts
    top = max((abs(int(x)) for x in counts.ravel()), default=0)
    if top < (1 << 62):
        return counts.astype(np.int64)
    return np.array([float(Fraction(int(x), top)) for x in counts.ravel()],
                    dtype=np.float64).reshape(counts.shape)


def _whole_weights(weights: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """A player's weights as small whole numbers: ``(index of each row's weight,
    [whole weight of each distinct weight])``, proportional to the decimal weights."""
    uniq, inverse = np.unique(weights, return_inverse=True)
    fracs = [Fraction(repr(float(w))) for w in uniq]
    denom = math.lcm(*(f.denominator for f in fracs))
    whole = [int(f * denom) for f in fracs]
    g = math.gcd(*whole)
    return inverse.astype(np.int64), [w // g for w in whole]


_EXACT, _LISTED, _DEALT = 0, 1, 2  # player kinds of the ranged kernels


class _RangedRunner(_Runner):
    """Exact enumeration or Monte Carlo with players given as ranges."""

    def __init__(self, spot: Spot, opts: Options, started: float):
        super().__init__(spot, opts, started)
        blocks: list[np.ndarray] = []
        weights: list = []  # per player: float64[m] or None (an exact hand)
        for h, r in zip(spot.holes, spot.ranges):
            if r is None:
                blocks.append(np.array([sorted(h)], dtype=np.uint8))
                weights.append(None)
            else:
                blocks.append(np.asarray(r.holdings, dtype=np.uint8))
                weights.append(np.asarray(r.weights, dtype=np.float64))
        self.blocks = blocks
        self.weights = weights

    def _kinds(self, dealt: bool) -> np.ndarray:
        """The kernels' player kinds: an exact hand (or a one-holding range), a listed
        range, or (``dealt``) a random hand: every holding of the unseen cards with
        equal weights, dealt from the deck instead of drawn from its list."""
        spot = self.spot
        kinds = []
        for b, w in zip(self.blocks, self.weights):
            if len(b) == 1:
                kinds.append(_EXACT)
            elif (dealt and len(b) == comb(len(spot.unseen), b.shape[1])
                  and bool(np.all(w == w[0]))):
                kinds.append(_DEALT)
            else:
                kinds.append(_LISTED)
        return np.array(kinds, dtype=np.int64)

    # -- cost model ------------------------------------------------------------
    def _tuple_cost_ns(self) -> float:
        spot = self.spot
        if spot.game.stud:
            return _NS_TUPLE_STUD + _exact_cost_ns(spot)
        return spot.runouts * (_NS_BOARD + spot.n * _NS_RANGED_PLAYER)

    def _tuples(self, limit: int):
        from . import kernels as K

        counts = np.array([len(b) for b in self.blocks], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        holes = np.vstack(self.blocks)
        bits = np.uint64(1) << holes.astype(np.uint64)
        masks = np.bitwise_or.reduce(bits, axis=1).astype(np.uint64)
        return K.compatible_tuples(starts, counts, masks, limit)

    def run(self) -> EquityResult:
        spot, opts = self.spot, self.opts
        product = math.prod(len(b) for b in self.blocks)
        per_tuple = max(self._tuple_cost_ns(), 1.0)
        tuples = None
        if opts.exact is True:
            _check_exact_cost(per_tuple, f"{spot.runouts:,} run-outs per combination of holdings")
            # the time limit also bounds the list of combinations (its memory)
            most = min(MAX_TUPLES, max(1, int(MAX_EXACT_SECONDS * 1e9 / per_tuple)))
            tuples = self._tuples(most)
            if len(tuples) > most:
                raise HandError(f"too many combinations of holdings to enumerate (more than "
                                f"{most:,}, about {MAX_EXACT_SECONDS / 3600:g} hour on one core"
                                f"{'' if most < MAX_TUPLES else ' or the limit of memory'}); "
                                f"use Monte Carlo (samples=... or stderr=...)")
            use_exact = True
        elif opts.samples is None and opts.stderr is None and opts.exact is None:
            use_exact = False
            budget = int(AUTO_EXACT_SECONDS * 1e9 / per_tuple)
            if product <= SCAN_TUPLES and budget >= 1:
                tuples = self._tuples(min(budget, MAX_TUPLES))
                use_exact = len(tuples) <= budget
            if not use_exact:
                opts.stderr = DEFAULT_STDERR
                opts.samples = DEFAULT_MAX_SAMPLES
        else:
            use_exact = False
        if tuples is None and product <= SCAN_TUPLES:
            tuples = self._tuples(0)  # is there any compatible combination at all?
        if tuples is not None and len(tuples) == 0:
            raise HandError("no combination of the players' holdings is possible: "
                            + ", ".join(f"player {i + 1} ({t})" for i, t in enumerate(spot.hand_text)
                                        if spot.ranges[i] is not None)
                            + " always share a card with another player")
        if use_exact:
            assert tuples is not None  # use_exact is only set after the tuples are listed
            return self.run_exact_ranged(tuples)
        return self.run_mc_ranged()

    # -- exact -------------------------------------------------------------------
    def _groups(self, tuples: np.ndarray):
        """``(tgroup int64[T], [whole weight of each group])`` and the accepted weight share."""
        n = self.spot.n
        key = np.zeros(len(tuples), dtype=np.int64)
        per_player = []
        starts = np.concatenate([[0], np.cumsum([len(b) for b in self.blocks])[:-1]])
        radix = 1
        for p in range(n):
            w = self.weights[p]
            if w is None:
                per_player.append((np.zeros(1, dtype=np.int64), [1]))
            else:
                per_player.append(_whole_weights(w))
        mixed = []
        for p in range(n):
            inverse, whole = per_player[p]
            local = tuples[:, p].astype(np.int64) - starts[p]
            key += inverse[local] * radix
            mixed.append((radix, len(whole)))
            radix *= len(whole)
        uniq, tgroup = np.unique(key, return_inverse=True)
        gweights = []
        for value in uniq.tolist():
            w = 1
            for p in range(n):
                r, m = mixed[p]
                w *= per_player[p][1][(value // r) % m]
            gweights.append(w)
        # acceptance: compatible weight over all weight (independent draws)
        sizes = np.bincount(tgroup, minlength=len(uniq))
        compatible = sum(int(c) * w for c, w in zip(sizes.tolist(), gweights))
        total: int = 1
        for p in range(n):
            inverse, whole = per_player[p]
            total *= sum(whole[i] for i in inverse.tolist()) if len(inverse) > 1 else whole[0]
        self.acceptance = float(Fraction(compatible, total))
        return tgroup.astype(np.int64), gweights

    def run_exact_ranged(self, tuples: np.ndarray) -> EquityResult:
        from . import kernels as K

        spot = self.spot
        g = spot.game
        tgroup, gweights = self._groups(tuples)
        gw = np.array(gweights, dtype=object)
        self.units_are_samples = True
        ntup = len(tuples)

        def weighted(out):  # int64[groups, n, n + 1, n + 2] -> Python-int counts
            return np.tensordot(gw, out.astype(object), axes=(0, 0))

        if not g.stud:
            KT = K.kernel_tables()
            G = K.game_flags(g)
            binom = K.binomials()
            H, R = K.range_data(self.blocks, self.weights, g)
            kind = self._kinds(dealt=False)
            cache = np.zeros((spot.n if G.omaha else 1, K.BOARD_SLOTS), dtype=np.uint16)
            known = np.array(spot.board, dtype=np.uint8)
            base = np.array(spot.unseen, dtype=np.int64)
            nruns = spot.runouts
            tuples, tgroup, gweights, mult = self._suit_classes(tuples, tgroup, gweights)
            gw = np.array(gweights, dtype=object)
            total = len(tuples) * nruns
            tup = np.ascontiguousarray(tuples.astype(np.int64))
            ns_per_unit = _NS_BOARD + spot.n * _NS_RANGED_PLAYER
            # run-outs stood for by the enumeration indices before f (a class counts
            # once per member)
            before = np.concatenate([[0], np.cumsum(mult)]).astype(object) * nruns

            def units(f):
                t, r = divmod(f, nruns)
                return int(before[t]) + (int(mult[t]) * r if r else 0)

            def call(first, count, chunk):
                return weighted(K.board_exact_ranged(KT, G, H, R, kind, tup, tgroup, len(gweights),
                                                     known, base, spot.k, nruns, first, count,
                                                     chunk, binom, cache))

            return self._loop(_exact_batches(total, ns_per_unit, call, units), exact=True,
                              total_hint=ntup * nruns)

        # stud: one exact run of the fixed-hand engine per combination of holdings
        holdings = np.vstack(self.blocks)
        runouts = spot.runouts

        def batches(nthreads):
            per_batch = max(1, int(BATCH_SECONDS * 1e9 / max(self._tuple_cost_ns(), 1.0)))
            for first in range(0, ntup, per_batch):
                def run(first=first):
                    out = np.zeros((len(gweights), spot.n, spot.n + 1, spot.n + 2), dtype=np.int64)
                    stop = min(first + per_batch, ntup)
                    for t in range(first, stop):
                        holes = [holdings[r].tolist() for r in tuples[t]]
                        out[tgroup[t]] += _fixed_exact_counts(spot, holes)
                    return weighted(out), (stop - first) * runouts

                yield run

        return self._loop(batches, exact=True, total_hint=ntup * runouts)

    def _suit_classes(self, tuples, tgroup, gweights):
        """One combination of holdings per suit-renaming class (see :mod:`pokereval.suits`):
        ``(tuples, tgroup, gweights, multiplicity of each kept combination)``, a weight
        group per (weight group, class size)."""
        from .suits import classes, symmetries

        spot = self.spot
        ones = np.ones(len(tuples), dtype=np.int64)
        maps = symmetries(self.blocks, self.weights, spot.board + spot.dead)
        if not maps:
            return tuples, tgroup, gweights, ones
        starts = np.concatenate([[0], np.cumsum([len(b) for b in self.blocks])[:-1]]).astype(np.int64)
        first, sizes = classes(tuples.astype(np.int64) - starts, maps)
        pairs, group = np.unique(np.stack([tgroup[first], sizes], axis=1), axis=0,
                                 return_inverse=True)
        weights = [gweights[int(tg)] * int(m) for tg, m in pairs.tolist()]
        return tuples[first], group.reshape(-1).astype(np.int64), weights, sizes.astype(np.int64)

    # -- Monte Carlo -------------------------------------------------------------
    def run_mc_ranged(self) -> EquityResult:
        from . import kernels as K

        spot = self.spot
        opts = self.opts
        g = spot.game
        seed, total = self._mc_seed_and_total()
        KT = K.kernel_tables()
        G = K.game_flags(g)
        kind = self._kinds(dealt=not g.stud)
        # a random hand is dealt from the deck: its holdings need not travel
        blocks = [b[:1] if k == _DEALT else b for b, k in zip(self.blocks, kind)]
        H, R = K.range_data(blocks, self.weights, g)
        n = spot.n
        target = opts.stderr
        # a one-holding range's cards never come: out of the deck, not rejected per card
        fixed = {int(c) for b, k in zip(blocks, kind) if k == _EXACT for c in b[0]}
        deck = np.array([c for c in spot.unseen if c not in fixed], dtype=np.uint8)
        listed = [b for b, k in zip(blocks, kind) if k == _LISTED]
        if len(listed) == 1:  # its holdings' rest of the deck: no card of the deal rejected
            R = R._replace(rest=K.rest_of_deck(listed[0], deck))

        if not g.stud:
            known = np.array(spot.board, dtype=np.uint8)
            cache = np.zeros((n if G.omaha else 1, K.BOARD_SLOTS), dtype=np.uint16)

            def call(first_chunk, nchunks):
                return K.board_mc_ranged(KT, G, H, R, kind, known, deck, spot.k, seed,
                                         first_chunk, nchunks, MC_CHUNK, total, MAX_TRIES_FACTOR,
                                         cache)
        else:
            def call(first_chunk, nchunks):
                return K.stud_mc_ranged(KT, G, H, R, kind, deck, spot.mo, spot.shared, seed,
                                        first_chunk, nchunks, MC_CHUNK, total, MAX_TRIES_FACTOR)

        tally = {"accepted": 0, "tries": 0}

        def checked_call(first, size):
            c, info = call(first, size)
            wanted = np.minimum(MC_CHUNK, total - (first + np.arange(size)) * MC_CHUNK)
            accepted, tries = int(info[:, 0].sum()), int(info[:, 1].sum())
            tally["accepted"] += accepted
            tally["tries"] += tries
            self.acceptance = tally["accepted"] / max(tally["tries"], 1)
            if np.any(info[:, 0] < wanted):
                raise HandError(
                    f"the players' ranges almost never fit together: {accepted:,} of "
                    f"{tries:,} random draws of holdings shared no card (under "
                    f"1/{MAX_TRIES_FACTOR}); narrow the ranges")
            return c

        return self._mc_loop(checked_call, total, target)


def _fixed_exact_counts(spot: Spot, holes: list[list[int]]) -> np.ndarray:
    """Exact outcome counts of ``spot`` with every player's cards fixed to ``holes``."""
    from . import kernels as K

    used = {c for h in holes for c in h}
    sub = Spot(spot.game, holes, spot.board, spot.dead, [c for c in spot.unseen if c not in used],
                [cards_str(h) for h in holes], k=spot.k, mo=spot.mo, shared=spot.shared)
    if sub.runouts * sub.n <= SMALL_EXACT:
        return _small_exact(sub)
    g = sub.game
    KT = K.kernel_tables()
    G = K.game_flags(g)
    binom = K.binomials()
    if not g.stud:
        H = K.prep_holdings(KT, np.array(holes, dtype=np.uint8), G.omaha)
        cache = np.zeros((sub.n if G.omaha else 1, K.BOARD_SLOTS), dtype=np.uint16)
        return K.board_exact(KT, G, H, np.arange(sub.n, dtype=np.int64),
                             np.array(sub.board, dtype=np.uint8),
                             np.array(sub.unseen, dtype=np.uint8), sub.k, 0, sub.runouts,
                             max(1, sub.runouts // 64), binom, cache)
    masks, hv, lv = K.stud_tables(KT, G, np.array(holes, dtype=np.uint8),
                                  np.array(sub.unseen, dtype=np.uint8), sub.mo, sub.shared, binom)
    outer = hv.shape[1] * hv.shape[2]
    return K.stud_exact(G, masks, hv, lv, sub.shared, 0, outer, max(1, outer // 64))
