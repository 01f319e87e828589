"""settle: hand-made cases of every rule, a random comparison with an independent
reference, conservation, and bad input."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

import naive
import pokereval as pe
from rules_reference import reference_settle


def test_three_all_ins_of_different_sizes_hilo():
    """Omaha hi/lo, all-ins of 100, 250 and 400, a 600 cover and a folded 30.
    Seat 4's broadway straight wins every high; the 7-4-3-2-A lows of seats 1 and 3
    tie in the main pot (seat 1, first left of the button, gets its odd chip)."""
    hands = {1: "3c4c8s9s", 2: "KhKs5d6d", 3: "QhQc3h4h", 4: "JhTh5c6c"}
    r = pe.settle("omaha-hilo", hands, "As2d7hKcQd",
                  contributions={1: 100, 2: 250, 3: 400, 4: 600, 5: 30}, folded=[5], button=4)
    assert [(p.amount, p.eligible, p.high_winners, p.low_winners) for p in r.pots] == [
        (430, (1, 2, 3, 4), (4,), (1, 3)),   # 4 x 100 + the folded 30
        (450, (2, 3, 4), (4,), (3,)),
        (300, (3, 4), (4,), (3,)),
        (200, (4,), (4,), ()),               # nobody called: back to seat 4
    ]
    assert r.pots[0].shares == {4: 215, 1: 108, 3: 107}
    assert r.pots[-1].uncalled
    assert r.collected == {1: 108, 2: 0, 3: 107 + 225 + 150, 4: 215 + 225 + 150 + 200, 5: 0}


def test_quartered_pot_with_odd_chips():
    # seat 1: the club flush and the wheel low; seat 2: the same low -> seat 1 gets 3/4
    hands = {1: "2c3c7d8d", 2: "2h3h9s9d"}
    board = "Ac4d5hKcQc"
    r = pe.settle("omaha-hilo", hands, board, contributions={1: 500, 2: 500}, button=2)
    assert r.pots[0].high_winners == (1,) and r.pots[0].low_winners == (1, 2)
    assert r.collected == {1: 750, 2: 250}
    # 1003: high half 502; low half 501 -> 251 to seat 1 (first left of button 2)
    r = pe.settle("omaha-hilo", hands, board, contributions={1: 500, 2: 500, 3: 3},
                  folded=[3], button=2)
    assert (r.pots[0].high_amount, r.pots[0].low_amount) == (502, 501)
    assert r.collected == {1: 502 + 251, 2: 250, 3: 0}
    r = pe.settle("omaha-hilo", hands, board, contributions={1: 500, 2: 500, 3: 3},
                  folded=[3], button=1)
    assert r.collected == {1: 502 + 250, 2: 251, 3: 0}


@pytest.mark.parametrize("button,want100,want101", [
    # clockwise from the button: 2 -> seats 3, 1, 2; 3 -> seats 1, 2, 3
    (2, {1: 33, 2: 33, 3: 34}, {1: 34, 2: 33, 3: 34}),
    (3, {1: 34, 2: 33, 3: 33}, {1: 34, 2: 34, 3: 33}),
    (None, {1: 34, 2: 33, 3: 33}, {1: 34, 2: 34, 3: 33}),  # no button: lowest seat first
])
def test_three_way_tie_odd_chips(button, want100, want101):
    hands = {1: "2c3c", 2: "2d3d", 3: "2h3h"}  # everyone plays the royal flush board
    for dead_money, want in ((1, want100), (2, want101)):
        r = pe.settle("holdem", hands, "AsKsQsJsTs",
                      contributions={1: 33, 2: 33, 3: 33, 4: dead_money}, folded=[4], button=button)
        assert r.pots[0].amount == 99 + dead_money and r.pots[0].high_winners == (1, 2, 3)
        assert r.collected == {**want, 4: 0}


def test_stud_odd_chip_by_suit():
    """Two wheels: the odd chip of the high goes to the highest card by suit (As),
    of the low to the lowest card by suit (Ah, ace low)."""
    a, b = "As2c3d4h5s9dJc", "Ah2d3c4s5h9cJd"
    high = pe.settle("stud", {1: a, 2: b}, contributions={1: 50, 2: 51})
    assert high.collected == {1: 50, 2: 51}  # 100 split, 1 uncalled back to 2
    high = pe.settle("stud", {1: a, 2: b}, contributions={1: 50, 2: 50, 3: 1}, folded=[3])
    assert high.collected == {1: 51, 2: 50, 3: 0}
    razz = pe.settle("razz", {1: a, 2: b}, contributions={1: 50, 2: 50, 3: 1}, folded=[3])
    assert razz.collected == {1: 50, 2: 51, 3: 0}
    # stud hi/lo 103: high half 52 = 26 + 26; low half 51: 26 to seat 2 (Ah)
    split = pe.settle("stud-hilo", {1: a, 2: b}, contributions={1: 50, 2: 50, 3: 3}, folded=[3])
    assert split.collected == {1: 51, 2: 52, 3: 0}
    # a room that gives it by seat instead
    by_seat = pe.settle("razz", {1: a, 2: b}, contributions={1: 50, 2: 50, 3: 1}, folded=[3],
                        odd_chip="button")
    assert by_seat.collected == {1: 51, 2: 50, 3: 0}


def test_no_qualifying_low_high_scoops():
    r = pe.settle("omaha-hilo", {1: "AhAd2c3s", 2: "KsKdQhJh"}, "7c8d9hTsKc",
                  contributions={1: 101, 2: 101})
    assert r.pots[0].low_winners == () and r.collected == {1: 0, 2: 202}


def test_razz_lowest_takes_all():
    r = pe.settle("razz", {1: "KsKd2c3d4h5s6c", 2: "AhAc9d9cTdJcQh"}, contributions={1: 77, 2: 77})
    assert r.pots[0].low_winners == (1,) and r.collected == {1: 154, 2: 0}


def test_rake_before_the_split_and_uncalled_bet():
    hands = {1: "AhAd", 2: "KsKd"}
    r = pe.settle("holdem", hands, "2c7d9hTsJc", contributions={1: 800, 2: 500}, rake=50)
    assert r.pots[0].amount == 950 and r.pots[0].rake == 50
    assert r.pots[1].uncalled and r.pots[1].rake == 0
    assert r.collected == {1: 950 + 300, 2: 0}
    assert sum(r.collected.values()) + r.rake == 1300


def test_everyone_else_folded_needs_no_cards():
    r = pe.settle("omaha", {}, contributions={1: 10, 2: 20, 3: 60}, folded=[1, 2])
    assert r.collected == {1: 0, 2: 0, 3: 90}


def test_folded_money_stays_in_the_pots():
    r = pe.settle("holdem", {1: "AhAd", 2: "KsKd"}, "2c7d9hTsJc",
                  contributions={1: 100, 2: 40, 3: 70}, folded=[3])
    # main 40 x 3 (1, 2) = 120 to seat 1; the side pot 60 + 30 (1 only) also to 1
    assert r.collected == {1: 210, 2: 0, 3: 0}


# --------------------------------------------------------------------------
# Random spots against the independent reference; conservation
# --------------------------------------------------------------------------

GAMES = ["holdem", "omaha", "omaha-hilo", "omaha5-hilo", "courchevel-hilo", "stud",
         "stud-hilo", "razz"]


@st.composite
def tables(draw, with_rake=False):
    game = draw(st.sampled_from(GAMES))
    n = draw(st.integers(2, 6))
    seats = sorted(draw(st.lists(st.integers(1, 9), min_size=n, max_size=n, unique=True)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = list(range(52))
    rng.shuffle(deck)
    hole = 7 if naive.is_stud(game) else naive.GAMES[game].hole
    board = [] if naive.is_stud(game) else [deck.pop() for _ in range(5)]
    hands = {s: [deck.pop() for _ in range(hole)] for s in seats}
    # small amounts so that ties, equal all-ins and odd chips are common
    chips = {s: draw(st.integers(0, 12)) * draw(st.sampled_from([1, 1, 7])) for s in seats}
    folded = [s for s in seats if draw(st.booleans()) and draw(st.booleans())]
    if all(s in folded for s in seats) or all(chips[s] == 0 for s in seats if s not in folded):
        folded = []
        chips[seats[0]] += 1
    button = draw(st.sampled_from(seats + [None, 0]))
    return game, hands, board, chips, folded, button


def _text(cards):
    return naive.cards_str(cards)


@given(tables())
def test_settle_matches_the_reference(table):
    game, hands, board, chips, folded, button = table
    r = pe.settle(game, {s: _text(h) for s, h in hands.items()}, _text(board),
                  contributions=chips, folded=folded, button=button)
    assert r.collected == reference_settle(game, hands, board, chips, folded, button)


@given(tables(), st.integers(0, 100))
def test_conservation(table, rake_pct):
    """What is collected plus rake is what was put in, whatever the rake."""
    game, hands, board, chips, folded, button = table
    text = {s: _text(h) for s, h in hands.items()}
    free = pe.settle(game, text, _text(board), contributions=chips, folded=folded, button=button)
    raked = sum(p.amount for p in free.pots if not p.uncalled)
    rake = raked * rake_pct // 100
    r = pe.settle(game, text, _text(board), contributions=chips, folded=folded, button=button,
                  rake=rake)
    assert sum(r.collected.values()) + rake == sum(chips.values())
    assert sum(p.amount for p in r.pots) + rake == sum(chips.values())
    assert all(v >= 0 for v in r.collected.values())
    assert all(r.collected[s] == 0 for s in folded)


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------

HANDS = {1: "AhAd", 2: "KsKd"}
BOARD = "2c7d9hTsJc"


@pytest.mark.parametrize("kwargs,words", [
    (dict(hands={1: "AhAd"}, contributions={1: 5, 2: 5}), "seat 2 is still in the hand"),
    (dict(contributions={1: -5, 2: 5}), "must not be negative"),
    (dict(contributions={1: 2.5, 2: 5}), "whole number of chips"),
    (dict(contributions={1: Fraction(5, 2), 2: 5}), "whole number of chips"),
    (dict(contributions={1: "5", 2: 5}), "whole number of chips"),
    (dict(contributions={1: True, 2: 5}), "whole number of chips"),
    (dict(hands={1: "AhAd", 2: "AhKd"}, contributions={1: 5, 2: 5}), "duplicate card Ah"),
    (dict(hands={1: "AhAd", 2: "Tc2c"}, contributions={1: 5, 2: 5}), "duplicate card"),
    (dict(hands={1: "AhAd", 9: "KsKd"}, contributions={1: 5, 2: 5}), "seat 9"),
    (dict(contributions={1: 5, 2: 5}, folded=[7]), "folded names seat 7"),
    (dict(contributions={1: 5, 2: 5}, folded=[1, 2]), "every seat has folded"),
    (dict(contributions={}), "contributions is empty"),
    (dict(contributions={-1: 5, 2: 5}), "seat number"),
    (dict(contributions={1: 5, 2: 5}, rake=11), "rake 11 is more than the pot"),
    (dict(contributions={1: 5, 2: 5}, board="2c7d9h"), "full board"),
    (dict(contributions={1: 5, 2: 5}, hands={1: "AhAdAc", 2: "KsKd"}), "2 hole cards"),
    (dict(contributions={1: 5, 2: 5}, odd_chip="suit"), "stud rule"),
    (dict(contributions={1: 5, 2: 5}, odd_chip="left"), "odd_chip must be one of"),
    (dict(contributions=[5, 5]), "mapping"),
])
def test_bad_input_one_clear_line(kwargs, words):
    args = dict(hands=HANDS, board=BOARD)
    args.update(kwargs)
    with pytest.raises(pe.PokerEvalError) as err:
        pe.settle("holdem", args.pop("hands"), args.pop("board"), **args)
    message = str(err.value)
    assert words in message and "\n" not in message


def test_stud_shared_seventh_card():
    """Eight-handed stud when the deck runs out: the 7th card is one face-up card for all."""
    r = pe.settle("stud", {1: "KsKd3d4h5s9d", 2: "QsQd3c4s5h9c"}, "Kc",
                  contributions={1: 5, 2: 5})
    assert r.collected == {1: 10, 2: 0} and r.pots[0].high_winners == (1,)


def test_stud_bad_input():
    with pytest.raises(pe.PokerEvalError, match="no board"):
        pe.settle("stud", {1: "As2c3d4h5s", 2: "Ah2d3c4s5h"}, "KcQc",
                  contributions={1: 5, 2: 5})
    with pytest.raises(pe.PokerEvalError, match="7 cards"):
        pe.settle("stud", {1: "As2c3d4h5s", 2: "Ah2d3c4s5h"}, contributions={1: 5, 2: 5})
