"""Bounded runs (issue 26): the longest spots of each kind, stopped after STOP_AFTER
seconds by Ctrl-C (a real SIGINT to a child process) or by the API's stop mechanism (a
``progress`` callback raising KeyboardInterrupt), and the exact runs over an hour that
must be refused up front.  Used by ``tests/equity/test_bounded_runs.py`` and printed by
``benchmarks/bounded_runs.py``.

Each spot runs in its own child process started with SIGINT's default disposition
restored (a background shell starts its jobs with SIGINT ignored, which Python then
keeps ignoring), after a warm-up that loads the same kernels, so what is timed is the
stop, not a first load.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Seconds after the run starts that the stop is sent.
STOP_AFTER = 0.5


@dataclass(frozen=True)
class Spot:
    kind: str
    call: str  # a Python expression over ``pe`` (pokereval)
    warm: tuple[str, ...] = ()  # expressions run before the timed call (same kernels)
    how: str = "sigint"  # "sigint": a real SIGINT; "progress": a progress callback stops it

    @property
    def label(self) -> str:
        return f"{self.kind} [{self.how}]"


_W_BOARD = 'pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], exact=True, progress=lambda r: None)'
_W_RANGED = 'pe.equity("omaha-hilo", ["AA**", "KK**"], board="Kh7c2d9s", exact=True)'
_W_MC = 'pe.equity("omaha-hilo", ["AA**", "KK**"], samples=5000, seed=1)'
_W_STUD = 'pe.equity("stud", ["AhKd2c3s", "3c4d5h6s"], exact=True)'
_PQL_HVR = ('pe.pql("select min(HvREquity(p1, preflop)), avg(HvREquity(p2, river)) from '
            'game=\'omaha8\', p1=\'A2**\', p2=\'A2**\'", trials=2000, seed=1, threads=2{})')
_W_PQL = _PQL_HVR.format("").replace("trials=2000", "trials=5")

#: The longest spots of each kind that are not refused: each must stop within 1.5 s.
STOP_SPOTS = [
    Spot("fixed hands, exact", 'pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh", "9c9dTsJs"], exact=True)',
         (_W_BOARD,)),
    Spot("fixed hands, exact", 'pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh", "9c9dTsJs"], exact=True, progress=STOP)',
         (_W_BOARD,), "progress"),
    Spot("ranged, exact", 'pe.equity("omaha-hilo", ["AA**", "KK**"], board="Kh7c2d", exact=True)',
         (_W_RANGED,)),
    Spot("ranged, exact", 'pe.equity("omaha-hilo", ["AA**", "KK**"], board="Kh7c2d", exact=True, progress=STOP)',
         (_W_RANGED,), "progress"),
    Spot("ranged, Monte Carlo", 'pe.equity("omaha-hilo", ["AA**", "KK**"], samples=10**10)', (_W_MC,)),
    Spot("board range, exact", 'pe.equity("omaha", ["AhAd2c3s", "KsKdQhJh"], board="K**", exact=True)',
         (_W_BOARD,)),
    Spot("board range, exact", 'pe.equity("omaha", ["AhAd2c3s", "KsKdQhJh"], board="K**", exact=True, progress=STOP)',
         (_W_BOARD,), "progress"),
    Spot("dead-card range, exact", 'pe.equity("holdem", ["AhAd", "KsKd"], dead="Q*", exact=True)',
         ('pe.equity("holdem", ["AhAd", "KsKd"], exact=True, progress=lambda r: None)',)),
    Spot("dead-card range, exact", 'pe.equity("holdem", ["AhAd", "KsKd"], dead="Q*", exact=True, progress=STOP)',
         ('pe.equity("holdem", ["AhAd", "KsKd"], exact=True, progress=lambda r: None)',), "progress"),
    Spot("board range, Monte Carlo", 'pe.equity("omaha", ["AA**", "KsKdQhJh"], board="K**", samples=10**10)',
         (_W_MC,)),
    # few boards, a huge budget: each board's own run is long (the stop must reach inside it)
    Spot("board range, Monte Carlo", 'pe.equity("omaha5", ["5hQs2sTh3h", "4s8d7sKs5s"], board="Ax", samples=10**12, progress=STOP)',
         (_W_MC,), "progress"),
    Spot("stud, exact", 'pe.equity("stud", ["AhKd2c", "3c4d5h"], exact=True)', (_W_STUD,)),
    Spot("stud, exact", 'pe.equity("stud", ["AhKd2c", "3c4d5h"], exact=True, progress=STOP)',
         (_W_STUD,), "progress"),
    Spot("stud ranged, exact", 'pe.equity("stud-hilo", ["AsAd2c*", "KsKdQhJh"], exact=True)', (_W_STUD,)),
    Spot("stud ranged, exact", 'pe.equity("stud-hilo", ["AsAd2c*", "KsKdQhJh"], exact=True, progress=STOP)',
         (_W_STUD,), "progress"),
    Spot("stud ranged, exact", 'pe.equity("stud-hilo", ["AA*3s4s", "KsKd2c4h5h"], exact=True, progress=STOP)',
         (_W_STUD,), "progress"),
    Spot("distribution, exact", 'pe.equity_distribution("holdem", ["AhAd", "KsKd", "7c8c"], exact=True)',
         ('pe.equity_distribution("holdem", ["AhAd", "KsKd"], board="2c3d4h", exact=True)',)),
    Spot("distribution ranged, exact",
         'pe.equity_distribution("omaha-hilo", ["AA**", "KsKdQh*"], board="Kh7c2d", exact=True)',
         ('pe.equity_distribution("omaha-hilo", ["AA**", "KK**"], board="Kh7c2d9s", exact=True)',)),
    # (three players on third street are refused now: about 11 hours)
    Spot("distribution, stud", 'pe.equity_distribution("stud", ["AhKd2c", "3c4d5h"], exact=True)',
         (_W_STUD,)),
    Spot("breakdown, exact", 'pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], breakdown=True, exact=True)',
         ('pe.equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], board="2h7c8d", breakdown=True)',)),
    Spot("breakdown, sampled", 'pe.equity("omaha-hilo", ["AA**", "KK**"], breakdown=True, samples=20_000_000, progress=STOP)',
         ('pe.equity("omaha-hilo", ["AA**", "KK**"], breakdown=True, samples=1000)',), "progress"),
    Spot("range_equities, exact", 'pe.range_equities("omaha-hilo", ["AA**", "KsKdQhJh"], board="Kh7c2d", exact=True)',
         ('pe.range_equities("omaha-hilo", ["AA**", "KsKdQhJh"], board="2c3c4c", exact=True)',)),
    Spot("equity_by_street, exact", 'pe.equity_by_street("stud", ["AhKd2c5s", "3c4d5h6d"], exact=True)',
         (_W_STUD,)),
    # one equity run per trial on threads (a minute of them): the stop reaches the threads
    Spot("pql, nested equity", _PQL_HVR.format(""), (_W_PQL,)),
    Spot("pql, nested equity", _PQL_HVR.format(", progress=STOP"), (_W_PQL,), "progress"),
]

#: Exact runs estimated over an hour on one core: each refused up front with the estimate.
REFUSE_SPOTS = [
    # issue 26's reproducer, AA:$ds vs KK, is about 20 minutes since the walk by rank
    # multisets (under the limit); a third range puts it far over
    Spot("board range", 'pe.equity("omaha", ["AA:$ds", "KK", "QQ"], board="K**", exact=True)'),
    Spot("ranged", 'pe.equity("omaha", ["AA**", "KK**"], exact=True)'),
    Spot("dead-card range", 'pe.equity("omaha-hilo", ["AA**", "KK**"], dead="Q*", exact=True)'),
    Spot("stud", 'pe.equity("stud", ["AhKd2c", "3c4d5h", "6s7s8s", "9d9cTh"], exact=True)'),
    Spot("stud ranged", 'pe.equity("stud", ["AA*", "KK*"], exact=True)'),
    Spot("distribution", 'pe.equity_distribution("omaha-hilo", ["AA**", "KK**"], exact=True)'),
    Spot("distribution, stud", 'pe.equity_distribution("stud", ["AhKd2c", "3c4d5h", "6s7s8s", "9d9cTh"], exact=True)'),
    Spot("breakdown", 'pe.equity("omaha-hilo", ["AA**", "KK**"], breakdown=True, exact=True)'),
    Spot("range_equities", 'pe.range_equities("omaha-hilo", ["****", "KK**"], exact=True)'),
    Spot("equity_by_street", 'pe.equity_by_street("stud", ["AhKd2c5s6s7s8c", "3c4d5h9dTdJdQh", "2d3d6d7d8dKhQs", "9h9cTh2h3h4h6h"], exact=True)'),
]

_CHILD = r"""
import json, sys, time
spec = json.loads(sys.argv[1])
import pokereval as pe
t_start = [0.0]
def STOP(partial):  # the API's stop: a progress callback raising KeyboardInterrupt
    if time.perf_counter() - t_start[0] > spec["after"]:
        raise KeyboardInterrupt
pe.equity("holdem", ["AhAd", "KsKd"], samples=1000, seed=1)  # Numba loaded: exact runs use it
for w in spec["warm"]:
    exec(w)
print("READY", flush=True)
t_start[0] = time.perf_counter()
try:
    r = eval(spec["call"])
    what = "partial result" if getattr(r, "partial", False) else "finished"
except KeyboardInterrupt:
    what = "KeyboardInterrupt"
except pe.PokerEvalError as e:
    what = "refused: " + str(e)
print("END " + json.dumps({"outcome": what, "seconds": time.perf_counter() - t_start[0]}), flush=True)
"""


def _restore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def measure(spot: Spot, after: float = STOP_AFTER, limit: float = 120.0) -> dict:
    """Run ``spot`` in a child; stop it ``after`` seconds into the run (SIGINT, or the
    progress callback's deadline).  Returns ``{"outcome", "run": seconds the call took,
    "stop": seconds from the stop to the answer (None: it finished before)}``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "POKEREVAL_QUIET_COMPILE": "1"}
    spec = json.dumps({"call": spot.call, "warm": list(spot.warm), "after": after})
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, spec], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=_restore_sigint)
    try:
        line = proc.stdout.readline()
        if not line.startswith("READY"):
            raise RuntimeError(f"{spot.label}: the child did not start: {line!r} "
                               f"{proc.stderr.read()[-2000:]}")
        started = time.perf_counter()
        stop_at = None
        if spot.how == "sigint":
            time.sleep(after)
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                stop_at = time.perf_counter()
        else:
            stop_at = started + after
        import select
        ready, _, _ = select.select([proc.stdout], [], [], limit)
        if not ready:
            raise TimeoutError(f"{spot.label}: no answer {limit} s after the stop")
        line = proc.stdout.readline()
        ended = time.perf_counter()
        if not line.startswith("END "):
            raise RuntimeError(f"{spot.label}: {line!r} {proc.stderr.read()[-2000:]}")
        doc = json.loads(line[4:])
        took = doc["seconds"]
        stop = None if stop_at is None or took < after else max(ended - stop_at, 0.0)
        return {"outcome": doc["outcome"], "run": took, "stop": stop}
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def refuse(spot: Spot) -> dict:
    """Time ``spot``'s refusal in this process: ``{"outcome", "seconds"}``."""
    import pokereval as pe

    started = time.perf_counter()
    try:
        eval(spot.call, {"pe": pe})
        outcome = "answered (not refused)"
    except pe.PokerEvalError as exc:
        outcome = str(exc)
    return {"outcome": outcome, "seconds": time.perf_counter() - started}
