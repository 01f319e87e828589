"""What each hand makes: the final high category and the final low, won / tied / lost.

``pokereval.equity(..., breakdown=True)`` runs here: every run-out (or a sample
of them) is dealt as rows of cards in NumPy, evaluated by the C library in one
batch call per player, and tallied twice: into the usual outcome counts (so the
result's figures and its breakdown come from the same run-outs) and by hand type.

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
from itertools import combinations

import numpy as np

from .cards import cards_str
from .equity_api import _stud_deals, _tally_numpy
from .errors import HandError
from .evaluate import CATEGORIES, evaluate, evaluate_batch
from .results import EquityResult, player_results
from .spot import Options, Spot

__all__ = ["LOW_KINDS", "RAZZ_KINDS", "equity_with_breakdown"]

LOW_KINDS = ("5-low", "6-low", "7-low", "8-low", "no low")
RAZZ_KINDS = ("5-low", "6-low", "7-low", "8-low", "9-low or worse")
RESULTS = ("won", "tied", "lost")
#: Enumerate when run-outs x players is at most this (rows evaluated in C).
MAX_EXACT_ROWS = 8_000_000
#: Stud run-outs are listed in Python: fewer of them.
MAX_EXACT_STUD = 200_000
DEFAULT_SAMPLES = 500_000


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
        hands = _exact_rows(spot)
    else:
        seed = opts.seed if opts.seed is not None else secrets.randbits(63)
        samples = opts.samples
        if samples is None:
            samples = DEFAULT_SAMPLES if opts.stderr is None else \
                min(int((0.5 / opts.stderr) ** 2) + 1, 20_000_000)
        hands = _sampled_rows(spot, samples, np.random.default_rng(seed))
    hv, lv = _values(spot, hands)
    counts = _tally_numpy(g, hv, lv)
    result = EquityResult(
        game=g.name, hands=list(spot.hand_text), board=cards_str(spot.board),
        dead=cards_str(spot.dead), exact=exact, samples=hv.shape[1], partial=False,
        elapsed=0.0, players=player_results(spot, counts, exact, final=True), seed=seed)
    for p, player in enumerate(result.players):
        player.breakdown = _breakdown(g, hv, lv, p)
    result.elapsed = time.perf_counter() - started
    return result


# --------------------------------------------------------------------------
# Run-outs as rows of cards: per player uint8[rows, cards] (+ boards)
# --------------------------------------------------------------------------

def _exact_rows(spot: Spot):
    """Every run-out: ``(holes per player, boards)`` (stud: 7-card rows, boards None)."""
    if spot.game.stud:
        deals = np.array(list(_stud_deals(spot)), dtype=np.uint8)  # [rows, n, 7]
        return [np.ascontiguousarray(deals[:, p, :]) for p in range(spot.n)], None
    extra = np.array(list(combinations(spot.unseen, spot.k)), dtype=np.uint8).reshape(-1, spot.k)
    boards = np.hstack([np.tile(np.array(spot.board, dtype=np.uint8), (len(extra), 1)), extra])
    holes = [np.tile(np.array(h, dtype=np.uint8), (len(extra), 1)) for h in spot.holes]
    return holes, boards


def _sampled_rows(spot: Spot, samples: int, rng: np.random.Generator):
    """``samples`` random run-outs (range holdings drawn by weight, clashes redrawn);
    the new cards in the order dealt (stud: after each player's known cards)."""
    n, g = spot.n, spot.game
    holes = [None] * n
    used = np.zeros((samples, 52), dtype=bool)
    for c in spot.board + spot.dead:
        used[:, c] = True
    for p, h in enumerate(spot.holes):
        if h is not None:
            holes[p] = np.tile(np.array(h, dtype=np.uint8), (samples, 1))
            used[:, h] = True
    ranged = [p for p, r in enumerate(spot.ranges) if r is not None] if spot.ranged else []
    todo = np.arange(samples)
    picked = {p: np.zeros((samples, spot.ranges[p].cards), dtype=np.uint8) for p in ranged}
    for _ in range(1000):  # redraw the combinations whose holdings share a card
        if not len(todo):
            break
        clash = np.zeros(len(todo), dtype=bool)
        seen = used[todo].copy()
        for p in ranged:
            r = spot.ranges[p]
            idx = rng.choice(len(r.holdings), size=len(todo), p=r.weights / r.weights.sum())
            rows = r.holdings[idx]
            hit = np.take_along_axis(seen, rows.astype(np.int64), axis=1).any(axis=1)
            clash |= hit
            np.put_along_axis(seen, rows.astype(np.int64), True, axis=1)
            picked[p][todo] = rows
        ok = todo[~clash]
        used[ok] = seen[~clash]
        todo = todo[clash]
    if len(todo):
        raise HandError("the players' ranges almost never fit together; narrow the ranges")
    for p in ranged:
        holes[p] = picked[p]
    if not g.stud:
        boards = np.hstack([np.tile(np.array(spot.board, dtype=np.uint8), (samples, 1)),
                            _draw(used, spot.k, rng)])
        return holes, boards
    out = [np.hstack([holes[p], _draw(used, spot.mo, rng)]) for p in range(n)]
    if spot.shared:
        shared = _draw(used, 1, rng)
        out = [np.hstack([h, shared]) for h in out]
    return out, None


def _draw(used: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` random cards a row, none of them ``used`` (which they join), in the
    order drawn: uniform draws without replacement, clashes drawn again."""
    rows = used.shape[0]
    out = np.zeros((rows, count), dtype=np.uint8)
    index = np.arange(rows)
    for i in range(count):
        cards = rng.integers(0, 52, size=rows)
        bad = np.nonzero(used[index, cards])[0]
        while len(bad):
            cards[bad] = rng.integers(0, 52, size=len(bad))
            bad = bad[used[bad, cards[bad]]]
        used[index, cards] = True
        out[:, i] = cards
    return out


def _values(spot: Spot, hands):
    holes, boards = hands
    values = [evaluate_batch(spot.game, np.ascontiguousarray(h), boards) for h in holes]
    hv = np.stack([v[0] for v in values]).astype(np.int64)
    lv = np.stack([v[1] for v in values]).astype(np.int64)
    return hv, lv


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
