"""Brute-force oracle for PQL (tests/pql/test_pql_oracle.py): every run-out of a small spot
walked in plain Python over the reference evaluator (:mod:`naive`), and the PQL functions'
values computed per deal from the meanings written in issue 24.  Nothing here imports
pokereval; the selectors (avg, count, histogram, max, min) come out as exact Fractions.

A :class:`Spot` is a game, fixed hands (stud: the cards dealt so far, in deal order), the
board so far and dead cards.  :meth:`Spot.deals` walks every *ordered* completion (board
games: the missing board cards in the order dealt; stud: each player's missing cards, in
order), all equally likely.  Each :class:`Deal` answers the functions; its arguments are
player indices (0 = the first player written), street names and hand-type names as PQL
spells them.

Values: a high hand is naive's high key (bigger is better; fewer than five cards: pairs,
trips, quads, then kickers); a low is naive's eight-or-better key or razz key (smaller is
better; None: no qualifying low); a hand type is one of :data:`HAND_TYPES`; a card is its
text (``'Ah'``); pot shares and equities are Fractions.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, permutations

import naive

#: PQL's hand-type constants, in order (naive's categories 0..8)
HAND_TYPES = ("highcard", "pair", "twopair", "trips", "straight", "flush", "fullhouse",
              "quads", "straightflush")
#: PQL game names -> naive's rules names
GAMES = {"holdem": "holdem", "omahahi": "omaha", "omaha8": "omaha-hilo", "omahahi5": "omaha5",
         "omaha85": "omaha5-hilo", "courchevel": "courchevel",
         "courchevel-hilo": "courchevel-hilo", "studhi": "stud", "stud8": "stud-hilo",
         "razz": "razz"}
BOARD_STREETS = ("preflop", "flop", "turn", "river")
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
MOST_DEALS = 300_000


def _rules(game: str):
    return naive.GAMES[GAMES.get(game, game)]


def street_count(game: str, street: str) -> int:
    """Board cards (board games) or a player's cards (stud) seen on ``street``."""
    if naive.is_stud(GAMES.get(game, game)):
        return 3 + STUD_STREETS.index(street)
    courchevel = GAMES.get(game, game).startswith("courchevel")
    return ((1 if courchevel else 0), 3, 4, 5)[BOARD_STREETS.index(street)]


# --------------------------------------------------------------------------------------
# Hand values (cached on the cards as sets)
# --------------------------------------------------------------------------------------

def partial_high_key(cards) -> tuple:
    """High key of fewer than five cards: quads, trips, two pair, pair, high card, then the
    ranks grouped by multiplicity (no straights or flushes under five cards)."""
    ranks = [naive.rank_of(c) for c in cards]
    shape = sorted(Counter(ranks).values(), reverse=True) + [0, 0]
    if shape[0] == 4:
        category = naive.QUADS
    elif shape[0] == 3:
        category = naive.TRIPS
    elif shape[0] == 2 and shape[1] == 2:
        category = naive.TWO_PAIR
    elif shape[0] == 2:
        category = naive.ONE_PAIR
    else:
        category = naive.HIGH_CARD
    return (category, *naive.grouped_ranks(ranks))


def partial_razz_key(cards) -> tuple:
    """Razz key of fewer than five cards (stud third and fourth street), smaller is better:
    the pair shape as in razz (no pair, one pair, two pair, trips, quads), then the ranks
    (ace low) grouped by multiplicity, high to low."""
    ranks = [naive.low_rank(c) for c in cards]
    shape = sorted(Counter(ranks).values(), reverse=True) + [0, 0]
    if shape[0] == 4:
        pairs = 5
    elif shape[0] == 3:
        pairs = 3
    elif shape[0] == 2:
        pairs = 2 if shape[1] == 2 else 1
    else:
        pairs = 0
    return (pairs, *naive.grouped_ranks(ranks))


@lru_cache(maxsize=1 << 18)
def high_key(omaha: bool, hole: frozenset, board: frozenset) -> tuple:
    if omaha:
        return naive.omaha_high(sorted(hole), sorted(board))[0]
    cards = sorted(hole | board)
    if len(cards) < 5:
        return partial_high_key(cards)
    return naive.best_high(cards)[0]


@lru_cache(maxsize=1 << 18)
def low_key(pot: str, omaha: bool, hole: frozenset, board: frozenset):
    """Eight-or-better low key (None: no low) or razz key; smaller is better."""
    cards = sorted(hole | board)
    if pot == "razz":
        return naive.best_razz(cards)[0] if len(cards) >= 5 else partial_razz_key(cards)
    if omaha:
        best = naive.omaha_low8(sorted(hole), sorted(board))
    else:
        best = naive.best_low8(cards) if len(cards) >= 5 else None
    return best[0] if best else None


def _five_of(text: str) -> list[int]:
    """'KKK22' (ranks: suits chosen so no flush) or 'KsKdKh2c2d' (cards) -> five cards."""
    text = text.strip()
    if len(text) == 10:
        return naive.parse_cards(text)
    ranks = sorted(naive.RANKS.index(ch.upper()) for ch in text)
    assert len(ranks) == 5
    # equal ranks side by side, suits 0,1,2,3,0: no card twice, never five of one suit
    return [4 * r + i % 4 for i, r in enumerate(ranks)]


def rate_hi(text: str) -> tuple:
    """rateHiHand('KKK22'): the high key of five cards."""
    return naive.high_key(_five_of(text))


def rate_lo(game: str, text: str):
    """rateLoHand('8532A'): the low key of five cards (razz key in razz)."""
    five = _five_of(text)
    return naive.razz_key(five) if _rules(game).pot == "razz" else naive.low8_key(five)


# --------------------------------------------------------------------------------------
# The showdown
# --------------------------------------------------------------------------------------

def _best(keys, better):
    present = [k for k in keys if k is not None]
    if not present:
        return []
    top = better(present)
    return [i for i, k in enumerate(keys) if k == top]


def river_shares(game: str, hands, board) -> list[Fraction]:
    """Every player's share of the pot at the river (hi/lo: half to the best high, half
    to the best qualifying low, the high takes all when nobody has a low; razz: the pot to
    the best razz low; ties divide the part they tie for)."""
    rules = _rules(game)
    b = frozenset(board)
    shares = [Fraction(0)] * len(hands)
    if rules.pot == "razz":
        win = _best([low_key("razz", False, frozenset(h), b) for h in hands], min)
        for i in win:
            shares[i] += Fraction(1, len(win))
        return shares
    high = _best([high_key(rules.omaha, frozenset(h), b) for h in hands], max)
    low = []
    if rules.pot == "hilo":
        low = _best([low_key("hilo", rules.omaha, frozenset(h), b) for h in hands], min)
    part = Fraction(1, 2) if low else Fraction(1)
    for i in high:
        shares[i] += part / len(high)
    for i in low:
        shares[i] += Fraction(1, 2) / len(low)
    return shares


# --------------------------------------------------------------------------------------
# Spots and their deals
# --------------------------------------------------------------------------------------

class Spot:
    """A game, fixed hands, the board so far and dead cards; every deal walked."""

    def __init__(self, game: str, hands, board="", dead=""):
        self.game = game
        self.rules = _rules(game)
        self.stud = self.rules.hole is None
        self.hands = [naive.parse_cards(h) for h in hands]
        self.board = naive.parse_cards(board)
        self.dead = naive.parse_cards(dead)
        known = [c for h in self.hands for c in h] + self.board + self.dead
        assert len(set(known)) == len(known), "a card twice"
        if self.stud:
            assert not self.board and len({len(h) for h in self.hands}) == 1
        else:
            assert all(len(h) == self.rules.hole for h in self.hands)
        self.unseen = [c for c in naive.DECK if c not in known]
        self._deals = None
        self.cache: dict = {}

    def deals(self) -> list["Deal"]:
        """Every ordered completion, equally likely."""
        if self._deals is None:
            self._deals = [Deal(self, hands, board) for hands, board in self._completions()]
        return self._deals

    def _completions(self):
        if not self.stud:
            missing = 5 - len(self.board)
            count = 1
            for i in range(missing):
                count *= len(self.unseen) - i
            assert count <= MOST_DEALS, f"{count} run-outs: too many for the oracle"
            for extra in permutations(self.unseen, missing):
                yield self.hands, self.board + list(extra)
            return
        missing = 7 - len(self.hands[0])
        assert missing * len(self.hands) <= len(self.unseen)

        def deal(player, remaining, dealt):
            if player == len(self.hands):
                yield [h + d for h, d in zip(self.hands, dealt)], []
                return
            for mine in permutations(remaining, missing):
                rest = [c for c in remaining if c not in mine]
                yield from deal(player + 1, rest, dealt + [list(mine)])
        yield from deal(0, self.unseen, [])

    # selectors -------------------------------------------------------------------------
    def _accepted(self, where):
        deals = self.deals()
        return deals if where is None else [d for d in deals if where(d)]

    def avg(self, f, where=None) -> Fraction:
        deals = self._accepted(where)
        return sum((Fraction(f(d)) for d in deals), Fraction(0)) / len(deals)

    def count(self, f, where=None) -> Fraction:
        deals = self._accepted(where)
        return Fraction(sum(1 for d in deals if f(d)), len(deals))

    def histogram(self, f, where=None) -> dict:
        deals = self._accepted(where)
        counts = Counter(f(d) for d in deals)
        return {k: Fraction(v, len(deals)) for k, v in counts.items()}

    def max(self, f, where=None):
        return max(Fraction(f(d)) for d in self._accepted(where))

    def min(self, f, where=None):
        return min(Fraction(f(d)) for d in self._accepted(where))

    def acceptance(self, where) -> Fraction:
        return Fraction(len(self._accepted(where)), len(self.deals()))


class Deal:
    """One complete deal: every player's cards (stud: seven, in deal order) and the five
    board cards in deal order; PQL's functions as methods."""

    def __init__(self, spot: Spot, hands, board):
        self.spot, self.hands, self.board = spot, hands, board
        self.game, self.rules = spot.game, spot.rules

    # cards on a street --------------------------------------------------------------
    def k(self, street: str) -> int:
        return street_count(self.game, street)

    def board_on(self, street: str) -> list[int]:
        assert not self.spot.stud
        return self.board[:self.k(street)]

    def hole_on(self, p: int, street: str) -> list[int]:
        return self.hands[p][:self.k(street)] if self.spot.stud else self.hands[p]

    def _hi(self, p: int, street: str) -> tuple:
        if self.spot.stud:
            return high_key(False, frozenset(self.hole_on(p, street)), frozenset())
        return high_key(self.rules.omaha, frozenset(self.hands[p]), frozenset(self.board_on(street)))

    def _lo(self, p: int, street: str):
        if self.spot.stud:
            return low_key(self.rules.pot, False, frozenset(self.hole_on(p, street)), frozenset())
        return low_key(self.rules.pot, self.rules.omaha, frozenset(self.hands[p]),
                       frozenset(self.board_on(street)))

    # showdown at the river ----------------------------------------------------------------
    def shares(self) -> list[Fraction]:
        return river_shares(self.game, self.hands, self.board)

    def river_equity(self, p: int) -> Fraction:
        return self.shares()[p]

    fractional_river_equity = river_equity

    def _river_winners(self, low: bool) -> list[int]:
        last = "seventh" if self.spot.stud else "river"
        if low:
            return _best([self._lo(q, last) for q in range(len(self.hands))], min)
        return _best([self._hi(q, last) for q in range(len(self.hands))], max)

    def wins_hi(self, p: int) -> bool:
        return self._river_winners(False) == [p]

    def ties_hi(self, p: int) -> bool:
        w = self._river_winners(False)
        return p in w and len(w) > 1

    def wins_lo(self, p: int) -> bool:
        return self._river_winners(True) == [p]

    def ties_lo(self, p: int) -> bool:
        w = self._river_winners(True)
        return p in w and len(w) > 1

    def scoops(self, p: int) -> bool:
        return self.shares()[p] == 1

    def winning_hand_type(self) -> str:
        last = "seventh" if self.spot.stud else "river"
        return HAND_TYPES[max(self._hi(q, last) for q in range(len(self.hands)))[0]]

    # hands on a street -----------------------------------------------------------------------
    def hand_type(self, p: int, street: str) -> str:
        return HAND_TYPES[self._hi(p, street)[0]]

    def exact_hand_type(self, p: int, street: str, t: str) -> bool:
        return self.hand_type(p, street) == t

    def min_hand_type(self, p: int, street: str, t: str) -> bool:
        return HAND_TYPES.index(self.hand_type(p, street)) >= HAND_TYPES.index(t)

    def hi_rating(self, p: int, street: str) -> tuple:
        return self._hi(p, street)

    def min_hi_rating(self, p: int, street: str, text: str) -> bool:
        return self._hi(p, street) >= rate_hi(text)

    def lo_rating(self, p: int, street: str):
        return self._lo(p, street)

    def made_lo(self, p: int, street: str) -> bool:
        return self._lo(p, street) is not None

    def min_lo_rating(self, p: int, street: str, text: str) -> bool:
        mine = self._lo(p, street)
        return mine is not None and mine <= rate_lo(self.game, text)

    def best_hi_rating(self, p: int, street: str) -> bool:
        return self._hi(p, street) >= max(self._hi(q, street) for q in range(len(self.hands)))

    def best_lo_rating(self, p: int, street: str) -> bool:
        mine = self._lo(p, street)
        others = [self._lo(q, street) for q in range(len(self.hands))]
        return mine is not None and all(o is None or mine <= o for o in others)

    # equity on a street ---------------------------------------------------------------------
    def equity(self, p: int, street: str) -> Fraction:
        """HvH: p's expected share given every hand and the board (stud: every player's
        cards) up to ``street``, over every completion of the rest from the unseen cards."""
        k = self.k(street)
        if self.spot.stud:
            key = ("equity", tuple(tuple(h[:k]) for h in self.hands))
        else:
            key = ("equity", tuple(sorted(self.board[:k])))
        hit = self.spot.cache.get(key)
        if hit is None:
            hit = self._walk_equity(k)
            self.spot.cache[key] = hit
        return hit[p]

    def _walk_equity(self, k: int) -> list[Fraction]:
        n = len(self.hands)
        totals, count = [Fraction(0)] * n, 0
        if self.spot.stud:
            prefix = [h[:k] for h in self.hands]
            used = {c for h in prefix for c in h} | set(self.spot.dead)
            unseen = [c for c in naive.DECK if c not in used]
            completions = _stud_completions(prefix, unseen, 7 - k)
            for hands in completions:
                shares = river_shares(self.game, hands, [])
                totals = [t + s for t, s in zip(totals, shares)]
                count += 1
        else:
            board = self.board[:k]
            used = {c for h in self.hands for c in h} | set(board) | set(self.spot.dead)
            unseen = [c for c in naive.DECK if c not in used]
            for extra in combinations(unseen, 5 - k):
                shares = river_shares(self.game, self.hands, board + list(extra))
                totals = [t + s for t, s in zip(totals, shares)]
                count += 1
        return [t / count for t in totals]

    # the nuts and outs (board games) ------------------------------------------------------
    def _unseen_by(self, p: int, board) -> list[int]:
        used = set(self.hands[p]) | set(board) | set(self.spot.dead)
        return [c for c in naive.DECK if c not in used]

    def _nut_value(self, p: int, board, low: bool):
        """The best high (low) any holding of cards unseen by p makes on ``board``: pairs
        suffice (a better Omaha hand uses exactly two hole cards; a hold'em holding is two)."""
        key = ("nut", low, p, tuple(sorted(board)), tuple(sorted(self.hands[p])))
        hit = self.spot.cache.get(key, ())
        if hit != ():
            return hit
        b = frozenset(board)
        values = []
        for pair in combinations(self._unseen_by(p, board), 2):
            if low:
                values.append(low_key("hilo", self.rules.omaha, frozenset(pair), b))
            else:
                values.append(high_key(self.rules.omaha, frozenset(pair), b))
        present = [v for v in values if v is not None]
        hit = (min(present) if present else None) if low else max(present)
        self.spot.cache[key] = hit
        return hit

    def _is_nut(self, p: int, board, low: bool) -> bool:
        b = frozenset(board)
        if low:
            mine = low_key("hilo", self.rules.omaha, frozenset(self.hands[p]), b)
            best = self._nut_value(p, board, True)
            return mine is not None and (best is None or mine <= best)
        mine = high_key(self.rules.omaha, frozenset(self.hands[p]), b)
        return mine >= self._nut_value(p, board, False)

    def nut_hi(self, p: int, street: str) -> bool:
        return self._is_nut(p, self.board_on(street), False)

    def nut_lo(self, p: int, street: str) -> bool:
        return self._is_nut(p, self.board_on(street), True)

    def _outs(self, p: int, street: str, test) -> int:
        board = self.board_on(street)
        key = ("outs", test.__name__, p, tuple(sorted(board)), tuple(sorted(self.hands[p])))
        hit = self.spot.cache.get(key)
        if hit is None:
            hit = sum(1 for c in self._unseen_by(p, board) if test(board + [c]))
            self.spot.cache[key] = hit
        return hit

    def nut_hi_outs(self, p: int, street: str) -> int:
        def nut_hi(board):
            return self._is_nut(p, board, False)
        return self._outs(p, street, nut_hi)

    def nut_lo_outs(self, p: int, street: str) -> int:
        def nut_lo(board):
            return self._is_nut(p, board, True)
        return self._outs(p, street, nut_lo)

    def outs_to_hand_type(self, p: int, street: str, t: str) -> int:
        least = HAND_TYPES.index(t)

        def to_type(board):
            key = high_key(self.rules.omaha, frozenset(self.hands[p]), frozenset(board))
            return key[0] >= least
        to_type.__name__ = f"type{least}"
        return self._outs(p, street, to_type)

    def stud_outs_to_hand_type(self, p: int, street: str, t: str) -> int:
        """Stud: cards unseen by p (not p's cards so far, not another player's up cards so
        far, not dead) that, as p's next card, give p at least hand type ``t``."""
        k, least = self.k(street), HAND_TYPES.index(t)
        assert self.spot.stud and k < 7
        seen = set(self.hands[p][:k]) | set(self.spot.dead)
        for q, cards in enumerate(self.hands):
            if q != p:
                seen |= set(cards[2:min(k, 6)])  # third to sixth street are dealt face up
        mine = frozenset(self.hands[p][:k])
        return sum(1 for c in naive.DECK if c not in seen
                   and high_key(False, mine | {c}, frozenset())[0] >= least)

    def min_outs_to_hand_type(self, p: int, street: str, t: str, n: int) -> bool:
        return self.outs_to_hand_type(p, street, t) >= n

    # the board on a street --------------------------------------------------------------------
    def _suits(self, street: str) -> Counter:
        return Counter(naive.suit_of(c) for c in self.board_on(street))

    def flushing_board(self, street: str) -> bool:
        return max(self._suits(street).values(), default=0) >= 3

    def monotone_board(self, street: str) -> bool:
        return len(self._suits(street)) == 1

    def two_tone_board(self, street: str) -> bool:
        return len(self._suits(street)) == 2

    def rainbow_board(self, street: str) -> bool:
        return max(self._suits(street).values(), default=0) <= 1

    def board_suit_count(self, street: str) -> int:
        return len(self._suits(street))

    def paired_board(self, street: str) -> bool:
        ranks = Counter(naive.rank_of(c) for c in self.board_on(street))
        return max(ranks.values(), default=0) >= 2

    def straight_board(self, street: str) -> bool:
        """Three or more distinct board ranks inside one straight's five ranks (A-5 .. T-A)."""
        ranks = {naive.rank_of(c) for c in self.board_on(street)}
        if 14 in ranks:
            ranks.add(1)
        return any(len(ranks & set(range(lo, lo + 5))) >= 3 for lo in range(1, 11))

    def board_lo_card_count(self, street: str) -> int:
        return len({naive.low_rank(c) for c in self.board_on(street) if naive.low_rank(c) <= 8})

    def board_allows_made_lo(self, street: str) -> bool:
        return self.board_lo_card_count(street) >= 3

    def turn_card(self) -> str:
        return naive.card_str(self.board[3])

    def river_card(self) -> str:
        return naive.card_str(self.board[4])

    def up_card(self, p: int, street: str) -> str:
        return naive.card_str(self.hands[p][self.k(street) - 1])


def _stud_completions(prefix, unseen, missing):
    """Every way to give each stud player ``missing`` more cards (unordered per player)."""
    def deal(player, remaining, dealt):
        if player == len(prefix):
            yield [h + d for h, d in zip(prefix, dealt)]
            return
        for mine in combinations(remaining, missing):
            rest = [c for c in remaining if c not in mine]
            yield from deal(player + 1, rest, dealt + [list(mine)])
    return deal(0, unseen, [])
