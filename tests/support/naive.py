"""Naive reference implementation: the oracle the tests judge pokereval against.

Slow, plain Python, written from the rules in DESIGN.md and nothing else: no
lookup tables, no bit tricks, no import of pokereval.  Every function tries
every five-card choice and compares readable keys.

Cards are ints ``4 * rank + suit``: rank 0..12 = 2..A, suit 0..3 = c, d, h, s
(so 2c = 0, As = 51), the same indices as pokereval uses.

Keys (the format of tests/data/eval_vectors.jsonl):

* high key: ``(category, tie-break ranks...)``, category 0 high card .. 8
  straight flush, ranks 2..14 (ace 14); a straight lists only its top card
  (the wheel A-2-3-4-5 tops at 5).  Bigger is better.
* eight-or-better low key: the five ranks high to low, ace = 1.  Smaller is
  better; ``None`` when the five cards do not qualify.
* razz key: ``(pair shape, ranks grouped by multiplicity high to low)``, ace = 1,
  pair shape 0 none, 1 pair, 2 two pair, 3 trips, 4 full house, 5 quads.
  Smaller is better.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from functools import lru_cache, wraps
from itertools import combinations
from pathlib import Path
from typing import NamedTuple

# --------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = list(range(52))


def rank_of(card: int) -> int:
    """Rank 2..14 (ace 14)."""
    return card // 4 + 2


def suit_of(card: int) -> int:
    return card % 4


def parse_cards(text) -> list[int]:
    """"AhKd" / "Ah Kd" / "ah,10d" -> [50, 45]; a list of ints passes through."""
    if not isinstance(text, str):
        return [int(c) for c in text]
    body = re.sub(r"[\s,]", "", text).replace("10", "T")
    if len(body) % 2:
        raise ValueError(f"bad card text {text!r}")
    cards = []
    for i in range(0, len(body), 2):
        r, s = body[i].upper(), body[i + 1].lower()
        if r not in RANKS or s not in SUITS:
            raise ValueError(f"bad card {body[i:i + 2]!r} in {text!r}")
        cards.append(4 * RANKS.index(r) + SUITS.index(s))
    return cards


def card_str(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def cards_str(cards) -> str:
    return "".join(card_str(c) for c in cards)


# --------------------------------------------------------------------------
# High hands
# --------------------------------------------------------------------------

STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT = 8, 7, 6, 5, 4
TRIPS, TWO_PAIR, ONE_PAIR, HIGH_CARD = 3, 2, 1, 0
CATEGORY_NAMES = [
    "high card", "one pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
]


def straight_top(ranks) -> int | None:
    """Top card of a straight made by five ranks (2..14), or None."""
    distinct = sorted(set(ranks), reverse=True)
    if len(distinct) != 5:
        return None
    if distinct[0] - distinct[4] == 4:
        return distinct[0]
    if distinct == [14, 5, 4, 3, 2]:      # the wheel: the ace plays low
        return 5
    return None


def grouped_ranks(ranks) -> list[int]:
    """Distinct ranks ordered by (multiplicity, rank), both descending.

    [13, 13, 13, 5, 5] -> [13, 5];  [9, 4, 9, 4, 14] -> [9, 4, 14].
    """
    counts = Counter(ranks)
    return sorted(counts, key=lambda r: (counts[r], r), reverse=True)


def memo(key_of_five):
    """Memoise a pure key function on the five cards as given (order and all): it saves
    the repeats of a walk (a hole pair with a board triple, a stud player's known cards),
    which keeps the test suite's exact checks quick; lists are read as tuples."""
    cached = lru_cache(maxsize=1 << 18)(key_of_five)

    @wraps(key_of_five)
    def key(five):
        return cached(tuple(five))
    return key


@memo
def high_key(five) -> tuple:
    """Key of exactly five cards as a high hand; bigger is better."""
    assert len(five) == 5 and len(set(five)) == 5, five
    ranks = [rank_of(c) for c in five]
    flush = len({suit_of(c) for c in five}) == 1
    top = straight_top(ranks)
    shape = sorted(Counter(ranks).values(), reverse=True)
    groups = grouped_ranks(ranks)

    if top is not None and flush:
        return (STRAIGHT_FLUSH, top)
    if shape == [4, 1]:
        return (QUADS, *groups)
    if shape == [3, 2]:
        return (FULL_HOUSE, *groups)
    if flush:
        return (FLUSH, *sorted(ranks, reverse=True))
    if top is not None:
        return (STRAIGHT, top)
    if shape == [3, 1, 1]:
        return (TRIPS, *groups)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *groups)
    if shape == [2, 1, 1, 1]:
        return (ONE_PAIR, *groups)
    return (HIGH_CARD, *groups)


def best_high(cards):
    """Best high hand using any five of 5..7 cards: (key, five_cards)."""
    cards = list(cards)
    return max((high_key(five), five) for five in combinations(cards, 5))


def omaha_high(hole, board):
    """Best high hand using exactly two hole cards and exactly three board cards."""
    return max(
        (high_key(two + three), two + three)
        for two in combinations(list(hole), 2)
        for three in combinations(list(board), 3)
    )


# --------------------------------------------------------------------------
# Ace-to-five lows
# --------------------------------------------------------------------------

def low_rank(card: int) -> int:
    """Rank for ace-to-five lows: ace = 1, deuce = 2, ..., king = 13."""
    r = rank_of(card)
    return 1 if r == 14 else r


@memo
def low8_key(five) -> tuple | None:
    """Eight-or-better low of exactly five cards; smaller is better; None if no low."""
    assert len(five) == 5 and len(set(five)) == 5, five
    ranks = sorted((low_rank(c) for c in five), reverse=True)
    if len(set(ranks)) == 5 and ranks[0] <= 8:
        return tuple(ranks)
    return None


def _best_low(candidates):
    """Smallest (key, five) among candidate five-card tuples with a qualifying low."""
    lows = [(low8_key(five), five) for five in candidates]
    lows = [(key, five) for key, five in lows if key is not None]
    return min(lows) if lows else None


def best_low8(cards):
    """Best eight-or-better low from any five of 5..7 cards: (key, five) or None."""
    return _best_low(combinations(list(cards), 5))


def omaha_low8(hole, board):
    """Best eight-or-better low with exactly 2 hole + 3 board cards: (key, five) or None."""
    return _best_low(
        two + three
        for two in combinations(list(hole), 2)
        for three in combinations(list(board), 3)
    )


@memo
def razz_key(five) -> tuple:
    """Razz (ace-to-five lowball, pairs count) key of five cards; smaller is better."""
    assert len(five) == 5 and len(set(five)) == 5, five
    ranks = [low_rank(c) for c in five]
    shape = tuple(sorted(Counter(ranks).values(), reverse=True))
    pair_shape = {
        (1, 1, 1, 1, 1): 0,   # no pair
        (2, 1, 1, 1): 1,      # one pair
        (2, 2, 1): 2,         # two pair
        (3, 1, 1): 3,         # trips
        (3, 2): 4,            # full house
        (4, 1): 5,            # quads
    }[shape]
    return (pair_shape, *grouped_ranks(ranks))


def best_razz(cards):
    """Best razz hand from any five of 5..7 cards: (key, five)."""
    return min((razz_key(five), five) for five in combinations(list(cards), 5))


# --------------------------------------------------------------------------
# Games
# --------------------------------------------------------------------------

class Rules(NamedTuple):
    hole: int | None      # hole cards per player (None: stud, 3..7 held cards)
    omaha: bool           # exactly two hole + three board cards
    pot: str              # "high", "hilo" (split with eight-or-better low) or "razz"


GAMES = {
    "holdem": Rules(2, False, "high"),
    "omaha": Rules(4, True, "high"),
    "omaha-hilo": Rules(4, True, "hilo"),
    "omaha5": Rules(5, True, "high"),
    "omaha5-hilo": Rules(5, True, "hilo"),
    "courchevel": Rules(5, True, "high"),
    "courchevel-hilo": Rules(5, True, "hilo"),
    "stud": Rules(None, False, "high"),
    "stud-hilo": Rules(None, False, "hilo"),
    "razz": Rules(None, False, "razz"),
}


def is_stud(game: str) -> bool:
    return GAMES[game].hole is None


def hand_high(game, hole, board=()):
    """Best high (key, five) of one player in ``game`` (hole + board; stud: board empty)."""
    if GAMES[game].omaha:
        return omaha_high(hole, board)
    return best_high(list(hole) + list(board))


def hand_low8(game, hole, board=()):
    """Best eight-or-better low (key, five) or None."""
    if GAMES[game].omaha:
        return omaha_low8(hole, board)
    return best_low8(list(hole) + list(board))


def hand_razz(hole, board=()):
    return best_razz(list(hole) + list(board))


# --------------------------------------------------------------------------
# Run-outs
# --------------------------------------------------------------------------

def runouts(game, hands, board=(), dead=()):
    """Yield every equally likely completion as a list of (hole, board) per player.

    Board games: each unordered set of missing board cards.  Stud: each
    player's own missing cards, player 1 first, then player 2 from what is
    left, ...  Eight-handed rule: when the unseen cards cannot give every
    player all their missing cards, the seventh card is one shared community
    card (dealt after the players' own cards), appended to every hand.
    """
    hands = [list(h) for h in hands]
    board, dead = list(board), list(dead)
    known = [c for h in hands for c in h] + board + dead
    assert len(set(known)) == len(known), "duplicate card"
    unseen = [c for c in DECK if c not in known]

    if not is_stud(game):
        for extra in combinations(unseen, 5 - len(board)):
            full_board = board + list(extra)
            yield [(h, full_board) for h in hands]
        return

    assert not board, "stud has no board"
    missing = 7 - len(hands[0])
    shared = len(unseen) < missing * len(hands)      # the eight-handed rule
    own = missing - 1 if shared else missing
    if own * len(hands) + shared > len(unseen):
        raise ValueError("too many players for the deck")

    def deal(player, remaining, dealt):
        if player == len(hands):
            if shared:
                for community in remaining:
                    yield [(h + d + [community], []) for h, d in zip(hands, dealt)]
            else:
                yield [(h + d, []) for h, d in zip(hands, dealt)]
            return
        for mine in combinations(remaining, own):
            rest = [c for c in remaining if c not in mine]
            yield from deal(player + 1, rest, dealt + [list(mine)])

    yield from deal(0, unseen, [])


# --------------------------------------------------------------------------
# Exact equity by brute force
# --------------------------------------------------------------------------

FIELDS = ("equity", "high_win", "high_tie", "low_win", "low_tie", "scoop")


class RefEquity(NamedTuple):
    players: list        # per player: {field: Fraction} for FIELDS
    runouts: int         # number of equally likely run-outs walked


def _winners(keys, better):
    """Indices of the players holding the best key (ignoring None)."""
    present = [k for k in keys if k is not None]
    if not present:
        return []
    best = better(present)
    return [i for i, k in enumerate(keys) if k == best]


def check_hands(game, hands, board=(), dead=()):
    """Minimal sanity checks so the oracle cannot silently answer a wrong question."""
    rules = GAMES[game]
    if rules.hole is not None:
        assert all(len(h) == rules.hole for h in hands), "wrong hole-card count"
        assert len(board) <= 5, "too many board cards"
    else:
        assert len({len(h) for h in hands}) == 1, "stud hands must be on one street"
        assert 3 <= len(hands[0]) <= 7 and not board


def reference_equity(game, hands, board="", dead="") -> RefEquity:
    """Exact equity of every hand, walking every run-out (slow; small spots only).

    Per run-out: high-only games give the pot to the best high; hi/lo games give
    half to the best high and half to the best qualifying low when one exists
    (else the high takes all); razz gives the pot to the best razz low.  Ties
    divide the part they tie for equally.
    """
    rules = GAMES[game]
    hands = [parse_cards(h) for h in hands]
    board, dead = parse_cards(board), parse_cards(dead)
    check_hands(game, hands, board, dead)
    n = len(hands)
    totals = [{f: Fraction(0) for f in FIELDS} for _ in range(n)]
    count = 0

    for deal in runouts(game, hands, board, dead):
        count += 1
        if rules.pot == "razz":
            keys = [hand_razz(h, b)[0] for h, b in deal]
            win = _winners(keys, min)
            for i in win:
                totals[i]["equity"] += Fraction(1, len(win))
                totals[i]["low_win" if len(win) == 1 else "low_tie"] += 1
                if len(win) == 1:
                    totals[i]["scoop"] += 1
            continue

        high = _winners([hand_high(game, h, b)[0] for h, b in deal], max)
        low = []
        if rules.pot == "hilo":
            lows = [hand_low8(game, h, b) for h, b in deal]
            low = _winners([x[0] if x else None for x in lows], min)

        high_pot = Fraction(1, 2) if low else Fraction(1)
        for i in high:
            totals[i]["equity"] += high_pot / len(high)
            totals[i]["high_win" if len(high) == 1 else "high_tie"] += 1
        for i in low:
            totals[i]["equity"] += Fraction(1, 2) / len(low)
            totals[i]["low_win" if len(low) == 1 else "low_tie"] += 1
        # scoop: the whole pot alone = sole high, and sole low or no low at all
        if len(high) == 1 and (not low or low == [high[0]]):
            totals[high[0]]["scoop"] += 1

    players = [{f: v / count for f, v in t.items()} for t in totals]
    return RefEquity(players, count)


# --------------------------------------------------------------------------
# Test data (tests/data, copied from the project's reference vectors)
# --------------------------------------------------------------------------

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def load_jsonl(name: str) -> list[dict]:
    with open(DATA_DIR / name) as f:
        return [json.loads(line) for line in f if line.strip()]
