"""pytest-benchmark setup: test data, the rate helper, a rate summary at the end.

Run with ``pytest benchmarks/ --benchmark-only`` (the main test run never collects
this folder: ``testpaths = ["tests"]``).  Every case puts its throughput in
``benchmark.extra_info`` (kept in ``--benchmark-json`` output) and the summary
printed after the run lists them.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchspots  # noqa: E402,F401  (puts the repository on sys.path)

N_HANDS = 1_000_000  # rows of 5- and 7-card hands per batch
N_OMAHA = 200_000  # (hole, board) rows per Omaha batch
SEED = 20240611

_RATES: list[tuple[str, str, float, float]] = []


def random_deals(rows: int, width: int, rng: np.random.Generator, block: int = 100_000) -> np.ndarray:
    """``uint8[rows, width]``: each row ``width`` distinct cards, uniformly at random."""
    out = np.empty((rows, width), dtype=np.uint8)
    for start in range(0, rows, block):
        stop = min(start + block, rows)
        out[start:stop] = np.argpartition(rng.random((stop - start, 52)), width, axis=1)[:, :width]
    return out


def _lex_runs(rng: np.random.Generator, runs: int, length: int, k: int = 7, n: int = 52) -> np.ndarray:
    """``runs`` stretches of ``length`` consecutive k-subsets of range(n) in lexicographic
    order, each from a random starting subset."""
    out = np.empty((runs * length, k), dtype=np.uint8)
    row = 0
    for _ in range(runs):
        c = sorted(rng.choice(n - 2, size=k, replace=False).tolist())  # leave room to advance
        for _ in range(length):
            out[row] = c
            row += 1
            i = k - 1
            while c[i] == n - k + i:
                i -= 1
            c[i] += 1
            for j in range(i + 1, k):
                c[j] = c[j - 1] + 1
    return out


@pytest.fixture(scope="session")
def hands():
    """Card arrays (uint8) shared by the evaluation benchmarks.

    ``seven_seq``: 100 runs of 10,000 consecutive hands of the lexicographic
    enumeration of seven-card hands (consecutive hands share most cards);
    ``seven_shuffled``: the same hands in random order; ``seven``: uniformly random
    hands; ``five``; Omaha ``o4_hole/o4_board`` (4 + 5 cards), ``o5_hole/o5_board``;
    ``o4_fixed_hole/o4_fixed_board``: one holding against many boards (the equity loop's shape).
    """
    rng = np.random.default_rng(SEED)
    seq = _lex_runs(rng, 100, N_HANDS // 100)
    o4 = random_deals(N_OMAHA, 9, rng)
    o5 = random_deals(N_OMAHA, 10, rng)
    return {
        "five": random_deals(N_HANDS, 5, rng),
        "seven": random_deals(N_HANDS, 7, rng),
        "seven_seq": seq,
        "seven_shuffled": np.ascontiguousarray(seq[rng.permutation(len(seq))]),
        "o4_hole": np.ascontiguousarray(o4[:, :4]),
        "o4_board": np.ascontiguousarray(o4[:, 4:]),
        "o5_hole": np.ascontiguousarray(o5[:, :5]),
        "o5_board": np.ascontiguousarray(o5[:, 5:]),
        **_fixed_hole(rng),
    }


def _fixed_hole(rng: np.random.Generator) -> dict:
    """One holding (As Ks 2d 3d) repeated, against random boards of the other 48 cards."""
    hole = np.array([51, 47, 1, 5], dtype=np.uint8)
    rest = np.array([c for c in range(52) if c not in set(hole.tolist())], dtype=np.uint8)
    picks = np.argpartition(rng.random((N_OMAHA, len(rest))), 5, axis=1)[:, :5]
    return {"o4_fixed_hole": np.ascontiguousarray(np.tile(hole, (N_OMAHA, 1))),
            "o4_fixed_board": np.ascontiguousarray(rest[picks])}


@pytest.fixture
def rate(benchmark):
    """``rate(count, unit)``: after the benchmark ran, store ``count / time`` in
    ``extra_info`` (``<unit>_per_s`` from the median round, ``<unit>_per_s_best`` from the
    fastest) and queue it for the summary."""
    def record(count: int, unit: str, **extra):
        benchmark.extra_info.update(extra)
        meta = getattr(benchmark, "stats", None)
        if meta is None:  # --benchmark-disable: nothing was timed
            return
        stats = meta.stats
        median = count / stats.median if stats.median > 0 else float("inf")
        best = count / stats.min if stats.min > 0 else float("inf")
        benchmark.extra_info[f"{unit}_per_s"] = median
        benchmark.extra_info[f"{unit}_per_s_best"] = best
        _RATES.append((benchmark.name, unit, median, best))
    return record


def pytest_terminal_summary(terminalreporter):
    if not _RATES:
        return
    tr = terminalreporter
    tr.section("throughput (count / median round, count / best round)")
    width = max(len(name) for name, *_ in _RATES)
    for name, unit, median, best in _RATES:
        tr.write_line(f"{name:<{width}}  {median / 1e6:10.3f} M {unit}/s   (best {best / 1e6:.3f} M)")
