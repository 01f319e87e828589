#!/usr/bin/env python
"""Hand-evaluation throughput of the C evaluator, with a correctness gate.

1. Walks all 133,784,560 seven-card hands in C (``pokereval._native.enumerate7_counts``),
   checks the nine category counts against the known figures and prints
   evaluations per second.  Exits with status 1 on any count mismatch.
2. Random hands through the NumPy batch API (generation excluded from the timing):
   5-card high, 7-card high / eight-or-better low / razz, and Omaha per (hole, board)
   with 4 and 5 hole cards (high and low in one call).

    python benchmarks/enumerate7.py [--rows N] [--repeats R] [--seed S] [--skip-enumeration]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchspots  # noqa: E402,F401  (puts the repository on sys.path)

from pokereval import _native  # noqa: E402

CATEGORIES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush",
              "full house", "four of a kind", "straight flush")
EXPECTED = (23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644,
            3_473_184, 224_848, 41_584)
TOTAL = 133_784_560


def random_deals(rows: int, width: int, rng: np.random.Generator, block: int = 100_000) -> np.ndarray:
    """``uint8[rows, width]``: each row ``width`` distinct cards, uniformly at random."""
    out = np.empty((rows, width), dtype=np.uint8)
    for start in range(0, rows, block):
        stop = min(start + block, rows)
        keys = rng.random((stop - start, 52))
        out[start:stop] = np.argpartition(keys, width, axis=1)[:, :width]
    return out


def timed(fn, repeats: int) -> float:
    fn()  # warm (page faults, first-call overhead)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def enumerate_all(repeats: int) -> bool:
    best = float("inf")
    counts = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        counts = _native.enumerate7_counts()
        best = min(best, time.perf_counter() - t0)
    ok = True
    print(f"All seven-card hands through C (pe_enumerate7), best of {repeats}:")
    print(f"  {'category':<16} {'count':>12} {'expected':>12}")
    for name, got, want in zip(CATEGORIES, counts.tolist(), EXPECTED):
        flag = "" if got == want else "   <-- MISMATCH"
        ok &= got == want
        print(f"  {name:<16} {got:>12,} {want:>12,}{flag}")
    total = int(counts.sum())
    ok &= total == TOTAL
    print(f"  {'total':<16} {total:>12,} {TOTAL:>12,}{'' if total == TOTAL else '   <-- MISMATCH'}")
    print(f"  {best:.3f} s, {TOTAL / best / 1e6:,.1f} M evaluations/s "
          f"(nested loops over the cards, rank keys and suit masks built incrementally)")
    print("  counts:", "OK" if ok else "MISMATCH")
    return ok


def batch_rates(rows: int, repeats: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    print(f"\nRandom hands through the NumPy batch API ({rows:,} rows, best of {repeats}, "
          f"generation excluded; one C call per batch, one thread):")
    five = random_deals(rows, 5, rng)
    seven = random_deals(rows, 7, rng)
    o4 = random_deals(rows, 9, rng)
    o5 = random_deals(rows, 10, rng)
    o4h, o4b = np.ascontiguousarray(o4[:, :4]), np.ascontiguousarray(o4[:, 4:])
    o5h, o5b = np.ascontiguousarray(o5[:, :5]), np.ascontiguousarray(o5[:, 5:])
    cases = [
        ("5-card high (eval_hi_batch)", lambda: _native.eval_hi_batch(five), "hands"),
        ("7-card high (eval_hi_batch)", lambda: _native.eval_hi_batch(seven), "hands"),
        ("7-card 8-or-better low (eval_low8_batch)", lambda: _native.eval_low8_batch(seven), "hands"),
        ("7-card razz (eval_razz_batch)", lambda: _native.eval_razz_batch(seven), "hands"),
        ("Omaha 4 hole, hi+lo (eval_omaha_batch)", lambda: _native.eval_omaha_batch(o4h, o4b, True),
         "(hole, board)"),
        ("Omaha 4 hole, hi only", lambda: _native.eval_omaha_batch(o4h, o4b, False), "(hole, board)"),
        ("5-card Omaha, hi+lo (eval_omaha_batch)", lambda: _native.eval_omaha_batch(o5h, o5b, True),
         "(hole, board)"),
        ("5-card Omaha, hi only", lambda: _native.eval_omaha_batch(o5h, o5b, False), "(hole, board)"),
    ]
    width = max(len(c[0]) for c in cases)
    for name, fn, unit in cases:
        seconds = timed(fn, repeats)
        print(f"  {name:<{width}}  {rows / seconds / 1e6:8.2f} M {unit}/s  ({seconds * 1e3:7.1f} ms)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000, help="rows per random batch (default 1,000,000)")
    ap.add_argument("--repeats", type=int, default=3, help="timed repeats, best kept (default 3)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--skip-enumeration", action="store_true", help="only the random batches")
    args = ap.parse_args(argv)
    ok = True
    if not args.skip_enumeration:
        ok = enumerate_all(args.repeats)
    batch_rates(args.rows, args.repeats, args.seed)
    if not ok:
        print("\nFAIL: seven-card category counts do not match", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
