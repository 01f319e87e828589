#!/usr/bin/env python
"""Memory of ``pokereval batch`` on a long input: flat, whatever the number of lines.

Writes N request lines (default a million: river and turn spots answered exactly, flop
spots sampled, and one bad line in seven -- invalid JSON, unknown cards, a line that is
not UTF-8, a line over the length limit, JSON nested too deeply...), runs
``python -m pokereval batch FILE`` and samples its resident memory (VmRSS) as it goes.

    python benchmarks/batch_memory.py [--lines N]

Prints the RSS at every tenth of the lines, the peak, the time and the
count of answers and errors.  Linux only (/proc).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GOOD = [json.dumps(r).encode() for r in (
    {"game": "holdem", "hands": ["AhKh", "QsQd"], "board": "2c3c4c5d9s"},
    {"game": "omaha-hilo", "hands": ["AhAd2c3s", "KsKdQhJh"], "board": "7c8d9h2d"},
    {"game": "stud-hilo", "hands": ["AhAd2c3s4s5h8d", "KsKdQhJhTh9h8h"], "id": 7},
    {"game": "razz", "hands": ["Ah2c3d4s5s6h7d", "8c9dTcJcQcKcKd"], "dead": "2h3h"},
)]
BAD = [b"{", b"[]", b'{"game": "holdem"}', b'{"game": "holdem", "hands": ["Zz", "QsQd"]}',
       b"\xff\xfe not utf-8", b"[" * 5000, b"\x00", b'{"game":"nope","hands":[]}']


def write_input(path: Path, lines: int) -> None:
    with open(path, "wb") as f:
        for i in range(lines):
            line = BAD[i // 7 % len(BAD)] if i % 7 == 3 else GOOD[i % len(GOOD)]
            if i % 100_000 == 99_999:  # a line over the limit: ten in a million lines
                line = b"x" * 1_000_100
            f.write(line + b"\n")


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.ndjson", Path(tmp) / "out.ndjson"
        write_input(src, args.lines)
        started = time.perf_counter()
        with open(dst, "wb") as out:
            proc = subprocess.Popen([sys.executable, "-m", "pokereval", "batch", str(src)],
                                    stdout=out, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
            marks, peak = {}, 0
            while proc.poll() is None:
                try:
                    rss = rss_kib(proc.pid)
                except OSError:
                    break
                peak = max(peak, rss)
                with open(dst, "rb") as f:
                    done = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
                for tenth in range(1, 10):
                    if tenth not in marks and done >= tenth / 10 * args.lines * 6 / 7:
                        marks[tenth] = rss
                        print(f"{done:,} replies after {time.perf_counter() - started:.0f} s: "
                              f"RSS {rss / 1024:.1f} MiB", flush=True)
                time.sleep(1.0)
        elapsed = time.perf_counter() - started
        replies = errors = 0
        with open(dst, "rb") as f:
            for line in f:
                replies += 1
                errors += b'"error"' in line
    print(f"pokereval batch, {args.lines:,} lines: exit {proc.returncode}, {replies:,} replies "
          f"({errors:,} errors), {elapsed:.0f} s")
    print("RSS after 10 %: {} MiB, after 50 %: {} MiB, peak {} MiB".format(
        *(round(v / 1024, 1) if v else "?" for v in (marks.get(1), marks.get(5), peak))))
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
