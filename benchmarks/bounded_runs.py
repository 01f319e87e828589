"""Issue 26's bounded-run table: the longest spots of each kind stopped 0.5 s into the
run (a real SIGINT to a child process, or a ``progress`` callback raising
KeyboardInterrupt), with the seconds each took to stop, and the exact runs over an hour
refused up front, with the seconds each took to refuse.

    python benchmarks/bounded_runs.py            # both tables
    python benchmarks/bounded_runs.py stop        # or: refuse
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "support")]

import bounded  # noqa: E402


def main(argv: list[str]) -> int:
    which = argv[0] if argv else "both"
    if which in ("both", "stop"):
        print(f"| spot | stopped by | run (s) | stop (s) | outcome |\n|---|---|---|---|---|")
        for spot in bounded.STOP_SPOTS:
            m = bounded.measure(spot)
            stop = "finished first" if m["stop"] is None else f"{m['stop']:.2f}"
            print(f"| `{spot.call}` | {spot.how} | {m['run']:.2f} | {stop} | {m['outcome'][:80]} |",
                  flush=True)
    if which in ("both", "refuse"):
        print(f"\n| over an hour | refused in (s) | message |\n|---|---|---|")
        import pokereval as pe
        pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], board="7c8d9h")  # the imports, once
        for spot in bounded.REFUSE_SPOTS:
            r = bounded.refuse(spot)
            print(f"| `{spot.call}` | {r['seconds']:.2f} | {r['outcome'][:160]} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
