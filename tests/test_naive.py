"""Prove the oracle (tests/support/naive.py) before it judges pokereval.

Checked against the project's independently computed vectors (tests/data) and
against known combinatorial facts about poker hands.
"""
from collections import Counter
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb, perm, prod

import pytest

import naive
from naive import (
    FIELDS, best_high, best_low8, best_razz, cards_str, hand_high, hand_low8,
    hand_razz, high_key, low8_key, parse_cards, razz_key, reference_equity, runouts,
)

VECTORS = naive.load_jsonl("eval_vectors.jsonl")
SPOTS = naive.load_jsonl("spots.jsonl")
SMALL_SPOTS = [s for s in SPOTS if s["runouts"] <= 2000]


# -- cards ------------------------------------------------------------------

def test_card_indices():
    assert parse_cards("2c2dAs") == [0, 1, 51]
    assert parse_cards("ah, 10d Ks") == [50, 33, 47]
    assert cards_str([0, 1, 51, 33]) == "2c2dAsTd"
    assert cards_str(parse_cards("AhKdQcJsTh9d")) == "AhKdQcJsTh9d"
    with pytest.raises(ValueError):
        parse_cards("AhKx")
    with pytest.raises(ValueError):
        parse_cards("AhK")


# -- hand-picked high hands ---------------------------------------------------

@pytest.mark.parametrize("hand, key", [
    ("AhKhQhJhTh", (8, 14)),              # royal flush
    ("5d4d3d2dAd", (8, 5)),               # steel wheel
    ("AsAhAdAc2c", (7, 14, 2)),
    ("KhKdKs5c5d", (6, 13, 5)),
    ("5h5d5sKcKd", (6, 5, 13)),
    ("Ah9h7h4h2h", (5, 14, 9, 7, 4, 2)),
    ("Ah2d3c4s5h", (4, 5)),               # wheel
    ("Th9dJcQsKh", (4, 13)),
    ("AhKdQcJsTh", (4, 14)),
    ("KhAd2c3s4h", (0, 14, 13, 4, 3, 2)),  # no wrap-around straight
    ("7c7d7h2s9c", (3, 7, 9, 2)),
    ("9c9d4h4s2c", (2, 9, 4, 2)),
    ("2c2dAhKsQc", (1, 2, 14, 13, 12)),
    ("Ac9d7h4s2c", (0, 14, 9, 7, 4, 2)),
])
def test_high_key_examples(hand, key):
    assert high_key(parse_cards(hand)) == key


def test_high_key_order_examples():
    worst_to_best = ["7c5d4h3s2c", "AcKdQhJs9c", "2c2d3h4s5c", "AcAdKhKsQc", "2c2d2h3s4c",
                     "Ah2d3c4s5h", "6h2d3c4s5h", "AhKdQcJsTh", "2h3h4h5h7h", "2c2d2h3s3c",
                     "AcAdAhKsKc", "2c2d2h2s3c", "5d4d3d2dAd", "AhKhQhJhTh"]
    keys = [high_key(parse_cards(h)) for h in worst_to_best]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_best_high_uses_best_five():
    # seven cards holding a flush and a straight: the flush plays
    key, five = best_high(parse_cards("9h8h7h6d5c2hKh"))
    assert key == (5, 13, 9, 8, 7, 2) and len(five) == 5
    # Omaha: four hearts in the hole and a one-heart board make no flush
    key, _ = naive.omaha_high(parse_cards("AhKhQhJh"), parse_cards("Th9c2d3s4c"))
    assert key == (0, 14, 13, 10, 9, 4)
    # ... and exactly three board cards: a board straight needs two hole cards
    key, _ = naive.omaha_high(parse_cards("AcAd2h2s"), parse_cards("9hTcJdQsKh"))
    assert key == (1, 14, 13, 12, 11)


# -- all five-card hands, counted by rank multiset ---------------------------

def _offsuit(ranks):
    """Five cards of the given sorted ranks (0..12), never all of one suit.

    Suit = position mod 4: equal ranks sit side by side in a sorted tuple, so
    they get different suits, and positions 0..4 use suits 0, 1, 2, 3, 0.
    """
    return [4 * r + i % 4 for i, r in enumerate(ranks)]


def _rank_multisets():
    """The 6,175 multisets of five ranks with at most four of each rank (sorted)."""
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) <= 4:
            yield ranks


def _five_card_classes():
    """(key, number of five-card hands with that key) over all 2,598,960 hands.

    Walks the rank multisets instead of the hands: a multiset with counts n_r
    has prod C(4, n_r) suit choices, 4 of which are flushes when all five
    ranks differ.
    """
    for ranks in _rank_multisets():
        counts = Counter(ranks)
        ways = prod(comb(4, n) for n in counts.values())
        if len(counts) == 5:
            yield high_key(_offsuit(ranks)), ways - 4
            yield high_key([4 * r for r in ranks]), 4     # the flushes (all clubs)
        else:
            yield high_key(_offsuit(ranks)), ways


def test_all_five_card_hands_by_category():
    hands = Counter()
    classes = Counter()
    keys = set()
    for key, ways in _five_card_classes():
        assert key not in keys
        keys.add(key)
        hands[key[0]] += ways
        classes[key[0]] += 1
    assert len(keys) == 7462
    assert [hands[c] for c in range(9)] == [1302540, 1098240, 123552, 54912, 10200,
                                            5108, 3744, 624, 40]
    assert [classes[c] for c in range(9)] == [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]


# -- lows ---------------------------------------------------------------------

def test_low8_examples():
    assert low8_key(parse_cards("8h6d4c2sAh")) == (8, 6, 4, 2, 1)
    assert low8_key(parse_cards("5h4h3h2hAh")) == (5, 4, 3, 2, 1)   # flush/straight fine
    assert low8_key(parse_cards("9h6d4c2sAh")) is None                # nine is too high
    assert low8_key(parse_cards("8h6d4c4sAh")) is None                # pair
    assert low8_key(parse_cards("8h6d4c2sAh")) < low8_key(parse_cards("8h7d3c2sAh"))
    assert best_low8(parse_cards("AhAd2c3s4h8c8d"))[0] == (8, 4, 3, 2, 1)
    assert best_low8(parse_cards("AhAd2c3s4hKcKd")) is None
    # Omaha: exactly two hole cards; the A-2 in the hole cannot use a third low
    assert naive.omaha_low8(parse_cards("As2s3sKd"), parse_cards("7c8dKhQcJs")) is None
    assert naive.omaha_low8(parse_cards("As2sKdKc"), parse_cards("3c4d5hKs9c"))[0] == (5, 4, 3, 2, 1)


def test_56_lows():
    lows = {low8_key(_offsuit(ranks)) for ranks in _rank_multisets()} - {None}
    assert len(lows) == 56
    assert min(lows) == (5, 4, 3, 2, 1) and max(lows) == (8, 7, 6, 5, 4)
    # exactly the 5-subsets of A..8
    assert lows == {tuple(sorted(c, reverse=True)) for c in combinations(range(1, 9), 5)}


def test_razz_examples_and_order():
    assert razz_key(parse_cards("5h4h3h2hAh")) == (0, 5, 4, 3, 2, 1)   # flush/straight ignored
    assert razz_key(parse_cards("9s9h7c4d2d")) == (1, 9, 7, 4, 2)
    assert razz_key(parse_cards("KsKhQcQdAs")) == (2, 13, 12, 1)
    worst_to_best = ["AsAhAdAc2c", "2s2h2d3c3d", "AsAhAd2c3d", "KsKhQcQdAs", "3s3h2c2dAs",
                     "KsKhQcJdTs", "2s2h5c4d3s", "KsQhJcTd9s", "8s6h4c2dAs", "5s4h3c2dAs"]
    keys = [razz_key(parse_cards(h)) for h in worst_to_best]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    assert best_razz(parse_cards("KsKhAc2d3s4c6d"))[0] == (0, 6, 4, 3, 2, 1)


def test_razz_keys_one_per_rank_multiset():
    keys = {razz_key(_offsuit(ranks)) for ranks in _rank_multisets()}
    assert len(keys) == 6175


# -- the reference vectors ---------------------------------------------------

def _vector_id(v):
    return f"{v['game']}-{v['deal']}-{v['seat']}"


@pytest.mark.parametrize("game", sorted({v["game"] for v in VECTORS}))
def test_vectors(game):
    lines = [v for v in VECTORS if v["game"] == game]
    assert len(lines) >= 300
    for v in lines:
        hole, board = parse_cards(v["hole"]), parse_cards(v["board"])
        where = _vector_id(v)
        if "high" in v:
            key, five = hand_high(game, hole, board)
            assert list(key) == v["high"]["key"], where
            assert naive.CATEGORY_NAMES[key[0]] == v["high"]["category"], where
            assert list(high_key(parse_cards(v["high"]["cards"]))) == v["high"]["key"], where
        if "low" in v:
            low = hand_low8(game, hole, board)
            if v["low"] is None:
                assert low is None, where
            else:
                assert low is not None and list(low[0]) == v["low"]["ranks"], where
                assert list(low8_key(parse_cards(v["low"]["cards"]))) == v["low"]["ranks"], where
        if "razz_low" in v:
            key, five = hand_razz(hole, board)
            assert list(key) == v["razz_low"]["key"], where
            assert list(razz_key(parse_cards(v["razz_low"]["cards"]))) == v["razz_low"]["key"]


# -- exact equity -------------------------------------------------------------

@pytest.mark.parametrize("spot", SMALL_SPOTS, ids=[s["id"] for s in SMALL_SPOTS])
def test_reference_equity_spots(spot):
    res = reference_equity(spot["game"], spot["hands"], spot["board"], spot["dead"])
    assert res.runouts == spot["runouts"]
    assert sum(p["equity"] for p in res.players) == 1
    for got, want in zip(res.players, spot["results"], strict=True):
        for field in FIELDS:
            assert abs(float(got[field]) - want[field]) <= 1e-9, (spot["id"], field)


def test_enough_small_spots():
    assert len(SMALL_SPOTS) >= 30
    assert {s["game"] for s in SMALL_SPOTS} >= {"holdem", "omaha", "omaha-hilo", "omaha5",
                                               "omaha5-hilo", "courchevel-hilo", "stud",
                                               "stud-hilo", "razz"}


def test_quartered_pot():
    # A-2 vs A-2 tie the low; the A-2 with the set of jacks also wins the high.
    res = reference_equity("omaha-hilo", ["Ad2sJhJd", "Ac2h6s7s"], "3c5s8dJcKc")
    a, b = res.players
    assert res.runouts == 1
    assert a["equity"] == Fraction(3, 4) and b["equity"] == Fraction(1, 4)
    assert a["high_win"] == 1 and a["low_tie"] == 1 and b["low_tie"] == 1
    assert a["scoop"] == 0


def _stud_hands(players, street, seed):
    import random
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hands = [deck[i * street:(i + 1) * street] for i in range(players)]
    return hands, deck[players * street:]


def test_stud_runouts_players_distinguishable():
    # 7 players on sixth street, 3 dead: 7 unseen cards for 7 players -> 7! deals
    hands, rest = _stud_hands(7, 6, seed=1)
    deals = list(runouts("stud", hands, dead=rest[:3]))
    assert len(deals) == perm(7, 7)
    assert len({tuple(tuple(h) for h, _ in d) for d in deals}) == len(deals)
    # three players on sixth street: 52 - 18 = 34 unseen, one card each, in seat order
    hands, _ = _stud_hands(3, 6, seed=2)
    assert sum(1 for _ in runouts("razz", hands)) == perm(34, 3)
    # two players on fifth street, 36 dead: 6 unseen, two cards each
    hands, rest = _stud_hands(2, 5, seed=5)
    assert sum(1 for _ in runouts("stud", hands, dead=rest[:36])) == comb(6, 2) * comb(4, 2)


def test_stud_eight_handed_rule():
    # 7 players on sixth street, 4 dead: 6 unseen < 7 -> one shared seventh card
    hands, rest = _stud_hands(7, 6, seed=3)
    dead, unseen = rest[:4], rest[4:]
    deals = list(runouts("stud", hands, dead=dead))
    assert len(deals) == 6
    for deal in deals:
        sevenths = {h[-1] for h, _ in deal}
        assert len(sevenths) == 1 and sevenths <= set(unseen)
        assert [h[:6] for h, _ in deal] == hands
    # the equity is the average over the six community cards
    res = reference_equity("stud-hilo", [cards_str(h) for h in hands], dead=cards_str(dead))
    assert res.runouts == 6
    want = [Fraction(0)] * 7
    for c in unseen:
        highs = [best_high(h + [c])[0] for h in hands]
        lows = [best_low8(h + [c]) for h in hands]
        lows = [x[0] if x else None for x in lows]
        hi_win = [i for i in range(7) if highs[i] == max(highs)]
        lo_keys = [x for x in lows if x is not None]
        lo_win = [i for i in range(7) if lo_keys and lows[i] == min(lo_keys)]
        for i in hi_win:
            want[i] += Fraction(1, 2 if lo_win else 1) / len(hi_win)
        for i in lo_win:
            want[i] += Fraction(1, 2) / len(lo_win)
    assert [p["equity"] for p in res.players] == [w / 6 for w in want]
    # eight players on fifth street, no dead: 12 unseen < 16 -> 1 own card each + 1 shared
    hands, unseen = _stud_hands(8, 5, seed=4)
    first = next(iter(runouts("razz", hands)))
    assert all(len(h) == 7 for h, _ in first)
    assert len({h[-1] for h, _ in first}) == 1
    assert len({c for h, _ in first for c in h[5:]}) == 9


def test_high_only_and_razz_fields():
    res = reference_equity("holdem", ["AsAd", "KsKd"], "2c7d9hTc")
    for p in res.players:
        assert p["low_win"] == p["low_tie"] == 0 and p["scoop"] == p["high_win"]
    res = reference_equity("razz", ["Ac2s3h5dKhKd", "2c4d6s7hQsQd"])
    for p in res.players:
        assert p["high_win"] == p["high_tie"] == 0 and p["scoop"] == p["low_win"]
        assert p["equity"] == p["low_win"] + p["low_tie"] / 2
