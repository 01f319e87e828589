#!/usr/bin/env python
"""Kernel A/B: the same kernel spots timed in two trees, alternating, in one run.

Each tree's ``pokereval`` package (built: C module and kernel cache, e.g. ``python
setup.py build_ext --inplace``) is copied into a fresh folder, so nothing is
written into the trees.  Then, for ``--rounds`` rounds, a child process per tree
(before, after, before, after, ...) imports ``pokereval.kernels`` (an older tree
then walks exact spots in its kernels, not in C), answers each spot once to load its
kernels, and times the best of ``--repeats`` answers on one thread.  Both trees see the same
load; the table gives each spot's best time per tree, the ratio after / before
(below 1: the after tree is faster) and their geometric mean.  Answers are
compared too: the outcome counts (distributions: the curves) must agree to 1e-12.

    python benchmarks/kernel_ab.py --before /work/main [--after .] [--rounds 3]
                                   [--repeats 3] [--only WORD...] [--list] [--cpu]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (name, call, keyword arguments): ``equity`` or ``distribution`` with its arguments
SPOTS: list[tuple[str, str, dict]] = [
    ("omaha-hilo exact HU preflop", "equity",
     dict(game="omaha-hilo", hands=["AcAs3d4h", "KhKcJdTd"], exact=True)),
    ("omaha-hilo MC HU preflop 2M", "equity",
     dict(game="omaha-hilo", hands=["AcAs3d4h", "KhKcJdTd"], samples=2_000_000, seed=1)),
    ("omaha-hilo MC 3-way flop 2M", "equity",
     dict(game="omaha-hilo", hands=["AcAs3d4h", "KhKcJdTd", "9s8s7h6h"], board="2c7d9h",
          samples=2_000_000, seed=1)),
    ("holdem exact HU preflop", "equity", dict(game="holdem", hands=["AhKh", "QsQd"], exact=True)),
    ("holdem MC 3-way preflop 1M", "equity",
     dict(game="holdem", hands=["AhKh", "QsQd", "7c6c"], samples=1_000_000, seed=1)),
    ("AA** vs **** MC 1M", "equity",
     dict(game="omaha-hilo", hands=["AA**", "****"], samples=1_000_000, seed=1)),
    ("AA2* vs KK** MC 1M", "equity",
     dict(game="omaha-hilo", hands=["AA2*", "KK**"], samples=1_000_000, seed=1)),
    ("holdem AKs vs QQ exact", "equity", dict(game="holdem", hands=["AKs", "QQ"], exact=True)),
    ("AA** vs KhKdQcJc exact flop", "equity",
     dict(game="omaha-hilo", hands=["AA**", "KhKdQcJc"], board="2c7d9h", exact=True)),
    ("stud-hilo MC 3rd street 1M", "equity",
     dict(game="stud-hilo", hands=["As2s3d", "KhKdQc"], samples=1_000_000, seed=1)),
    # compare.py's stud and razz Monte Carlo spots (issue 27 goal 1)
    ("stud-hilo MC 3-way 3rd street 2M", "equity",
     dict(game="stud-hilo", hands=["Ac2d5h", "KsKdQc", "7s8s9s"], samples=2_000_000, seed=1)),
    ("razz MC 3-way 3rd street 2M", "equity",
     dict(game="razz", hands=["As2d4c", "3h5s7d", "KcQd8h"], samples=2_000_000, seed=1)),
    ("stud-hilo MC HU 5th street 2M", "equity",
     dict(game="stud-hilo", hands=["Ac2c3h5d6s", "KdKhQcQh4s"], samples=2_000_000, seed=1)),
    ("distribution omaha-hilo HU preflop", "distribution",
     dict(game="omaha-hilo", hands=["AcAs3d4h", "KhKcJdTd"], exact=True)),
    ("distribution 4-way omaha preflop", "distribution",
     dict(game="omaha", hands=["AcAs3d4h", "KhKcJdTd", "9s8s7h6h", "QcJc2s2h"], exact=True)),
    ("distribution AA** vs KhKdQcJc turn", "distribution",
     dict(game="omaha-hilo", hands=["AA**", "KhKdQcJc"], board="7c8d9h2s", exact=True)),
]


# ---------------------------------------------------------------------------
# child: one tree, every spot
# ---------------------------------------------------------------------------

def spot_answer(call: str, kw: dict, threads: int = 1):
    """Run a spot on ``threads`` threads (one by default): its answer as plain numbers."""
    import pokereval

    kw = dict(kw, threads=threads)
    game, hands = kw.pop("game"), kw.pop("hands")
    if call == "equity":
        r = pokereval.equity(game, hands, **kw)
        return [p.outcomes.astype(float).ravel().tolist() for p in r.players]
    from pokereval.distribution import equity_distribution

    r = equity_distribution(game, hands, **kw)
    return [[x for point in p.curve for x in point] for p in r.players]


def child(names: list[str], repeats: int, clock=time.perf_counter) -> None:
    import numba

    import pokereval.kernels  # noqa: F401  (an older tree: its exact spots in the kernels)

    numba.set_num_threads(1)
    out = {}
    for name, call, kw in SPOTS:
        if name not in names:
            continue
        answer = spot_answer(call, kw)  # loads (or compiles) the kernels it needs
        best = math.inf
        for _ in range(repeats):
            t0 = clock()
            spot_answer(call, kw)
            best = min(best, clock() - t0)
        out[name] = {"seconds": best, "answer": answer}
        print(f"  {name}: {best:.4f} s", file=sys.stderr, flush=True)
    print(json.dumps(out))


# ---------------------------------------------------------------------------
# parent
# ---------------------------------------------------------------------------

def _copy(tree: Path, into: Path) -> Path:
    """The tree's built package (C module, kernel cache) in a folder of its own."""
    shutil.copytree(tree / "pokereval", into / "pokereval")
    return into


def _close(a, b) -> bool:
    if isinstance(a, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return abs(a - b) <= 1e-12


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, default=None, help="tree A (e.g. /work/main)")
    ap.add_argument("--after", type=Path, default=ROOT, help="tree B (default: this tree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", nargs="+", metavar="WORD", help="spots whose name has a WORD")
    ap.add_argument("--list", action="store_true", help="list the spots and exit")
    ap.add_argument("--cpu", action="store_true",
                    help="time the process's CPU seconds, not wall time (a shared, loaded "
                         "machine: another process's share of the cores is not counted)")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.repeats, time.process_time if args.cpu else time.perf_counter)
        return 0
    names = [s[0] for s in SPOTS if not args.only or any(w in s[0] for w in args.only)]
    if args.list or not names:
        print("\n".join(names) if names else "no spot matches --only")
        return 0
    if args.before is None:
        ap.error("--before TREE is required")
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    best: dict[str, dict[str, float]] = {label: {} for label in trees}
    answers: dict[str, dict[str, object]] = {label: {} for label in trees}
    with tempfile.TemporaryDirectory(prefix="kernel-ab-") as tmp:
        copies = {label: _copy(t, Path(tmp) / label) for label, t in trees.items()}
        env = dict(os.environ, POKEREVAL_QUIET_COMPILE="1")
        for rnd in range(args.rounds):
            for label, folder in copies.items():
                cmd = [sys.executable, str(Path(__file__).resolve()), "--repeats",
                       str(args.repeats), *(["--cpu"] if args.cpu else []), "--child", *names]
                print(f"round {rnd + 1}/{args.rounds}, {label}:", file=sys.stderr, flush=True)
                done = subprocess.run(cmd, cwd=folder, env=dict(env, PYTHONPATH=str(folder)),
                                      stdout=subprocess.PIPE, text=True)
                if done.returncode:
                    return 1
                for name, r in json.loads(done.stdout.splitlines()[-1]).items():
                    best[label][name] = min(best[label].get(name, math.inf), r["seconds"])
                    answers[label][name] = r["answer"]
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; one thread; best of "
          f"{args.rounds} x {args.repeats}; {'CPU' if args.cpu else 'wall'} seconds\n")
    print(f"| spot | before ({trees['before']}) s | after ({trees['after']}) s | after/before "
          "| same answer |")
    print("|---|---:|---:|---:|---|")
    logs = []
    for name in names:
        b, a = best["before"][name], best["after"][name]
        logs.append(math.log(a / b))
        same = "yes" if _close(answers["before"][name], answers["after"][name]) else "NO"
        print(f"| {name} | {b:.4f} | {a:.4f} | {a / b:.3f} | {same} |")
    print(f"\ngeometric mean after/before: {math.exp(sum(logs) / len(logs)):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
