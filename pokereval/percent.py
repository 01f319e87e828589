"""Percent ranges and percentiles over the shipped starting-hand orderings.

An ordering lists a game's starting-hand classes best first.  A share ``x``
(a fraction of all combos) selects a prefix of it:

* ``prefix(x)`` = the smallest number of leading classes whose combos reach at
  least ``x`` of all combos (a class is never cut in two, so the share actually
  reached is ``>= x``; 0 gives the empty prefix);
* the band ``lo..hi`` (``5%-10%``) = ``prefix(hi)`` minus ``prefix(lo)``.

A hand's percentile follows ProPokerTools: the share of all combos whose class
ranks at or below the hand's class (the best class is 1.0; in full-ring hold'em
72o, the last class, is 12/1326).

Orderings exist for full ring (``players=10``; the 5-card games are dealt
9-handed, and ``players=9`` is accepted for them) and six-handed (``players=6``).

>>> rows, share = percent_holdings("holdem", 0.0, 0.01)
>>> len(rows), round(share, 4)     # AA, KK and QQ: 18 combos reach 1% of 1,326
(18, 0.0136)
>>> percentile("holdem", "7c2d")
0.00904977375565611
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import orderings
from .classes import combinations, hand_classes
from .errors import HandError, PokerEvalError
from .games import Game, get_game

__all__ = ["ORDERED_GAMES", "HandOrdering", "hand_ordering", "percent_holdings", "percentile",
           "ordering_table", "load_ordering"]

ORDERED_GAMES = ("holdem", "omaha", "omaha-hilo", "omaha5", "omaha5-hilo")


def ordering_table(game: str | Game, players: int) -> tuple[Game, int]:
    """(game, players of the shipped table) for a request, or a one-line error:
    ``players=9`` and ``10`` both name the full-ring table."""
    game = get_game(game)
    if game.name not in ORDERED_GAMES:
        raise PokerEvalError(f"no hand ordering for {game.name}: percent ranges and percentiles "
                             f"exist for {', '.join(ORDERED_GAMES)}")
    full = 10 if game.hole < 5 else 9
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) \
            or players not in (6, 9, 10) or (players == 9 and full == 10):
        raise HandError(f"orderings are full ring (players=10) or six-handed (players=6), "
                        f"not players={players!r}")
    return game, (6 if players == 6 else full)


@lru_cache(maxsize=16)
def load_ordering(name: str, players: int):
    """The shipped ordering of game ``name`` (cached, read-only arrays): (order, stat,
    meta, position of each class in the order, cumulative combos in order)."""
    loaded = orderings.load(name, players)
    if loaded is None:
        raise PokerEvalError(f"the {name} {players}-handed ordering is not installed")
    order, stat, meta = loaded
    hc = hand_classes(get_game(name).hole)
    position = np.empty(len(order), np.int64)
    position[order] = np.arange(len(order))
    cum = np.cumsum(hc.combos[order])
    for a in (order, stat, position, cum):
        a.setflags(write=False)
    return order, stat, meta, position, cum


@lru_cache(maxsize=16)
def _holdings_in_order(name: str, players: int) -> np.ndarray:
    """Every holding, sorted by its class's position in the ordering (combination
    order within a class), so that any prefix of classes is a slice."""
    hc = hand_classes(get_game(name).hole)
    position = load_ordering(name, players)[3]
    key = position.astype(hc.class_of_combo.dtype)[hc.class_of_combo]  # 16-bit: radix sort
    rows = combinations(hc.hole)[np.argsort(key, kind="stable")]
    rows.setflags(write=False)
    return rows


def _prefix(cum: np.ndarray, x: float) -> int:
    """The number of leading classes in the smallest prefix reaching share ``x``."""
    if x <= 0:
        return 0
    target = x * int(cum[-1]) * (1 - 1e-12)  # 7% of 100 combos is 7, not 7.000000000000001
    return min(int(np.searchsorted(cum, target, side="left")) + 1, len(cum))


def percent_holdings(game: str | Game, lo: float, hi: float,
                     players: int = 10) -> tuple[np.ndarray, float]:
    """The holdings of the band ``lo..hi`` of the ordering (fractions in [0, 1]):
    ``prefix(hi)`` minus ``prefix(lo)``.  Returns ``(holdings, share_reached)``:
    uint8 [k, hole] rows (cards ascending, rows unique; do not modify) and the
    share of all combos they are."""
    for name, x in (("lo", lo), ("hi", hi)):
        if isinstance(x, bool) or not isinstance(x, numbers.Real) or not 0 <= x <= 1:
            raise HandError(f"percent bound {name}={x!r} must be a fraction in [0, 1]")
    if lo > hi:
        raise HandError(f"percent band {lo!r}..{hi!r} runs backwards")
    game, players = ordering_table(game, players)
    cum = load_ordering(game.name, players)[4]
    a, b = _prefix(cum, lo), _prefix(cum, hi)
    start = int(cum[a - 1]) if a else 0
    stop = int(cum[b - 1]) if b else 0
    return _holdings_in_order(game.name, players)[start:stop], (stop - start) / int(cum[-1])


def percentile(game: str | Game, hand: str, players: int = 10) -> float:
    """The share of all combos whose class ranks at or below ``hand``'s class
    (ProPokerTools' convention: the best class is 1.0).

    >>> percentile("omaha", "AsAh7c2d")
    0.9675316280358297
    """
    game, players = ordering_table(game, players)
    order, _, _, position, cum = load_ordering(game.name, players)
    hc = hand_classes(game.hole)
    p = position[hc.class_of(hand)]
    above = int(cum[p - 1]) if p else 0
    return (int(cum[-1]) - above) / int(cum[-1])


@dataclass(frozen=True)
class HandOrdering:
    """A game's starting-hand classes, best first.

    ``classes``: PPT notation of each class; ``combos``: its holdings; ``stat``:
    the statistic behind the order (mean net winnings per trial, in chips, in the
    generator's last pass; NaN for ProPokerTools' published orderings);
    ``meta``: source, credit and the command that rebuilds the table."""

    game: str
    players: int
    classes: list[str]
    combos: np.ndarray
    stat: np.ndarray
    meta: dict

    def __repr__(self) -> str:
        # the dataclass repr would print every class (megabytes for Omaha)
        first = ", ".join(self.classes[:3])
        return (f"<HandOrdering {self.game} {self.players}-handed: {len(self.classes):,} classes, "
                f"{int(self.combos.sum()):,} holdings, best first: {first}, ...>")

    def to_dict(self, limit: int | None = None) -> dict:
        n = len(self.classes) if limit is None else limit
        stat = [None if np.isnan(s) else float(s) for s in self.stat[:n]]
        return {"game": self.game, "players": self.players, "meta": self.meta,
                "classes": [{"class": c, "combos": int(k), "stat": s}
                            for c, k, s in zip(self.classes[:n], self.combos[:n], stat)]}


def hand_ordering(game: str | Game, players: int = 10) -> HandOrdering:
    """The classes of ``game`` in order (full ring, or ``players=6``).

    >>> o = hand_ordering("holdem")
    >>> o.classes[:5], int(o.combos.sum())
    (['AA', 'KK', 'QQ', 'JJ', 'AKs'], 1326)
    >>> o
    <HandOrdering holdem 10-handed: 169 classes, 1,326 holdings, best first: AA, KK, QQ, ...>
    """
    game, players = ordering_table(game, players)
    order, stat, meta, _, _ = load_ordering(game.name, players)
    hc = hand_classes(game.hole)
    return HandOrdering(game.name, players, [hc.text(c) for c in order], hc.combos[order],
                        stat[order], meta)
