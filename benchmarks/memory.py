#!/usr/bin/env python
"""Peak resident memory (``ru_maxrss``) of an exact heads-up Omaha Hi/Lo preflop run.

Each line is a separate child process (``ru_maxrss`` is a high-water mark, so every
stage needs its own process): the interpreter with NumPy, ``import pokereval`` (the
C tables), the Numba kernels imported, the exact run (1,086,008 boards), a Monte Carlo
run of the same spot, and poker-equity's exact run of it when installed.

    python benchmarks/memory.py [--threads N]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchspots import PQ_GAMES, ROOT, env_for_subprocess, have, spot  # noqa: E402

SPOT = spot("o8-hu-preflop")

_REPORT = ("import resource, json, sys\n"
           "kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
           "if sys.platform == 'darwin':\n"
           "    kb //= 1024\n"
           "print(json.dumps({'maxrss_kib': kb}))\n")
_EQUITY = ("import pokereval\n"
           "equity = getattr(pokereval, 'equity', None)\n"
           "if not callable(equity):\n"
           "    from pokereval.equity_api import equity\n")


def stages(threads: int | None) -> list[tuple[str, str]]:
    args = f"{SPOT.game!r}, {list(SPOT.hands)!r}, board={SPOT.board!r}, dead={SPOT.dead!r}"
    out = [
        ("python + numpy", "import numpy\n"),
        ("import pokereval (C tables compiled in)", "import pokereval\n"),
        ("+ import the Numba kernels", "import pokereval, pokereval.kernels\n"),
        (f"exact {SPOT.label} ({SPOT.runouts:,} boards, walked in C)",
         _EQUITY + f"r = equity({args}, exact=True, threads={threads!r})\n"
         + f"assert r.exact and r.samples == {SPOT.runouts}\n"),
        ("Monte Carlo, 1,000,000 samples",
         _EQUITY + f"r = equity({args}, samples=1_000_000, seed=1, threads={threads!r})\n"),
    ]
    if have("poker_equity"):
        out.append(("poker-equity exact_from_text, same spot",
                    "import poker_equity as pq\n"
                    f"r = pq.exact_from_text({PQ_GAMES[SPOT.game]!r}, {list(SPOT.hands)!r}, "
                    f"{SPOT.board!r}, {SPOT.dead!r})\n"))
    return out


def measure(code: str) -> int:
    proc = subprocess.run([sys.executable, "-c", code + _REPORT], cwd=ROOT, env=env_for_subprocess(),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"child failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])["maxrss_kib"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=None, help="pokereval threads (default: all)")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    print("Peak resident memory (ru_maxrss) of a fresh process per line:")
    results = {}
    for label, code in stages(args.threads):
        kib = measure(code)
        results[label] = kib
        print(f"  {label:<52} {kib / 1024:8.1f} MiB")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
