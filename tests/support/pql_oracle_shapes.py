"""Brute-force oracle for the PQL functions of pokereval.query.categories and
pokereval.query.perceived (tests/pql/test_pql_shapes.py): plain Python over the
reference evaluator (:mod:`naive`) and a :class:`pql_oracle.Deal`, from the meanings in
docs/PQL.md; nothing here imports pokereval.

Each function takes the deal first (``flop_hand_category(deal, p)``); players are
indices, streets PQL's names, flop categories PPT's constant names in capitals.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

import naive
from pql_oracle import river_shares

#: PPT's flop hand categories, weakest first
FLOP_CATEGORIES = ("FLOPNOTHING", "FLOPUNDERPAIR", "FLOPTHIRDPAIR", "FLOPPOCKET23",
                   "FLOPSECONDPAIR", "FLOPPOCKET12", "FLOPTOPPAIR", "FLOPOVERPAIR",
                   "FLOPBOTTOMTWO", "FLOPTOPANDBOTTOM", "FLOPTOPTWO", "FLOPTRIPS", "FLOPSET",
                   "FLOPSTRAIGHT", "FLOPFLUSH", "FLOPFULLHOUSE", "FLOPQUADS",
                   "FLOPSTRAIGHTFLUSH")


def _omaha(d) -> bool:
    return d.rules.omaha


# --------------------------------------------------------------------------------------
# flopHandCategory
# --------------------------------------------------------------------------------------

def flop_hand_category(d, p: int) -> str:
    """The best five of two hole cards and the flop (hold'em: the only five), read
    against the flop's ranks sorted high to low."""
    flop = d.board[:3]
    cached = ("flopcat", p, frozenset(flop))
    if cached not in d.spot.cache:
        d.spot.cache[cached] = _flop_category(d.hands[p], flop)
    return d.spot.cache[cached]


def _flop_category(hand, flop) -> str:
    key = max(naive.high_key(list(two) + flop) for two in combinations(hand, 2))
    category = key[0]
    top, mid, low = sorted((naive.rank_of(c) for c in flop), reverse=True)
    if category == naive.ONE_PAIR:
        r = key[1]
        for i, hit in enumerate((r > top, r == top, r > mid, r == mid, r > low, r == low)):
            if hit:
                return FLOP_CATEGORIES[7 - i]
        return "FLOPUNDERPAIR"
    if category == naive.TWO_PAIR:
        pairs = set(key[1:3])
        if top in pairs and mid in pairs:
            return "FLOPTOPTWO"
        return "FLOPTOPANDBOTTOM" if top in pairs else "FLOPBOTTOMTWO"
    if category == naive.TRIPS:
        on_flop = sum(1 for c in flop if naive.rank_of(c) == key[1])
        return "FLOPTRIPS" if on_flop == 2 else "FLOPSET"
    names = {naive.HIGH_CARD: "FLOPNOTHING", naive.STRAIGHT: "FLOPSTRAIGHT",
             naive.FLUSH: "FLOPFLUSH", naive.FULL_HOUSE: "FLOPFULLHOUSE",
             naive.QUADS: "FLOPQUADS", naive.STRAIGHT_FLUSH: "FLOPSTRAIGHTFLUSH"}
    return names[category]


def exact_flop_hand_category(d, p: int, c: str) -> bool:
    return flop_hand_category(d, p) == c


def min_flop_hand_category(d, p: int, c: str) -> bool:
    return FLOP_CATEGORIES.index(flop_hand_category(d, p)) >= FLOP_CATEGORIES.index(c)


# --------------------------------------------------------------------------------------
# fiveCardHiHandNumber, cardsPlay, flush draws, intersections
# --------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def five_card_keys() -> dict:
    """Every distinct five-card high key -> its number, 1 for the best (7,462 of them)."""
    keys = set()
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        keys.add(naive.high_key([4 * r + i % 4 for i, r in enumerate(ranks)]))
        if len(set(ranks)) == 5:
            keys.add(naive.high_key([4 * r for r in ranks]))
    return {k: i + 1 for i, k in enumerate(sorted(keys, reverse=True))}


def five_card_hi_hand_number(d, p: int, street: str) -> int:
    return five_card_keys()[d.hi_rating(p, street)]


def cards_play(d, p: int, street: str) -> int:
    """Fewest hole cards the best high needs (Omaha family: two; fewer than five cards in
    all: every hole card)."""
    if _omaha(d):
        return 2
    hole, board = d.hands[p], d.board_on(street)
    if len(board) < 3:
        return len(hole)
    full = naive.best_high(hole + board)[0]
    for used in range(len(hole) + 1):
        if used + len(board) >= 5 and any(naive.best_high(list(pick) + board)[0] == full
                                          for pick in combinations(hole, used)):
            return used
    raise AssertionError("the whole hand always plays")


def _n_flush(d, p: int, street: str, n: int) -> bool:
    if d.spot.stud:
        suits = Counter(naive.suit_of(c) for c in d.hole_on(p, street))
        return max(suits.values()) >= n
    board = d.board_on(street)
    for s in range(4):
        mine = sum(1 for c in d.hands[p] if naive.suit_of(c) == s)
        on_board = sum(1 for c in board if naive.suit_of(c) == s)
        if _omaha(d):
            mine, on_board = min(mine, 2), min(on_board, 3)
        if mine and mine + on_board >= n:
            return True
    return False


def three_flush(d, p: int, street: str) -> bool:
    return _n_flush(d, p, street, 3)


def four_flush(d, p: int, street: str) -> bool:
    return _n_flush(d, p, street, 4)


def hand_board_intersections(d, p: int, street: str) -> int:
    mine = {naive.rank_of(c) for c in d.hands[p]}
    return len(mine & {naive.rank_of(c) for c in d.board_on(street)})


def board_has_one_distinct_lo_card(d, street: str) -> bool:
    return d.board_lo_card_count(street) == 1


def board_has_two_distinct_lo_cards(d, street: str) -> bool:
    return d.board_lo_card_count(street) == 2


# --------------------------------------------------------------------------------------
# nutHiForHandType and HvPerceivedRangeEquity
# --------------------------------------------------------------------------------------

def _high(d, hole, board) -> tuple:
    if _omaha(d):
        return naive.omaha_high(list(hole), list(board))[0]
    return naive.best_high(list(hole) + list(board))[0]


def nut_hi_for_hand_type(d, p: int, street: str) -> bool:
    """No two cards unseen by p make a better high of p's hand type on the board."""
    board = d.board_on(street)
    key = ("nut-type", p, tuple(sorted(board)), tuple(sorted(d.hands[p])))
    hit = d.spot.cache.get(key)
    if hit is None:
        mine = _high(d, d.hands[p], board)
        seen = set(d.hands[p]) | set(board) | set(d.spot.dead)
        unseen = [c for c in naive.DECK if c not in seen]
        better = (_high(d, pair, board) for pair in combinations(unseen, 2))
        hit = not any(v[0] == mine[0] and v > mine for v in better)
        d.spot.cache[key] = hit
    return hit


def hv_perceived_range_equity(d, p: int, street: str, holdings) -> Fraction:
    """p's hand and the board so far against one opponent holding each of ``holdings``
    (card texts) that shares no card with them or the dead cards, all equally likely,
    averaged over every completion of the board."""
    board = d.board_on(street)
    key = ("perceived", p, tuple(sorted(board)), tuple(sorted(d.hands[p])), tuple(holdings))
    hit = d.spot.cache.get(key)
    if hit is None:
        used = set(d.hands[p]) | set(board) | set(d.spot.dead)
        total, count = Fraction(0), 0
        for text in holdings:
            villain = naive.parse_cards(text)
            if used & set(villain):
                continue
            rest = [c for c in naive.DECK if c not in used | set(villain)]
            for extra in combinations(rest, 5 - len(board)):
                total += river_shares(d.game, [d.hands[p], villain], board + list(extra))[0]
                count += 1
        hit = d.spot.cache[key] = total / count
    return hit


