"""Single-hand evaluation with readable results, and a NumPy batch API (both C-backed).

>>> from pokereval import evaluate
>>> e = evaluate("omaha-hilo", "AhKd2c3s", "Ks5d8h7cKh")
>>> str(e.high), str(e.low)
('Three of a kind, kings', '8-7-5-2-A low')
>>> e.high > evaluate("omaha-hilo", "QhQd4c3s", "Ks5d8h7cKh").high
True
"""
from __future__ import annotations

import functools
from itertools import combinations
from typing import Any, Callable, Iterable, NamedTuple, Sequence

import numpy as np

from . import _native
from ._native import ffi, lib
from .cards import RANKS, cards_str, check_disjoint, parse_cards
from .errors import HandError, about
from .games import Game, check_eval_counts, get_game

__all__ = ["CATEGORIES", "HighHand", "LowHand", "Evaluation", "evaluate", "evaluate_batch"]

CATEGORIES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush",
              "full house", "four of a kind", "straight flush")
_RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "jack", "queen", "king", "ace")
_RAZZ_SHAPES = ("no pair", "one pair", "two pair", "three of a kind", "full house", "four of a kind")


def _plural(rank: int) -> str:
    return "sixes" if rank == 4 else _RANK_NAMES[rank] + "s"


def _groups(cards: Iterable[int]) -> list[tuple[int, int]]:
    """(count, rank) of the ranks among ``cards``, most frequent first, then highest."""
    ranks = [c >> 2 for c in cards]
    return sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)


@functools.total_ordering
class _Value:
    """A hand value: ``>`` means beats, ``==`` means ties (same kind of hand only)."""

    __slots__ = ("value", "cards")

    def __init__(self, value: int, cards: tuple[int, ...]) -> None:
        self.value = int(value)
        self.cards = cards_str(cards)  # the five cards used, e.g. "KhKdKs5c5d"

    def _check(self, other: object) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        return other.value

    def __eq__(self, other: object) -> Any:
        v = self._check(other)
        return v if v is NotImplemented else self.value == v

    def __lt__(self, other: object) -> Any:
        v = self._check(other)
        return v if v is NotImplemented else self.value < v

    def __hash__(self) -> int:
        return hash((type(self), self.value))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self} [{self.cards}] value={self.value}>"


class HighHand(_Value):
    """The best high hand: ``category`` ("full house"), ``cards``, ``value`` (larger wins)."""

    __slots__ = ()

    @property
    def category(self) -> str:
        return CATEGORIES[self.value >> 12]

    def __str__(self) -> str:
        groups = _groups(parse_cards(self.cards))
        top = groups[0][1]
        name = {
            "high card": lambda: _RANK_NAMES[top],
            "one pair": lambda: _plural(top),
            "two pair": lambda: f"{_plural(top)} and {_plural(groups[1][1])}",
            "three of a kind": lambda: _plural(top),
            "full house": lambda: f"{_plural(top)} full of {_plural(groups[1][1])}",
            "four of a kind": lambda: _plural(top),
            "flush": lambda: f"{_RANK_NAMES[top]} high",
        }
        cat = self.category
        if cat in ("straight", "straight flush"):
            ranks = {r for _, r in groups}
            high = 3 if ranks == {12, 0, 1, 2, 3} else max(ranks)  # the wheel is five-high
            if cat == "straight flush" and high == 12:
                return "Straight flush, royal"
            return f"{cat.capitalize()}, {_RANK_NAMES[high]} high"
        return f"{cat.capitalize()}, {name[cat]()}"


class LowHand(_Value):
    """The best low: an eight-or-better low ("8-6-4-2-A low") or, in razz, the best
    ace-to-five lowball hand, where pairs count ("9-9-7-4-2 low, one pair").
    ``value`` is larger for the better low."""

    __slots__ = ("razz",)

    def __init__(self, value: int, cards: tuple[int, ...], razz: bool = False) -> None:
        super().__init__(value, cards)
        self.razz = razz

    @property
    def ranks(self) -> list[int]:
        """The five ranks, ace = 1, in the order they compare (grouped, highest first)."""
        low = [(c >> 2) + 2 if c >> 2 != 12 else 1 for c in parse_cards(self.cards)]
        counts = {r: low.count(r) for r in low}
        return sorted(low, key=lambda r: (counts[r], r), reverse=True)

    @property
    def category(self) -> str:
        """"no pair" for a qualifying low; razz: the pair shape."""
        if not self.razz:
            return "no pair"
        shape = sorted(_groups(parse_cards(self.cards)), reverse=True)
        counts = [c for c, _ in shape]
        index = {1: 0, 2: 1 if counts.count(2) == 1 else 2, 3: 4 if 2 in counts else 3, 4: 5}[counts[0]]
        return _RAZZ_SHAPES[index]

    def __str__(self) -> str:
        text = "-".join("A" if r == 1 else RANKS[r - 2] for r in self.ranks) + " low"
        return text if self.category == "no pair" else f"{text}, {self.category}"


class Evaluation(NamedTuple):
    """``high``: None in razz. ``low``: None in high-only games or when no low qualifies."""

    high: HighHand | None
    low: LowHand | None


def _u8(cards: Iterable[int]) -> Any:
    return ffi.new("uint8_t[]", list(cards))


def _best_five(candidates: Iterable[tuple[int, ...]],
               score: Callable[[tuple[int, ...]], int]) -> tuple[int, tuple[int, ...]]:
    """The five-card candidate with the largest score, and that score."""
    return max(((score(five), five) for five in candidates), key=lambda t: t[0])


def _candidates(game: Game, hole: list[int], board: list[int]) -> list[tuple[int, ...]]:
    if game.exactly_two:
        return [p + t for p in combinations(hole, 2) for t in combinations(board, 3)]
    return list(combinations(hole + board, 5))


def evaluate(game: str | Game, hole: str | Iterable[int | str],
             board: str | Iterable[int | str] = "") -> Evaluation:
    """The best high and low hand of ``hole`` (with ``board``) under ``game``'s rules.

    Stud games take the player's 5 to 7 cards as ``hole`` and no board.
    """
    game = get_game(game)
    with about("hole"):
        hole_cards = parse_cards(hole, "hole cards")
    with about("board"):  # a card twice across the two: the board, the later one
        board_cards = parse_cards(board, "board")
        check_disjoint({"hole cards": hole_cards, "board": board_cards})
    check_eval_counts(game, hole_cards, board_cards, hole, board)
    candidates = _candidates(game, hole_cards, board_cards)

    if game.exactly_two:
        h, b = _u8(hole_cards), _u8(board_cards)
        high_value = lib.pe_eval_omaha_hi(h, len(hole_cards), b, len(board_cards))
        low_value = lib.pe_eval_omaha_low8(h, len(hole_cards), b, len(board_cards))
    else:
        every = _u8(hole_cards + board_cards)
        n = len(hole_cards) + len(board_cards)
        high_value = lib.pe_eval_hi(every, n)
        low_value = (lib.pe_eval_razz if game.razz else lib.pe_eval_low8)(every, n)

    high = low = None
    if game.high:
        best, five = _best_five(candidates, lambda f: lib.pe_eval_hi(_u8(f), 5))
        assert best == high_value, "evaluator disagrees with its own five-card choice"
        high = HighHand(high_value, five)
    if game.low and low_value:
        score = lib.pe_eval_razz if game.razz else lib.pe_eval_low8
        best, five = _best_five(candidates, lambda f: score(_u8(f), 5))
        assert best == low_value, "evaluator disagrees with its own five-card choice"
        low = LowHand(low_value, five, razz=game.razz)
    return Evaluation(high, low)


def evaluate_batch(game: str | Game, holes: Any, boards: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """High and low values (uint16 arrays) of many hands in one C call.

    ``holes``: card indices [n, hole] (stud: [n, 5..7]); ``boards``: [n, board] (None in stud).
    ``high`` is all 0 in razz; ``low`` is the razz value in razz, the eight-or-better value
    in hi/lo games (0 = no low), and all 0 in high-only games.
    """
    game = get_game(game)
    if game.stud:
        if boards is not None and np.asarray(boards).size:
            raise HandError(f"{game.name} has no board")
        cards = _native.as_card_rows(holes, (5, 6, 7), "holes")
    else:
        holes = _native.as_card_rows(holes, game.hole, "holes")
        least = 3 if game.exactly_two else 5 - game.hole
        boards = _native.as_card_rows(np.empty((len(holes), 0), np.uint8) if boards is None else boards,
                                      tuple(range(least, game.board + 1)), "boards")
        if game.exactly_two:
            high, low = _native.eval_omaha_batch(holes, boards, low=game.eight)
            return high, low if low is not None else np.zeros_like(high)
        if len(boards) != len(holes):
            raise HandError(f"holes and boards differ in length: {len(holes)} != {len(boards)}")
        cards = np.concatenate([holes, boards], axis=1)
    zeros = np.zeros(len(cards), dtype=np.uint16)
    high = _native.eval_hi_batch(cards) if game.high else zeros
    if game.razz:
        return high, _native.eval_razz_batch(cards)
    return high, _native.eval_low8_batch(cards) if game.eight else zeros
