"""Run-outs dealt as cards: every stud run-out in the kernels' order, and run-outs as
rows of cards (every one, or sampled from one seeded NumPy generator) for the row
evaluators (breakdowns, sampled distributions).

Rows: per player ``uint8[rows, cards]`` and the boards ``uint8[rows, 5]`` (stud: each
player's seven cards, boards None).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from ..classes import subsets
from ..errors import HandError
from .spot import Spot

__all__ = ["stud_deals", "exact_rows", "sampled_rows", "draw"]


def stud_deals(spot: Spot):
    """Every stud run-out as [player][7 cards] (same order of run-outs as the kernels' count)."""
    holes, mo, n = spot.holes, spot.mo, spot.n
    shared_cards = spot.unseen if spot.shared else [None]
    for s in shared_cards:
        pool = [c for c in spot.unseen if c != s]

        def deal(p, remaining, dealt):
            if p == n:
                yield [holes[i] + dealt[i] + ([s] if s is not None else []) for i in range(n)]
                return
            for mine in combinations(remaining, mo):
                rest = [c for c in remaining if c not in mine]
                yield from deal(p + 1, rest, dealt + [list(mine)])

        yield from deal(0, pool, [])


def exact_rows(spot: Spot):
    """Every run-out: ``(holes per player, boards)`` (stud: 7-card rows, boards None)."""
    if spot.game.stud:
        deals = np.array(list(stud_deals(spot)), dtype=np.uint8)  # [rows, n, 7]
        return [np.ascontiguousarray(deals[:, p, :]) for p in range(spot.n)], None
    extra = np.array(spot.unseen, dtype=np.uint8)[subsets(len(spot.unseen), spot.k)]
    boards = np.hstack([np.tile(np.array(spot.board, dtype=np.uint8), (len(extra), 1)), extra])
    holes = [np.tile(np.array(h, dtype=np.uint8), (len(extra), 1)) for h in spot.holes]
    return holes, boards


def sampled_rows(spot: Spot, samples: int, rng: np.random.Generator):
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
                            draw(used, spot.k, rng)])
        return holes, boards
    out = [np.hstack([holes[p], draw(used, spot.mo, rng)]) for p in range(n)]
    if spot.shared:
        shared = draw(used, 1, rng)
        out = [np.hstack([h, shared]) for h in out]
    return out, None


def draw(used: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
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
