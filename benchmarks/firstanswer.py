#!/usr/bin/env python
"""First answer per game: wall time of ``pokereval equity ...`` in a fresh process.

For each spot: "cold" is the first process on the kernel cache as the install left it
(``--cold-cache empty`` instead points ``NUMBA_CACHE_DIR`` at a fresh empty folder, so
every kernel the spot needs is compiled); "warm" is the best of ``--repeats`` more
processes after that.  Also reports ``import pokereval``.  Every figure includes
interpreter start-up and exit, measured from the parent; the CPU seconds (user +
system) of the same child are given too, a figure that a busy machine inflates less.

    python benchmarks/firstanswer.py [--python PATH] [--cold-cache empty|installed]
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

#: (game label, CLI arguments after ``equity``): the spots of issue 11
SPOTS = [
    ("omaha-hilo", "exact HU preflop", ["omaha-hilo", "AcAs3d4h", "KhKcJdTd", "--exact"]),
    ("stud-hilo", "3rd street HU", ["stud-hilo", "As2s3d", "KhKdQc"]),
    ("omaha-hilo", "AA** vs KK** (ranges)", ["omaha-hilo", "AA**", "KK**"]),
    ("holdem", "AKs vs QQ", ["holdem", "AKs", "QQ"]),
    ("holdem", "AKs vs QQ --exact", ["holdem", "AKs", "QQ", "--exact"]),
    ("razz", "3-way 3rd street", ["razz", "Ah2c3d", "4s5s6h", "7c8c9d"]),
    ("omaha-hilo", "flop spot", ["omaha-hilo", "AcAs3d4h", "KhKcJdTd", "--board", "7c8d9h"]),
]


def wall(python: str, args: list[str], env: dict) -> float:
    """Wall seconds of one child process; its CPU seconds are added to ``CPU[0]``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([python, *args], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[0] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        raise RuntimeError(f"{args} failed ({proc.returncode}): {proc.stderr[-1000:]}")
    return elapsed


CPU = [0.0]  # CPU seconds (user + system) of the last child: a figure less sensitive to load


def best(python: str, args: list[str], env: dict, repeats: int) -> tuple[float, float]:
    """(best wall, CPU of that run) over ``repeats`` children."""
    runs = []
    for _ in range(repeats):
        w = wall(python, args, env)
        runs.append((w, CPU[0]))
    return min(runs)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--cold-cache", choices=["empty", "installed"], default="empty")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    env = dict(os.environ)
    tmp = None
    if args.cold_cache == "empty":
        tmp = tempfile.TemporaryDirectory(prefix="pokereval-first-")
        env["NUMBA_CACHE_DIR"] = tmp.name
    imp, imp_cpu = best(args.python, ["-c", "import pokereval"], env, args.repeats)
    print(f"import pokereval: {imp:.3f} s wall ({imp_cpu:.3f} s CPU)  (cache: {args.cold_cache}; "
          f"load average {os.getloadavg()[0]:.1f})")
    print("| game | spot | cold first answer: wall (CPU) | warm CLI answer: wall (CPU) |\n"
          "|---|---|---|---|")
    for game, label, cli in SPOTS:
        cold = wall(args.python, ["-m", "pokereval", "equity", *cli], env)
        cold_cpu = CPU[0]
        warm, warm_cpu = best(args.python, ["-m", "pokereval", "equity", *cli], env, args.repeats)
        print(f"| {game} | {label} | {cold:.2f} s ({cold_cpu:.2f} s) | {warm:.2f} s ({warm_cpu:.2f} s) |",
              flush=True)
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
