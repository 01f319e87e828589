#!/usr/bin/env python
"""Thread scaling: every exact and Monte Carlo path of the kernels on 1 and on N threads.

One spot per path (board games and stud, fixed hands and ranges, exact and sampled, the
next-street distributions), each timed best-of-``repeats`` on one thread and on ``N``
(default 2) in this one process; the ratio is time(1) / time(N), the target 1.8x for
two threads (issue 27, goal 2).  The answers on 1 and N threads must be the same (a
seed gives the same counts on any number of threads; exact is exact), else the row is
flagged.  ``compare.py`` adds these rows to its table (step names ``scaling ...``);
run alone:

    python benchmarks/thread_scaling.py [--threads 2] [--repeats 3] [--only WORD...]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchspots as B  # noqa: E402
from kernel_ab import spot_answer as answer  # noqa: E402  (one way to answer a spot)

#: (label, call, keyword arguments): ``equity`` or ``distribution``
PATHS: list[tuple[str, str, dict]] = [
    ("exact board, fixed: Omaha Hi/Lo HU preflop", "equity",
     dict(game="omaha-hilo", hands=["AcAs3d4h", "KhKcJdTd"], exact=True)),
    # (AKs vs QQ, 2 walks up to suit renaming, is a 3 ms call since the walk by rank
    # multisets: a few more walks, so that a thread has something to share)
    ("exact board, ranges: hold'em AK vs TT+ preflop", "equity",
     dict(game="holdem", hands=["AK", "TT+"], exact=True)),
    ("exact board, ranges: AA** vs KhKdQcJc flop", "equity",
     dict(game="omaha-hilo", hands=["AA**", "KhKdQcJc"], board="2c7d9h", exact=True)),
    ("exact stud, fixed: Stud Hi/Lo 8-handed fifth street", "equity",
     dict(game="stud-hilo", hands=list(B.STUD8_8HANDED_5TH.hands), exact=True)),
    ("MC board, fixed: Omaha Hi/Lo HU preflop 1M", "equity",
     dict(game="omaha-hilo", hands=["AcAs3d4h", "KhKcJdTd"], samples=1_000_000, seed=1)),
    ("MC board, ranges: AA** vs **** 1M", "equity",
     dict(game="omaha-hilo", hands=["AA**", "****"], samples=1_000_000, seed=1)),
    ("MC board, ranges: AA2* vs KK** 1M", "equity",
     dict(game="omaha-hilo", hands=["AA2*", "KK**"], samples=1_000_000, seed=1)),
    ("MC stud, fixed: Stud Hi/Lo 3-way third street 2M", "equity",
     dict(game="stud-hilo", hands=["As2s3d", "KhKdQc", "9s8s7h"], samples=2_000_000, seed=1)),
    ("MC stud, ranges: **7s vs AsKs2d 1M", "equity",
     dict(game="stud-hilo", hands=["**7s", "AsKs2d"], samples=1_000_000, seed=1)),
    ("distribution, fixed: Omaha Hi/Lo HU preflop", "distribution",
     dict(game="omaha-hilo", hands=["AcAs3d4h", "KhKcJdTd"], exact=True)),
    ("distribution, ranges: AA** vs KhKdQcJc turn", "distribution",
     dict(game="omaha-hilo", hands=["AA**", "KhKdQcJc"], board="7c8d9h2s", exact=True)),
]


def measure(call: str, kw: dict, threads: int, repeats: int) -> dict:
    """``{"t1", "tn", "same"}``: best seconds on one thread and on ``threads``, and
    whether the two answers agree."""
    import pokereval.kernels  # noqa: F401  (loaded before the timing)

    (t1, a1), (tn, an) = B.best_times([lambda: answer(call, kw, 1),
                                       lambda: answer(call, kw, threads)], repeats)
    return {"t1": t1, "tn": tn, "same": a1 == an}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", nargs="+", metavar="WORD")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    print("| path | 1 thread | %d threads | ratio | target | answers |" % args.threads)
    print("|---|---|---|---|---|---|")
    flagged = 0
    for label, call, kw in PATHS:
        if args.only and not any(w in label for w in args.only):
            continue
        m = measure(call, kw, args.threads, args.repeats)
        ratio = m["t1"] / m["tn"]
        flagged += not m["same"]
        print(f"| {label} | {m['t1'] * 1e3:,.1f} ms | {m['tn'] * 1e3:,.1f} ms | {ratio:.2f}x | "
              f">= 1.8x ({'PASS' if ratio >= 1.8 else 'short'}) | "
              f"{'same on 1 and N threads' if m['same'] else 'answers DIFFER'} |", flush=True)
    print(f"\nload average (1 min) {load0:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
