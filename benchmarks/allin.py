"""Timing of ``pokereval.allin_ev`` on typical all-in spots (3-way Omaha Hi/Lo with side pots).

    python benchmarks/allin.py [--repeats 3]

Prints the best of ``--repeats`` wall times per spot (the first call of a process,
which loads the C library and NumPy paths, is reported separately as "first").
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pokereval as pe  # noqa: E402

HANDS = {1: "AhAd2c3s", 4: "KsKdQhJh", 6: "As4c5d6h"}
CHIPS = dict(contributions={1: 300, 4: 1000, 6: 1000, 2: 5}, folded=[2], button=6)
SPOTS = [
    ("omaha-hilo 3-way preflop, exact", "omaha-hilo", HANDS, "", {}),
    ("omaha-hilo 3-way preflop, 200k samples", "omaha-hilo", HANDS, "", {"samples": 200_000, "seed": 1}),
    ("omaha-hilo 3-way flop, exact", "omaha-hilo", HANDS, "7c8d9h", {}),
    ("omaha-hilo 3-way turn, exact", "omaha-hilo", HANDS, "7c8d9hKc", {}),
    ("stud-hilo 3-way 4th street, 200k samples", "stud-hilo", HANDS, "", {"samples": 200_000, "seed": 1}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{'spot':45} {'run-outs':>10} {'first':>9} {'best':>9}")
    for name, game, hands, board, kw in SPOTS:
        times = []
        for _ in range(args.repeats + 1):
            t = time.perf_counter()
            r = pe.allin_ev(game, hands, board, **CHIPS, **kw)
            times.append(time.perf_counter() - t)
        print(f"{name:45} {r.samples:>10,} {times[0]:>8.3f}s {min(times[1:]):>8.3f}s")


if __name__ == "__main__":
    main()
