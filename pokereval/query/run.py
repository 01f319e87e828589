"""Running a compiled query: exact walk or seeded Monte Carlo in chunks, on threads.

Sampled runs deal fixed-size chunks, chunk ``i`` from its own random stream (stream ``i``
of ``seed``, dealt in a kernel: :func:`.block.sample_block`), and add their sums in chunk order, so the same seed gives the
same answer on any number of threads (and in any process: :func:`chunk_sums` is the unit
the table engine's executors or a Dask cluster can run).  A run stops at ``trials``
accepted trials (the last chunk cut to the exact count), or at the first chunk after
which every avg / count selector's standard error is at most ``stderr``.
"""
from __future__ import annotations

import math
import os
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from threading import Lock

import numpy as np

from .compile import Query, compile_query
from .block import sample_block
from .deal import Block, check_possible, enumerate_blocks, exact_rows
from .hands import Hands
from .nested import Nested
from .result import PqlResult, Sums, column
from .syntax import PqlError

__all__ = ["run_query", "chunk_sums", "remote_chunk", "DEFAULT_TRIALS", "CHUNK"]

DEFAULT_TRIALS = 600_000  # ProPokerTools' default
CHUNK = 25_000
_MAX_DEALT_FACTOR = 2_000  # give up when where() holds in fewer than 1 deal in this many
_EXACT_AUTO_SECONDS = 3.0
_EXACT_MOST_SECONDS = 3600.0


@dataclass
class _Ctx:
    hands: Hands
    nested: Nested


def _sums(query: Query, exact: bool) -> list[Sums]:
    return [Sums(c.selector, c.type, exact) for c in query.columns]


def block_sums(query: Query, block: Block, nested: Nested, exact: bool,
               keep: int | None = None) -> tuple[list[Sums], int, int]:
    """(selector sums, accepted weight, dealt weight) of one block; ``keep``: count only
    the first ``keep`` accepted deals (cutting the last chunk to the trial count)."""
    ctx = _Ctx(Hands(query.table, block), nested)
    n = len(block.rows)
    accepted = np.ones(n, dtype=bool)
    if query.where is not None:
        accepted = np.broadcast_to(np.asarray(query.where(ctx), dtype=bool), (n,)).copy()
    if keep is not None:
        idx = np.nonzero(accepted)[0]
        accepted[idx[keep:]] = False
        n = int(idx[keep - 1]) + 1 if keep and len(idx) >= keep else n
        ctx.hands.live = accepted  # the selectors' nested walks skip the rows cut off
    sums = _sums(query, exact)
    if accepted.any():
        for s, c in zip(sums, query.columns):
            s.add(c.fn(ctx), block.weights, accepted)
    w = block.weights
    dealt = n if w is None else int(w.astype(object).sum())
    taken = int(accepted.sum()) if w is None else int(w[accepted].astype(object).sum())
    return sums, taken, dealt


def chunk_sums(query: Query, seed: int, index: int, nested: Nested | None = None,
               keep: int | None = None, size: int = CHUNK):
    """The sums of sampled chunk ``index`` of a run seeded ``seed`` (pure: same inputs, same
    sums, wherever it runs)."""
    nested = nested or Nested(query.table, seed)
    # A chunk's deals are one sequential stream, so its first m deals are the same whatever
    # its size: a short run deals a growing prefix, just enough for ``keep`` accepted
    # trials, and gets the answer the whole chunk cut to ``keep`` would give.
    m = size if keep is None else min(size, max(1_024, 2 * keep))
    while True:
        block = sample_block(query.table, m, seed, index)
        if m == size or _accepted(query, block, nested) >= keep:
            return block_sums(query, block, nested, False, keep)
        m = min(size, 4 * m)


def _accepted(query: Query, block: Block, nested: Nested) -> int:
    """How many of ``block``'s deals ``where`` keeps."""
    if query.where is None:
        return len(block.rows)
    ctx = _Ctx(Hands(query.table, block), nested)
    return int(np.count_nonzero(np.broadcast_to(np.asarray(query.where(ctx), dtype=bool),
                                                (len(block.rows),))))


@lru_cache(maxsize=16)
def _compiled(text: str) -> Query:
    return compile_query(text)


_NESTED: dict[tuple[str, int], Nested] = {}
_NESTED_LOCK = Lock()


def remote_chunk(text: str, seed: int, index: int, keep: int | None = None):
    """:func:`chunk_sums` from the query's text, for another process or a Dask worker
    (the compiled query and its nested caches are kept per process, keyed by text and seed)."""
    query = _compiled(text)
    with _NESTED_LOCK:
        nested = _NESTED.get((text, seed))
        if nested is None:
            if len(_NESTED) >= 16:
                _NESTED.clear()
            nested = _NESTED[(text, seed)] = Nested(query.table, seed)
    return chunk_sums(query, seed, index, nested, keep)


def _merge(total: list[Sums], part: list[Sums]) -> None:
    for a, b in zip(total, part):
        a.merge(b)


def _result(query: Query, sums, exact, trials, dealt, seed, partial, started) -> PqlResult:
    cols = [column(c.name, s, exact) for c, s in zip(query.columns, sums)]
    return PqlResult(query.text, query.game.name, exact, trials, dealt, cols, seed, partial,
                     time.perf_counter() - started)


def exact_cost_seconds(query: Query) -> float:
    """A rough cost of the exact walk (the deal count times the work per deal)."""
    choices, runouts = exact_rows(query.table, query.streets)
    rows = choices * runouts
    per_row = 1.5e-6 * max(1, len(query.columns)) * len(query.table.seats)
    cost = rows * per_row
    if "equity" in query.nested:
        cost += rows * 2e-4
    if "hvr" in query.nested:
        cost += rows * 5e-3
    if "nut" in query.nested or "outs" in query.nested:
        cost += rows * (4e-4 if "outs" in query.nested else 2e-5)
    return cost


def _affordable(query: Query) -> bool:
    """Whether the exact walk fits the automatic choice (too many range combinations: no)."""
    try:
        return exact_cost_seconds(query) <= _EXACT_AUTO_SECONDS
    except PqlError:
        return False


def _stderr_done(sums: list[Sums], target: float) -> bool:
    checked = False
    for s in sums:
        if s.selector not in ("avg", "count") or not s.total:
            continue
        checked = True
        c = column("", s, False)
        if not math.isfinite(c.std_error) or c.std_error > target:
            return False
    return checked


def run_query(query: Query, *, exact: bool | None, trials: int | None, stderr: float | None,
              seed: int | None, threads: int | None, progress,
              executor: Executor | None = None) -> PqlResult:
    """Run ``query``; ``executor`` (a process pool or a Dask client's executor) runs the
    sampled chunks elsewhere, with the same answer as threads for the same seed (an exact
    walk always runs here, on threads)."""
    started = time.perf_counter()
    sampled = trials is not None or stderr is not None
    check_possible(query.table)
    if exact is None:
        exact = not sampled and _affordable(query)
    elif exact:
        if sampled:
            raise PqlError("exact=True counts every deal; drop trials / stderr, or sample")
        cost = exact_cost_seconds(query)
        if cost > _EXACT_MOST_SECONDS:
            raise PqlError(f"exact: walking every deal would take about {cost / 3600:.0f} hours; "
                           f"sample instead (trials=N)")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    nested = Nested(query.table, seed)
    if exact:
        return _run_exact(query, nested, threads, progress, started, seed)
    return _run_sampled(query, nested, trials, stderr, seed, threads, progress, started, executor)


def _threads(threads: int | None) -> int:
    if threads is None:
        return max(1, min(os.cpu_count() or 1, 8))
    if not isinstance(threads, int) or threads < 1:
        raise PqlError(f"threads must be a positive whole number, got {threads!r}")
    return threads


#: Seconds between progress reports while a chunk runs (a chunk of nested equity runs
#: takes minutes: the callback, which may stop the run, is called in the meantime too).
_REPORT_SECONDS = 0.25


def _waited(future, progress, report):
    """``future``'s result; while it is not done, ``progress(report())`` every
    :data:`_REPORT_SECONDS` (the partial result so far)."""
    if progress is None:
        return future.result()
    while True:
        try:
            return future.result(timeout=_REPORT_SECONDS)
        except TimeoutError:
            progress(report())


@contextmanager
def _stopping(nested: Nested):
    """On any exception (Ctrl-C above all), stop the chunks still running on the pool's
    threads before the pool's shutdown waits for them (entered after the pool, so it
    exits first)."""
    try:
        yield
    except BaseException:
        nested.stopped.set()
        raise


def _run_exact(query, nested, threads, progress, started, seed) -> PqlResult:
    sums, trials, dealt = _sums(query, True), 0, 0
    blocks = enumerate_blocks(query.table, query.streets)
    try:
        with ThreadPoolExecutor(_threads(threads)) as pool, _stopping(nested):
            while True:
                wave = [b for _, b in zip(range(_threads(threads)), blocks)]
                if not wave:
                    break
                futures = [pool.submit(block_sums, query, b, nested, True) for b in wave]
                report = lambda: _result(query, sums, True, trials, dealt, seed, True, started)  # noqa: E731
                for part, t, d in (_waited(f, progress, report) for f in futures):
                    _merge(sums, part)
                    trials, dealt = trials + t, dealt + d
                if progress is not None:
                    progress(_result(query, sums, True, trials, dealt, seed, True, started))
    except KeyboardInterrupt:
        return _result(query, sums, False, trials, dealt, seed, True, started)
    return _result(query, sums, True, trials, dealt, seed, False, started)


def _run_sampled(query, nested, trials, stderr, seed, threads, progress, started,
                 executor=None) -> PqlResult:
    if trials is not None and (not isinstance(trials, int) or isinstance(trials, bool) or trials < 1):
        raise PqlError(f"trials must be a positive whole number, got {trials!r}")
    if stderr is not None and not (isinstance(stderr, (int, float)) and 0 < stderr < 1):
        raise PqlError(f"stderr must be a number between 0 and 1, got {stderr!r}")
    goal = trials if trials is not None else (None if stderr is not None else DEFAULT_TRIALS)
    most_dealt = (goal or 10_000_000) * _MAX_DEALT_FACTOR
    sums, accepted, dealt, index = _sums(query, False), 0, 0, 0
    n = _threads(threads) if executor is None else max(_threads(threads), 8)
    partial = False
    try:
        with ThreadPoolExecutor(n) as threads_pool, _stopping(nested):
            pool = executor or threads_pool

            def submit(i: int, keep: int | None = None):
                if executor is None:
                    return pool.submit(chunk_sums, query, seed, i, nested, keep)
                return pool.submit(remote_chunk, query.text, seed, i, keep)

            done = False
            while not done:
                wave = list(range(index, index + n))
                index += n
                # no chunk of this wave counts more than the trials still wanted (so a
                # short run's nested walks compute only those); the cut below is the same
                futures = [submit(i, None if goal is None else goal - accepted) for i in wave]
                report = lambda: _result(query, sums, False, accepted, dealt, seed, True, started)  # noqa: E731
                parts = (_waited(f, progress, report) for f in futures)
                for i, (part, t, d) in zip(wave, parts):
                    if goal is not None and accepted + t > goal:  # cut this chunk to the goal
                        part, t, d = _waited(submit(i, goal - accepted), progress, report)
                    _merge(sums, part)
                    accepted, dealt = accepted + t, dealt + d
                    if (goal is not None and accepted >= goal) or \
                            (stderr is not None and _stderr_done(sums, stderr)):
                        done = True
                        break
                    if dealt >= most_dealt:
                        if not accepted:
                            raise PqlError(f"the WHERE clause held in none of {dealt:,} trials")
                        done = True
                        break
                if progress is not None and not done:
                    progress(_result(query, sums, False, accepted, dealt, seed, True, started))
    except KeyboardInterrupt:
        partial = True
    return _result(query, sums, False, accepted, dealt, seed, partial, started)
