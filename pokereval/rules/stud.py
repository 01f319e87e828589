"""Who acts first: the stud bring-in and the showing-hand order, and board-game order.

Checked against every PokerStars record in tests/data/pokerstars (88 bring-ins,
254 first actors on 4th-7th street); sources in docs/RULES.md.

>>> bring_in("stud", {1: "Kd", 3: "2h", 5: "2c"})
5
>>> bring_in("razz", {1: "Kd", 3: "2h", 5: "Ks"})
5
>>> first_to_act("stud", {1: "Kc4d", 2: "9s9h", 4: "AsKh"})
2
>>> first_to_act("razz", {1: "Kc4d", 2: "9s9h", 4: "As2h"})
4
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..cards import check_disjoint, parse_cards
from ..games import Game, get_game
from .chips import RulesError, check_seat, clockwise, require, seat_map, seat_set

__all__ = ["bring_in", "first_to_act", "board_order", "stud_bet_size"]


def _rank(card: int) -> int:
    return card >> 2  # 0 = deuce .. 12 = ace


def _low_rank(card: int) -> int:
    return (_rank(card) + 1) % 13  # ace low: 0 = ace .. 12 = king


def _stud_game(game) -> Game:
    g = get_game(game)
    require(g.stud, f"{g.name} is a board game: bring-in and showing-hand order are stud rules "
                    f"(use board_order)")
    return g


def _read_upcards(upcards, what: str, count: int | None = None) -> dict[int, list[int]]:
    cards = {s: parse_cards(v, f"seat {s}'s {what}") for s, v in seat_map(upcards, what).items()}
    require(bool(cards), f"{what} is empty: give {{seat: cards}} for the players still in")
    check_disjoint({f"seat {s}": c for s, c in cards.items()})
    lengths = {len(c) for c in cards.values()}
    if count is not None:
        require(lengths == {count}, f"{what} must be one card per seat, got "
                                    f"{ {s: len(c) for s, c in cards.items()} }")
    else:
        require(len(lengths) == 1 and 1 <= lengths.pop() <= 4,
                f"{what} must show 1 to 4 cards per seat, the same number for all")
    return cards


def _next_not_all_in(chosen: int, seats: Iterable[int], all_in: set[int]) -> int:
    """``chosen``, or the first seat clockwise from it that is not all-in."""
    order = [chosen] + clockwise([s for s in seats if s != chosen], chosen)
    for s in order:
        if s not in all_in:
            return s
    raise RulesError("every player is all-in: nobody is left to act")


def bring_in(game: str | Game, door_cards: Mapping[int, str], *,
             all_in: Iterable[int] = ()) -> int:
    """The seat that brings in on third street.

    Stud and stud hi/lo: the lowest door card (ace high), suits breaking ties
    clubs < diamonds < hearts < spades.  Razz: the highest door card (ace low),
    spades > hearts > diamonds > clubs.  A seat in ``all_in`` (all-in from the
    ante) is skipped: the next seat clockwise posts the bring-in.
    """
    g = _stud_game(game)
    cards = _read_upcards(door_cards, "door cards", count=1)
    all_in_set = seat_set(all_in, "all_in", cards)
    if g.low == "razz":
        seat = max(cards, key=lambda s: (_low_rank(cards[s][0]), cards[s][0] & 3))
    else:
        seat = min(cards, key=lambda s: cards[s][0])  # card index = 4 * rank + suit (c<d<h<s)
    return _next_not_all_in(seat, cards, all_in_set)


def _shape(ranks: list[int]) -> tuple:
    """(group sizes, ranks by group) of a partial hand: pairs and trips before kickers."""
    groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    return tuple(c for c, _ in groups), tuple(r for _, r in groups)


def showing_key(game: Game, cards: list[int]) -> tuple:
    """A key of the face-up cards: the smallest key acts first.  Straights and
    flushes do not count (never more than four cards show)."""
    if game.low == "razz":
        return _shape([_low_rank(c) for c in cards])  # lowest hand: fewer pairs, lower cards
    counts, ranks = _shape([_rank(c) for c in cards])
    return tuple(-c for c in counts), tuple(-r for r in ranks)


def first_to_act(game: str | Game, upcards: Mapping[int, str], *,
                 all_in: Iterable[int] = ()) -> int:
    """The seat that acts first on 4th to 7th street (``upcards``: each remaining
    player's face-up cards so far).

    Stud and stud hi/lo: the best high hand showing (pairs, two pair, trips,
    quads, then the ranks); razz: the lowest showing hand (pairs count, ace
    low).  Equal showing hands: the first of them clockwise from the lowest seat
    (seat order), which is what the PokerStars records show.  Players in
    ``all_in`` do not act: PokerStars passes to the next seat clockwise.
    """
    g = _stud_game(game)
    cards = _read_upcards(upcards, "upcards")
    all_in_set = seat_set(all_in, "all_in", cards)
    seat = min(sorted(cards), key=lambda s: showing_key(g, cards[s]))
    return _next_not_all_in(seat, cards, all_in_set)


def board_order(seats: Iterable[int], button: int, *, preflop: bool) -> list[int]:
    """Board games' order of action among ``seats`` (the players still in, in a hand
    dealt with ``button``).  Preflop: from the player left of the big blind, the
    blinds last; heads-up the button (small blind) acts first preflop and last after.
    Later streets: from the first player left of the button.

    >>> board_order([1, 2, 3, 4], 1, preflop=True), board_order([1, 2, 3, 4], 1, preflop=False)
    ([4, 1, 2, 3], [2, 3, 4, 1])
    >>> board_order([2, 5], 5, preflop=True), board_order([2, 5], 5, preflop=False)
    ([5, 2], [2, 5])
    """
    btn = check_seat(button, "button")
    seats = sorted({check_seat(s) for s in seats})
    require(len(seats) >= 2, "board_order needs at least two seats")
    after = clockwise(seats, btn)  # small blind, big blind, ..., button
    if len(seats) == 2:
        dealer = btn if btn in seats else after[-1]
        other = [s for s in seats if s != dealer][0]
        return [dealer, other] if preflop else [other, dealer]
    return after[2:] + after[:2] if preflop else after


def stud_bet_size(game: str | Game, street: int, upcards: Mapping[int, str], *,
                  small_bet: int, big_bet: int) -> tuple[int, int | None]:
    """Fixed-limit stud: (the bet of this street, the bigger bet a player may choose or None),
    ready for ``bet_limits(..., bet=..., big_bet=...)``.

    The small bet on 3rd and 4th street, the big bet from 5th; in stud high (not stud
    hi/lo, not razz) an open pair showing on 4th street allows the big bet.

    >>> stud_bet_size("stud", 4, {1: "9c9d", 2: "Ks2h"}, small_bet=10, big_bet=20)
    (10, 20)
    >>> stud_bet_size("stud-hilo", 4, {1: "9c9d", 2: "Ks2h"}, small_bet=10, big_bet=20)
    (10, None)
    """
    g = _stud_game(game)
    require(street in (3, 4, 5, 6, 7), f"street must be 3 to 7, got {street!r}")
    if street >= 5:
        return big_bet, None
    if street == 4 and g.high and g.low is None:
        cards = _read_upcards(upcards, "upcards")
        if any(len({_rank(c) for c in cs}) < len(cs) for cs in cards.values()):
            return small_bet, big_bet
    return small_bet, None
