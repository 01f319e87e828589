"""PQL's functions: signature, result type, what the game must have, and the column each
computes over a block (:class:`hands.Hands`).

Parameter kinds: ``P`` a player, ``S`` a street, ``T`` a hand-type constant, ``N`` a
number, ``H`` / ``L`` a high / low rating, ``R`` a quoted range or hand, ``K`` a rank set;
a lower-case kind is optional.  Result types: ``bool``, ``share`` (a pot share: exact
fractions such as 1/4), ``equity`` (a number in [0, 1]), ``num``, ``handtype``,
``hirating``, ``lorating``, ``card``, ``rank``, ``rankset``.  Requirements: ``high`` /
``low`` / ``eight`` (the game has a high / any low / an eight-or-better low pot),
``board`` / ``stud`` (board games / stud games).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..evaluate import evaluate
from .hands import Hands, street_cards
from .values import Num

__all__ = ["Fn", "FUNCTIONS"]


@dataclass(frozen=True)
class Fn:
    params: str
    returns: str
    impl: Callable
    needs: tuple[str, ...] = ()
    doc: str = ""


def _bool_num(x: np.ndarray) -> Num:
    return Num(x.astype(np.int64), 1)


# showdown -----------------------------------------------------------------------------
def river_equity(h: Hands, p: int) -> Num:
    return Num(h.shares()[p], h.units)


def wins(h: Hands, p: int, low: bool) -> np.ndarray:
    win, k = h.outcome(p, low)
    return win & (k == 1)


def ties(h: Hands, p: int, low: bool) -> np.ndarray:
    win, k = h.outcome(p, low)
    return win & (k > 1)


def scoops(h: Hands, p: int) -> np.ndarray:
    return h.shares()[p] == h.units


def winning_hand_type(h: Hands) -> np.ndarray:
    return h.all_hi(h.last).max(axis=0) >> 20


# hands on a street ----------------------------------------------------------------------
def hand_type(h: Hands, p: int, st: str) -> np.ndarray:
    return h.hi(p, st) >> 20


def made_lo(h: Hands, p: int, st: str) -> np.ndarray:
    return h.lo(p, st) > 0


def best_rating(h: Hands, p: int, st: str, low: bool) -> np.ndarray:
    values = h.all_lo(st) if low else h.all_hi(st)
    best = values[p] >= values.max(axis=0)
    return best & (values[p] > 0) if low and h.game.eight else best


def rate_hi(text: str) -> int:
    value = evaluate("holdem", text[:2], text[2:]).high.value  # five cards: the best five
    return (value >> 12) << 20 | (value & 4095)


def rate_lo(text: str) -> int:
    return evaluate("stud-hilo", text).low.value if evaluate("stud-hilo", text).low else 0


# board on a street ---------------------------------------------------------------------
def _board(h: Hands, st: str) -> np.ndarray:
    return h.board(street_cards(h.game, st))


def _suit_counts(cards: np.ndarray) -> np.ndarray:
    return ((cards[:, :, None] & 3) == np.arange(4)).sum(axis=1)


def _rank_mask(cards: np.ndarray) -> np.ndarray:
    m = np.zeros(len(cards), dtype=np.int64)
    for i in range(cards.shape[1]):
        m |= np.int64(1) << (cards[:, i] >> 2).astype(np.int64)
    return m


def _rank_counts(cards: np.ndarray) -> np.ndarray:
    return ((cards[:, :, None] >> 2) == np.arange(13)).sum(axis=1)


def board_suit_count(h: Hands, st: str) -> Num:
    return Num((_suit_counts(_board(h, st)) > 0).sum(axis=1).astype(np.int64), 1)


def flushing_board(h: Hands, st: str) -> np.ndarray:
    return _suit_counts(_board(h, st)).max(axis=1) >= 3


def monotone_board(h: Hands, st: str) -> np.ndarray:
    return (_suit_counts(_board(h, st)) > 0).sum(axis=1) == 1


def two_tone_board(h: Hands, st: str) -> np.ndarray:
    return (_suit_counts(_board(h, st)) > 0).sum(axis=1) == 2


def rainbow_board(h: Hands, st: str) -> np.ndarray:
    return _suit_counts(_board(h, st)).max(axis=1) <= 1


def paired_board(h: Hands, st: str) -> np.ndarray:
    return _rank_counts(_board(h, st)).max(axis=1) >= 2


_WINDOWS = [sum(1 << ((r - 1) % 13 if r else 12) for r in range(lo, lo + 5)) for lo in range(0, 10)]


def straight_board(h: Hands, st: str) -> np.ndarray:
    """Three board ranks inside one five-rank straight window (the wheel's ace counts low)."""
    ranks = _rank_mask(_board(h, st))
    out = np.zeros(len(ranks), dtype=bool)
    for w in _WINDOWS:
        out |= _popcount(ranks & w) >= 3
    return out


def _popcount(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64)
    count = np.zeros(len(x), dtype=np.int64)
    for r in range(13):
        count += (x >> r) & 1
    return count


def _low_ranks(cards: np.ndarray) -> np.ndarray:
    """Bit mask of the distinct ranks eight or lower (ace low)."""
    lows = np.zeros(len(cards), dtype=np.int64)
    for i in range(cards.shape[1]):
        r = (cards[:, i] >> 2).astype(np.int64)
        low = np.where(r == 12, 0, r + 1)  # ace 0, deuce 1, ... eight 7
        lows |= np.where((r <= 6) | (r == 12), np.int64(1) << low, 0)
    return lows


def board_lo_card_count(h: Hands, st: str) -> Num:
    return Num(_popcount(_low_ranks(_board(h, st))), 1)


def board_allows_made_lo(h: Hands, st: str) -> np.ndarray:
    return _popcount(_low_ranks(_board(h, st))) >= 3


def board_ranks(h: Hands, st: str) -> np.ndarray:
    return _rank_mask(_board(h, st))


def duplicated_board_ranks(h: Hands, st: str) -> np.ndarray:
    return _dup_mask(_rank_counts(_board(h, st)))


def _dup_mask(counts: np.ndarray) -> np.ndarray:
    return ((counts >= 2) * (np.int64(1) << np.arange(13))).sum(axis=1)


def turn_card(h: Hands) -> np.ndarray:
    return h.board(5)[:, 3].astype(np.int64)


def river_card(h: Hands) -> np.ndarray:
    return h.board(5)[:, 4].astype(np.int64)


def up_card(h: Hands, p: int, st: str) -> np.ndarray:
    k = street_cards(h.game, st)
    return h.hole(p, k)[:, k - 1].astype(np.int64)


# hole cards --------------------------------------------------------------------------------
def _hand_cards(h: Hands, p: int, st: str | None) -> np.ndarray:
    if h.game.stud:
        return h.hole(p, street_cards(h.game, st or "seventh"))
    return h.hole(p)


def hand_ranks(h: Hands, p: int, st: str | None = None) -> np.ndarray:
    return _rank_mask(_hand_cards(h, p, st))


def duplicated_hand_ranks(h: Hands, p: int, st: str | None = None) -> np.ndarray:
    return _dup_mask(_rank_counts(_hand_cards(h, p, st)))


def intersecting_hand_ranks(h: Hands, p: int, st: str) -> np.ndarray:
    return hand_ranks(h, p) & board_ranks(h, st)


def nonintersecting_hand_ranks(h: Hands, p: int, st: str) -> np.ndarray:
    return hand_ranks(h, p) & ~board_ranks(h, st)


def pocket_pair(h: Hands, p: int) -> np.ndarray:
    return duplicated_hand_ranks(h, p) != 0


def overpair(h: Hands, p: int, st: str) -> np.ndarray:
    """A pair in the hand above every board rank."""
    pairs, top = duplicated_hand_ranks(h, p), board_ranks(h, st)
    return _max_rank(pairs) > _max_rank(top)


def has_top_board_rank(h: Hands, p: int, st: str) -> np.ndarray:
    top = nth_rank_of(board_ranks(h, st), 1)
    return (top >= 0) & ((hand_ranks(h, p) >> np.maximum(top, 0)) & 1 == 1)


def has_second_board_rank(h: Hands, p: int, st: str) -> np.ndarray:
    second = nth_rank_of(board_ranks(h, st), 2)
    return (second >= 0) & ((hand_ranks(h, p) >> np.maximum(second, 0)) & 1 == 1)


def _max_rank(mask: np.ndarray) -> np.ndarray:
    return nth_rank_of(mask, 1)


def nth_rank_of(mask: np.ndarray, n) -> np.ndarray:
    """The n-th highest rank in each set (-1 when the set is smaller)."""
    n = np.broadcast_to(np.asarray(n, dtype=np.int64), mask.shape)
    seen = np.zeros(mask.shape, dtype=np.int64)
    out = np.full(mask.shape, -1, dtype=np.int64)
    for r in range(12, -1, -1):
        has = (mask >> r) & 1 == 1
        seen = seen + has
        out = np.where(has & (seen == n) & (out < 0), r, out)
    return out


def _min_rank(mask: np.ndarray) -> np.ndarray:
    out = np.full(mask.shape, -1, dtype=np.int64)
    for r in range(12, -1, -1):
        out = np.where((mask >> r) & 1 == 1, r, out)
    return out


FUNCTIONS: dict[str, Fn] = {
    # showdown at the river
    "riverequity": Fn("P", "share", river_equity, doc="p's share of the pot at the river"),
    "fractionalriverequity": Fn("P", "share", river_equity, doc="the same, as an exact fraction"),
    "winshi": Fn("P", "bool", lambda h, p: wins(h, p, False), ("high",), "sole best high"),
    "tieshi": Fn("P", "bool", lambda h, p: ties(h, p, False), ("high",), "shared best high"),
    "winslo": Fn("P", "bool", lambda h, p: wins(h, p, True), ("low",), "sole best low"),
    "tieslo": Fn("P", "bool", lambda h, p: ties(h, p, True), ("low",), "shared best low"),
    "scoops": Fn("P", "bool", scoops, doc="the whole pot, alone"),
    "winninghandtype": Fn("", "handtype", winning_hand_type, ("high",), "category of the best high"),
    # hands on a street
    "handtype": Fn("PS", "handtype", hand_type, ("high", "hand"), "high category"),
    "exacthandtype": Fn("PST", "bool", lambda h, p, s, t: hand_type(h, p, s) == t, ("high", "hand")),
    "minhandtype": Fn("PST", "bool", lambda h, p, s, t: hand_type(h, p, s) >= t, ("high", "hand")),
    "hirating": Fn("PS", "hirating", lambda h, p, s: h.hi(p, s), ("high", "hand")),
    "minhirating": Fn("PSH", "bool", lambda h, p, s, r: h.hi(p, s) >= r, ("high", "hand")),
    "lorating": Fn("PS", "lorating", lambda h, p, s: h.lo(p, s), ("low", "hand")),
    "minlorating": Fn("PSL", "bool", lambda h, p, s, r: (h.lo(p, s) >= r) & (h.lo(p, s) > 0),
                      ("low", "hand")),
    "madelo": Fn("PS", "bool", made_lo, ("eight", "hand"), "an eight-or-better low"),
    "besthirating": Fn("PS", "bool", lambda h, p, s: best_rating(h, p, s, False), ("high", "hand")),
    "bestlorating": Fn("PS", "bool", lambda h, p, s: best_rating(h, p, s, True), ("low", "hand")),
    "ratehihand": Fn("R", "hirating", None, ("high",), "a five-card high hand's rating"),
    "ratelohand": Fn("R", "lorating", None, ("low",), "a five-card low's rating"),
    # board on a street
    "flushingboard": Fn("S", "bool", flushing_board, ("board",)),
    "monotoneboard": Fn("S", "bool", monotone_board, ("board",)),
    "twotoneboard": Fn("S", "bool", two_tone_board, ("board",)),
    "rainbowboard": Fn("S", "bool", rainbow_board, ("board",)),
    "pairedboard": Fn("S", "bool", paired_board, ("board",)),
    "straightboard": Fn("S", "bool", straight_board, ("board",)),
    "boardallowsmadelo": Fn("S", "bool", board_allows_made_lo, ("board",)),
    "boardlocardcount": Fn("S", "num", board_lo_card_count, ("board",)),
    "boardsuitcount": Fn("S", "num", board_suit_count, ("board",)),
    "boardranks": Fn("S", "rankset", board_ranks, ("board",)),
    "duplicatedboardranks": Fn("S", "rankset", duplicated_board_ranks, ("board",)),
    "turncard": Fn("", "card", turn_card, ("board",)),
    "rivercard": Fn("", "card", river_card, ("board",)),
    "upcard": Fn("PS", "card", up_card, ("stud",)),
    # hole cards and rank sets
    "handranks": Fn("Ps", "rankset", hand_ranks),
    "duplicatedhandranks": Fn("Ps", "rankset", duplicated_hand_ranks),
    "intersectinghandranks": Fn("PS", "rankset", intersecting_hand_ranks, ("board",)),
    "nonintersectinghandranks": Fn("PS", "rankset", nonintersecting_hand_ranks, ("board",)),
    "pocketpair": Fn("P", "bool", pocket_pair, ("board",)),
    "overpair": Fn("PS", "bool", overpair, ("board",)),
    "hastopboardrank": Fn("PS", "bool", has_top_board_rank, ("board",)),
    "hassecondboardrank": Fn("PS", "bool", has_second_board_rank, ("board",)),
    "rankcount": Fn("K", "num", lambda h, k: Num(_popcount(k), 1)),
    "maxrank": Fn("K", "rank", lambda h, k: _max_rank(k)),
    "minrank": Fn("K", "rank", lambda h, k: _min_rank(k)),
    "nthrank": Fn("NK", "rank", None),
}
