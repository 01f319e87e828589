"""Settle a showdown: side pots, hi/lo halves, ties, odd chips, rake, uncalled bets.

>>> r = settle("omaha-hilo", {1: "AhAd2c3s", 2: "KsKdQhJh"}, "7c8d5hTsKc",
...            contributions={1: 101, 2: 101, 3: 1}, folded=[3], button=3)
>>> r.collected  # the high half gets the odd chip
{1: 101, 2: 102, 3: 0}
>>> [(p.amount, p.high_winners, p.low_winners) for p in r.pots]
[(203, (2,), (1,))]

The rules (sources in docs/RULES.md):

* Pots are layered at every live player's total contribution; a pot is
  contested by the players who put in at least its level and did not fold;
  folded players' chips stay in the pots they reached.  The part of a bet
  nobody called (a layer only its bettor paid) goes back and is not raked.
* Hi/lo: the high half gets the odd chip (``amount - amount // 2``), the best
  qualifying low the other half; no qualifying low: the high takes it all.
* Tied players divide their share; the ``r`` leftover chips go one each
  (nobody gets two) to the first ``r`` tied players in odd-chip order:
  board games clockwise from the button; stud games by the card rule
  (high: highest card by suit, low: lowest card by suit, ace low; all of a
  player's cards count), as in Robert's Rules of Poker.
* Rake is taken before the split, from the contested pots in proportion to
  their size (largest remainder; ties to the earlier pot): that is how the
  PokerStars records in tests/data/pokerstars split it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..cards import check_disjoint, parse_cards
from ..evaluate import evaluate
from ..games import Game, get_game
from .chips import RulesError, check_chips, check_seat, clockwise, require, seat_map, seat_set

__all__ = ["Pot", "Settlement", "settle", "ODD_CHIP_RULES", "odd_chip_rule"]

#: ``odd_chip`` choices: "auto" = "button" in board games, "suit" in stud games.
ODD_CHIP_RULES = ("auto", "button", "suit")


@dataclass(frozen=True)
class Pot:
    """One pot: ``amount`` after rake, the ``eligible`` seats, the winners of each
    half and ``shares`` ({seat: chips}).  ``uncalled``: a bet nobody called, given back."""

    amount: int
    eligible: tuple[int, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    shares: dict[int, int]
    rake: int = 0
    uncalled: bool = False
    high_amount: int = 0  # the high half (the whole pot when no low qualifies)
    low_amount: int = 0


    def to_dict(self) -> dict:
        return {"amount": self.amount, "rake": self.rake, "eligible": list(self.eligible),
                "high_winners": list(self.high_winners), "low_winners": list(self.low_winners),
                "shares": {str(s): v for s, v in self.shares.items()}, "uncalled": self.uncalled,
                "high_amount": self.high_amount, "low_amount": self.low_amount}


@dataclass(frozen=True)
class Settlement:
    """What each seat takes back (``collected``, every seat that put chips in,
    0 included), the pots in order (main pot first), and the rake."""

    game: str
    collected: dict[int, int]
    pots: tuple[Pot, ...]
    rake: int = 0
    total: int = 0

    def to_dict(self) -> dict:
        return {"game": self.game, "total": self.total, "rake": self.rake,
                "collected": {str(s): v for s, v in self.collected.items()},
                "pots": [p.to_dict() for p in self.pots]}


# --------------------------------------------------------------------------
# Pots from contributions
# --------------------------------------------------------------------------

@dataclass
class Layer:
    amount: int
    eligible: tuple[int, ...]
    uncalled: bool


def build_layers(contributions: Mapping[int, int], live: set[int]) -> list[Layer]:
    """The main pot and side pots (before rake) from every player's total contribution."""
    levels = sorted({contributions[s] for s in live if contributions[s] > 0})
    layers: list[Layer] = []
    prev = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, prev) for c in contributions.values())
        payers = [s for s, c in contributions.items() if c > prev]
        eligible = tuple(sorted(s for s in live if contributions[s] >= level))
        if layers and layers[-1].eligible == eligible:
            layers[-1].amount += amount  # a level only a folded player stopped at
        else:
            layers.append(Layer(amount, eligible, len(eligible) == 1 and payers == list(eligible)))
        prev = level
    # chips a folded player put in above every live player's total: dead money
    excess = sum(max(0, c - prev) for c in contributions.values())
    if excess:
        if not layers:
            raise RulesError("every player who put chips in has folded: nobody can win the pot")
        layers[-1].amount += excess
        layers[-1].uncalled = False
    return layers


def spread_rake(rake: int, amounts: Sequence[int]) -> list[int]:
    """``rake`` over pots in proportion to ``amounts`` (largest remainder, earlier pot first).

    >>> spread_rake(7, [131, 90])
    [4, 3]
    """
    total = sum(amounts)
    if total == 0:
        return [0] * len(amounts)
    parts = [rake * a // total for a in amounts]
    order = sorted(range(len(amounts)), key=lambda i: (-(rake * amounts[i] % total), i))
    for i in order[:rake - sum(parts)]:
        parts[i] += 1
    return parts


def pot_rakes(layers: list[Layer], rake: int) -> list[int]:
    """The rake of each pot: ``rake`` spread over the pots that were not uncalled bets."""
    contested = [i for i, layer in enumerate(layers) if not layer.uncalled]
    raked = sum(layers[i].amount for i in contested)
    require(rake <= raked, f"rake {rake} is more than the pot ({raked})")
    rakes = [0] * len(layers)
    for i, r in zip(contested, spread_rake(rake, [layers[i].amount for i in contested])):
        rakes[i] = r
    return rakes


# --------------------------------------------------------------------------
# Splitting one pot
# --------------------------------------------------------------------------

def divide(amount: int, winners: Sequence[int], order: Sequence[int]) -> dict[int, int]:
    """``amount`` over ``winners`` equally; the leftover chips one each to the first
    winners in ``order`` (the odd-chip order).

    >>> divide(10, [4, 2, 7], [7, 2, 4])
    {7: 4, 2: 3, 4: 3}
    """
    base, odd = divmod(amount, len(winners))
    ranked = [s for s in order if s in winners]
    return {s: base + (1 if i < odd else 0) for i, s in enumerate(ranked)}


def split_pot(game: Game, amount: int, eligible: Sequence[int], high: Mapping[int, int],
              low: Mapping[int, int], high_order: Sequence[int], low_order: Sequence[int]):
    """(high winners, low winners, shares, (high half, low half)) of one pot.  ``high``/``low``: comparable
    values per seat, larger is better (low 0 = no qualifying low)."""
    high_winners: tuple[int, ...] = ()
    low_winners: tuple[int, ...] = ()
    if game.high:
        best = max(high[s] for s in eligible)
        high_winners = tuple(s for s in eligible if high[s] == best)
    if game.low:
        best = max(low[s] for s in eligible)
        if best > 0:
            low_winners = tuple(s for s in eligible if low[s] == best)
    shares: dict[int, int] = {}
    low_half = amount // 2 if high_winners and low_winners else 0  # the odd chip goes high
    if not high_winners:  # razz: the low takes it all
        low_half = amount
    parts = [(amount - low_half, high_winners, high_order), (low_half, low_winners, low_order)]
    for part, winners, order in parts:
        if winners:
            for s, v in divide(part, winners, order).items():
                shares[s] = shares.get(s, 0) + v
    return high_winners, low_winners, shares, (amount - low_half, low_half)


def _low_card_key(card: int) -> int:
    """Lowest card by suit with the ace low: rank (A=0, 2=1, ..) then suit c<d<h<s."""
    rank, suit = card >> 2, card & 3
    return ((rank + 1) % 13) * 4 + suit


def odd_chip_rule(game: Game, rule: str) -> str:
    """"button" or "suit": the odd-chip rule ``rule`` ("auto" by game) resolves to."""
    if rule not in ODD_CHIP_RULES:
        raise RulesError(f"odd_chip must be one of {', '.join(ODD_CHIP_RULES)}, got {rule!r}")
    if rule == "auto":
        return "suit" if game.stud else "button"
    require(game.stud or rule == "button",
            f"odd_chip='suit' is the stud rule; {game.name} uses 'button'")
    return rule


def odd_chip_orders(game: Game, rule: str, seats: Iterable[int], button: int | None,
                    cards: Mapping[int, Sequence[int]]) -> tuple[list[int], list[int]]:
    """The odd-chip order of the high and of the low half."""
    seats = list(seats)
    if odd_chip_rule(game, rule) == "button":
        order = clockwise(seats, button)
        return order, order
    high = sorted(seats, key=lambda s: -max(cards[s]))  # highest card by suit (spades high)
    low = sorted(seats, key=lambda s: min(_low_card_key(c) for c in cards[s]))
    return high, low


# --------------------------------------------------------------------------
# settle
# --------------------------------------------------------------------------

def _read_hands(game: Game, hands, board_cards, seats: set[int]) -> dict[int, list[int]]:
    raw = seat_map(hands, "hands")
    cards: dict[int, list[int]] = {}
    for s, text in raw.items():
        require(s in seats, f"hands names seat {s}, which has no contribution "
                            f"(seats: {', '.join(map(str, sorted(seats)))})")
        cards[s] = parse_cards(text, f"seat {s}'s hand")
    groups = {f"seat {s}": c for s, c in cards.items()}
    groups["board"] = board_cards
    check_disjoint(groups)
    return cards


def read_table(game, contributions, folded, button, hands, board):
    """Validate the shared settle / allin_ev input."""
    g = get_game(game)
    raw = seat_map(contributions, "contributions")
    require(bool(raw), "contributions is empty: give {seat: chips put in} for every player")
    contrib = {s: check_chips(v, f"seat {s}'s contribution") for s, v in sorted(raw.items())}
    folded_set = seat_set(folded, "folded", contrib)
    live = set(contrib) - folded_set
    require(bool(live), "every seat has folded: at least one player must still be in the hand")
    btn = None if button is None else check_seat(button, "button")
    board_cards = parse_cards(board if board is not None else "", "board")
    require(not (g.stud and len(board_cards) > 1),
            f"{g.name} has no board (at most the one shared 7th-street card when the deck "
            f"runs out), got board {board!r}")
    cards = _read_hands(g, hands if hands is not None else {}, board_cards, set(contrib))
    return g, contrib, folded_set, live, btn, board_cards, cards


def settle(game: str | Game, hands: Mapping[int, str], board: str = "", *,
           contributions: Mapping[int, int], folded: Iterable[int] = (),
           button: int | None = None, rake: int = 0, odd_chip: str = "auto") -> Settlement:
    """Settle a hand at showdown: who takes back how many chips from which pot.

    ``hands``: {seat: cards} of the players still in (folded players' cards may
    be given; they are only checked for duplicates).  ``contributions``: {seat:
    total chips put in} of every participant, folded ones included, as integers
    in the smallest unit.  ``button``: the dealer seat (board games: the odd chip
    among tied players goes to the first of them clockwise from it; without a
    button, the lowest seat first).  ``rake`` is taken before the split.
    ``odd_chip``: "auto" ("button" in board games, "suit" in stud), "button" or "suit".
    """
    g, contrib, folded_set, live, btn, board_cards, cards = read_table(
        game, contributions, folded, button, hands, board)
    rake = check_chips(rake, "rake")
    layers = build_layers(contrib, live)
    rakes = pot_rakes(layers, rake)

    showdown = sorted({s for layer in layers if len(layer.eligible) > 1 for s in layer.eligible})
    odd_chip_rule(g, odd_chip)
    high, low = _values(g, showdown, cards, board_cards)
    every = {s: c + board_cards for s, c in cards.items()} if g.stud else cards
    high_order, low_order = odd_chip_orders(g, odd_chip, showdown, btn, every)

    collected = {s: 0 for s in contrib}
    pots = []
    for layer, r in zip(layers, rakes):
        amount = layer.amount - r
        if len(layer.eligible) == 1:
            winners, lows, shares = layer.eligible, (), {layer.eligible[0]: amount}
            halves = (amount, 0)
        else:
            winners, lows, shares, halves = split_pot(g, amount, layer.eligible, high, low,
                                                      high_order, low_order)
        for s, v in shares.items():
            collected[s] += v
        pots.append(Pot(amount, layer.eligible, winners, lows, shares, r, layer.uncalled,
                        *halves))
    return Settlement(g.name, collected, tuple(pots), rake, sum(contrib.values()))


def _values(g: Game, seats, cards, board_cards) -> tuple[dict[int, int], dict[int, int]]:
    """High and low values of the players at showdown (larger is better; low 0 = none)."""
    high: dict[int, int] = {}
    low: dict[int, int] = {}
    for s in seats:
        require(s in cards, f"seat {s} is still in the hand at showdown but has no cards "
                            f"(give its hand, or list it in folded)")
        hole = cards[s]
        if g.stud:  # a shared 7th-street card (the eight-handed rule) is the one-card board
            hole = hole + board_cards
            require(len(hole) == 7, f"{g.name} showdown needs 7 cards per player; seat {s} "
                                    f"has {len(hole)}")
        else:
            require(len(hole) == g.hole, f"{g.name} needs {g.hole} hole cards; seat {s} has "
                                         f"{len(hole)}")
            require(len(board_cards) == 5, f"a {g.name} showdown needs the full board of 5 "
                                           f"cards, got {len(board_cards)} (use allin_ev before "
                                           f"the river)")
        e = evaluate(g, hole, [] if g.stud else board_cards)
        high[s] = e.high.value if e.high is not None else 0
        low[s] = e.low.value if e.low is not None else 0
    return high, low
