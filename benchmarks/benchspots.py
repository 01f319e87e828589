"""Shared pieces of the benchmark suite: the spots, the engines, answer checks.

Imported by ``compare.py``, ``coldstart.py``, ``memory.py`` and the pytest-benchmark
files (``conftest.py`` puts this folder on ``sys.path``).  Nothing here reads
``/work/shared``: the spots and their known answers are written out below.

Engines
-------
* ``pokereval``    this project (``pokereval.equity_api.equity``).
* ``poker-equity`` (``import poker_equity``), when installed: ``exact_from_text``
  walks every deal on one thread; ``chunk_from_text(..., threads=N)`` samples.
  Its results are plain dicts; razz is reported in its *high* fields, which
  :func:`pq_players` moves to the low fields (pokereval's convention).
* ``pokerkit`` (``pokerkit.calculate_equities``), when installed: pure-Python
  Monte Carlo that returns equities only (no standard error, no exact mode), a
  few hundred to a few thousand showdowns per second, so it only gets small
  sample counts.
"""
from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the repository's pokereval, installed or not
    sys.path.insert(0, str(ROOT))

FIELDS = ("equity", "high_win", "high_tie", "low_win", "low_tie", "scoop")


# --------------------------------------------------------------------------
# Spots
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Spot:
    """One equity question.

    ``runouts``: the number of equally likely run-outs (None when there are far too
    many to walk: exact is not feasible).  ``equity``: known exact equities (from the
    project's test vectors, themselves checked against poker-equity and a reference
    evaluator), or None.  ``mc_samples``: samples for one Monte Carlo measurement.
    ``pokerkit_samples``: 0 = too slow for pokerkit.
    """

    id: str
    label: str
    game: str
    hands: tuple[str, ...]
    board: str = ""
    dead: str = ""
    runouts: int | None = None
    equity: tuple[float, ...] | None = None
    mc_samples: int = 400_000
    pokerkit_samples: int = 0
    tags: tuple[str, ...] = field(default=())

    @property
    def exact_feasible(self) -> bool:
        return self.runouts is not None

    @property
    def n(self) -> int:
        return len(self.hands)


SPOTS: tuple[Spot, ...] = (
    # spot-009 of tests/data/spots.jsonl
    Spot("o8-hu-preflop", "Omaha Hi/Lo heads-up preflop", "omaha-hilo",
         ("AcAs3d4h", "KhKcJdTd"), runouts=1_086_008, equity=(0.682140923, 0.317859077),
         mc_samples=1_000_000, tags=("target",)),
    # spot-023
    Spot("o8-3way-preflop", "Omaha Hi/Lo 3-way preflop", "omaha-hilo",
         ("8cJsQsKd", "8s4h4s3h", "JcJd9dTh"), runouts=658_008, mc_samples=600_000),
    # spot-022
    Spot("o8-hu-flop", "Omaha Hi/Lo heads-up flop", "omaha-hilo",
         ("Ac4c3s4d", "Ah7c9hJc"), board="2d8h4s", runouts=820, mc_samples=600_000,
         pokerkit_samples=1_000),
    Spot("o8-3way-flop", "Omaha Hi/Lo 3-way flop", "omaha-hilo",
         ("Ac2d5hKs", "3c4cQdQh", "8s9sTdJd"), board="2h7c6d", runouts=666, mc_samples=600_000),
    # spot-011
    Spot("o5-8-hu-preflop", "5-Card Omaha Hi/Lo heads-up preflop", "omaha5-hilo",
         ("As2s4h6cJd", "KcKhQsQcTd"), runouts=850_668, equity=(0.591568038, 0.408431962),
         mc_samples=800_000, tags=("target",)),
    # spot-012
    Spot("courchevel8-1card", "Courchevel Hi/Lo heads-up, first board card", "courchevel-hilo",
         ("Ac2d4h6sKs", "QcQdJhJs9d"), board="3d", runouts=101_270,
         equity=(0.628103091, 0.371896909), mc_samples=800_000, tags=("target",)),
    Spot("stud8-3way-3rd", "Stud Hi/Lo 3-way, third street", "stud-hilo",
         ("Ac2d5h", "KsKdQc", "7s8s9s"), runouts=None, mc_samples=2_000_000,
         pokerkit_samples=1_000),
    # spot-015
    Spot("stud8-hu-5th", "Stud Hi/Lo heads-up, fifth street", "stud-hilo",
         ("Ac2c3h5d6s", "KdKhQcQh4s"), runouts=671_580, equity=(0.580300188, 0.419699812),
         mc_samples=2_000_000, pokerkit_samples=2_000, tags=("target",)),
    Spot("razz-3way-3rd", "Razz 3-way, third street", "razz",
         ("As2d4c", "3h5s7d", "KcQd8h"), runouts=None, mc_samples=2_000_000,
         pokerkit_samples=2_000),
)
#: Eight players on fifth street, no folded cards: 12 unseen cards for 16 wanted, so the
#: seventh card is one shared card (12 x 11 x 10 x ... x 4 run-outs).
STUD8_8HANDED_5TH = Spot(
    "stud8-8way-5th", "Stud Hi/Lo 8-handed, fifth street", "stud-hilo",
    ("4s6h4dJhQs", "8sAdJcAhAs", "Ac8dQcTc9c", "9s6d7d5h7c", "6s3c2h8h5c", "Th3d4c5dKd",
     "Jd2cTs3h8c", "Qh9h7s3s4h"), runouts=12 * math.perm(11, 8))
#: The spot the "second process" target is measured on (a flop: no Numba needed).
FLOP_SPOT = SPOTS[2]
#: A spot for the Numba kernels (exact, 101,270 run-outs; a fresh process walks it in C
#: unless it has imported ``pokereval.kernels``).
KERNEL_SPOT = SPOTS[5]


def spot(spot_id: str) -> Spot:
    for s in SPOTS:
        if s.id == spot_id:
            return s
    raise KeyError(spot_id)


# --------------------------------------------------------------------------
# Engines
# --------------------------------------------------------------------------

def pokereval_equity():
    """``pokereval``'s ``equity`` function (``pe.equity`` once it is exported), with the
    kernels loaded (a long-lived process: the kernels' load is not timed)."""
    import pokereval as pe
    import pokereval.kernels  # noqa: F401

    fn = getattr(pe, "equity", None)
    if not callable(fn):  # not exported (yet): pe.equity may be the submodule
        from pokereval.equity_api import equity as fn
    return fn


def have(module: str) -> bool:
    try:
        __import__(module)
    except Exception:
        return False
    return True


PQ_GAMES = {
    "holdem": "holdem", "omaha": "omaha", "omaha-hilo": "omaha_hi_lo",
    "omaha5": "omaha_five", "omaha5-hilo": "omaha_five_hi_lo", "courchevel": "courchevel",
    "courchevel-hilo": "courchevel_hi_lo", "stud": "stud", "stud-hilo": "stud_hi_lo",
    "razz": "razz",
}


def pq_players(game: str, result: dict) -> list[dict]:
    """poker-equity's players as dicts with pokereval's field meanings."""
    out = []
    for p in result["players"]:
        d = {f: float(p[f]) for f in FIELDS}
        d["std_error"] = float(p.get("std_error", 0.0))
        if game == "razz":  # poker-equity reports the razz pot as the high
            d["low_win"], d["low_tie"] = d["high_win"], d["high_tie"]
            d["high_win"] = d["high_tie"] = 0.0
        out.append(d)
    return out


def pq_exact(s: Spot) -> dict | None:
    import poker_equity as pq

    return pq.exact_from_text(PQ_GAMES[s.game], list(s.hands), s.board, s.dead)


def pq_chunk(s: Spot, samples: int, threads: int, seed: int = 1) -> dict:
    import poker_equity as pq

    return pq.chunk_from_text(PQ_GAMES[s.game], list(s.hands), s.board, s.dead,
                              samples=samples, seed=seed, threads=threads)


def pokerkit_setup(s: Spot):
    """``(hole_ranges, board, hole_count, board_count, deck, hand_types)`` for pokerkit."""
    from pokerkit import (Card, Deck, EightOrBetterLowHand, OmahaEightOrBetterLowHand,
                          OmahaHoldemHand, RegularLowHand, StandardHighHand)

    types = {
        "omaha-hilo": (4, 5, (OmahaHoldemHand, OmahaEightOrBetterLowHand)),
        "omaha5-hilo": (5, 5, (OmahaHoldemHand, OmahaEightOrBetterLowHand)),
        "courchevel-hilo": (5, 5, (OmahaHoldemHand, OmahaEightOrBetterLowHand)),
        "omaha": (4, 5, (OmahaHoldemHand,)),
        "stud-hilo": (7, 0, (StandardHighHand, EightOrBetterLowHand)),
        "stud": (7, 0, (StandardHighHand,)),
        "razz": (7, 0, (RegularLowHand,)),
        "holdem": (2, 5, (StandardHighHand,)),
    }
    hole_count, board_count, hand_types = types[s.game]
    dead = set(Card.parse(s.dead)) if s.dead else set()
    deck = [c for c in Deck.STANDARD if c not in dead]
    ranges = [[list(Card.parse(h))] for h in s.hands]
    board = list(Card.parse(s.board)) if s.board else []
    return ranges, board, hole_count, board_count, deck, hand_types


def pokerkit_equity(s: Spot, samples: int, seed: int = 1) -> list[float]:
    import random

    from pokerkit import calculate_equities

    ranges, board, hole_count, board_count, deck, hand_types = pokerkit_setup(s)
    random.seed(seed)  # pokerkit samples with the random module
    return calculate_equities(ranges, board, hole_count, board_count, deck, hand_types,
                              sample_count=samples)


# --------------------------------------------------------------------------
# Timing and answer checks
# --------------------------------------------------------------------------

def best_time(fn, repeats: int, warmup: int = 1):
    """(best wall seconds over ``repeats`` calls after ``warmup`` calls, last result)."""
    result = None
    for _ in range(warmup):
        result = fn()
    best = math.inf
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def best_times(fns, repeats: int, warmup: int = 1):
    """:func:`best_time` of several calls measured in turn (one of each per round), so
    that a burst of load on a shared machine falls on all of them alike, not on one:
    ``[(best seconds, last result), ...]`` in the order of ``fns``."""
    results = [None] * len(fns)
    for _ in range(warmup):
        results = [fn() for fn in fns]
    best = [math.inf] * len(fns)
    for _ in range(max(1, repeats)):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            results[i] = fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return list(zip(best, results))


def pe_players(result) -> list[dict]:
    return [{**{f: float(getattr(p, f)) for f in FIELDS}, "std_error": float(p.std_error)}
            for p in result.players]


def exact_diff(a: list[dict], b: list[dict], fields=FIELDS) -> float:
    """Largest absolute difference between two exact answers over players and fields."""
    return max(abs(x[f] - y[f]) for x, y in zip(a, b) for f in fields)


def mc_z(mc: list[dict], ref: list[dict], ref_se: bool = False) -> float:
    """Largest |equity difference| in standard errors (the MC answer's own standard
    error; with ``ref_se`` both answers' errors combined, for MC against MC)."""
    worst = 0.0
    for x, y in zip(mc, ref):
        se = x["std_error"] ** 2 + (y["std_error"] ** 2 if ref_se else 0.0)
        se = math.sqrt(se)
        diff = abs(x["equity"] - y["equity"])
        worst = max(worst, diff / se if se > 0 else (0.0 if diff < 1e-12 else math.inf))
    return worst


def env_for_subprocess(extra: dict | None = None) -> dict:
    """The environment for a child Python that must import the repository's pokereval."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    if extra:
        env.update(extra)
    return env
