#!/usr/bin/env python
"""First answer per game: wall time of ``python -m pokereval equity ...`` in a fresh process.

Each tree (``--tree``, default this repository; built, e.g. ``python setup.py build_ext
--inplace``) has its built package copied into a fresh folder and byte-compiled, as
``pip install .`` leaves it: the C module and the Numba kernel cache filled at build time
(``--cold-cache empty`` instead points ``NUMBA_CACHE_DIR`` at a fresh empty folder, so
every kernel a spot needs is compiled).  For each spot, "cold" is the first process on
that copy, "warm" the best of ``--repeats`` more; with two trees (before / after) the
runs alternate between them, so both sides see the same load.  Every figure includes
interpreter start-up and exit, measured from the parent; the CPU seconds (user + system)
of the same child follow in parentheses, a figure that a busy machine inflates less.

    python benchmarks/firstanswer.py [--tree DIR [--tree DIR]] [--repeats 3]
                                     [--cold-cache installed|empty] [--python PY]
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (game, spot label, CLI arguments after ``equity``): one typical spot per game (the
#: fixed hands of preflop / third street, as the auto plan answers them), two range
#: spots and a flop spot
SPOTS = [
    ("holdem", "AhKh vs QsQd preflop", ["holdem", "AhKh", "QsQd"]),
    ("omaha", "HU preflop", ["omaha", "AcAs3d4h", "KhKcJdTd"]),
    ("omaha-hilo", "HU preflop", ["omaha-hilo", "AcAs3d4h", "KhKcJdTd"]),
    ("omaha5", "HU preflop", ["omaha5", "AcAs3d4h5h", "KhKcJdTd9c"]),
    ("omaha5-hilo", "HU preflop", ["omaha5-hilo", "AcAs3d4h5h", "KhKcJdTd9c"]),
    ("courchevel", "HU, first board card", ["courchevel", "AcAs3d4h5h", "KhKcJdTd9c", "--board", "2c"]),
    ("courchevel-hilo", "HU, first board card",
     ["courchevel-hilo", "AcAs3d4h5h", "KhKcJdTd9c", "--board", "2c"]),
    ("stud", "3rd street HU", ["stud", "As2s3d", "KhKdQc"]),
    ("stud-hilo", "3rd street HU", ["stud-hilo", "As2s3d", "KhKdQc"]),
    ("razz", "3rd street HU", ["razz", "Ah2c3d", "4s5s6h"]),
    ("holdem", "AKs vs QQ (ranges)", ["holdem", "AKs", "QQ"]),
    ("omaha-hilo", "AA** vs KK** (ranges)", ["omaha-hilo", "AA**", "KK**"]),
    ("omaha-hilo", "HU flop", ["omaha-hilo", "AcAs3d4h", "KhKcJdTd", "--board", "7c8d9h"]),
]


class Tree:
    """A built tree's package, copied into a fresh folder as an install would leave it."""

    def __init__(self, source: Path, python: str, empty_cache: bool):
        self.label = source.name
        self.folder = tempfile.TemporaryDirectory(prefix=f"pokereval-first-{self.label}-")
        shutil.copytree(source / "pokereval", Path(self.folder.name) / "pokereval")
        subprocess.run([python, "-m", "compileall", "-q", "pokereval"], cwd=self.folder.name,
                       check=True)
        self.env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        self.cache = tempfile.TemporaryDirectory(prefix="pokereval-numba-") if empty_cache else None
        if self.cache:
            self.env["NUMBA_CACHE_DIR"] = self.cache.name
        self.compiled = False  # did any child print the compile notice?

    def run(self, python: str, args: list[str]) -> tuple[float, float]:
        """(wall, CPU seconds) of one child process run in the copy."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run([python, *args], cwd=self.folder.name, env=self.env,
                              capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise RuntimeError(f"{self.label}: {args} failed ({proc.returncode}): {proc.stderr[-1000:]}")
        self.compiled |= "compiling" in proc.stderr
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold_and_warm(trees: list[Tree], python: str, args: list[str], repeats: int):
    """Per tree: (cold (wall, CPU), best warm (wall, CPU)); runs alternate between trees."""
    cold = [t.run(python, args) for t in trees]
    warm: list[list[tuple[float, float]]] = [[] for _ in trees]
    for _ in range(repeats):
        for i, t in enumerate(trees):
            warm[i].append(t.run(python, args))
    return cold, [min(w) for w in warm]


def fmt(run: tuple[float, float]) -> str:
    return f"{run[0]:.2f} s ({run[1]:.2f})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", type=Path,
                    help="a built source tree (repeat for before / after; default: this one)")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--cold-cache", choices=["installed", "empty"], default="installed")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    trees = [Tree(t.resolve(), args.python, args.cold_cache == "empty")
             for t in (args.tree or [ROOT])]
    names = [t.label for t in trees]
    print(f"load average {os.getloadavg()[0]:.1f} at the start; kernel cache: {args.cold_cache}; "
          f"wall (CPU) seconds, warm = best of {args.repeats}\n")
    cold, warm = cold_and_warm(trees, args.python, ["-c", "import pokereval"], args.repeats)
    print("import pokereval: " + ", ".join(f"{n} cold {fmt(c)} warm {fmt(w)}"
                                           for n, c, w in zip(names, cold, warm)) + "\n")
    print("| game | spot | " + " | ".join(f"cold: {n}" for n in names) + " | "
          + " | ".join(f"warm CLI: {n}" for n in names) + " |")
    print("|---|---|" + "---|" * (2 * len(trees)))
    for game, label, cli in SPOTS:
        cold, warm = cold_and_warm(trees, args.python, ["-m", "pokereval", "equity", *cli],
                                   args.repeats)
        print(f"| {game} | {label} | " + " | ".join(map(fmt, cold)) + " | "
              + " | ".join(map(fmt, warm)) + " |", flush=True)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end; a compile notice seen: "
          + ", ".join(f"{t.label} {'yes' if t.compiled else 'no'}" for t in trees))
    for t in trees:
        t.folder.cleanup()
        if t.cache:
            t.cache.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
