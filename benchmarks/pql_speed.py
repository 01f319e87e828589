"""PQL speed: issue 24's performance figures, measured in one run, printed as a table.

    python benchmarks/pql_speed.py [--trials 600000] [--repeats 2] [--quick]

1. ``avg(riverEquity(hero))``, Omaha Hi/Lo ``A2**`` vs ``15%``, sampled on one thread:
   trials per second (CPU time: what one thread does, whatever else the machine runs;
   wall time too) against ``pe.equity`` Monte Carlo on the same spot.  Goal >= 0.5x.
2. A three-selector Omaha Hi/Lo query with a ``where`` clause (the quartered example),
   600,000 accepted trials on 2 threads: wall and CPU seconds.  Goal < 1 s wall.
3. An exact flop query (fixed hands, every turn and river), warm, in-process: best of 20.
   Goal < 10 ms.
4. ``HvREquity(hero, flop)``: one ``pe.equity`` per distinct (hand, board), cached for
   the query's run: a fixed hand on a fixed flop (one key, every trial a cache hit)
   against a fixed hand on random flops (about one key per trial).

Timings depend on the load: the load average is printed first; CPU seconds are the
figure to compare on a busy machine, wall seconds need idle cores.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pokereval as pe  # noqa: E402

SPOT = "game='omaha8', hero='A2**', villain='15%'"
Q1 = f"select avg(riverEquity(hero)) from {SPOT}"
Q2 = ("select count(tiesLo(hero)) as quartered, avg(riverEquity(hero)) as eq, "
      "count(scoops(hero)) from game='omaha8', hero='A2**', villain1='15%', villain2='15%' "
      "where nutLo(hero, river) and not (winsHi(hero) or tiesHi(hero))")
Q3 = ("select avg(riverEquity(hero)), count(winsHi(hero)), count(scoops(hero)) "
      "from game='omaha8', hero='AcAs3d4h', villain='KhKcJdTd', board='7c8d9h'")
Q4_FIXED = ("select avg(HvREquity(hero, flop)) from game='omaha8', hero='AsAd2c3h', "
            "villain='15%', board='Kc7d2s'")
Q4_OPEN = "select avg(HvREquity(hero, flop)) from game='omaha8', hero='AsAd2c3h', villain='15%'"


def timed(f):
    """(CPU seconds of this process, wall seconds, result)."""
    c, w = time.process_time(), time.perf_counter()
    r = f()
    return time.process_time() - c, time.perf_counter() - w, r


def best(f, repeats: int):
    runs = [timed(f) for _ in range(repeats)]
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[-1][2]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=600_000)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="100,000 trials, one repeat")
    ap.add_argument("--only", default="1,2,3,4a,4b", help="figures to run (default all: 1,2,3,4a,4b)")
    a = ap.parse_args(argv)
    only = set(a.only.split(","))
    trials, repeats = (100_000, 1) if a.quick else (a.trials, a.repeats)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
          f"{trials:,} trials; best of {repeats}", flush=True)
    # warm: kernels loaded, tables built
    pe.pql(Q1, trials=20_000, seed=1, threads=1)
    pe.pql(Q2, trials=5_000, seed=1, threads=2)
    pe.equity("omaha-hilo", ["A2**", "15%"], samples=20_000, seed=1, threads=1)

    def row(name, value, note=""):
        print(f"{name:<62} {value:<44} {note}", flush=True)

    if "1" in only:
        c1, w1, r1 = best(lambda: pe.pql(Q1, trials=trials, seed=1, threads=1), repeats)
        c2, w2, e = best(lambda: pe.equity("omaha-hilo", ["A2**", "15%"], samples=trials,
                                           seed=1, threads=1), repeats)
        row("1. riverEquity, A2** vs 15%, 1 thread (pql)",
            f"{trials / c1:,.0f} trials/s CPU ({trials / w1:,.0f} wall)",
            f"eq {r1.columns[0].value:.4f}")
        row("   pe.equity Monte Carlo, same spot",
            f"{trials / c2:,.0f} samples/s CPU ({trials / w2:,.0f} wall)",
            f"eq {e.players[0].equity:.4f}")
        row("   pql / pe.equity (goal >= 0.5x)", f"{c2 / c1:.2f}x CPU, {w2 / w1:.2f}x wall")
    if "2" in only:
        c, w, r = best(lambda: pe.pql(Q2, trials=600_000, seed=1, threads=2), repeats)
        row("2. quartered query, 600,000 trials, 2 threads (goal < 1 s)",
            f"{w:.2f} s wall, {c:.2f} s CPU",
            f"{r.columns[0].value:.4%} quartered; where held in {r.acceptance:.1%}")
    if "3" in only:
        pe.pql(Q3, exact=True)
        _, w, r = best(lambda: pe.pql(Q3, exact=True), 20)
        row("3. exact flop query, fixed hands, warm (goal < 10 ms)", f"{w * 1000:.2f} ms",
            f"{r.trials} run-outs")
    if "4a" in only:
        n = 20_000 if not a.quick else 5_000
        c, w, r = timed(lambda: pe.pql(Q4_FIXED, trials=n, seed=1, threads=1))
        row(f"4. HvREquity, fixed hand and flop, {n:,} trials (1 key)",
            f"{w:.2f} s wall, {c:.2f} s CPU", f"eq {r.columns[0].value:.4f}")
    if "4b" in only:
        m = 4 if not a.quick else 2
        c, w, r = timed(lambda: pe.pql(Q4_OPEN, trials=m, seed=1, threads=1))
        row(f"   HvREquity, fixed hand, random flops, {m} trials ({m} keys)",
            f"{w:.2f} s wall, {c:.2f} s CPU", f"{c / m:.2f} s CPU a key")
    return 0


if __name__ == "__main__":
    sys.exit(main())
