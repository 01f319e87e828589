#!/usr/bin/env python
"""Next-street distributions: how long ``pe.equity_distribution`` takes on the spots
issue 12 sets targets for, checked against ``pe.equity`` (the weighted mean of the
curve is the equity now, exactly).

    python benchmarks/distribution.py [--repeats 3] [--threads N]

Prints one line per case: best and median wall time of the call (after one warm-up
call that loads the kernels), the number of deals and the target.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pokereval as pe  # noqa: E402

CASES = [
    # (label, game, hands, board, target seconds)
    ("Omaha Hi/Lo HU preflop -> flop (13,244 flops x 820)", "omaha-hilo",
     ["AhAd2c3s", "KsKdQhJh"], "", 1.0),
    ("Omaha Hi/Lo HU flop -> turn", "omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h", 0.05),
    ("Omaha Hi/Lo hand vs AA** flop -> turn", "omaha-hilo", ["AhKd2c3s", "AA**"], "7c8d9h",
     2.0),
    ("Hold'em HU preflop -> flop", "holdem", ["AhKh", "QsQd"], "", None),
    ("5-Card Omaha Hi/Lo HU preflop -> flop", "omaha5-hilo", ["AhAd2c3s4h", "KsKdQhJhTd"], "",
     None),
    ("Courchevel Hi/Lo HU exposed card -> flop", "courchevel-hilo",
     ["AhAd2c3s4h", "KsKdQhJhTd"], "7c", None),
    ("Stud Hi/Lo HU fifth -> sixth street", "stud-hilo", ["Ah2d3c4s9s", "KsKdQhJhTh"], "", None),
    ("Razz HU third -> fourth street (2M samples)", "razz", ["Ah2d3c", "KsKdQh"], "", None),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    for label, game, hands, board, target in CASES:
        kw = dict(threads=args.threads)
        if game == "razz":
            kw["seed"] = 1
        first = pe.equity_distribution(game, hands, board, **kw)  # warm-up: kernels loaded
        times = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            r = pe.equity_distribution(game, hands, board, **kw)
            times.append(time.perf_counter() - t)
        check = ""
        if r.exact:
            e = pe.equity(game, hands, board, exact=True)
            same = all(p.equity_fraction == q.equity_fraction for p, q in zip(r.players, e.players))
            check = "identity exact" if same else "IDENTITY FAILED"
        assert first.deals == r.deals
        goal = f" (target < {1000 * target:g} ms)" if target else ""
        print(f"{label:55s} best {1000 * min(times):8.1f} ms  "
              f"median {1000 * statistics.median(times):8.1f} ms"
              f"  {r.deals:6,d} deals  {'exact' if r.exact else 'sampled'}  {check}{goal}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
