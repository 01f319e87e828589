#!/usr/bin/env python
"""Cold start: wall time of a fresh Python process that imports pokereval and answers
one spot, with a cold and a warm Numba kernel cache.

Every figure is the wall time of ``python -c ...`` measured from the parent
(interpreter start, imports, table build, the answer, exit).  The cache state is set
with ``NUMBA_CACHE_DIR``: "cold" is a fresh empty temporary folder (every kernel the
spot needs is compiled), "warm" is the same folder again after one run filled it.
"default cache" uses the package's own cache (``pokereval/kernels/__pycache__``)
after one warm-up process: the "second process" figure users see.

    python benchmarks/coldstart.py [--repeats 3] [--quick]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchspots import FLOP_SPOT, KERNEL_SPOT, ROOT, Spot, env_for_subprocess, spot  # noqa: E402

#: the "second process" target for a flop spot, import included (seconds)
FLOP_TARGET_S = 1.0

_EQUITY = ("import pokereval\n"
           "equity = getattr(pokereval, 'equity', None)\n"
           "if not callable(equity):\n"
           "    from pokereval.equity_api import equity\n")


def spot_code(s: Spot, **kwargs) -> str:
    """A child program that answers ``s`` and prints a JSON summary."""
    call = (f"r = equity({s.game!r}, {list(s.hands)!r}, board={s.board!r}, dead={s.dead!r}"
            + "".join(f", {k}={v!r}" for k, v in kwargs.items()) + ")\n")
    return (_EQUITY + call
            + "import json, sys\n"
              "print(json.dumps({'exact': r.exact, 'samples': r.samples, "
              "'equity': [p.equity for p in r.players], "
              "'numba_loaded': 'numba' in sys.modules}))\n")


def run_child(code: str, env_extra: dict | None = None) -> tuple[float, str]:
    """(wall seconds, stdout) of ``python -c code`` run from the repository root."""
    env = env_for_subprocess(env_extra)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"child failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return wall, proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""


def timings(code: str, repeats: int, env_extra: dict | None = None, warmup: int = 0):
    """(best, median, last stdout) over ``repeats`` children after ``warmup`` children."""
    out = ""
    for _ in range(warmup):
        _, out = run_child(code, env_extra)
    walls = []
    for _ in range(repeats):
        wall, out = run_child(code, env_extra)
        walls.append(wall)
    return min(walls), statistics.median(walls), out


def cold_and_warm(code: str, repeats: int):
    """(cold seconds, warm best, warm median, stdout).  Cold: the first process on an
    empty NUMBA_CACHE_DIR (twice, each on a fresh folder, best kept, unless
    ``repeats`` is 1); warm: ``repeats`` more processes on the folder the first filled."""
    colds = []
    warm_best = warm_median = None
    out = ""
    for i in range(1 if repeats == 1 else 2):
        with tempfile.TemporaryDirectory(prefix="pokereval-numba-cache-") as cache:
            env = {"NUMBA_CACHE_DIR": cache}
            wall, out = run_child(code, env)
            colds.append(wall)
            if i == 0:
                warm_best, warm_median, out = timings(code, repeats, env)
    return min(colds), warm_best, warm_median, out


def second_process_flop(repeats: int = 3) -> tuple[float, float, str]:
    """(best, median, stdout) of the flop spot in a fresh process with the package's
    default kernel cache, after one warm-up process."""
    return timings(spot_code(FLOP_SPOT, exact=True), repeats, warmup=1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="the flop spot and one kernel spot only")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    reps = 1 if args.quick else args.repeats

    print(f"Fresh-process wall time, import included ({sys.executable}); "
          f"best / median of {reps} processes\n")
    results = {}
    base_best, base_med, _ = timings("import numpy", reps)
    imp_best, imp_med, _ = timings("import pokereval", reps)
    print(f"  {'python -c import numpy (baseline)':<58} {base_best:6.3f} s / {base_med:6.3f} s")
    print(f"  {'python -c import pokereval':<58} {imp_best:6.3f} s / {imp_med:6.3f} s")
    results["baseline_numpy"] = base_best
    results["import_pokereval"] = imp_best

    best, med, out = second_process_flop(reps)
    ok = "PASS" if best < FLOP_TARGET_S else "short"
    info = json.loads(out) if out else {}
    print(f"  {'flop spot, default cache (second process)':<58} {best:6.3f} s / {med:6.3f} s   "
          f"target < {FLOP_TARGET_S:.0f} s: {ok}  (Numba imported: {info.get('numba_loaded')})")
    results["flop_second_process"] = best

    mc = spot("o8-hu-preflop")
    cases = [("flop spot " + FLOP_SPOT.id, spot_code(FLOP_SPOT, exact=True)),
             (f"Monte Carlo {mc.id} (200,000 samples, a kernel)",
              spot_code(mc, samples=200_000, seed=1))]
    if not args.quick:
        stud = spot("stud8-hu-5th")
        cases += [(f"exact {KERNEL_SPOT.id} ({KERNEL_SPOT.runouts:,} run-outs, walked in C)",
                   spot_code(KERNEL_SPOT, exact=True)),
                  (f"exact {stud.id} ({stud.runouts:,} run-outs)", spot_code(stud, exact=True))]
    print("\n  NUMBA_CACHE_DIR = a fresh folder (cold: kernels compiled) / the same folder again (warm):")
    for label, code in cases:
        cold, warm_best, warm_med, out = cold_and_warm(code, reps)
        info = json.loads(out) if out else {}
        print(f"  {label:<58} cold {cold:7.3f} s   warm {warm_best:6.3f} s / {warm_med:6.3f} s"
              f"   (Numba imported: {info.get('numba_loaded')})")
        results[label] = {"cold": cold, "warm": warm_best}
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
