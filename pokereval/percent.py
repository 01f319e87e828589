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

``ordering=`` names another ordering instead of the shipped ones: a file that
``pokereval table build ordering ... --out FILE`` or ``table import-ppt`` wrote
(a path, read once per process and again only when the file changes), or a
:class:`HandOrdering`.  That one table then serves every cut and percentile:
``players`` (and a range's ``6h``) may be left out, and when given must name
the table's own player count, or the request is refused (never silently
answered from another table).

>>> rows, share = percent_holdings("holdem", 0.0, 0.01)
>>> len(rows), round(share, 4)     # AA, KK and QQ: 18 combos reach 1% of 1,326
(18, 0.0136)
>>> percentile("holdem", "7c2d")
0.00904977375565611
"""
from __future__ import annotations

import numbers
import os
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import orderings
from .classes import combinations, hand_classes
from .errors import HandError, PokerEvalError
from .games import Game, get_game

__all__ = ["ORDERED_GAMES", "HandOrdering", "hand_ordering", "percent_holdings", "percentile",
           "ordering_table", "load_ordering", "Ordering", "ordering_for", "read_ordering"]

ORDERED_GAMES = ("holdem", "omaha", "omaha-hilo", "omaha5", "omaha5-hilo")


def ordering_table(game: str | Game, players: int | None) -> tuple[Game, int]:
    """(game, players of the shipped table) for a request, or a one-line error:
    ``players=9`` and ``10`` both name the full-ring table (None: full ring)."""
    game = get_game(game)
    players = 10 if players is None else players
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


def _prefix(cum: np.ndarray, x: float) -> int:
    """The number of leading classes in the smallest prefix reaching share ``x``."""
    if x <= 0:
        return 0
    target = x * int(cum[-1]) * (1 - 1e-12)  # 7% of 100 combos is 7, not 7.000000000000001
    return min(int(np.searchsorted(cum, target, side="left")) + 1, len(cum))


def percent_holdings(game: str | Game, lo: float, hi: float, players: int | None = None, *,
                     ordering=None) -> tuple[np.ndarray, float]:
    """The holdings of the band ``lo..hi`` of the ordering (fractions in [0, 1]):
    ``prefix(hi)`` minus ``prefix(lo)``.  Returns ``(holdings, share_reached)``:
    uint8 [k, hole] rows (cards ascending, rows unique; do not modify) and the
    share of all combos they are.  ``players``: 10 (full ring, the default) or 6;
    ``ordering``: an ordering file or :class:`HandOrdering` (see the module)."""
    for name, x in (("lo", lo), ("hi", hi)):
        if isinstance(x, bool) or not isinstance(x, numbers.Real) or not 0 <= x <= 1:
            raise HandError(f"percent bound {name}={x!r} must be a fraction in [0, 1]")
    if lo > hi:
        raise HandError(f"percent band {lo!r}..{hi!r} runs backwards")
    table = ordering_for(game, players, ordering)
    cum = table.cum
    a, b = _prefix(cum, lo), _prefix(cum, hi)
    start = int(cum[a - 1]) if a else 0
    stop = int(cum[b - 1]) if b else 0
    return table.holdings()[start:stop], (stop - start) / int(cum[-1])


def percentile(game: str | Game, hand: str, players: int | None = None, *,
               ordering=None) -> float:
    """The share of all combos whose class ranks at or below ``hand``'s class
    (ProPokerTools' convention: the best class is 1.0); ``players`` and
    ``ordering`` as for :func:`percent_holdings`.

    >>> percentile("omaha", "AsAh7c2d")
    0.9675316280358297
    """
    table = ordering_for(game, players, ordering)
    position, cum = table.position, table.cum
    p = position[hand_classes(get_game(game).hole).class_of(hand)]
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
    #: class indices best first, when known (saves reading ``classes`` back)
    order: np.ndarray | None = field(default=None, compare=False)

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


def hand_ordering(game: str | Game, players: int | None = None, *,
                  ordering=None) -> HandOrdering:
    """The classes of ``game`` in order (full ring, or ``players=6``; or those of
    an ordering file, ``ordering="my.npz"``).

    >>> o = hand_ordering("holdem")
    >>> o.classes[:5], int(o.combos.sum())
    (['AA', 'KK', 'QQ', 'JJ', 'AKs'], 1326)
    >>> o
    <HandOrdering holdem 10-handed: 169 classes, 1,326 holdings, best first: AA, KK, QQ, ...>
    """
    table = ordering_for(game, players, ordering)
    hc = hand_classes(get_game(game).hole)
    order = table.order
    return HandOrdering(table.game, table.players or 0, [hc.text(c) for c in order],
                        hc.combos[order], table.stat[order], table.meta, order)


# --------------------------------------------------------------------------- the tables

@dataclass(frozen=True, eq=False)
class Ordering:
    """One ordering ready for cuts (read-only arrays): ``order`` (class indices, best
    first), ``stat`` and ``position`` (per class index), ``cum`` (cumulative combos in
    order); ``source``: "" for a shipped table, else the file or object it came from.
    Compared by identity: the recent-range cache keys on it."""

    game: str
    players: int | None
    order: np.ndarray
    stat: np.ndarray
    meta: dict
    position: np.ndarray
    cum: np.ndarray
    source: str = ""
    _rows: list = field(default_factory=list, repr=False)  # holdings(), once computed
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def holdings(self) -> np.ndarray:
        """Every holding, sorted by its class's position in the ordering (combination
        order within a class), so that any prefix of classes is a slice."""
        with self._lock:
            if not self._rows:
                hc = hand_classes(get_game(self.game).hole)
                key = self.position.astype(hc.class_of_combo.dtype)[hc.class_of_combo]  # radix
                rows = combinations(hc.hole)[np.argsort(key, kind="stable")]
                rows.setflags(write=False)
                self._rows.append(rows)
            return self._rows[0]


def _table(game: Game, players, order, stat, meta, source: str) -> Ordering:
    hc = hand_classes(game.hole)
    position = np.empty(len(order), np.int64)
    position[order] = np.arange(len(order))
    cum = np.cumsum(hc.combos[order])
    for a in (order, stat, position, cum):
        a.setflags(write=False)
    return Ordering(game.name, players, order, stat, meta, position, cum, source)


@lru_cache(maxsize=16)
def _shipped(name: str, players: int) -> Ordering:
    order, stat, meta, _, _ = load_ordering(name, players)
    return _table(get_game(name), players, order, stat, meta, "")


def ordering_for(game: str | Game, players: int | None = None, ordering=None) -> Ordering:
    """The ordering a request names: the shipped table of ``game`` for ``players``
    (None: full ring) when ``ordering`` is None, else ``ordering`` (a file path, a
    :class:`HandOrdering` or an :class:`Ordering`), checked to be ``game``'s and, when
    ``players`` is given, that many players'.  Errors are one line, naming the file."""
    if ordering is None:
        game, players = ordering_table(game, players)
        return _shipped(game.name, players)
    game = get_game(game)
    if isinstance(ordering, Ordering):
        table, what = ordering, ordering.source or f"the shipped {ordering.game} ordering"
    elif isinstance(ordering, HandOrdering):
        table, what = _from_object(ordering), f"the given {ordering.game} HandOrdering"
    elif isinstance(ordering, (str, os.PathLike)):
        table, what = _from_file(ordering), f"ordering file {os.fspath(ordering)!r}"
    else:
        raise PokerEvalError(f"ordering must be an ordering file's path or a HandOrdering, "
                             f"got {ordering!r}")
    if table.game != game.name:
        raise PokerEvalError(f"{what} is for {table.game}, not {game.name}")
    if players is not None and not (players == table.players or (
            players == 10 and table.players == 9 and game.hole == 5)):
        raise HandError(f"{what} is {table.players or 'an unknown number of'}-handed, not "
                        f"{players!r}-handed (leave the player count out, players= / "
                        f"--players / 6h, to use it)")
    return table


#: ordering files read: (resolved path, mtime, size) -> Ordering (a changed file is read again)
_FILES: dict = {}
_FILES_MAX = 8
_FILES_LOCK = threading.Lock()


def read_ordering(file) -> Ordering:
    """The ordering in ``file`` (read once per process, again when it changes), whatever
    its game: a face checks the file before the requests that will use it."""
    return _from_file(file)


def _from_file(file) -> Ordering:
    shown = os.fspath(file)
    try:
        resolved = Path(shown).resolve()
        info = resolved.stat()
    except (OSError, RuntimeError, ValueError) as exc:
        raise PokerEvalError(f"cannot read ordering file {shown!r}: "
                             f"{getattr(exc, 'strerror', None) or exc}") from None
    key = (str(resolved), info.st_mtime_ns, info.st_size)
    with _FILES_LOCK:
        hit = _FILES.get(key)
    if hit is not None:
        return hit
    order, stat, meta = orderings.read(shown)
    name = meta.get("game")
    if name not in ORDERED_GAMES:
        raise PokerEvalError(f"ordering file {shown!r} names no game with an ordering "
                             f"(its meta says game={name!r})")
    game = get_game(name)
    if len(order) != len(hand_classes(game.hole)):
        raise PokerEvalError(f"ordering file {shown!r} lists {len(order):,} classes; "
                             f"{game.name} has {len(hand_classes(game.hole)):,}")
    players = meta.get("players")
    players = players if isinstance(players, int) and not isinstance(players, bool) else None
    table = _table(game, players, order, stat, meta, f"ordering file {shown!r}")
    with _FILES_LOCK:
        _FILES[key] = table
        while len(_FILES) > _FILES_MAX:
            del _FILES[next(iter(_FILES))]
    return table


#: HandOrdering objects turned into tables: id -> (the object, kept alive, its table)
_OBJECTS: dict = {}
_OBJECTS_MAX = 4


def _from_object(ho: HandOrdering) -> Ordering:
    with _FILES_LOCK:
        hit = _OBJECTS.get(id(ho))
    if hit is not None and hit[0] is ho:
        return hit[1]
    if ho.game not in ORDERED_GAMES:
        raise PokerEvalError(f"a HandOrdering of {ho.game!r}: orderings exist for "
                             f"{', '.join(ORDERED_GAMES)}")
    game = get_game(ho.game)
    hc = hand_classes(game.hole)
    if ho.order is not None:
        order = np.asarray(ho.order, np.int64).copy()
    else:
        order = np.array([hc.parse_text(c) for c in ho.classes], np.int64)
    if len(order) != len(hc) or len(np.unique(order)) != len(hc) or order.min() < 0 \
            or order.max() >= len(hc):
        raise PokerEvalError(f"a {game.name} HandOrdering must list each of the {len(hc):,} "
                             f"classes once")
    stat = np.full(len(order), np.nan)
    stat[order] = np.asarray(ho.stat, float) if len(ho.stat) == len(order) else np.nan
    table = _table(game, ho.players, order, stat, dict(ho.meta),
                   f"the given {game.name} HandOrdering")
    with _FILES_LOCK:
        _OBJECTS[id(ho)] = (ho, table)
        while len(_OBJECTS) > _OBJECTS_MAX:
            del _OBJECTS[next(iter(_OBJECTS))]
    return table
