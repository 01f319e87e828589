"""The range language (pokereval.ranges): counts, semantics, errors.

Counts in the fixture table are worked out by combinatorics (explained per
line); small patterns are cross-checked against a plain-Python matcher
written here from the definition in docs/RANGES.md (every permutation of the
holding's cards against the pattern's elements).
"""
from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from math import comb

import numpy as np
import pytest

from pokereval.errors import PokerEvalError
from pokereval.ranges import (Range, RangeError, holdings_excluding, is_exact_hand,
                              parse_range)

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def holding_set(rng: Range) -> set[tuple[int, ...]]:
    return {tuple(int(c) for c in row) for row in rng.holdings}


def key_of(h) -> int:
    return sum(1 << int(c) for c in h)


def keys_of(rng: Range) -> np.ndarray:
    """Sorted uint64 card masks of the range's holdings (fast membership tests)."""
    return np.sort(rng.masks())


def member(keys: np.ndarray, h) -> bool:
    k = np.uint64(key_of(h))
    i = np.searchsorted(keys, k)
    return bool(i < len(keys) and keys[i] == k)


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(4 * RANKS.index(text[i]) + SUITS.index(text[i + 1])
                        for i in range(0, len(text), 2)))


# --------------------------------------------------------------------------- fixture table

FIXTURES = [
    # --- omaha (4 cards)
    ("omaha", "****", comb(52, 4)),                        # 270,725
    ("omaha", "AA**", comb(52, 4) - comb(48, 4) - 4 * comb(48, 3)),  # >= 2 aces: 6,961
    ("omaha", "AxAy**", 6961),                              # two aces always differ in suit
    ("omaha-hilo", "AA**", 6961),
    ("omaha", "AAA*", 4 * 48 + 1),                          # three aces + a non-ace, or quads
    ("omaha", "AA**!AAA*", 6 * comb(48, 2)),                # exactly two aces: 6,768
    ("omaha", "AAR*", 6 * comb(48, 2) + 4 * 48),            # >= 2 aces and a non-ace: 6,960
    ("omaha", "$ds", 6 * comb(13, 2) ** 2),                 # 2 suits x 2 ranks each: 36,504
    ("omaha", "xxyy", 36504),                               # the same set, by suit variables
    ("omaha", "$ss", 4 * 78 * 3 * 13 * 13),                 # pair suit, 2 of 3 others: 158,184
    ("omaha", "$rb", 13 ** 4),                               # one card per suit: 28,561
    ("omaha", "$np", comb(13, 4) * 4 ** 4),                 # 4 ranks, any suits: 183,040
    ("omaha", "RR**", comb(52, 4) - comb(13, 4) * 256),     # some pair: 87,685
    ("omaha", "RROO", comb(13, 2) * 6 * 6),                 # two pair: 2,808
    ("omaha", "RRON", 13 * 6 * comb(12, 2) * 16),           # exactly one pair: 82,368
    ("omaha", "RxRyOxOy", comb(13, 2) * 6),                 # double-suited two pair: 468
    ("omaha", "AA**:$ds", 6 * 12 * 12),                     # aces s1,s2 + a non-ace of each: 864
    ("omaha", "A***!AA**:$ds", 4 * 3 * 12 * comb(12, 2)),   # one ace, shape (2,2): 9,504
    ("omaha", "AhKd2c3s", 1),
    ("omaha", "Ah Kd, 2c 3s", 1),                           # a plain hand: commas allowed
    ("omaha", "AhKd**", comb(50, 2)),                       # 1,225
    # a suited AK in one of 4 suits + any 2 of 50; AsKsAhKh-like hands counted twice (6)
    ("omaha", "AxKx**", 4 * comb(50, 2) - 6),               # 4,894
    ("omaha", "[T-7]***", comb(52, 4) - comb(36, 4)),       # some T,9,8,7: 212,820
    ("omaha", "[AKQ][AKQ]**", comb(52, 4) - comb(40, 4) - 12 * comb(40, 3)),  # >= 2 of 12 cards
    ("omaha", "hhhh", comb(13, 4)),                         # four hearts: 715
    ("omaha", "AA**@3, KK**", 2 * 6961 - 36),               # the 36 AAKK hands counted once
    # --- 5-card omaha
    ("omaha5", "*****", comb(52, 5)),                       # 2,598,960
    ("omaha5", "$ds", 12 * 78 ** 2 * 13),                   # shape (2,2,1): 949,104
    ("omaha5", "$ss", 4 * 78 * 13 ** 3),                    # shape (2,1,1,1): 685,464
    ("omaha5", "$np", comb(13, 5) * 4 ** 5),                # 1,317,888
    ("omaha5", "RxRy***", comb(52, 5) - comb(13, 5) * 4 ** 5),  # some pair: 1,281,072
    ("omaha5", "AA***", comb(52, 5) - comb(48, 5) - 4 * comb(48, 4)),  # 108,336
    ("courchevel-hilo", "AhAd***", comb(50, 3)),
    # --- hold'em
    ("holdem", "AKs", 4), ("holdem", "AKo", 12), ("holdem", "AK", 16), ("holdem", "KA", 16),
    ("holdem", "AA", 6), ("holdem", "22+", 13 * 6), ("holdem", "A2s+", 12 * 4),
    ("holdem", "KTs+", 3 * 4), ("holdem", "JTs-76s", 5 * 4), ("holdem", "76s-JTs", 5 * 4),
    ("holdem", "AKs-76s", 8 * 4), ("holdem", "TT-77", 4 * 6), ("holdem", "AJo+", 3 * 12),
    ("holdem", "A5s-A2s", 4 * 4),
    ("holdem", "QJ+", 16),                                  # kicker from J to K-1: QJ only
    ("holdem", "**", 1326), ("holdem", "AxKx", 4), ("holdem", "AxKy", 12), ("holdem", "$ss", 312),
    ("holdem", "22+, A2s+, KTs+", 78 + 48 + 12), ("holdem", "AhKh", 1), ("holdem", "RR", 78),
    # --- stud: the number of cards is the street
    ("stud", "**7s", comb(51, 2)),                          # third street: 1,275
    ("stud", "AhKdQc", 1),
    ("stud", "AhKdQc, JhTs9c", 2),                          # two third-street hands
    ("stud", "**7s8d9cTh", comb(48, 2)),                    # sixth street: 1,128
    ("stud-hilo", "[A-8][A-8][A-8]", comb(28, 3)),          # A-8 = A,K,Q,J,T,9,8 (aces high)
    ("stud-hilo", "[8-2A][8-2A][8-2A]", comb(32, 3)),       # the eight low ranks
    ("razz", "RON", comb(13, 3) * 64),                      # three ranks: 18,304
]


@pytest.mark.parametrize("game,text,count", FIXTURES)
def test_fixture_counts(game, text, count):
    rng = parse_range(game, text)
    assert len(rng) == count
    h = rng.holdings
    assert h.dtype == np.uint8 and h.ndim == 2 and rng.weights.shape == (len(h),)
    assert rng.weights.dtype == np.float64 and (rng.weights > 0).all()
    assert (h[:, 1:] > h[:, :-1]).all() and (h < 52).all()  # rows sorted, cards distinct
    keys = keys_of(rng)
    assert (keys[1:] != keys[:-1]).all()  # rows unique
    assert not h.flags.writeable and not rng.weights.flags.writeable


def test_stud_street_and_board_game_sizes():
    assert parse_range("stud", "**7s").holdings.shape[1] == 3
    assert all(23 in row for row in parse_range("stud", "**7s").holdings)  # 7s = 4*5+3
    assert parse_range("stud", "**7s8d9c").cards == 5
    assert parse_range("stud", "**7s8d9cTh*").cards == 7
    assert parse_range("omaha5", "AA***").cards == 5
    assert parse_range("holdem", "AK").cards == 2


# --------------------------------------------------------------------------- brute-force oracle

def oracle_match(elements, holding, orders=None) -> bool:
    """elements: (rank_kind, rank_value, suit_kind, suit_value) with kinds
    'any' | 'rank' (int) | 'set' (set of ints) | 'var' (letter) for ranks and
    'any' | 'suit' (int) | 'var' (letter) for suits.  A straight transcription of
    docs/RANGES.md: some permutation of the cards fits every element; equal
    variable letters take equal values, different letters different values,
    and no variable takes a rank / suit written explicitly in the pattern.
    ``orders``: the card orders tried (default every permutation of the holding)."""
    written_ranks = {v for k, v, _, _ in elements if k == "rank"}
    written_suits = {v for _, _, k, v in elements if k == "suit"}
    for perm in itertools.permutations(holding) if orders is None else orders:
        rvars, svars, ok = {}, {}, True
        for (rk, rv, sk, sv), card in zip(elements, perm):
            r, s = card // 4, card % 4
            if rk == "rank" and r != rv or rk == "set" and r not in rv:
                ok = False
            elif rk == "var":
                if r in written_ranks:
                    ok = False
                elif rv in rvars:
                    ok = rvars[rv] == r
                elif r in rvars.values():
                    ok = False
                else:
                    rvars[rv] = r
            if ok and sk == "suit" and s != sv:
                ok = False
            elif ok and sk == "var":
                if s in written_suits:
                    ok = False
                elif sv in svars:
                    ok = svars[sv] == s
                elif s in svars.values():
                    ok = False
                else:
                    svars[sv] = s
            if not ok:
                break
        if ok:
            return True
    return False


def render(elements) -> str:
    out = []
    for rk, rv, sk, sv in elements:
        if rk == "any":
            text = "*"  # '*h': a lone heart (spaces no longer separate cards)
        elif rk == "rank":
            text = RANKS[rv]
        elif rk == "set":
            text = "[" + "".join(RANKS[r] for r in sorted(rv)) + "]"
        else:
            text = rv
        text += {"any": "", "suit": SUITS[sv] if sk == "suit" else "", "var": sv}[sk] \
            if sk != "any" else ""
        out.append(text)
    return " ".join(out)  # whitespace is ignored: 'A h' reads as 'Ah'; '*h' is a lone heart


def random_element(rnd: random.Random):
    rk = rnd.choice(["any", "any", "rank", "rank", "set", "var"])
    rv = {"any": None, "rank": rnd.randrange(13), "var": rnd.choice("RON"),
          "set": set(rnd.sample(range(13), rnd.randint(1, 4)))}[rk]
    sk = rnd.choice(["any", "any", "suit", "var", "var"])
    sv = {"any": None, "suit": rnd.randrange(4), "var": rnd.choice("xyz")}[sk]
    return rk, rv, sk, sv


def all_holdings(n):
    return itertools.combinations(range(52), n)


@pytest.mark.parametrize("seed", range(40))
def test_random_holdem_patterns_match_brute_force(seed):
    rnd = random.Random(seed)
    elements = [random_element(rnd) for _ in range(2)]
    text = render(elements)
    expected = {h for h in all_holdings(2) if oracle_match(elements, h)}
    _check(parse_range_or_empty("holdem", text), expected, text)


@pytest.mark.parametrize("seed", range(8))
def test_random_stud_third_street_patterns_match_brute_force(seed):
    rnd = random.Random(1000 + seed)
    elements = [random_element(rnd) for _ in range(3)]
    text = render(elements)
    expected = {h for h in all_holdings(3) if oracle_match(elements, h)}
    _check(parse_range_or_empty("stud", text), expected, text)


@pytest.mark.parametrize("seed", range(12))
def test_random_stud_patterns_follow_the_deal_order(seed):
    """Stud: a holding's orders are its deals (two down cards either way round,
    then the door card) that fit the elements in that order."""
    rnd = random.Random(3000 + seed)
    elements = [random_element(rnd) for _ in range(3)]
    text = render(elements)
    expected = {}
    for a, b in itertools.combinations(range(52), 2):
        for door in range(52):
            if door not in (a, b) and oracle_match(elements, None, [(a, b, door), (b, a, door)]):
                key = tuple(sorted((a, b, door)))
                expected[key] = expected.get(key, 0) + 1
    rng = parse_range_or_empty("stud", text)
    got = {} if rng is None else {tuple(map(int, h)): int(o) for h, o in zip(rng.holdings, rng.orders)}
    assert got == expected, text
    if rng is not None:
        assert np.array_equal(rng.weights, rng.orders)


@pytest.mark.parametrize("seed", range(8))
def test_random_stud_combinations_act_on_deals(seed):
    """'a:b', 'a!b' and 'a, b@2' in stud: each deal is tested against both patterns."""
    rnd = random.Random(4000 + seed)
    a, b = ([random_element(rnd) for _ in range(3)] for _ in range(2))
    fits = {}
    for x, y in itertools.combinations(range(52), 2):
        for door in range(52):
            if door not in (x, y):
                tried = [(x, y, door), (y, x, door)]
                fits[(x, y, door)] = (oracle_match(a, None, tried), oracle_match(b, None, tried))
    for text, weigh in [(f"{render(a)}:{render(b)}", lambda p, q: float(p and q)),
                        (f"{render(a)}!{render(b)}", lambda p, q: float(p and not q)),
                        (f"{render(a)}, {render(b)}@2", lambda p, q: 2.0 if q else float(p))]:
        orders, weights = {}, {}
        for deal, (p, q) in fits.items():
            w = weigh(p, q)
            if w:
                key = tuple(sorted(deal))
                orders[key] = orders.get(key, 0) + 1
                weights[key] = weights.get(key, 0.0) + w
        rng = parse_range_or_empty("stud", text)
        held = [] if rng is None else [tuple(map(int, h)) for h in rng.holdings]
        assert dict(zip(held, [] if rng is None else rng.orders.tolist())) == orders, text
        assert dict(zip(held, [] if rng is None else rng.weights.tolist())) == weights, text


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("game,size", [("omaha", 4), ("omaha5", 5)])
def test_random_omaha_patterns_on_sampled_holdings(seed, game, size):
    """Omaha: the oracle checks every holding of the range (up to 400 drawn) and
    400 random holdings of the deck."""
    rnd = random.Random(2000 + seed + 100 * size)
    elements = [random_element(rnd) for _ in range(size)]
    text = render(elements)
    rng = parse_range_or_empty(game, text)
    held = np.zeros((0, size), np.uint8) if rng is None else rng.holdings
    keys = np.zeros(0, np.uint64) if rng is None else keys_of(rng)
    for i in rnd.sample(range(len(held)), min(300, len(held))):
        assert oracle_match(elements, tuple(held[i])), (text, held[i])
    for _ in range(300):
        h = tuple(sorted(rnd.sample(range(52), size)))
        assert oracle_match(elements, h) == member(keys, h), (text, h)


def parse_range_or_empty(game, text):
    try:
        return parse_range(game, text)
    except RangeError as e:
        assert "matches no holding" in str(e), str(e)
        return None


def _check(rng, expected, text):
    got = set() if rng is None else holding_set(rng)
    assert got == expected, text


@pytest.mark.parametrize("text", ["RxRy", "AxKx", "AsKx", "Rh*", "hx", "[AK]x[QJ]x", "RO", "xy"])
def test_chosen_holdem_patterns_match_brute_force(text):
    table = {  # hand-translated element lists for these texts
        "RxRy": [("var", "R", "var", "x"), ("var", "R", "var", "y")],
        "AxKx": [("rank", 12, "var", "x"), ("rank", 11, "var", "x")],
        "AsKx": [("rank", 12, "suit", 3), ("rank", 11, "var", "x")],   # x is not spades
        "Rh*": [("var", "R", "suit", 2), ("any", None, "any", None)],
        "hx": [("any", None, "suit", 2), ("any", None, "var", "x")],     # a heart + a non-heart
        "[AK]x[QJ]x": [("set", {12, 11}, "var", "x"), ("set", {10, 9}, "var", "x")],
        "RO": [("var", "R", "any", None), ("var", "O", "any", None)],   # no pair
        "xy": [("any", None, "var", "x"), ("any", None, "var", "y")],   # offsuit
    }
    parsed = table[text]
    expected = {h for h in all_holdings(2) if oracle_match(parsed, h)}
    _check(parse_range("holdem", text), expected, text)


def test_variables_do_not_take_written_ranks_or_suits():
    # AARR: aces and another pair, never four aces
    assert len(parse_range("omaha", "AARR")) == 6 * 12 * 6
    # ssxx: two spades and two cards of one other suit
    assert len(parse_range("omaha", "ssxx")) == comb(13, 2) * 3 * comb(13, 2)


# --------------------------------------------------------------------------- macros by brute force

def suit_counts(h):
    return sorted(Counter(c % 4 for c in h).values(), reverse=True)


MACRO_DEFINITIONS = {
    "$ds": lambda h: sorted(suit_counts(h)) in ([2, 2], [1, 2, 2], [1, 1, 2, 2]) and
    suit_counts(h).count(2) == 2 and max(suit_counts(h)) == 2,
    "$ss": lambda h: suit_counts(h).count(2) == 1 and max(suit_counts(h)) == 2,
    "$rb": lambda h: max(suit_counts(h)) == 1,
    "$np": lambda h: len({c // 4 for c in h}) == len(h),
}


@pytest.mark.parametrize("macro", sorted(MACRO_DEFINITIONS))
@pytest.mark.parametrize("game,size", [("holdem", 2), ("stud", 3)])
def test_macros_by_brute_force_small(macro, game, size):
    expected = {h for h in all_holdings(size) if MACRO_DEFINITIONS[macro](h)}
    pattern = "*" * size + ":" + macro
    _check(parse_range_or_empty(game, pattern), expected, pattern)


@pytest.mark.parametrize("macro", sorted(MACRO_DEFINITIONS))
@pytest.mark.parametrize("game,size", [("omaha", 4), ("omaha5", 5)])
def test_macros_by_brute_force_sampled(macro, game, size):
    rng = parse_range_or_empty(game, macro)
    keys = np.zeros(0, np.uint64) if rng is None else keys_of(rng)
    rnd = random.Random(size)
    for h in itertools.islice(itertools.combinations(range(0, 52, 3), size), 1000):
        assert MACRO_DEFINITIONS[macro](h) == member(keys, h), (macro, h)
    for _ in range(1000):
        h = tuple(sorted(rnd.sample(range(52), size)))
        assert MACRO_DEFINITIONS[macro](h) == member(keys, h), (macro, h)


def test_macro_counts_four_and_five_cards_add_up():
    # 4 cards: shapes (2,2) ds, (2,1,1) ss, (1,1,1,1) r, (3,1) and (4) in none
    shapes4 = 13 ** 4 + 158184 + 36504 + 4 * comb(13, 3) * 3 * 13 + 4 * comb(13, 4)
    assert shapes4 == comb(52, 4)
    # 5 cards: $rb is empty, (3,2) (3,1,1) (4,1) (5) are in none of the macros
    with pytest.raises(RangeError, match="matches no holding"):
        parse_range("omaha5", "$rb")


# --------------------------------------------------------------------------- operators and weights

def S(game, text):
    """The range as a set of card masks."""
    return set(parse_range(game, text).masks().tolist())


def test_intersection_exclusion_union():
    g = "omaha"
    assert S(g, "A***!AA**") == S(g, "A***") - S(g, "AA**")
    assert S(g, "AA**:$ds") == S(g, "AA**") & S(g, "$ds")
    assert S(g, "$ds:AA**") == S(g, "AA**:$ds")
    assert S(g, "AA**,KK**") == S(g, "AA**") | S(g, "KK**")
    # ':' and '!' share a level, left to right; ',' is lowest
    assert S(g, "A***!AA**:$ds") == (S(g, "A***") - S(g, "AA**")) & S(g, "$ds")
    assert S(g, "A***:$ds!AA**") == S(g, "A***!AA**:$ds")
    assert S(g, "KK**, A***!AA**") == S(g, "KK**") | (S(g, "A***") - S(g, "AA**"))
    assert S(g, " AA** : $ds ,  KK**!KKK* ") == (S(g, "AA**") & S(g, "$ds")) | (
        S(g, "KK**") - S(g, "KKK*"))
    assert S("holdem", "22+!AA") == S("holdem", "22+") - S("holdem", "AA")
    assert S("holdem", "AKs") == S("holdem", "AxKx")
    assert S("holdem", "AKo") == S("holdem", "AxKy")
    assert S("holdem", "TT-77") == S("holdem", "TT,99,88,77")


def test_each_holding_counted_once():
    # AA** matches AAAA in six ways; it is one holding
    assert len(parse_range("omaha", "AAAA")) == 1
    assert len(parse_range("omaha", "AA**")) == 6961


def test_weights_take_the_largest_alternative():
    rng = parse_range("omaha", "AA**@100, A2**@40, KK**")
    weight = dict(zip(rng.masks().tolist(), rng.weights.tolist()))
    aa2 = key_of(cards("AhAd2c3s"))
    a2 = key_of(cards("Ah2d3c4s"))
    kk = key_of(cards("KhKd2c3s"))
    aakk = key_of(cards("AhAdKcKs"))
    assert weight[aa2] == 100 and weight[a2] == 40 and weight[kk] == 1 and weight[aakk] == 100
    assert set(weight) == S("omaha", "AA**") | S("omaha", "A2**") | S("omaha", "KK**")
    # order does not matter
    other = parse_range("omaha", "KK**, A2**@40, AA**@100")
    w2 = dict(zip(other.masks().tolist(), other.weights.tolist()))
    assert w2 == weight
    assert set(parse_range("omaha", "AA**:$ds@2.5").weights) == {2.5}
    assert set(parse_range("holdem", "AKs").weights) == {1.0}


# --------------------------------------------------------------------------- exact hands, dead cards

def test_is_exact_hand():
    assert is_exact_hand("omaha", "AhAd2c3s")
    assert is_exact_hand("omaha-hilo", "ah ad, 2c 3s")
    assert is_exact_hand("holdem", "AhKd")
    assert not is_exact_hand("omaha", "AA**")
    assert not is_exact_hand("omaha", "AhAd2c")           # wrong count
    assert not is_exact_hand("omaha", "AhAh2c3s")         # duplicate card
    assert not is_exact_hand("holdem", "AKs")
    assert is_exact_hand("stud", "AhKdQc") and is_exact_hand("stud", "AhKdQcJhTs9c8c")
    assert not is_exact_hand("stud", "AhKd")              # below third street
    assert is_exact_hand("stud", "AhKd, Qc")              # commas inside one hand
    assert not is_exact_hand("stud", "AhKdQc, JhTs9c")    # two streets: a range
    r = parse_range("omaha", "AhAd2c3s")
    assert r.holdings.tolist() == [sorted([50, 49, 0, 7])] and r.weights.tolist() == [1.0]


def test_holdings_excluding():
    rng = parse_range("omaha", "AA**")
    dead = "Ah 7c"
    kept = holdings_excluding(rng, dead)
    expected = {h for h in holding_set(rng) if 50 not in h and 20 not in h}
    assert holding_set(kept) == expected
    assert len(holdings_excluding(rng, [50, 20])) == len(expected)
    assert holdings_excluding(rng, "") is rng
    assert kept.text == rng.text and kept.game == rng.game
    w = holdings_excluding(parse_range("holdem", "AA@3, KK"), "Ah")
    assert sorted(set(w.weights)) == [1.0, 3.0] and len(w) == 3 + 6
    with pytest.raises(RangeError, match="no holding"):
        holdings_excluding(parse_range("holdem", "AhKh"), "Kh")
    with pytest.raises(PokerEvalError):
        holdings_excluding(rng, "Zz")


# --------------------------------------------------------------------------- errors

ERRORS = [
    ("omaha", "AA*%", "unknown symbol '%' at position 4"),
    ("omaha", "AA***", "pattern 'AA***' has 5 cards but omaha hands have 4 at position 1"),
    ("omaha", "AA**,KK***", "pattern 'KK***' has 5 cards but omaha hands have 4 at position 6"),
    ("omaha", "AA**:$xx", "unknown macro '$xx' (known: $ds, $ss, $rb, $o, $s, $np, $op"),
    ("omaha", "AA**:$xx", "at position 6"),
    ("omaha", "AA**$dsA", "unexpected 'A' (expected ':', '!', '@', ',' or the end) at position 8"),
    ("omaha", "AA**@", "expected a weight (a positive number) after '@' at position 6"),
    ("omaha", "AA**@0", "a weight must be positive at position 6"),
    ("omaha", "AA**@2:$ds", "after a weight"),
    ("omaha", "[AK***", "'[' is never closed at position 1"),
    ("omaha", "[]***", "empty list '[]' at position 1"),
    ("omaha", "[AR]***", "variables cannot be listed in brackets (only ranks, suits and cards) at position 1"),
    ("omaha", "AA**:", "expected a hand pattern at the end at position 6"),
    ("omaha", ",AA**", "expected a hand pattern before ',' at position 1"),
    ("omaha", "AA**!!KK**", "expected a hand pattern before '!' at position 6"),
    ("omaha", "A#", "unknown symbol '#' at position 2"),
    ("omaha", "22+**", "unexpected '*' (expected ':', '!', '@', ',' or the end) at position 4"),
    ("omaha", "AA**]", "']' without '[' at position 5"),
    ("holdem", "AKs-75s", "cannot span 'AKs-75s'"),
    ("holdem", "AAs", "a pair cannot be suited or offsuit"),
    ("holdem", "AKs-QJo", "same suffix"),
    ("stud", "**", "a stud range needs a pattern that shows the street (3 to 7 cards"),
    ("stud", "AA, **7s*****", "pattern '**7s*****' has 8 cards; a stud hand shows 3 to 7 at position 5"),
    ("stud", "$ds", "a stud range needs a pattern"),
    ("stud", "RR*****", "too wide to list"),
    ("omaha", "", "empty range"),
    ("omaha", "AhAh**", "range 'AhAh**' matches no holding"),
    ("omaha", "AxAx**", "matches no holding"),
    ("omaha5", "*****:$rb", "matches no holding"),
    ("holdem", "AA!AA", "matches no holding"),
]


@pytest.mark.parametrize("game,text,message", ERRORS)
def test_errors(game, text, message):
    with pytest.raises(RangeError) as info:
        parse_range(game, text)
    error = info.value
    assert message in str(error)
    assert "\n" not in str(error)
    assert isinstance(error, PokerEvalError) and isinstance(error, ValueError)
    assert error.text == text
    if " at position " in message:
        assert error.position == int(message.split(" at position ")[1].split()[0])


def test_error_message_exact_form():
    with pytest.raises(RangeError) as info:
        parse_range("omaha", "AA*%")
    assert str(info.value).startswith("bad range 'AA*%': unknown symbol '%' at position 4")
    with pytest.raises(RangeError, match=r"^range 'AhAh\*\*' matches no holding$"):
        parse_range("omaha", "AhAh**")


def test_not_text():
    with pytest.raises(RangeError):
        parse_range("omaha", None)
    with pytest.raises(PokerEvalError):
        parse_range("omaha9", "AA**")


# --------------------------------------------------------------------------- speed

def test_wide_ranges_are_fast():
    """Vectorised matching: well under a second each (generous bounds for busy CI)."""
    for game, text in [("omaha", "****"), ("omaha", "AA**:$ds"), ("omaha5", "*****"),
                       ("omaha5", "RxRy***")]:
        start = time.perf_counter()
        parse_range(game, text)
        assert time.perf_counter() - start < 3.0, (game, text)


def test_recent_ranges_are_read_once_and_stay_read_only():
    a = parse_range("omaha-hilo", "AA**:$ds")
    assert parse_range("omaha-hilo", "AA**:$ds") is a  # the second question reuses the first read
    assert parse_range("omaha", "AA**:$ds") is not a  # keyed by game
    with pytest.raises(ValueError):
        a.holdings[0, 0] = 1
    for i in range(12):  # older entries give way
        parse_range("holdem", f"{'AKQJT98765432'[i]}{'AKQJT98765432'[i]}")
    assert parse_range("omaha-hilo", "AA**:$ds") is not a
    assert len(parse_range("omaha-hilo", "AA**:$ds")) == len(a)


@pytest.mark.parametrize("k, n", [(2, 30), (3, 200_000), (5, 400_000)])
def test_unique_rows_dense_and_sorted_agree(k, n):
    """unique_rows marks a dense table when the rows are many for the possible k-card sets
    (k=3, 5 here) and sorts masks otherwise (k=2 here): both give each set once, in mask
    order, whatever the repeats."""
    from pokereval.ranges.rows import row_masks, unique_rows
    rng = np.random.default_rng(k)
    rows = np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :k], axis=1).astype(np.uint8)
    rows = np.concatenate([rows, rows[: n // 3]])
    got = unique_rows(rows)
    masks = row_masks(rows)
    want = np.unique(masks)
    assert np.array_equal(row_masks(got), want)
    assert got.dtype == np.uint8 and np.all(np.diff(got.astype(int), axis=1) > 0)
