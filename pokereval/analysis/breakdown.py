"""What each hand makes: the final high category and the final low, won / tied / lost.

``pokereval.equity(..., breakdown=True)`` runs here: every run-out (or a sample
of them) is dealt as rows of cards in NumPy, evaluated by the C library in one
batch call per player, and tallied twice: into the usual outcome counts (so the
result's figures and its breakdown come from the same run-outs) and by hand type
(the rows: :mod:`pokereval.equity.deal`).

``p.breakdown["high"][category]`` and ``p.breakdown["low"][kind]`` are
``{"won": P, "tied": P, "lost": P}`` over all run-outs; summed over the
categories, "won" is ``high_win`` (``low_win``) and "tied" is ``high_tie``
(``low_tie``).  High categories: high card .. straight flush.  Lows: 5-low
(the wheel) .. 8-low and "no low" (eight or better), or in razz the best five
cards' top card up to 8 and "9-low or worse" (including paired hands).
"""
from __future__ import annotations

import secrets
import time

import numpy as np

from ..cards import cards_str
from ..equity.backends.c import row_values
from ..equity.deal import exact_rows, sampled_rows
from ..equity.options import Options
from ..equity.results import EquityResult, player_results
from ..equity.spot import Spot
from ..equity.tally import tally_outcomes
from ..errors import HandError
from ..evaluate import CATEGORIES, evaluate

__all__ = ["LOW_KINDS", "RAZZ_KINDS", "equity_with_breakdown"]

LOW_KINDS = ("5-low", "6-low", "7-low", "8-low", "no low")
RAZZ_KINDS = ("5-low", "6-low", "7-low", "8-low", "9-low or worse")
RESULTS = ("won", "tied", "lost")
#: Enumerate when run-outs x players is at most this (rows evaluated in C).
MAX_EXACT_ROWS = 8_000_000
#: Stud run-outs are listed in Python: fewer of them.
MAX_EXACT_STUD = 200_000
DEFAULT_SAMPLES = 500_000
#: Rows (run-outs) evaluated per C batch call (a stop point after each).
ROWS_PER_CALL = 100_000


def equity_with_breakdown(spot: Spot, opts: Options, started: float) -> EquityResult:
    """:func:`pokereval.equity` with ``breakdown=True`` (see the module docstring)."""
    g, n = spot.game, spot.n
    rows = spot.runouts * n
    exact = not spot.ranged and opts.samples is None and opts.stderr is None and opts.exact is not False \
        and rows <= (MAX_EXACT_STUD * n if g.stud else MAX_EXACT_ROWS)
    if opts.exact is True and not exact:
        raise HandError(f"a breakdown enumerates at most {MAX_EXACT_ROWS:,} run-outs x players "
                        f"without ranges; this spot needs Monte Carlo (samples=...)")
    seed = None
    if exact:
        holes, boards = exact_rows(spot)
        total = len(holes[0])
        rng = None
    else:
        seed = opts.seed if opts.seed is not None else secrets.randbits(63)
        total = opts.samples
        if total is None:
            total = DEFAULT_SAMPLES if opts.stderr is None else \
                min(int((0.5 / opts.stderr) ** 2) + 1, 20_000_000)
        rng = np.random.default_rng(seed)
    # the rows in slices of ROWS_PER_CALL (drawn, when sampled, slice by slice): a
    # progress callback and a Ctrl-C point after each, so a long run stops within one
    hvs, lvs = [], []
    done = 0
    try:
        while done < total:
            size = min(ROWS_PER_CALL, total - done)
            if rng is None:
                part = ([h[done:done + size] for h in holes],
                        None if boards is None else boards[done:done + size])
            else:
                part = sampled_rows(spot, size, rng)
            hv, lv = row_values(spot, part)
            hvs.append(hv)
            lvs.append(lv)
            done += size
            if opts.progress is not None and done < total:
                opts.progress(_result(spot, hvs, lvs, False, True, seed, started, done / total))
    except KeyboardInterrupt:
        return _result(spot, hvs, lvs, False, True, seed, started, done / total)
    return _result(spot, hvs, lvs, exact, False, seed, started, 1.0)


def _result(spot: Spot, hvs: list, lvs: list, exact: bool, partial: bool, seed, started: float,
            fraction_done: float) -> EquityResult:
    """The result (with each player's breakdown) of the rows evaluated so far."""
    g, n = spot.game, spot.n
    hv = np.concatenate(hvs, axis=1) if hvs else np.zeros((n, 0), dtype=np.int64)
    lv = np.concatenate(lvs, axis=1) if lvs else np.zeros((n, 0), dtype=np.int64)
    counts = tally_outcomes(g, hv, lv)
    result = EquityResult(
        game=g.name, hands=list(spot.hand_text), board=cards_str(spot.board),
        dead=cards_str(spot.dead), exact=exact, samples=hv.shape[1], partial=partial,
        elapsed=0.0, players=player_results(spot, counts, exact, final=not partial), seed=seed,
        fraction_done=fraction_done)
    if hv.shape[1]:
        for p, player in enumerate(result.players):
            player.breakdown = _breakdown(g, hv, lv, p)
    result.elapsed = time.perf_counter() - started
    return result


# --------------------------------------------------------------------------
# Hand types
# --------------------------------------------------------------------------

def _razz_thresholds() -> list[int]:
    """Razz values of the worst 5-, 6-, 7- and 8-low (no pair): a value at least the
    k-th threshold is a (k + 5)-low or better."""
    worst = ("5c4d3h2sAc", "6c5d4h3s2c", "7c6d5h4s3c", "8c7d6h5s4c")
    return [evaluate("razz", five + "KhKs").low.value for five in worst]


def _low_kind(game, lv: np.ndarray) -> np.ndarray:
    """Index into LOW_KINDS / RAZZ_KINDS of each low value."""
    if game.razz:
        kind = np.full(lv.shape, 4, dtype=np.int64)
        for k, t in reversed(list(enumerate(_razz_thresholds()))):
            kind[lv >= t] = k
        return kind
    mask = np.where(lv > 0, 255 - lv, 0)
    top = np.zeros(lv.shape, dtype=np.int64)
    for bit in range(8):
        top[(mask >> bit) & 1 == 1] = bit
    return np.where(lv > 0, top - 4, 4)


def _results(values: np.ndarray, p: int, contested: np.ndarray) -> np.ndarray:
    """0 won alone, 1 tied, 2 lost for player ``p`` on each row."""
    best = values.max(axis=0)
    winners = (values == best).sum(axis=0)
    mine = (values[p] == best) & contested
    return np.where(mine, np.where(winners == 1, 0, 1), 2)


def _table(kinds: np.ndarray, results: np.ndarray, names) -> dict:
    grid = np.bincount(kinds * 3 + results, minlength=3 * len(names)).reshape(len(names), 3)
    total = kinds.shape[0]
    return {name: {r: float(grid[i, j]) / total for j, r in enumerate(RESULTS)}
            for i, name in enumerate(names)}


def _breakdown(game, hv: np.ndarray, lv: np.ndarray, p: int) -> dict:
    out = {}
    if game.high:
        out["high"] = _table(hv[p] >> 12, _results(hv, p, hv.max(axis=0) > 0), CATEGORIES)
    if game.low:
        contested = lv.max(axis=0) > 0
        names = RAZZ_KINDS if game.razz else LOW_KINDS
        out["low"] = _table(_low_kind(game, lv[p]), _results(lv, p, contested), names)
    return out
