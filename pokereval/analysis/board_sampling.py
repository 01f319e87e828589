"""Monte Carlo over a board range: boards and run-outs sampled jointly to the requested
samples or standard error, with progress reports and a partial answer on Ctrl-C.

The answer is ``sum_b pi_b * E_b`` (``pi_b``: board ``b``'s mass over the total).

* **Stratified** (the usual case): each round gives every board a share of the round's
  samples proportional to ``pi_b`` (at least ``MIN_PER_BOARD``) and runs it once with
  its own seed; a board's counts add up over rounds.  The estimate weighs board ``b``'s
  fractions by ``pi_b``, so its variance is ``sum_b pi_b**2 * se_b**2``: within-board
  noise only, the precision of a plain run.
* **Drawn** (when even ``MIN_PER_BOARD`` a board exceeds the sample budget): each round
  draws ``MC_DRAWS`` boards by weight (multinomial); a draw's fractions count once and the
  standard error is between draws, plus the sampling noise of boards drawn more than once.

Rounds continue until every player's standard error is at most the target or the
sample budget is spent.  Round 1 visits the boards in a random order, so a partial
answer (a progress report, Ctrl-C) over the boards visited so far is a fair sample; its
standard error adds the between-board spread of those boards.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..equity.options import DEFAULT_MAX_SAMPLES, DEFAULT_STDERR, MAX_SAMPLES, Options, parse_options
from ..equity.run import run
from ..equity.tally import lcm_upto, share_units

__all__ = ["sample_boards", "sample_budget", "MC_DRAWS", "MIN_PER_BOARD"]

MC_DRAWS = 1000
"""Boards drawn per round when there are too many boards to give each its minimum."""
MIN_PER_BOARD = 32
"""The fewest samples a board gets in a stratified round."""
#: A sample's equity share lies in [0, 1], so its variance is at most 1/4: a first round
#: of 1/4 / target**2 samples meets a stderr target in one pass over the boards (a pass
#: costs about a millisecond a board; the samples themselves are cheap).
MAX_SHARE_VARIANCE = 0.25
GROWTH = 8  # a round takes the run to at most this many times the samples done
MARGIN = 1.1  # the next round aims a little past the samples the target seems to need
PROGRESS_SECONDS = 0.2  # the most often progress is called
SINGLE_THREAD_BELOW = 50_000  # a board run this small: one thread (starting workers costs more)


def sample_budget(opts: Options) -> tuple[float | None, int]:
    """``(stderr target or None, most samples)`` as the plain run picks them
    (:func:`pokereval.equity.run.run`, :class:`~pokereval.equity.runner.Runner`)."""
    if opts.samples is None and opts.stderr is None:
        return DEFAULT_STDERR, DEFAULT_MAX_SAMPLES
    return opts.stderr, opts.samples if opts.samples is not None else MAX_SAMPLES


def allocate(total: int, pi: np.ndarray, minimum: int) -> np.ndarray:
    """``total`` samples over the boards: ``minimum`` each, the rest in proportion to
    ``pi`` (largest remainders; sums to ``total`` when ``total >= minimum * len(pi)``)."""
    extra = max(total - minimum * len(pi), 0)
    share = pi * extra
    n = np.floor(share).astype(np.int64)
    short = extra - int(n.sum())
    if short > 0:
        n[np.argsort(-(share - n), kind="stable")[:short]] += 1
    return n + minimum


@dataclass
class _State:
    """What the rounds have gathered: per board (stratified) or per draw (drawn) counts."""

    counts: list | np.ndarray = field(default_factory=list)  # float64 [n, n + 1, n + 2] each
    draws: list = field(default_factory=list)  # drawn mode: how many draws each entry is
    done: int = 0  # samples so far


def sample_boards(spots: list, masses: np.ndarray, opts: Options, seed: int,
                  report: Callable) -> object:
    """Sample the boards ``spots`` (weights ``masses``) as the module docstring says;
    ``report(counts, samples, std_errors, partial, fraction_done)`` builds the result
    from float outcome counts (the pi-weighted fractions times the samples)."""
    pi = masses / masses.sum()
    nboards = len(spots)
    target, cap = sample_budget(opts)
    drawn = nboards * MIN_PER_BOARD > cap
    rng = np.random.default_rng(seed)
    n = spots[0].n
    units = share_units(spots[0].game.pot, n).astype(np.float64) / (2 * lcm_upto(n))
    state = _State()
    if not drawn:
        state.counts = np.zeros((nboards, n, n + 1, n + 2))  # one array: estimates stay cheap
    first_round = cap
    if target is not None:
        enough = int(math.ceil(MAX_SHARE_VARIANCE / target ** 2 * MARGIN))
        first_round = min(cap, max(enough, nboards * MIN_PER_BOARD))
    if drawn:
        first_round = max(first_round, 1)
    first_pass = [not drawn]  # in round 1, some boards may not have been run yet
    planned = first_round
    last = [time.perf_counter(), 0.0]  # last progress call, last fraction reported

    def estimate(partial: bool):
        counts, se = (_drawn_estimate(state, units) if drawn
                      else _stratified_estimate(state, pi, units, first_pass[0]))
        frac = 1.0
        if partial:
            frac = max(last[1], min(state.done / max(planned, 1), 0.99))
            last[1] = frac
        return report(counts, state.done, se, partial, frac)

    def tick():
        if opts.progress is not None and time.perf_counter() - last[0] >= PROGRESS_SECONDS:
            opts.progress(estimate(partial=True))
            last[0] = time.perf_counter()

    def board_run(b: int, samples: int) -> bool:
        """Run board ``b`` for ``samples``; False when the run was interrupted."""
        threads = opts.threads
        if samples < SINGLE_THREAD_BELOW and threads is None:
            threads = 1
        # the user's progress between the board's batches too: a board's run may be long
        # (a huge sample budget over few boards), and a stop must reach it
        forward = (lambda partial: tick()) if opts.progress is not None else None
        sub = parse_options(None, int(samples), None, int(rng.integers(1 << 62)), threads, forward)
        r = run(spots[b], sub, time.perf_counter())
        c = np.array([p.outcomes for p in r.players], dtype=np.float64)
        got = int(c[0].sum())
        if drawn:
            if got:
                state.counts.append(c)
        else:
            state.counts[b] += c
        state.done += got
        return not r.partial

    try:
        size = first_round
        round_no = 0
        while True:
            if drawn:
                draws = rng.multinomial(min(MC_DRAWS, size), pi)
                per_draw = max(1, size // max(int(draws.sum()), 1))
                order = np.flatnonzero(draws)
                order = order[rng.permutation(len(order))]
                plan = [(int(b), int(draws[b]) * per_draw) for b in order]
            else:
                alloc = allocate(size, pi, MIN_PER_BOARD)
                order = rng.permutation(nboards) if round_no == 0 else np.arange(nboards)
                plan = [(int(b), int(alloc[b])) for b in order]
            for b, samples in plan:
                if drawn:
                    state.draws.append(samples // per_draw)
                ok = board_run(b, samples)
                if drawn and len(state.draws) > len(state.counts):
                    state.draws.pop()  # the run drew nothing (interrupted at once)
                if not ok:
                    raise KeyboardInterrupt
                tick()
            first_pass[0] = False  # every board has counts from here on
            round_no += 1
            if state.done >= cap:
                break
            if target is None:
                break  # a fixed budget: one round
            _, se = _drawn_estimate(state, units) if drawn else _stratified_estimate(
                state, pi, units, False)
            worst = float(np.max(se))
            if worst <= target:
                break
            need = state.done * (worst / target) ** 2 * MARGIN
            total = min(int(math.ceil(need)), state.done * GROWTH, cap)
            size = total - state.done
            if not drawn:
                size = max(size, nboards * MIN_PER_BOARD)
                if state.done + size > cap:
                    break  # the target is out of reach under the cap
            size = max(size, 1)
            planned = state.done + size
    except KeyboardInterrupt:
        return estimate(partial=True)
    return estimate(partial=False)


def _moments(c: np.ndarray, units: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean share and its standard error squared, ``[..., players]``, of outcome counts
    ``c`` ``[..., players, n + 1, n + 2]`` (any leading axes: boards or draws)."""
    total = c[..., 0, :, :].sum(axis=(-2, -1))[..., None]
    mean = (c * units).sum(axis=(-2, -1)) / total
    second = (c * units * units).sum(axis=(-2, -1)) / total
    var = np.maximum(second - mean * mean, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        se2 = np.where(total > 1, var / (total - 1), np.inf)
    return mean, se2


def _stratified_estimate(state: _State, pi: np.ndarray, units: np.ndarray, first_pass: bool):
    """``(counts, std_errors)``: the pi-weighted per-board fractions; ``first_pass``: in
    round 1, where the boards not run yet are estimated by those run (a between-board
    term is added)."""
    done = state.counts[:, 0].sum(axis=(1, 2))
    live = np.flatnonzero(done > 0)
    n = state.counts.shape[1]
    if not len(live):
        return None, None
    c = state.counts[live]
    w = pi[live] / pi[live].sum()
    fracs = c / done[live][:, None, None, None]
    means, se2 = _moments(c, units)  # [boards, players]
    counts = np.tensordot(w, fracs, axes=1) * state.done
    var = (w[:, None] ** 2 * se2).sum(axis=0)
    if first_pass and len(live) < len(pi):
        # a fair sample of the boards (random order): the ratio estimator's variance
        m = len(live)
        if m < 2:
            var = np.full(n, np.inf)
        else:
            overall = (w[:, None] * means).sum(axis=0)
            rel = w * m  # w_b / mean w
            spread = (rel[:, None] ** 2 * (means - overall) ** 2).sum(axis=0) / (m - 1)
            var = var + (1 - m / len(pi)) * spread / m
    return counts, np.sqrt(var)


def _drawn_estimate(state: _State, units: np.ndarray):
    """``(counts, std_errors)``: each draw's fractions count once; the error is between draws."""
    if not state.counts:
        return None, None
    k = np.array(state.draws, dtype=np.float64)
    c = np.array(state.counts)
    fracs = c / c[:, 0].sum(axis=(1, 2))[:, None, None, None]
    means, se2 = _moments(c, units)
    counts = np.tensordot(k / k.sum(), fracs, axes=1) * state.done
    mean = (means * k[:, None]).sum(axis=0) / k.sum()
    between = ((means - mean) ** 2 * k[:, None]).sum(axis=0) / max(k.sum() - 1, 1) / k.sum()
    # A board drawn k times is one run of k draws' samples: its copies share their
    # sampling noise, which the spread between draws then misses; add it back (a little
    # more than it may be: the spread holds some of it).
    within = ((k / k.sum())[:, None] ** 2 * se2).sum(axis=0)
    if k.sum() < 2:
        between = np.full_like(mean, np.inf)
    return counts, np.sqrt(between + within)
