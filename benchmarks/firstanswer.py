#!/usr/bin/env python
"""First answer per game: wall time of ``pokereval equity ...`` in a fresh process.

For each spot: "cold" is the first process on the kernel cache as the install left it
(``--cold-cache empty`` instead points ``NUMBA_CACHE_DIR`` at a fresh empty folder, so
every kernel the spot needs is compiled); "warm" is the best of ``--repeats`` more
processes after that.  Also reports ``import pokereval``.  Every figure includes
interpreter start-up and exit, measured from the parent.

    python benchmarks/firstanswer.py [--python PATH] [--cold-cache empty|installed]
"""
from __future__ import annotations

import argparse
import os
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
    t0 = time.perf_counter()
    proc = subprocess.run([python, *args], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{args} failed ({proc.returncode}): {proc.stderr[-1000:]}")
    return elapsed


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
    imp = min(wall(args.python, ["-c", "import pokereval"], env) for _ in range(args.repeats))
    print(f"import pokereval: {imp:.3f} s  (cache: {args.cold_cache})")
    print(f"| game | spot | cold first answer | warm CLI answer |\n|---|---|---|---|")
    for game, label, cli in SPOTS:
        cold = wall(args.python, ["-m", "pokereval", "equity", *cli], env)
        warm = min(wall(args.python, ["-m", "pokereval", "equity", *cli], env)
                   for _ in range(args.repeats))
        print(f"| {game} | {label} | {cold:.2f} s | {warm:.2f} s |", flush=True)
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
