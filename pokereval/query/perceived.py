"""PQL's nested functions beyond :mod:`query.nested`: equity against a perceived range
(``HvPerceivedRangeEquity``), the nuts for a hand type (``nutHiForHandType``) and the
hand ranking under a named ordering (``handRankingFor``).

The equity and ranking walks are cached per distinct key (p's hand and the board so far)
for one query, in a dict tied to the query's :class:`nested.Nested`; all compute only the
rows the WHERE accepts (:attr:`hands.Hands.live`).  Costs: ``HvPerceivedRangeEquity`` runs one
``pe.equity`` per distinct (hand, board), as ``HvREquity``; ``nutHiForHandType`` rates
every unseen two-card holding on the board (~1,300 evaluations per row in C; the Omaha
family times the board's three-card subsets).
"""
from __future__ import annotations

import threading
import weakref
from fractions import Fraction
from itertools import combinations
from math import lcm

import numpy as np

from .. import _native
from ..cards import cards_str
from ..equity.options import parse_options
from ..equity.run import run
from ..equity.spot import parse_spot, read_hands
from ..errors import PokerEvalError
from ..percent import ordering_for, percentile
from .hands import Hands, street_cards
from .syntax import PqlError
from .values import Num

__all__ = ["SPECIAL", "nut_for_type", "perceived_equity", "ranking_for"]

_ONE = np.uint64(1)
_caches: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _cache(nested, name: str) -> dict:
    with _lock:
        return _caches.setdefault(nested, {}).setdefault(name, {})


def _column(values: list, n: int, rows: np.ndarray) -> Num:
    """Per-row values (Fractions or floats) on ``rows`` of n, 0 elsewhere; exact when all are."""
    if all(isinstance(v, Fraction) for v in values):
        den = lcm(*(v.denominator for v in values)) if values else 1
        if den < (1 << 40):
            out = np.zeros(n, dtype=np.int64)
            out[rows] = [v.numerator * (den // v.denominator) for v in values]
            return Num(out, den)
    out = np.zeros(n, dtype=np.float64)
    out[rows] = [float(v) for v in values]
    return Num(out, None)


def _equity_of(game, texts, board: str, dead: str, seed, p: int):
    r = run(parse_spot(game, texts, board, dead), parse_options(None, None, None, seed, 1, None), 0.0)
    return r.players[p].fraction if r.exact else r.players[p].equity


# HvPerceivedRangeEquity --------------------------------------------------------------------
def perceived_equity(h: Hands, nested, p: int, st: str, text: str) -> Num:
    """p's actual hand against every other player holding range ``text`` (minus p's cards
    and the board so far), over their holdings and the rest of the run-out."""
    g, k = h.game, street_cards(h.game, st)
    mine = h.hole(p, k) if g.stud else h.hole(p)
    board = None if g.stud else h.board(k)
    cache, rows = _cache(nested, "perceived"), h.live_rows()
    dead = cards_str(nested.table.dead)
    values = []
    for i in rows:
        hand, b = cards_str(mine[i]), cards_str(board[i]) if board is not None else ""
        key = (p, hand, b, text)
        hit = cache.get(key)
        if hit is None:
            texts = [hand if q == p else text for q in range(h.n)]
            hit = cache[key] = _equity_of(g, texts, b, dead, nested.seed, p)
        values.append(hit)
    return _column(values, len(h), rows)


def _perceived(checker, node, args):
    p, st, text = args[0], args[1], args[2]
    try:
        read_hands(checker.game, [text])  # read as the equity run will read it
    except PokerEvalError as error:
        raise PqlError(f"{node.text}(): {error} at column {node.args[2].column}") from None
    checker.nested.add("hvr")
    f = lambda ctx: perceived_equity(ctx.hands, ctx.nested, p, st, text)  # noqa: E731
    if len(args) == 4:
        x = args[3]
        return "bool", lambda ctx: f(ctx).compare(x(ctx), ">=")
    return "equity", f


# nutHiForHandType ---------------------------------------------------------------------------
def _best_values(hole: np.ndarray, board: np.ndarray, exactly_two: bool) -> np.ndarray:
    """C high values (``category << 12 | order``) of rows of holes on rows of boards."""
    if exactly_two:
        return _native.eval_omaha_batch(hole, board, low=False)[0].astype(np.int64)
    return _native.eval_hi_batch(np.hstack([hole, board])).astype(np.int64)


_PAIRS = np.array(list(combinations(range(52), 2)), dtype=np.uint8)  # every holding


def best_per_type(seen: np.ndarray, board: np.ndarray, exactly_two: bool) -> np.ndarray:
    """[N, 9]: per row, the best C high value of each hand type that two cards outside
    ``seen`` (a card mask) make on the row's board (-1: none of that type)."""
    n, k = board.shape
    free = ((seen[:, None] >> _PAIRS[:, 0].astype(np.uint64)) & _ONE) == 0
    free &= ((seen[:, None] >> _PAIRS[:, 1].astype(np.uint64)) & _ONE) == 0  # [N, 1326]
    which = np.nonzero(free.ravel())[0]  # the free (row, holding)s, row-major
    pairs, row_of = _PAIRS[which % len(_PAIRS)], which // len(_PAIRS)
    best = np.full(len(which), -1, dtype=np.int64)
    for three in (combinations(range(k), 3) if exactly_two else [tuple(range(k))]):
        cards = np.hstack([pairs, board[row_of][:, list(three)]])
        best = np.maximum(best, _native.eval_hi_batch(cards).astype(np.int64))
    values = np.full(n * len(_PAIRS), -1, dtype=np.int64)
    values[which] = best
    values = values.reshape(n, len(_PAIRS))
    kinds = values >> 12
    return np.stack([np.where(kinds == c, values, -1).max(axis=1) for c in range(9)], axis=1)


def nut_for_type(h: Hands, nested, p: int, st: str, chunk: int = 64) -> np.ndarray:
    """No two unseen cards (not p's, not on the board, not dead) make a better high of p's
    own hand type on the board (a better Omaha hand needs only two hole cards)."""
    g, k = h.game, street_cards(h.game, st)
    hole, board, rows = h.hole(p), h.board(k), h.live_rows()
    out = np.zeros(len(h), dtype=bool)
    if not len(rows):
        return out
    mine = _best_values(hole[rows], board[rows], g.exactly_two)
    seen = np.zeros(len(rows), dtype=np.uint64) | np.uint64(sum(1 << int(c) for c in nested.table.dead))
    for cards in (hole[rows], board[rows]):
        for c in range(cards.shape[1]):
            seen |= _ONE << cards[:, c].astype(np.uint64)
    best = np.empty((len(rows), 9), dtype=np.int64)
    for start in range(0, len(rows), chunk):
        part = slice(start, start + chunk)
        best[part] = best_per_type(seen[part], board[rows][part], g.exactly_two)
    out[rows] = mine >= best[np.arange(len(rows)), mine >> 12]
    return out


def _nut_for_type(checker, node, args):
    p, st = args
    if street_cards(checker.game, st) < 3:
        raise PqlError(f"{node.text}() on {st} means nothing in {checker.game.name}: there "
                       f"is no board yet at column {node.column}")
    checker.nested.add("nut")
    return "bool", lambda ctx: nut_for_type(ctx.hands, ctx.nested, p, st)


# handRankingFor -------------------------------------------------------------------------------
def _ordering(text: str):
    """'6' / '6h' / '6-handed': (players, None); anything else: (None, an ordering file)."""
    t = text.strip().lower().removesuffix("-handed").removesuffix("h")
    return (int(t), None) if t.isdigit() else (None, text.strip())


def ranking_for(h: Hands, nested, p: int, text: str) -> Num:
    players, ordering = _ordering(text)
    hole, cache = h.hole(p), _cache(nested, "ranking")
    out = np.zeros(len(h), dtype=np.float64)
    for i in h.live_rows():
        key = (bytes(np.sort(hole[i])), text)
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = percentile(h.game, cards_str(hole[i]), players, ordering=ordering)
        out[i] = hit
    return Num(out, None)


def _ranking_for(checker, node, args):
    p, text = args
    players, ordering = _ordering(text)
    try:
        ordering_for(checker.game, players, ordering)
    except (PokerEvalError, OSError, ValueError) as error:
        raise PqlError(f"{node.text}(): {str(error).splitlines()[0]} at column "
                       f"{node.args[1].column}") from None
    return "num", lambda ctx: ranking_for(ctx.hands, ctx.nested, p, text)


#: name -> (params, compile(checker, node, args) -> (type, fn), needs), as compile's own
SPECIAL = {
    "hvperceivedrangeequity": ("PSR", _perceived, ()),
    "minhvperceivedrangeequity": ("PSRN", _perceived, ()),
    "nuthiforhandtype": ("PS", _nut_for_type, ("board", "high", "hand")),
    "handrankingfor": ("PR", _ranking_for, ("ordered",)),
}
