"""Time parse_range on typical and heavy range texts (first call in a fresh
process: the combinations cache is warmed once by a throw-away parse).

    python benchmarks/range_parse.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokereval import ranges  # noqa: E402

CASES = [
    ("omaha", "****"), ("omaha", "AA"), ("omaha", "AA:$ds"), ("omaha", "AA:xxyy, JJ!JJJ, KK"),
    ("omaha", "$ds"), ("omaha", "RRON"), ("omaha", "RxRyOxOy"), ("omaha", "KQJT-"),
    ("omaha", "[KK-TT][55-22]"), ("omaha", "(AA,KK):xxyy"), ("omaha", "!RR"),
    ("omaha", "$B$B$Z$Z:$ds"), ("omaha", "[T-5][T-5][T-5][T-5]$ds"), ("omaha", "$0g"),
    ("omaha5", "*****"), ("omaha5", "AA:$ds"), ("omaha5", "$ds"), ("omaha5", "RRONP"),
    ("omaha5", "RxRy"), ("omaha5", "RxOxNx"), ("stud", "**7s"), ("holdem", "22+, A2s+, KTs+"),
    ("razz", "$ds,4s4hKh9dJc6h4d"),
    # stud card order: holdings weighed by their matching deals
    ("stud", "KK*, *KK"), ("stud", "RRR, **A"), ("razz", "$L$L$L:$np"), ("stud", "[A-T][A-T]*"),
    ("stud", "RON*"), ("stud", "****:$ds"), ("stud", "AA***"), ("stud", "**A**"),
    ("stud", "AhKd7s****"), ("stud", "Rx*Ox*"),
]


def main() -> None:
    print("| game | range | holdings | first | again |")
    print("|---|---|---|---|---|")
    for game, text in CASES:
        times, size = [], None
        for _ in range(2):
            ranges.clear_recent()
            start = time.perf_counter()
            try:
                size = f"{len(ranges.parse_range(game, text)):,}"
            except ranges.RangeError:
                size = "refused"
            times.append((time.perf_counter() - start) * 1000)
        print(f"| {game} | `{text}` | {size} | {times[0]:.1f} ms | {times[1]:.1f} ms |")


if __name__ == "__main__":
    main()
