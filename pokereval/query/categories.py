"""PQL's hand-shape functions beyond hand types: the flop hand category (top pair, set,
bottom two, ...), the five-card high hand number, flush draws, how many hole cards play,
hand-board intersections, the board's distinct low cards, and the conversions toCard,
toRank and toString; with :data:`PPT_FUNCTIONS`, ProPokerTools' list of 78 functions.

Flop categories follow Open PQL's reading of PPT's (the only published definition): the
player's best five-card high hand on the flop under the game's rule (hold'em: both hole
cards and the flop; the Omaha family and Courchevel: exactly two hole cards and the three
flop cards), its hand type, then for pairs, two pairs and trips where the pair or trips
rank stands against the flop's three ranks sorted high to low (duplicates kept): above
the top card an overpair, equal to it top pair, between top and middle ``FLOPPOCKET12``,
and so on; two pair with the top and middle flop ranks top two, with the top one top and
bottom, else bottom two; trips with two of the rank on the flop trips, else a set.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement

import numpy as np

from .. import _native
from ..cards import CardError, parse_cards, rank_index
from ..errors import PokerEvalError
from .functions import Fn, board_lo_card_count, intersecting_hand_ranks
from .hands import Hands, high_rating, street_cards
from .syntax import PqlError
from .values import FLOP_CATEGORIES, Num

__all__ = ["FUNCTIONS", "SPECIAL", "PPT_FUNCTIONS", "flop_category", "hand_number"]

#: ProPokerTools' 78 PQL functions, as PPT spells them (all are implemented here)
PPT_FUNCTIONS = (
    "bestHiRating", "bestLoRating", "boardAllowsMadeLo", "boardHasOneDistinctLoCard",
    "boardHasTwoDistinctLoCards", "boardInRange", "boardLoCardCount", "boardRanks",
    "boardSuitCount", "cardsPlay", "duplicatedBoardRanks", "duplicatedHandRanks", "equity",
    "exactFlopHandCategory", "exactHandType", "fiveCardHiHandNumber", "flopHandCategory",
    "flushingBoard", "fourFlush", "fractionalRiverEquity", "handBoardIntersections",
    "handRanking", "handRankingFor", "handRanks", "handType", "hasSecondBoardRank",
    "hasTopBoardRank", "hiRating", "HvHEquity", "HvPerceivedRangeEquity", "HvREquity",
    "inRange", "intersectingHandRanks", "loRating", "madeLo", "maxRank", "minEquity",
    "minFlopHandCategory", "minHandType", "minHiRating", "minHvHEquity",
    "minHvPerceivedRangeEquity", "minHvREquity", "minLoRating", "minOutsToHandType",
    "minRank", "monotoneBoard", "nonIntersectingHandRanks", "nthRank", "nutHi",
    "nutHiForHandType", "nutHiOuts", "nutLo", "nutLoOuts", "outsToHandType", "overpair",
    "pairedBoard", "pocketPair", "rainbowBoard", "rankCount", "rateHiHand", "rateLoHand",
    "riverCard", "riverEquity", "scoops", "straightBoard", "threeFlush", "tiesHi", "tiesLo",
    "toCard", "toRank", "toString", "turnCard", "twoToneBoard", "upCard", "winningHandType",
    "winsHi", "winsLo")


def _tally(codes: np.ndarray, size: int) -> np.ndarray:
    """[N, size]: how many of each code every row holds."""
    n = len(codes)
    flat = (np.arange(n, dtype=np.int64)[:, None] * size + codes.astype(np.int64)).ravel()
    return np.bincount(flat, minlength=n * size).reshape(n, size)


def _counts(cards: np.ndarray) -> np.ndarray:
    return _tally(cards >> 2, 13)


def _suits(cards: np.ndarray) -> np.ndarray:
    return _tally(cards & 3, 4)


def _top_rank(mask: np.ndarray) -> np.ndarray:
    """The highest rank of each row of a boolean [N, 13] (-1: none)."""
    return np.where(mask.any(axis=1), 12 - np.argmax(mask[:, ::-1], axis=1), -1)


# the flop hand category -----------------------------------------------------------------
def best_flop_five(hole: np.ndarray, flop: np.ndarray, exactly_two: bool) -> np.ndarray:
    """[N, 5]: the five cards of each row's best high hand on the flop (two hole cards and
    the flop: hold'em's only five, the Omaha family's best pair of hole cards)."""
    if not exactly_two:
        return np.hstack([hole, flop])
    best, cards = None, None
    for pair in combinations(range(hole.shape[1]), 2):
        five = np.hstack([hole[:, list(pair)], flop])
        value = _native.eval_hi_batch(five).astype(np.int64)
        if best is None:
            best, cards = value, five.copy()
        else:
            better = value > best
            best, cards[better] = np.maximum(value, best), five[better]
    return cards


def flop_category(five: np.ndarray, flop: np.ndarray) -> np.ndarray:
    """Index in :data:`FLOP_CATEGORIES` of each row's best five cards against its flop."""
    kind = (_native.eval_hi_batch(five).astype(np.int64) >> 12)
    counts = _counts(five)
    ranks = -np.sort(-(flop >> 2).astype(np.int64), axis=1)
    top, mid, low = ranks[:, 0], ranks[:, 1], ranks[:, 2]
    pair = _top_rank(counts == 2)  # the pair; of two pairs the higher
    pairs = (counts == 2)
    trips = _top_rank(counts == 3)
    rows = np.arange(len(five))
    on_flop = _counts(flop)[rows, np.maximum(trips, 0)]
    pair_cat = np.select([pair > top, pair == top, pair > mid, pair == mid, pair > low,
                          pair == low], [7, 6, 5, 4, 3, 2], 1)
    has_top, has_mid = pairs[rows, top], pairs[rows, mid]
    two_cat = np.select([has_top & has_mid, has_top], [10, 9], 8)
    return np.select([kind == 1, kind == 2, kind == 3],
                     [pair_cat, two_cat, np.where(on_flop == 2, 11, 12)],
                     np.where(kind == 0, 0, kind + 9)).astype(np.int64)


def flop_hand_category(h: Hands, p: int) -> np.ndarray:
    def compute():
        flop = h.board(3)
        return flop_category(best_flop_five(h.hole(p), flop, h.game.exactly_two), flop)
    return h.cached(("flopcat", p), compute)


def _flop_cat(checker, node, args):
    p, c = args[0], (args[1] if len(args) > 1 else None)
    checker.streets.add(3)
    name = node.value
    if name == "flophandcategory":
        return "flopcat", lambda ctx: flop_hand_category(ctx.hands, p)
    op = np.equal if name == "exactflophandcategory" else np.greater_equal
    value = c if callable(c) else (lambda ctx: c)  # a quoted category is a constant
    return "bool", lambda ctx: op(flop_hand_category(ctx.hands, p), value(ctx))


# the five-card high hand number ----------------------------------------------------------
@lru_cache(maxsize=1)
def _hand_values() -> np.ndarray:
    """Every distinct five-card high rating (``category << 20 | order``), ascending: 7,462."""
    rows = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        rows.append([4 * r + i % 4 for i, r in enumerate(ranks)])  # never five of a suit
        if len(set(ranks)) == 5:
            rows.append([4 * r for r in ranks])  # the flush of these ranks
    return np.unique(high_rating(np.array(rows, dtype=np.uint8)))


def hand_number(ratings: np.ndarray) -> np.ndarray:
    """1 for a royal flush .. 7,462 for 7-5-4-3-2 (Cactus Kev's numbering)."""
    values = _hand_values()
    return len(values) - np.searchsorted(values, ratings)


def _five_card_number(checker, node, args):
    p, st = args
    g = checker.game
    if g.stud and street_cards(g, st) < 5 or not g.stud and street_cards(g, st) < 3:
        raise PqlError(f"{node.text}() on {st} means nothing in {g.name}: there are fewer "
                       f"than five cards at column {node.column}")
    return "num", lambda ctx: Num(hand_number(ctx.hands.hi(p, st)).astype(np.int64), 1)


# flush draws, cards that play, intersections --------------------------------------------------
def n_flush(h: Hands, p: int, st: str, n: int) -> np.ndarray:
    """n or more cards of one suit that p can play on ``st``: stud, among p's cards; board
    games, at least one of p's hole cards with the board (Omaha family: at most two hole
    cards and three board cards count), a made flush included."""
    k = street_cards(h.game, st)
    if h.game.stud:
        return _suits(h.hole(p, k)).max(axis=1) >= n
    mine, board = _suits(h.hole(p)), _suits(h.board(k))
    if h.game.exactly_two:
        mine, board = np.minimum(mine, 2), np.minimum(board, 3)
    return ((mine > 0) & (mine + board >= n)).any(axis=1)


def cards_play(h: Hands, p: int, st: str) -> Num:
    """The fewest of p's hole cards his best high hand on ``st`` needs (the Omaha family:
    always two; hold'em: 0 when the board plays, 1 or 2; before five cards: all of them)."""
    hole, board = h.hole(p), h.board(street_cards(h.game, st))
    size = hole.shape[1]
    out = np.full(len(hole), 2 if h.game.exactly_two else size, dtype=np.int64)
    if h.game.exactly_two or board.shape[1] < 3:
        return Num(out, 1)
    full = h.hi(p, st)
    for used in range(size - 1, -1, -1):
        if used + board.shape[1] < 5:
            break
        best = np.zeros(len(hole), dtype=np.int64)
        for pick in combinations(range(size), used):
            cards = np.hstack([hole[:, list(pick)], board])
            best = np.maximum(best, high_rating(cards))
        out = np.where(best == full, used, out)
    return Num(out, 1)


def hand_board_intersections(h: Hands, p: int, st: str) -> Num:
    mask = intersecting_hand_ranks(h, p, st)
    return Num(((mask[:, None] >> np.arange(13)) & 1).sum(axis=1).astype(np.int64), 1)


# conversions -----------------------------------------------------------------------------------
def _to_card(checker, node, args):
    (text,) = args
    try:
        (card,) = parse_cards(text, "card")
    except (CardError, PokerEvalError, ValueError):
        raise PqlError(f"{node.text}() needs one card such as 'Ah', got {text!r} at column "
                       f"{node.column}") from None
    return "card", lambda ctx: np.int64(card)


def _to_rank(checker, node, args):
    (text,) = args
    rank = rank_index(text.strip())
    if rank is None:
        raise PqlError(f"{node.text}() needs one rank such as 'A', got {text!r} at column "
                       f"{node.column}") from None
    return "rank", lambda ctx: np.int64(rank)


def _to_string(checker, node, args):
    """The value itself: pokereval already shows every value by name (histograms, text,
    JSON) and compares hand types, cards, ranks and rank sets with quoted text."""
    ((t, fn),) = args
    if t == "string":
        return "string", fn
    return t, fn


FUNCTIONS: dict[str, Fn] = {
    "handboardintersections": Fn("PS", "num", hand_board_intersections, ("board",)),
    "boardhasonedistinctlocard": Fn("S", "bool", lambda h, s: board_lo_card_count(h, s).values == 1,
                                    ("board",)),
    "boardhastwodistinctlocards": Fn("S", "bool", lambda h, s: board_lo_card_count(h, s).values == 2,
                                     ("board",)),
    "threeflush": Fn("PS", "bool", lambda h, p, s: n_flush(h, p, s, 3), ("high",)),
    "fourflush": Fn("PS", "bool", lambda h, p, s: n_flush(h, p, s, 4), ("high",)),
    "cardsplay": Fn("PS", "num", cards_play, ("board", "high")),
}

#: name -> (params, compile(checker, node, args) -> (type, fn), needs), as compile's own
SPECIAL = {
    "flophandcategory": ("P", _flop_cat, ("board", "high")),
    "exactflophandcategory": ("PC", _flop_cat, ("board", "high")),
    "minflophandcategory": ("PC", _flop_cat, ("board", "high")),
    "fivecardhihandnumber": ("PS", _five_card_number, ("high", "hand")),
    "tocard": ("R", _to_card, ()),
    "torank": ("R", _to_rank, ()),
    "tostring": ("X", _to_string, ()),
}

assert len(PPT_FUNCTIONS) == 78 and len(set(FLOP_CATEGORIES)) == 18
