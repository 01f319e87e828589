"""The public equity API: validation, the exact / Monte Carlo plan, results.

>>> from pokereval.equity_api import equity
>>> r = equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], board="7c8d9h", dead="2h")
>>> r.exact, r.samples, r.players[0].equity_fraction
(True, 780, Fraction(199, 260))

Data flow: text -> cards -> game rules -> (validated) spot -> plan -> kernel
-> outcome counts -> :class:`EquityResult`.

Every run-out (exact) or sample (Monte Carlo) adds one to each player's
*outcome cell*: row = 0 if the player did not win the high (or the game has
no high), else the number of players sharing the high; column = 0 if no low
qualified (or the game has no low), 1 if the player lost the low, else 1 +
the number of players sharing it.  Every reported number derives from these
integer counts; exact equities are counted in units of 1 / (2 * lcm(1..n)) of
a pot and divided once (:attr:`PlayerResult.equity_fraction`).

Small exact spots (a flop, a turn, a river) are walked by the C library in one
batch call, without importing Numba (a second process answers them in well
under a second); everything else runs in the Numba kernels
(:mod:`pokereval.kernels`), in batches so that a ``progress`` callback sees
partial results and Ctrl-C returns what was computed so far.
"""
from __future__ import annotations

import math
import operator
import secrets
import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Callable

import numpy as np

from .cards import cards_str, check_disjoint, parse_cards
from .errors import CardError, HandError
from .games import Game, get_game
from .ranges import Range, RangeError, holdings_excluding, parse_range

__all__ = ["equity", "EquityResult", "PlayerResult", "DEFAULT_STDERR"]

#: Monte Carlo precision target when ``equity`` chooses to sample.
DEFAULT_STDERR = 0.001
#: Sample cap when ``equity`` chooses to sample.
DEFAULT_MAX_SAMPLES = 10_000_000
#: ``equity`` enumerates when the estimated single-core time is below this (seconds).
AUTO_EXACT_SECONDS = 2.0
#: Exact spots with at most this many (run-out x player) evaluations run in C, no Numba.
SMALL_EXACT = 40_000
#: Monte Carlo samples per chunk (one random stream each); fixed, so results
#: depend on the seed only, never on the thread count.
MC_CHUNK = 4096
#: Chunks per Monte Carlo batch (a progress callback / Ctrl-C point after each).
MC_BATCHES = (4, 8, 16, 32, 64)
#: Wall-clock goal for one exact batch (seconds).
BATCH_SECONDS = 0.3
#: At least this many samples before a stderr target may stop a run.
MIN_STDERR_SAMPLES = 16_384

#: Kernel calls from several Python threads take turns (each already uses every
#: core, and Numba's "workqueue" threading layer must not be entered twice).
_KERNEL_LOCK = threading.Lock()
#: Most samples a run may ask for (the kernels count in int64).
MAX_SAMPLES = 1 << 62

_MAX_PLAYERS_BOARD = 10
_MAX_PLAYERS_STUD = 8

# Estimated single-core nanoseconds, used for the auto choice and batch sizes.
_NS_BOARD = 20.0
_NS_PLAYER = {2: 15.0, 4: 25.0, 5: 28.0}  # per player per board, by hole cards
_NS_STUD_VISIT = 2.5  # per subset visited by the stud walk
_NS_RANGED_PLAYER = 30.0  # per ranged-kernel player per board
_NS_TUPLE_STUD = 60_000.0  # per holding tuple of a stud range spot (one exact run each)

#: Most holding combinations a range spot enumerates (exact with ranges).
MAX_TUPLES = 20_000_000
#: Auto plan: holding combinations are listed (to count the compatible ones)
#: only when their product is at most this.
SCAN_TUPLES = 20_000_000
#: A Monte Carlo chunk of ranged players gives up after this many attempts
#: per wanted sample (acceptance below 1 / MAX_TRIES_FACTOR: an error).
MAX_TRIES_FACTOR = 1000


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------

def _lcm_upto(n: int) -> int:
    return math.lcm(*range(1, n + 1))


def _share_units(pot: str, n: int) -> np.ndarray:
    """int64[n + 1, n + 2]: a cell's share of the pot in units of 1 / (2 * lcm(1..n))."""
    lcm = _lcm_upto(n)
    units = np.zeros((n + 1, n + 2), dtype=np.int64)
    for row in range(n + 1):
        for col in range(n + 2):
            if pot == "razz":
                units[row, col] = 2 * lcm // (col - 1) if col >= 2 else 0
            elif pot == "high" or col == 0:
                units[row, col] = 2 * lcm // row if row else 0
            else:  # split pot with a qualifying low
                units[row, col] = (lcm // row if row else 0) + (lcm // (col - 1) if col >= 2 else 0)
    return units


@dataclass(eq=False)
class PlayerResult:
    """One player's result; every number derives from :attr:`outcomes`.

    ``outcomes[row, col]``: run-outs (or samples) by high result (row 0 lost,
    1 won alone, k + 1 tied with k others) and low result (col 0 no qualifying
    low, 1 lost, 2 won alone, k + 2 tied with k others).  High-only games put
    everything in column 0; razz (one pot, won by the low) everything in row 0.
    """

    hand: str
    equity: float
    high_win: float
    high_tie: float
    low_win: float
    low_tie: float
    scoop: float
    std_error: float
    outcomes: np.ndarray = field(repr=False)
    pot: str = field(default="high", repr=False)  # "high", "split" or "razz"
    exact: bool = field(default=False, repr=False)
    fraction: Fraction | None = field(default=None, repr=False)

    def _p(self, count) -> float:
        if self.outcomes.dtype.kind == "f":
            total = float(self.outcomes.sum())
            return float(count) / total if total else float("nan")
        total = int(self.outcomes.sum())
        return float(Fraction(int(count), total)) if total else float("nan")

    @property
    def three_quarters(self) -> float:
        """P(won one half alone and tied the other half with exactly one other player)."""
        if self.pot != "split":
            return 0.0
        o = self.outcomes
        return self._p(o[1, 3] + o[2, 2]) if o.shape[0] > 2 else 0.0

    @property
    def quartered(self) -> float:
        """P(tied the low with exactly one other player: a quarter of the pot from that half)."""
        if self.pot != "split":
            return 0.0
        return self._p(self.outcomes[:, 3].sum()) if self.outcomes.shape[1] > 3 else 0.0

    @property
    def no_low(self) -> float:
        """P(no qualifying low) in hi/lo games; 0 in games without an eight-or-better low."""
        if self.pot != "split":
            return 0.0
        return self._p(self.outcomes[:, 0].sum())

    @property
    def equity_fraction(self) -> Fraction | None:
        """The exact equity as a Fraction (None for Monte Carlo or partial results)."""
        return self.fraction

    def to_dict(self) -> dict:
        frac = self.equity_fraction
        return {
            "hand": self.hand,
            "equity": self.equity,
            "high_win": self.high_win,
            "high_tie": self.high_tie,
            "low_win": self.low_win,
            "low_tie": self.low_tie,
            "scoop": self.scoop,
            "std_error": self.std_error,
            "three_quarters": self.three_quarters,
            "quartered": self.quartered,
            "no_low": self.no_low,
            "outcomes": self.outcomes.tolist(),
            "equity_fraction": None if frac is None else f"{frac.numerator}/{frac.denominator}",
        }


@dataclass(eq=False)
class EquityResult:
    """The answer of :func:`equity`.

    ``exact``: every run-out was walked (``samples`` = run-outs walked) or
    sampled (``samples`` = samples drawn).  ``partial``: the run stopped early
    (Ctrl-C) or this is an intermediate result given to a progress callback.
    Extra attributes: ``seed`` (Monte Carlo seed used; also in :meth:`to_dict`),
    ``fraction_done`` (0..1, None when unknown, e.g. running to a stderr target),
    ``acceptance`` (players given as ranges, else None: Monte Carlo, the share of
    draws of the listed ranges' holdings that shared no card -- 1.0 when at most
    one range is drawn from a list, random hands being dealt; exact, the weight
    share of the holding combinations that share no card).

    With ranges, ``hands`` holds each range's text; exact ``samples`` counts the
    (holding combination, run-out) pairs walked, and ``outcomes`` are counted
    with the combination's weight (the product of the players' weights, scaled
    to the smallest whole numbers), so every derived number is weighted.
    """

    game: str
    hands: list[str]
    board: str
    dead: str
    exact: bool
    samples: int
    partial: bool
    elapsed: float
    players: list[PlayerResult]
    seed: int | None = field(default=None, repr=False)
    fraction_done: float | None = field(default=None, repr=False)
    acceptance: float | None = field(default=None, repr=False)

    @property
    def equities(self) -> list[float]:
        return [p.equity for p in self.players]

    def to_dict(self) -> dict:
        """A JSON-ready dict with stable field names."""
        out = {
            "game": self.game,
            "hands": list(self.hands),
            "board": self.board,
            "dead": self.dead,
            "exact": self.exact,
            "samples": self.samples,
            "partial": self.partial,
            "seed": self.seed,
            "elapsed": self.elapsed,
            "players": [p.to_dict() for p in self.players],
        }
        if self.acceptance is not None:  # players given as ranges
            out["acceptance"] = self.acceptance
        return out


def _pot_kind(game: Game) -> str:
    if game.low == "razz":
        return "razz"
    return "split" if game.split else "high"


def _player_results(spot: "_Spot", counts: np.ndarray, exact: bool, final: bool) -> list[PlayerResult]:
    """PlayerResults from outcome counts ``int64[n, n + 1, n + 2]``."""
    n = spot.n
    pot = _pot_kind(spot.game)
    units = _share_units(pot, n)
    denom_unit = 2 * _lcm_upto(n)
    out = []
    for p in range(n):
        exact_frac = True
        o = np.asarray(counts[p])
        if o.dtype.kind != "f":
            o = o.astype(np.int64)
        else:  # weighted counts too large for int64: floats, no exact fraction
            exact_frac = False
        total = int(o.sum()) if o.dtype.kind != "f" else float(o.sum())
        if total == 0:
            nan = float("nan")
            out.append(PlayerResult(spot.hand_text[p], nan, nan, nan, nan, nan, nan, nan,
                                    o.copy(), pot, exact, None))
            continue
        if exact_frac:
            num = sum(int(x) * int(u) for x, u in zip(o.ravel(), units.ravel()))
            frac = Fraction(num, total * denom_unit)

            def pr(c):
                return float(Fraction(int(c), total))
        else:
            frac = float((o * units).sum()) / (total * denom_unit)

            def pr(c):
                return float(c) / total

        high_win = pr(o[1, :].sum())
        high_tie = pr(o[2:, :].sum())
        low_win = pr(o[:, 2].sum())
        low_tie = pr(o[:, 3:].sum())
        if pot == "split":
            scoop = pr(o[1, 0] + o[1, 2])
        elif pot == "razz":
            scoop = low_win
        else:
            scoop = high_win
        if exact:
            std_error = 0.0
        else:
            share = units.astype(np.float64) / denom_unit
            mean = float((o * share).sum()) / total
            second = float((o * share * share).sum()) / total
            var = max(second - mean * mean, 0.0)
            std_error = math.sqrt(var / (total - 1)) if total > 1 else float("inf")
        out.append(PlayerResult(spot.hand_text[p], float(frac), high_win, high_tie, low_win,
                                low_tie, scoop, std_error, o.copy(), pot, exact,
                                frac if (exact and final and exact_frac) else None))
    return out


# --------------------------------------------------------------------------
# Validation: the spot
# --------------------------------------------------------------------------

@dataclass
class _Spot:
    game: Game
    holes: list  # per player: the exact hand's cards, or None for a range
    board: list[int]
    dead: list[int]
    unseen: list[int]  # cards not on the board, dead, nor in an exact hand
    hand_text: list[str]
    # board games: k missing board cards; stud: mo own cards each (+1 shared)
    k: int = 0
    mo: int = 0
    shared: bool = False
    ranges: list = field(default_factory=list)  # per player: Range (card-removed) or None

    @property
    def n(self) -> int:
        return len(self.holes)

    @property
    def ranged(self) -> bool:
        return any(r is not None for r in self.ranges)

    @property
    def deck_size(self) -> int:
        """Cards a run-out comes from (the same for every combination of holdings)."""
        return len(self.unseen) - sum(r.cards for r in self.ranges if r is not None)

    @property
    def runouts(self) -> int:
        """The number of equally likely run-outs (of one combination of holdings)."""
        u = self.deck_size
        if not self.game.stud:
            return comb(u, self.k)
        total = 1
        left = u
        if self.shared:
            total = u
            left -= 1
        for _ in range(self.n):
            total *= comb(left, self.mo)
            left -= self.mo
        return total


def _as_int(value, name: str, minimum: int | None = 1) -> int:
    if isinstance(value, bool):
        raise HandError(f"{name} must be a whole number, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        if isinstance(value, float) and value.is_integer():
            number = int(value)
        else:
            raise HandError(f"{name} must be a whole number, got {value!r}") from None
    if minimum is not None and number < minimum:
        raise HandError(f"{name} must be at least {minimum}, got {value!r}")
    return number


_RANK_CHARS = set("23456789tjqkaTJQKA")


def _card_like(text: str) -> bool:
    """True when ``text`` is written as rank + letter pairs only (``AhKx``, ``AcZz``):
    such a text is read as plain cards, so a typo is a card error, not a range."""
    i, m = 0, len(text)
    pairs = 0
    while i < m:
        ch = text[i]
        if ch.isspace() or ch == ",":
            i += 1
            continue
        i += 2 if text.startswith("10", i) else 1
        if i >= m:
            return False
        suit = text[i]
        if not (suit.isalpha() or suit in "\u2663\u2666\u2665\u2660") or suit in _RANK_CHARS:
            return False
        i += 1
        pairs += 1
    return pairs > 0


def _read_hand(g: Game, text, i: int):
    """``(cards, None)`` for an exact hand, ``(None, Range)`` for a range."""
    what = f"player {i + 1}"
    if not isinstance(text, str):
        return parse_cards(text, what), None
    try:
        cards = parse_cards(text, what)
    except CardError:
        if _card_like(text):
            raise
    else:
        if not (g.stud and "," in text and _stud_range_list(g, text)):
            return cards, None
    try:
        return None, parse_range(g, text)
    except RangeError as exc:
        raise RangeError(f"{what}: {exc}", exc.text, exc.position) from None


def _stud_range_list(g: Game, text: str) -> bool:
    """A stud text ``AhKdQc, JhTs9c``: a list of streets (a range), not one hand."""
    try:
        return all(len(parse_cards(part)) >= g.min_known for part in text.split(","))
    except CardError:
        return False


def _parse_spot(game, hands, board, dead) -> _Spot:
    g = get_game(game)
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__iter__"):
        raise HandError(f"hands must be a list of hands, one per player (e.g. ['AhKh', 'QsQd']), "
                        f"got {hands!r}")
    hands = list(hands)
    read = [_read_hand(g, h, i) for i, h in enumerate(hands)]
    holes = [c for c, _ in read]
    ranges = [r for _, r in read]
    board_cards = parse_cards(board if board is not None else "", "board")
    dead_cards = parse_cards(dead if dead is not None else "", "dead cards")
    groups = {f"player {i + 1}": h for i, h in enumerate(holes) if h is not None}
    groups["board"] = board_cards
    groups["dead cards"] = dead_cards
    check_disjoint(groups)
    if any(r is not None for r in ranges):
        return _parse_ranged_spot(g, hands, holes, ranges, board_cards, dead_cards)

    n = len(holes)
    most = _MAX_PLAYERS_STUD if g.stud else _MAX_PLAYERS_BOARD
    if n < 2:
        raise HandError(f"{g.name} equity needs at least 2 hands, got {n}")
    if n > most:
        raise HandError(f"{g.name} is played by at most {most} players, got {n} hands")

    if g.stud:
        for i, h in enumerate(holes):
            if not g.min_known <= len(h) <= 7:
                raise HandError(f"{g.name} needs {g.min_known} to 7 cards per player but player "
                                f"{i + 1} has {len(h)} ({cards_str(h) or 'none'})")
        street = len(holes[0])
        for i, h in enumerate(holes):
            if len(h) != street:
                raise HandError(f"{g.name} players must all be on the same street: player 1 has "
                                f"{street} cards but player {i + 1} has {len(h)} ({cards_str(h)})")
        if board_cards:
            raise HandError(f"{g.name} has no board, got board {cards_str(board_cards)!r} "
                            f"(folded players' cards go in dead)")
    else:
        for i, h in enumerate(holes):
            if len(h) != g.hole:
                raise HandError(f"{g.name} needs {g.hole} hole cards but player {i + 1} has "
                                f"{len(h)} ({cards_str(h) or 'none'})")
        if len(board_cards) > g.board:
            raise HandError(f"{g.name} has at most {g.board} board cards, got {len(board_cards)} "
                            f"({cards_str(board_cards)})")
        if len(board_cards) < g.min_board:
            raise HandError(f"{g.name} needs at least {g.min_board} board card (the first card "
                            f"is dealt face up), got an empty board; for no board use omaha5"
                            + ("-hilo" if g.low else ""))

    known = {c for h in holes for c in h} | set(board_cards) | set(dead_cards)
    unseen = [c for c in range(52) if c not in known]
    spot = _Spot(g, holes, board_cards, dead_cards, unseen, [cards_str(h) for h in holes])
    return _plan_deal(spot, n, len(holes[0]), len(unseen))


def _plan_deal(spot: _Spot, n: int, held: int, u: int) -> _Spot:
    """How the missing cards are dealt to ``n`` players holding ``held`` cards each from ``u``
    unseen cards: stud players draw their own (the seventh card shared when the deck runs
    short), board games draw the missing board cards."""
    g = spot.game
    if g.stud:
        missing = 7 - held
        spot.shared = u < missing * n
        spot.mo = missing - 1 if spot.shared else missing
        if spot.mo * n + spot.shared > u:
            raise HandError(f"too many players for the deck: {n} {g.name} players need "
                            f"{spot.mo * n + spot.shared} more cards but only {u} are unseen")
    else:
        spot.k = g.board - len(spot.board)
        if spot.k > u:
            raise HandError(f"too many players for the deck: {n} hands, {len(spot.board)} board "
                            f"and {len(spot.dead)} dead cards leave {u} cards for the "
                            f"{spot.k} missing board cards")
    return spot


def _parse_ranged_spot(g: Game, hands, holes, ranges, board_cards, dead_cards) -> _Spot:
    """The spot of a request with at least one range (see :func:`_parse_spot`)."""
    n = len(holes)
    most = _MAX_PLAYERS_STUD if g.stud else _MAX_PLAYERS_BOARD
    if n < 2:
        raise HandError(f"{g.name} equity needs at least 2 hands, got {n}")
    if n > most:
        raise HandError(f"{g.name} is played by at most {most} players, got {n} hands")
    sizes = [len(h) if h is not None else r.cards for h, r in zip(holes, ranges)]
    if g.stud:
        for i, (h, size) in enumerate(zip(holes, sizes)):
            if h is not None and not g.min_known <= size <= 7:
                raise HandError(f"{g.name} needs {g.min_known} to 7 cards per player but player "
                                f"{i + 1} has {size} ({cards_str(h) or 'none'})")
        for i, size in enumerate(sizes):
            if size != sizes[0]:
                raise HandError(f"{g.name} players must all be on the same street: player 1 has "
                                f"{sizes[0]} cards but player {i + 1} has {size} ({hands[i]})")
        if board_cards:
            raise HandError(f"{g.name} has no board, got board {cards_str(board_cards)!r} "
                            f"(folded players' cards go in dead)")
    else:
        for i, (h, size) in enumerate(zip(holes, sizes)):
            if h is not None and size != g.hole:
                raise HandError(f"{g.name} needs {g.hole} hole cards but player {i + 1} has "
                                f"{size} ({cards_str(h) or 'none'})")
        if len(board_cards) > g.board:
            raise HandError(f"{g.name} has at most {g.board} board cards, got {len(board_cards)} "
                            f"({cards_str(board_cards)})")
        if len(board_cards) < g.min_board:
            raise HandError(f"{g.name} needs at least {g.min_board} board card (the first card "
                            f"is dealt face up), got an empty board; for no board use omaha5"
                            + ("-hilo" if g.low else ""))

    fixed = [c for h in holes if h is not None for c in h]
    known = set(fixed) | set(board_cards) | set(dead_cards)
    removed = []
    for i, r in enumerate(ranges):
        if r is None:
            removed.append(None)
            continue
        try:
            removed.append(holdings_excluding(r, sorted(known)))
        except RangeError:
            parts = [name for name, cards in (("the board", board_cards), ("the dead cards", dead_cards),
                                              ("the exact hands", fixed)) if cards]
            raise RangeError(f"player {i + 1}: no holding of range {r.text!r} is left: every one "
                             f"uses a card of {' or '.join(parts)} "
                             f"({cards_str(sorted(known))})", r.text, None) from None
    unseen = [c for c in range(52) if c not in known]
    texts = [cards_str(h) if h is not None else str(hands[i]) for i, h in enumerate(holes)]
    spot = _Spot(g, holes, board_cards, dead_cards, unseen, texts, ranges=removed)
    u = spot.deck_size
    if u < 0:
        raise HandError(f"too many players for the deck: {n} hands need more cards than the "
                        f"{len(unseen)} left")
    return _plan_deal(spot, n, sizes[0], u)


# --------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------

@dataclass
class _Options:
    exact: bool | None
    samples: int | None
    stderr: float | None
    seed: int | None
    threads: int | None
    progress: Callable | None


def _parse_options(exact, samples, stderr, seed, threads, progress) -> _Options:
    if exact is not None and not isinstance(exact, (bool, np.bool_)):
        raise HandError(f"exact must be True, False or None, got {exact!r}")
    exact = None if exact is None else bool(exact)
    if samples is not None:
        samples = _as_int(samples, "samples")
        if samples > MAX_SAMPLES:
            raise HandError(f"samples must be at most 2**62, got {samples!r}")
    if stderr is not None:
        if isinstance(stderr, bool):
            raise HandError(f"stderr must be a number, got {stderr!r}")
        try:
            value = float(stderr)
        except (TypeError, ValueError):
            raise HandError(f"stderr must be a number, got {stderr!r}") from None
        if not (0.0 < value < 1.0):
            raise HandError(f"stderr must be a standard error of equity between 0 and 1 "
                            f"(e.g. 0.001), got {stderr!r}")
        stderr = value
    if exact is True and (samples is not None or stderr is not None):
        given = f"samples={samples}" if samples is not None else f"stderr={stderr}"
        raise HandError(f"exact=True enumerates every run-out; it cannot be combined with {given}")
    if seed is not None:
        seed = _as_int(seed, "seed", minimum=None) % (1 << 64)
    if threads is not None:
        threads = _as_int(threads, "threads")
    if progress is not None and not callable(progress):
        raise HandError(f"progress must be a callable or None, got {progress!r}")
    return _Options(exact, samples, stderr, seed, threads, progress)


# --------------------------------------------------------------------------
# The plan
# --------------------------------------------------------------------------

def _exact_cost_ns(spot: _Spot) -> float:
    """Estimated single-core nanoseconds to enumerate ``spot`` in the kernels."""
    n = spot.n
    if spot.game.stud:
        u = len(spot.unseen)
        ncomb = comb(u, spot.mo)
        outer = (u if spot.shared else 1) * ncomb
        # depth-first walk: below each valid prefix of players, the next level
        # scans every subset and rejects those that collide
        # (the last player's subsets are classed in bulk, once per prefix)
        visits = outer
        prefixes = (u if spot.shared else 1)
        left = u - spot.shared
        for _ in range(n - 1):
            prefixes *= comb(left, spot.mo)
            left -= spot.mo
            visits += prefixes * ncomb
        last_level = prefixes  # prefixes of the first n - 1 players
        return (visits * _NS_STUD_VISIT + last_level * (20.0 + 8.0 * n)
                + outer * n * 40.0)
    per_player = _NS_PLAYER.get(spot.game.hole, 20.0)
    cost = spot.runouts * (_NS_BOARD + n * per_player)
    if spot.game.exactly_two:
        pairs = comb(spot.game.hole, 2)
        cost += n * min(spot.runouts, 6175) * pairs * 10 * 3.0  # filling the no-flush cache
    return cost


def equity(game, hands, board="", dead="", *, exact=None, samples=None, stderr=None,
           seed=None, threads=None, progress=None) -> EquityResult:
    """Each hand's share of the pot: exact enumeration or Monte Carlo.

    ``game``: a game name (see :func:`pokereval.games`); ``hands``: one value per
    player (hole cards; stud: all the player's cards so far, the same count for
    everyone); ``board``: known board cards; ``dead``: cards out of play.

    ``exact=None`` walks every run-out when that is cheap (a couple of seconds at
    most), otherwise samples to a standard error of ``DEFAULT_STDERR``;
    ``exact=True`` always enumerates; ``samples=N`` / ``stderr=X`` sample (both:
    stop at whichever comes first).  ``seed`` makes sampling reproducible, with
    any thread count.  ``threads``: worker threads (default: all cores).
    ``progress(result)`` is called between batches with a partial result; Ctrl-C
    stops the run and returns the partial result (``partial=True``).
    """
    started = time.perf_counter()
    spot = _parse_spot(game, hands, board, dead)
    opts = _parse_options(exact, samples, stderr, seed, threads, progress)

    if spot.ranged:
        return _RangedRunner(spot, opts, started).run()
    if opts.exact is True:
        use_exact = True
    elif opts.samples is None and opts.stderr is None:
        use_exact = opts.exact is None and _exact_cost_ns(spot) <= AUTO_EXACT_SECONDS * 1e9
        if not use_exact:
            opts.stderr = DEFAULT_STDERR
            opts.samples = DEFAULT_MAX_SAMPLES
    else:
        use_exact = False

    runner = _Runner(spot, opts, started)
    if use_exact:
        if spot.runouts * spot.n <= SMALL_EXACT:
            return runner.finish(_small_exact(spot), exact=True)
        return runner.run_exact()
    return runner.run_mc()


# --------------------------------------------------------------------------
# Small exact spots: one C batch call per player, tallied in NumPy
# --------------------------------------------------------------------------

def _small_exact(spot: _Spot) -> np.ndarray:
    from .evaluate import evaluate_batch

    g, n = spot.game, spot.n
    unseen = spot.unseen
    if not g.stud:
        combos = list(combinations(unseen, spot.k))
        extra = np.array(combos, dtype=np.uint8).reshape(len(combos), spot.k)
        rows = extra.shape[0]
        boards = np.hstack([np.tile(np.array(spot.board, dtype=np.uint8), (rows, 1)), extra])
        values = [evaluate_batch(g, np.tile(np.array(h, dtype=np.uint8), (rows, 1)), boards)
                  for h in spot.holes]
    else:
        deals = np.array(list(_stud_deals(spot)), dtype=np.uint8)  # [rows, n, 7]
        values = [evaluate_batch(g, np.ascontiguousarray(deals[:, p, :])) for p in range(n)]
    hv = np.stack([v[0] for v in values]).astype(np.int64)
    lv = np.stack([v[1] for v in values]).astype(np.int64)
    return _tally_numpy(g, hv, lv)


def _stud_deals(spot: _Spot):
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


def _tally_numpy(game: Game, hv: np.ndarray, lv: np.ndarray) -> np.ndarray:
    """Outcome counts [n, n + 1, n + 2] from values hv, lv [n, rows] (as the kernels' tally)."""
    n, rows = hv.shape
    row = np.zeros((n, rows), dtype=np.int64)
    col = np.zeros((n, rows), dtype=np.int64)
    if game.high:
        best = hv.max(axis=0)
        win = hv == best
        row = np.where(win, win.sum(axis=0), 0)
    if game.low:
        best = lv.max(axis=0)
        win = (lv == best) & (best > 0)
        col = np.where(best > 0, np.where(win, 1 + win.sum(axis=0), 1), 0)
    cells = (n + 1) * (n + 2)
    flat = row * (n + 2) + col
    return np.stack([np.bincount(flat[p], minlength=cells) for p in range(n)]).reshape(n, n + 1, n + 2)


# --------------------------------------------------------------------------
# Kernel runs
# --------------------------------------------------------------------------

class _Runner:
    """Runs a spot in the Numba kernels, in batches, and builds results."""

    def __init__(self, spot: _Spot, opts: _Options, started: float):
        self.spot = spot
        self.opts = opts
        self.started = started
        self.seed = None
        self.acceptance = None
        self.units_are_samples = False  # exact with ranges: samples = units walked
        self.units_done = 0

    # -- results ---------------------------------------------------------
    def result(self, counts, exact: bool, partial: bool, fraction_done=None) -> EquityResult:
        spot = self.spot
        if counts is not None:
            counts = _as_outcomes(counts)
        if self.units_are_samples:
            samples = self.units_done
        else:
            samples = int(counts[0].sum()) if counts is not None else 0
        if counts is None:
            counts = np.zeros((spot.n, spot.n + 1, spot.n + 2), dtype=np.int64)
        return EquityResult(
            game=spot.game.name,
            hands=list(spot.hand_text),
            board=cards_str(spot.board),
            dead=cards_str(spot.dead),
            exact=exact,
            samples=samples,
            partial=partial,
            elapsed=time.perf_counter() - self.started,
            players=_player_results(spot, counts, exact, final=not partial),
            seed=self.seed,
            fraction_done=1.0 if not partial else fraction_done,
            acceptance=self.acceptance,
        )

    def finish(self, counts, exact: bool) -> EquityResult:
        return self.result(counts, exact, partial=False)

    # -- threads -----------------------------------------------------------
    def _threads(self):
        import numba

        wanted = self.opts.threads
        most = numba.config.NUMBA_NUM_THREADS
        return numba, (most if wanted is None else min(wanted, most))

    def _loop(self, batches, exact: bool, total_hint):
        """Run ``batches`` (an iterator of callables returning counts) with the thread
        setting, progress callbacks and Ctrl-C handling; returns the result."""
        numba, nthreads = self._threads()
        previous = numba.get_num_threads()
        counts = None
        done_units = 0
        interrupted = False
        numba.set_num_threads(nthreads)
        try:
            pending = None
            for batch in batches(nthreads):
                if pending is not None and self.opts.progress is not None:
                    self.opts.progress(pending)
                with _KERNEL_LOCK:
                    step_counts, units = batch()
                counts = step_counts if counts is None else counts + step_counts
                done_units += units
                self.units_done = done_units
                frac = None if total_hint is None else min(done_units / total_hint, 1.0)
                pending = self.result(counts, exact, partial=True, fraction_done=frac)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            numba.set_num_threads(previous)
        if interrupted:
            return self.result(counts, exact, partial=True,
                               fraction_done=None if total_hint is None or counts is None
                               else min(done_units / total_hint, 1.0))
        return self.result(counts, exact, partial=False)

    # -- exact -------------------------------------------------------------
    def run_exact(self) -> EquityResult:
        from . import kernels as K

        spot = self.spot
        g = spot.game
        KT = K.kernel_tables()
        G = K.game_flags(g)
        binom = K.binomials()
        total_ns = max(_exact_cost_ns(spot), 1.0)

        if not g.stud:
            holes = np.array(spot.holes, dtype=np.uint8)
            H = K.prep_holdings(KT, holes, G[0])
            who = np.arange(spot.n, dtype=np.int64)
            known = np.array(spot.board, dtype=np.uint8)
            deck = np.array(spot.unseen, dtype=np.uint8)
            cache = np.zeros((spot.n if G[0] else 1, K.BOARD_SLOTS), dtype=np.uint16)
            total = spot.runouts
            k = spot.k

            def call(first, count, chunk):
                return K.board_exact(KT, G, H, who, known, deck, k, first, count, chunk, binom, cache)
        else:
            known = np.array(spot.holes, dtype=np.uint8)
            unseen = np.array(spot.unseen, dtype=np.uint8)
            masks, hv, lv = K.stud_tables(KT, G, known, unseen, spot.mo, spot.shared, binom)
            total = hv.shape[1] * hv.shape[2]  # outer indices (shared card x player 1's subset)
            shared = spot.shared

            def call(first, count, chunk):
                return K.stud_exact(G, masks, hv, lv, shared, first, count, chunk)

        ns_per_unit = total_ns / total

        def batches(nthreads):
            per_batch = max(1, int(BATCH_SECONDS * 1e9 * nthreads / ns_per_unit))
            first = 0
            while first < total:
                count = min(per_batch, total - first)
                chunk = max(1, -(-count // (nthreads * 16)))

                def run(first=first, count=count, chunk=chunk):
                    return call(first, count, chunk), count

                yield run
                first += count

        return self._loop(batches, exact=True, total_hint=total)

    # -- Monte Carlo ---------------------------------------------------------
    def run_mc(self) -> EquityResult:
        from . import kernels as K

        spot = self.spot
        opts = self.opts
        g = spot.game
        self.seed = opts.seed if opts.seed is not None else secrets.randbits(63)
        seed = np.uint64(self.seed)
        KT = K.kernel_tables()
        G = K.game_flags(g)
        who = np.arange(spot.n, dtype=np.int64)
        total = opts.samples if opts.samples is not None else (1 << 62)
        target = opts.stderr

        if not g.stud:
            holes = np.array(spot.holes, dtype=np.uint8)
            H = K.prep_holdings(KT, holes, G[0])
            known = np.array(spot.board, dtype=np.uint8)
            deck = np.array(spot.unseen, dtype=np.uint8)
            cache = np.zeros((spot.n if G[0] else 1, K.BOARD_SLOTS), dtype=np.uint16)
            k = spot.k

            def call(first_chunk, nchunks):
                return K.board_mc(KT, G, H, who, known, deck, k, seed, first_chunk, nchunks,
                                  MC_CHUNK, total, cache)
        else:
            holes = np.array(spot.holes, dtype=np.uint8)
            H = K.prep_holdings(KT, holes, 0)
            unseen = np.array(spot.unseen, dtype=np.uint8)
            mo, shared = spot.mo, spot.shared

            def call(first_chunk, nchunks):
                return K.stud_mc(KT, G, H, who, unseen, mo, shared, seed, first_chunk, nchunks,
                                 MC_CHUNK, total)

        return self._mc_loop(call, total, target)

    def _mc_loop(self, call, total: int, target: float | None) -> EquityResult:
        """Sample in growing batches of chunks until ``total`` samples are drawn or every
        player's standard error is at most ``target``; ``call(first_chunk, nchunks)``
        returns the outcome counts of those chunks."""
        state = {"counts": None}
        nchunks_total = -(-total // MC_CHUNK)

        def batches(nthreads):
            first = 0
            step = 0
            while first < nchunks_total:
                counts = state["counts"]
                if target is not None and counts is not None:
                    done = int(counts[0].sum())
                    if done >= MIN_STDERR_SAMPLES and self._max_stderr(counts) <= target:
                        return
                size = MC_BATCHES[min(step, len(MC_BATCHES) - 1)]
                size = min(size, nchunks_total - first)

                def run(first=first, size=size):
                    c = call(first, size)
                    state["counts"] = c if state["counts"] is None else state["counts"] + c
                    return c, int(c[0].sum())

                yield run
                first += size
                step += 1

        hint = None if self.opts.samples is None or target is not None else total
        return self._loop(batches, exact=False, total_hint=hint)

    def _max_stderr(self, counts) -> float:
        players = _player_results(self.spot, counts, exact=False, final=False)
        return max(p.std_error for p in players)



# --------------------------------------------------------------------------
# Players given as ranges
# --------------------------------------------------------------------------

def _as_outcomes(counts) -> np.ndarray:
    """int64 outcome counts; weighted counts (Python ints) too large for int64
    become float64 (the result then has no exact fraction)."""
    counts = np.asarray(counts)
    if counts.dtype != object:
        return counts
    top = max((abs(int(x)) for x in counts.ravel()), default=0)
    if top < (1 << 62):
        return counts.astype(np.int64)
    return np.array([float(Fraction(int(x), top)) for x in counts.ravel()],
                    dtype=np.float64).reshape(counts.shape)


def _whole_weights(weights: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """A player's weights as small whole numbers: ``(index of each row's weight,
    [whole weight of each distinct weight])``, proportional to the decimal weights."""
    uniq, inverse = np.unique(weights, return_inverse=True)
    fracs = [Fraction(repr(float(w))) for w in uniq]
    denom = math.lcm(*(f.denominator for f in fracs))
    whole = [int(f * denom) for f in fracs]
    g = math.gcd(*whole)
    return inverse.astype(np.int64), [w // g for w in whole]


_EXACT, _LISTED, _DEALT = 0, 1, 2  # player kinds of the ranged kernels


class _RangedRunner(_Runner):
    """Exact enumeration or Monte Carlo with players given as ranges."""

    def __init__(self, spot: _Spot, opts: _Options, started: float):
        super().__init__(spot, opts, started)
        blocks, weights = [], []
        for h, r in zip(spot.holes, spot.ranges):
            if r is None:
                blocks.append(np.array([sorted(h)], dtype=np.uint8))
                weights.append(None)
            else:
                blocks.append(np.asarray(r.holdings, dtype=np.uint8))
                weights.append(np.asarray(r.weights, dtype=np.float64))
        self.blocks = blocks
        self.weights = weights

    def _kinds(self, dealt: bool) -> np.ndarray:
        """The kernels' player kinds: an exact hand (or a one-holding range), a listed
        range, or (``dealt``) a random hand: every holding of the unseen cards with
        equal weights, dealt from the deck instead of drawn from its list."""
        spot = self.spot
        kinds = []
        for b, w in zip(self.blocks, self.weights):
            if len(b) == 1:
                kinds.append(_EXACT)
            elif (dealt and len(b) == comb(len(spot.unseen), b.shape[1])
                  and bool(np.all(w == w[0]))):
                kinds.append(_DEALT)
            else:
                kinds.append(_LISTED)
        return np.array(kinds, dtype=np.int64)

    # -- cost model ------------------------------------------------------------
    def _tuple_cost_ns(self) -> float:
        spot = self.spot
        if spot.game.stud:
            return _NS_TUPLE_STUD + _exact_cost_ns(spot)
        return spot.runouts * (_NS_BOARD + spot.n * _NS_RANGED_PLAYER)

    def _tuples(self, limit: int):
        from . import kernels as K

        counts = np.array([len(b) for b in self.blocks], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        holes = np.vstack(self.blocks)
        bits = np.uint64(1) << holes.astype(np.uint64)
        masks = np.bitwise_or.reduce(bits, axis=1).astype(np.uint64)
        return K.compatible_tuples(starts, counts, masks, limit)

    def run(self) -> EquityResult:
        spot, opts = self.spot, self.opts
        product = math.prod(len(b) for b in self.blocks)
        per_tuple = max(self._tuple_cost_ns(), 1.0)
        tuples = None
        if opts.exact is True:
            tuples = self._tuples(MAX_TUPLES)
            if len(tuples) > MAX_TUPLES:
                raise HandError(f"too many combinations of holdings to enumerate (more than "
                                f"{MAX_TUPLES:,}); use Monte Carlo (samples=... or stderr=...)")
            use_exact = True
        elif opts.samples is None and opts.stderr is None and opts.exact is None:
            use_exact = False
            budget = int(AUTO_EXACT_SECONDS * 1e9 / per_tuple)
            if product <= SCAN_TUPLES and budget >= 1:
                tuples = self._tuples(min(budget, MAX_TUPLES))
                use_exact = len(tuples) <= budget
            if not use_exact:
                opts.stderr = DEFAULT_STDERR
                opts.samples = DEFAULT_MAX_SAMPLES
        else:
            use_exact = False
        if tuples is None and product <= SCAN_TUPLES:
            tuples = self._tuples(0)  # is there any compatible combination at all?
        if tuples is not None and len(tuples) == 0:
            raise HandError("no combination of the players' holdings is possible: "
                            + ", ".join(f"player {i + 1} ({t})" for i, t in enumerate(spot.hand_text)
                                        if spot.ranges[i] is not None)
                            + " always share a card with another player")
        if use_exact:
            return self.run_exact_ranged(tuples)
        return self.run_mc_ranged()

    # -- exact -------------------------------------------------------------------
    def _groups(self, tuples: np.ndarray):
        """``(tgroup int64[T], [whole weight of each group])`` and the accepted weight share."""
        n = self.spot.n
        key = np.zeros(len(tuples), dtype=np.int64)
        per_player = []
        starts = np.concatenate([[0], np.cumsum([len(b) for b in self.blocks])[:-1]])
        radix = 1
        for p in range(n):
            w = self.weights[p]
            if w is None:
                per_player.append((np.zeros(1, dtype=np.int64), [1]))
            else:
                per_player.append(_whole_weights(w))
        mixed = []
        for p in range(n):
            inverse, whole = per_player[p]
            local = tuples[:, p].astype(np.int64) - starts[p]
            key += inverse[local] * radix
            mixed.append((radix, len(whole)))
            radix *= len(whole)
        uniq, tgroup = np.unique(key, return_inverse=True)
        gweights = []
        for value in uniq.tolist():
            w = 1
            for p in range(n):
                r, m = mixed[p]
                w *= per_player[p][1][(value // r) % m]
            gweights.append(w)
        # acceptance: compatible weight over all weight (independent draws)
        sizes = np.bincount(tgroup, minlength=len(uniq))
        compatible = sum(int(c) * w for c, w in zip(sizes.tolist(), gweights))
        total = 1
        for p in range(n):
            inverse, whole = per_player[p]
            total *= sum(whole[i] for i in inverse.tolist()) if len(inverse) > 1 else whole[0]
        self.acceptance = float(Fraction(compatible, total))
        return tgroup.astype(np.int64), gweights

    def run_exact_ranged(self, tuples: np.ndarray) -> EquityResult:
        from . import kernels as K

        spot = self.spot
        g = spot.game
        tgroup, gweights = self._groups(tuples)
        gw = np.array(gweights, dtype=object)
        self.units_are_samples = True
        ntup = len(tuples)

        def weighted(out):  # int64[groups, n, n + 1, n + 2] -> Python-int counts
            return np.tensordot(gw, out.astype(object), axes=(0, 0))

        if not g.stud:
            KT = K.kernel_tables()
            G = K.game_flags(g)
            binom = K.binomials()
            H, R = K.range_data(self.blocks, self.weights, g)
            kind = self._kinds(dealt=False)
            cache = np.zeros((spot.n if G[0] else 1, K.BOARD_SLOTS), dtype=np.uint16)
            known = np.array(spot.board, dtype=np.uint8)
            base = np.array(spot.unseen, dtype=np.int64)
            nruns = spot.runouts
            total = ntup * nruns
            tup = np.ascontiguousarray(tuples.astype(np.int64))
            ns_per_unit = _NS_BOARD + spot.n * _NS_RANGED_PLAYER

            def batches(nthreads):
                per_batch = max(1, int(BATCH_SECONDS * 1e9 * nthreads / ns_per_unit))
                first = 0
                while first < total:
                    count = min(per_batch, total - first)
                    chunk = max(1, -(-count // (nthreads * 16)))

                    def run(first=first, count=count, chunk=chunk):
                        out = K.board_exact_ranged(KT, G, H, R, kind, tup, tgroup, len(gweights), known,
                                                   base, spot.k, nruns, first, count, chunk, binom,
                                                   cache)
                        return weighted(out), count

                    yield run
                    first += count

            return self._loop(batches, exact=True, total_hint=total)

        # stud: one exact run of the fixed-hand engine per combination of holdings
        holdings = np.vstack(self.blocks)
        runouts = spot.runouts

        def batches(nthreads):
            per_batch = max(1, int(BATCH_SECONDS * 1e9 / max(self._tuple_cost_ns(), 1.0)))
            for first in range(0, ntup, per_batch):
                def run(first=first):
                    out = np.zeros((len(gweights), spot.n, spot.n + 1, spot.n + 2), dtype=np.int64)
                    stop = min(first + per_batch, ntup)
                    for t in range(first, stop):
                        holes = [holdings[r].tolist() for r in tuples[t]]
                        out[tgroup[t]] += _fixed_exact_counts(spot, holes)
                    return weighted(out), (stop - first) * runouts

                yield run

        return self._loop(batches, exact=True, total_hint=ntup * runouts)

    # -- Monte Carlo -------------------------------------------------------------
    def run_mc_ranged(self) -> EquityResult:
        from . import kernels as K

        spot = self.spot
        opts = self.opts
        g = spot.game
        self.seed = opts.seed if opts.seed is not None else secrets.randbits(63)
        seed = np.uint64(self.seed)
        KT = K.kernel_tables()
        G = K.game_flags(g)
        kind = self._kinds(dealt=not g.stud)
        # a random hand is dealt from the deck: its holdings need not travel
        blocks = [b[:1] if k == _DEALT else b for b, k in zip(self.blocks, kind)]
        H, R = K.range_data(blocks, self.weights, g)
        n = spot.n
        total = opts.samples if opts.samples is not None else (1 << 62)
        target = opts.stderr
        # a one-holding range's cards never come: out of the deck, not rejected per card
        fixed = {int(c) for b, k in zip(blocks, kind) if k == _EXACT for c in b[0]}
        deck = np.array([c for c in spot.unseen if c not in fixed], dtype=np.uint8)

        if not g.stud:
            known = np.array(spot.board, dtype=np.uint8)
            cache = np.zeros((n if G[0] else 1, K.BOARD_SLOTS), dtype=np.uint16)

            def call(first_chunk, nchunks):
                return K.board_mc_ranged(KT, G, H, R, kind, known, deck, spot.k, seed,
                                         first_chunk, nchunks, MC_CHUNK, total, MAX_TRIES_FACTOR,
                                         cache)
        else:
            def call(first_chunk, nchunks):
                return K.stud_mc_ranged(KT, G, H, R, kind, deck, spot.mo, spot.shared, seed,
                                        first_chunk, nchunks, MC_CHUNK, total, MAX_TRIES_FACTOR)

        tally = {"accepted": 0, "tries": 0}

        def checked_call(first, size):
            c, info = call(first, size)
            wanted = np.minimum(MC_CHUNK, total - (first + np.arange(size)) * MC_CHUNK)
            accepted, tries = int(info[:, 0].sum()), int(info[:, 1].sum())
            tally["accepted"] += accepted
            tally["tries"] += tries
            self.acceptance = tally["accepted"] / max(tally["tries"], 1)
            if np.any(info[:, 0] < wanted):
                raise HandError(
                    f"the players' ranges almost never fit together: {accepted:,} of "
                    f"{tries:,} random draws of holdings shared no card (under "
                    f"1/{MAX_TRIES_FACTOR}); narrow the ranges")
            return c

        return self._mc_loop(checked_call, total, target)


def _fixed_exact_counts(spot: _Spot, holes: list[list[int]]) -> np.ndarray:
    """Exact outcome counts of ``spot`` with every player's cards fixed to ``holes``."""
    from . import kernels as K

    used = {c for h in holes for c in h}
    sub = _Spot(spot.game, holes, spot.board, spot.dead, [c for c in spot.unseen if c not in used],
                [cards_str(h) for h in holes], k=spot.k, mo=spot.mo, shared=spot.shared)
    if sub.runouts * sub.n <= SMALL_EXACT:
        return _small_exact(sub)
    g = sub.game
    KT = K.kernel_tables()
    G = K.game_flags(g)
    binom = K.binomials()
    if not g.stud:
        H = K.prep_holdings(KT, np.array(holes, dtype=np.uint8), G[0])
        cache = np.zeros((sub.n if G[0] else 1, K.BOARD_SLOTS), dtype=np.uint16)
        return K.board_exact(KT, G, H, np.arange(sub.n, dtype=np.int64),
                             np.array(sub.board, dtype=np.uint8),
                             np.array(sub.unseen, dtype=np.uint8), sub.k, 0, sub.runouts,
                             max(1, sub.runouts // 64), binom, cache)
    masks, hv, lv = K.stud_tables(KT, G, np.array(holes, dtype=np.uint8),
                                  np.array(sub.unseen, dtype=np.uint8), sub.mo, sub.shared, binom)
    outer = hv.shape[1] * hv.shape[2]
    return K.stud_exact(G, masks, hv, lv, sub.shared, 0, outer, max(1, outer // 64))
