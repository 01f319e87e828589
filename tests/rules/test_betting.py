"""Bet limits and the betting round; stud bring-in and action order by hand."""
from __future__ import annotations

import pytest

import pokereval as pe
from pokereval import BettingRound, Limits, bet_limits

BIG = 10_000


# -- pot limit ---------------------------------------------------------------

def test_pot_limit_page_example():
    """PokerStars' pot-limit page: pot 100, a bet of 100, the next player may raise to 400."""
    assert bet_limits("pot-limit", pot=200, current_bet=100, stack=BIG, bet=2).max == 400


def test_pot_limit_rulebook_examples():
    """BARGE rulebook, pot-limit: blinds 100/200, the button may raise to 700; the big
    blind calls, bets the pot (1500) on the flop, and a pot raise makes it 6000 to go."""
    assert bet_limits("pot-limit", pot=300, current_bet=200, stack=BIG, bet=200) == \
        Limits(200, 400, 700)
    assert bet_limits("pot-limit", pot=3000, current_bet=1500, stack=BIG, bet=200).max == 6000


def test_pot_limit_opening_and_preflop():
    assert bet_limits("pot-limit", pot=100, stack=BIG, bet=2) == Limits(0, 2, 100)
    # blinds 1/2: the pot-sized raise before the flop is to 7
    assert bet_limits("pot-limit", pot=3, current_bet=2, stack=BIG, bet=2) == Limits(2, 4, 7)
    # the small blind, 1 in: call 1, then a pot of 4: to 6
    assert bet_limits("pot-limit", pot=3, current_bet=2, my_bet=1, stack=BIG, bet=2).max == 6
    assert bet_limits("pot-limit", pot=200, current_bet=100, stack=250, bet=2) == Limits(100, 200, 250)


# -- no limit ----------------------------------------------------------------

def test_no_limit_min_raise_is_the_last_bet_or_raise():
    assert bet_limits("no-limit", stack=BIG, bet=20) == Limits(0, 20, BIG)
    assert bet_limits("no-limit", current_bet=100, stack=BIG, bet=20) == Limits(100, 200, BIG)
    assert bet_limits("no-limit", current_bet=300, last_raise=200, stack=BIG, bet=20).min == 500
    assert bet_limits("no-limit", current_bet=300, stack=350, bet=20) == Limits(300, 350, 350)
    assert bet_limits("no-limit", current_bet=300, stack=200, bet=20) == Limits(200, None, None)


def test_short_all_in_does_not_reopen_the_betting():
    r = BettingRound("no-limit", {1: BIG, 2: 150, 3: BIG}, [1, 2, 3], bet=20)
    r.act("bet", 100)
    assert r.limits() == Limits(100, 150, 150)  # seat 2: all-in for less than a raise
    r.act("raise", 150)
    assert r.limits() == Limits(150, 250, BIG)  # seat 3 has not acted: min 150 + 100
    r.act("call")
    assert r.to_act == 1 and r.limits() == Limits(50, None, None)  # only 50 more: no raise
    with pytest.raises(pe.PokerEvalError, match="may not raise"):
        r.act("raise", 400)
    r.act("call")
    assert r.to_act is None


def test_full_all_in_raise_reopens():
    r = BettingRound("no-limit", {1: BIG, 2: 200, 3: BIG}, [1, 2, 3], bet=20)
    r.act("bet", 100)
    r.act("raise", 200)
    r.act("call")
    assert r.to_act == 1 and r.limits() == Limits(100, 300, BIG)


def test_no_raise_against_players_all_in():
    r = BettingRound("no-limit", {1: 300, 2: BIG}, [1, 2], bet=20)
    r.act("bet", 300)  # all-in
    assert r.limits() == Limits(300, None, None)


def test_illegal_sizes():
    r = BettingRound("no-limit", {1: BIG, 2: BIG}, [1, 2], bet=20)
    with pytest.raises(pe.PokerEvalError, match="may raise to 20..10000, not 10"):
        r.act("bet", 10)
    with pytest.raises(pe.PokerEvalError, match="cannot check"):
        r.act("bet", 20) or r.act("check")


# -- limit -------------------------------------------------------------------

def test_limit_cap_bet_and_three_raises():
    r = BettingRound("limit", {s: BIG for s in (1, 2, 3)}, [1, 2, 3], bet=10)
    for total in (10, 20, 30, 40):
        assert r.limits() == Limits(r.current_bet - r.bets[r.to_act], total, total)
        r.act("raise", total)
    assert r.to_act == 2 and r.limits() == Limits(20, None, None)  # capped
    heads_up = bet_limits("limit", current_bet=40, stack=BIG, bet=10, raises=4, cap=None)
    assert heads_up == Limits(40, 50, 50)


def test_limit_preflop_big_blind_is_the_first_bet():
    r = BettingRound("limit", {1: BIG, 2: BIG, 3: BIG}, [3, 1, 2], bet=10, posted={1: 5, 2: 10})
    assert r.limits() == Limits(10, 20, 20)
    for total in (20, 30, 40):
        r.act("raise", total)
    assert r.to_act == 3 and r.limits() == Limits(20, None, None)  # the blind + 3 raises


def test_stud_bring_in_completion_and_open_pair():
    r = BettingRound("limit", {1: BIG, 2: BIG, 3: BIG}, [2, 3, 1], bet=10, posted={1: 3})
    assert r.limits() == Limits(3, 10, 10)  # complete the bring-in to the small bet
    r.act("raise", 10)
    assert r.limits() == Limits(10, 20, 20)
    # 4th street, stud high, an open pair: the small or the big bet
    assert bet_limits("limit", stack=BIG, bet=10, big_bet=20) == Limits(0, 10, 20)
    assert bet_limits("limit", stack=BIG, bet=10, big_bet=20, current_bet=20, raises=1) \
        == Limits(20, 30, 30)


def test_stud_bet_size_open_pair_rule():
    up = {1: "9c9d", 2: "Ks2h"}
    assert pe.stud_bet_size("stud", 3, {1: "9c", 2: "Ks"}, small_bet=10, big_bet=20) == (10, None)
    assert pe.stud_bet_size("stud", 4, up, small_bet=10, big_bet=20) == (10, 20)
    assert pe.stud_bet_size("stud", 4, {1: "9c8d", 2: "Ks2h"}, small_bet=10, big_bet=20) == (10, None)
    assert pe.stud_bet_size("stud-hilo", 4, up, small_bet=10, big_bet=20) == (10, None)
    assert pe.stud_bet_size("razz", 4, up, small_bet=10, big_bet=20) == (10, None)
    assert pe.stud_bet_size("stud-hilo", 5, up, small_bet=10, big_bet=20) == (20, None)
    with pytest.raises(pe.PokerEvalError, match="street must be 3 to 7"):
        pe.stud_bet_size("stud", 8, up, small_bet=10, big_bet=20)


def test_limit_all_in_of_half_a_bet_counts_as_a_raise():
    r = BettingRound("limit", {1: BIG, 2: 16, 3: BIG}, [1, 2, 3], bet=10)
    r.act("bet", 10)
    assert r.limits() == Limits(10, 16, 16)
    r.act("raise", 16)
    assert r.limits() == Limits(16, 26, 26)
    r.act("call")
    assert r.to_act == 1 and r.limits().min == 26  # reopened: 6 is at least half a bet


def test_spread_limit_and_kill():
    assert bet_limits("spread", stack=BIG, bet=2, spread=(2, 10)) == Limits(0, 2, 10)
    assert bet_limits("spread", current_bet=6, last_raise=6, stack=BIG, bet=2,
                      spread=(2, 10)) == Limits(6, 12, 16)
    assert bet_limits("limit", stack=BIG, bet=10, kill="full") == Limits(0, 20, 20)
    assert bet_limits("limit", stack=BIG, bet=10, kill="half") == Limits(0, 15, 15)
    with pytest.raises(pe.PokerEvalError, match="half-kill"):
        bet_limits("limit", stack=BIG, bet=5, kill="half")


@pytest.mark.parametrize("kwargs,words", [
    (dict(structure="pot limit omaha"), "unknown betting structure"),
    (dict(stack=-1), "must not be negative"),
    (dict(bet=2.5), "whole number"),
    (dict(my_bet=50, current_bet=10), "more than current_bet"),
    (dict(structure="spread"), "spread=(lowest"),
    (dict(kill="triple"), "kill must be"),
])
def test_bet_limits_bad_input(kwargs, words):
    args = dict(structure="no-limit", stack=100, bet=2)
    args.update(kwargs)
    with pytest.raises(pe.PokerEvalError, match=words.replace("(", r"\(")):
        bet_limits(args.pop("structure"), **args)


# -- stud order --------------------------------------------------------------

def test_bring_in_rules():
    assert pe.bring_in("stud", {1: "2h", 2: "2c", 3: "3c"}) == 2       # clubs lowest
    assert pe.bring_in("stud-hilo", {1: "As", 2: "Kc"}) == 2           # ace high
    assert pe.bring_in("razz", {1: "Kd", 2: "Ks", 3: "Ac"}) == 2       # spades highest, ace low
    assert pe.bring_in("razz", {1: "Ac", 2: "2s"}) == 2
    # the low card is all-in from the ante: the next player clockwise brings in
    assert pe.bring_in("stud", {1: "9h", 4: "2c", 6: "Kd"}, all_in=[4]) == 6
    assert pe.bring_in("stud", {1: "9h", 4: "Kd", 6: "2c"}, all_in=[6]) == 1


def test_first_to_act_rules():
    assert pe.first_to_act("stud", {1: "Kc4d", 2: "9s9h", 4: "AsKh"}) == 2   # pair beats ace
    assert pe.first_to_act("stud", {1: "KcKd4s", 2: "9s9hAh"}) == 1
    assert pe.first_to_act("stud", {1: "9c9d4s3s", 2: "8s8h5h5d"}) == 2     # two pair
    assert pe.first_to_act("stud-hilo", {3: "AcKd", 5: "AhKs"}) == 3        # tie: lowest seat
    assert pe.first_to_act("razz", {1: "Kc4d", 2: "9s9h", 4: "As2h"}) == 4
    assert pe.first_to_act("razz", {1: "8c4d", 2: "7s7h"}) == 1             # a pair counts
    assert pe.first_to_act("razz", {1: "8c4d", 2: "8s5h"}) == 1
    assert pe.first_to_act("stud", {1: "Kc4d", 2: "AsAh", 4: "7s2h"}, all_in=[2]) == 4


def test_board_order():
    assert pe.board_order([1, 2, 3, 4, 5, 6], 6, preflop=True) == [3, 4, 5, 6, 1, 2]
    assert pe.board_order([1, 2, 3, 4, 5, 6], 6, preflop=False) == [1, 2, 3, 4, 5, 6]
    assert pe.board_order([3, 7], 7, preflop=True) == [7, 3]      # heads-up: button first
    assert pe.board_order([3, 7], 7, preflop=False) == [3, 7]


@pytest.mark.parametrize("call,words", [
    (lambda: pe.bring_in("omaha", {1: "2c"}), "board game"),
    (lambda: pe.bring_in("stud", {1: "2c2d", 2: "3c"}), "one card per seat"),
    (lambda: pe.bring_in("stud", {1: "2c", 2: "2c"}), "duplicate card 2c"),
    (lambda: pe.bring_in("stud", {}), "empty"),
    (lambda: pe.bring_in("stud", {1: "2c", 2: "3c"}, all_in=[5]), "seat 5"),
    (lambda: pe.first_to_act("stud", {1: "2c3c", 2: "3d"}), "same number"),
    (lambda: pe.first_to_act("stud", {1: "2c", 2: "3d"}, all_in=[1, 2]), "every player is all-in"),
])
def test_order_bad_input(call, words):
    with pytest.raises(pe.PokerEvalError) as err:
        call()
    assert words in str(err.value) and "\n" not in str(err.value)
