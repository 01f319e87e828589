"""PHH hands for the tests, built and written by pokerkit itself (its state machine and
``HandHistory.dumps``), and PHH text equivalent to hand-made PokerStars histories."""
from __future__ import annotations

import warnings

import pytest

pk = pytest.importorskip("pokerkit")

AUTOMATIONS = (pk.Automation.ANTE_POSTING, pk.Automation.BET_COLLECTION,
               pk.Automation.BLIND_OR_STRADDLE_POSTING, pk.Automation.CARD_BURNING,
               pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING, pk.Automation.HAND_KILLING,
               pk.Automation.CHIPS_PUSHING, pk.Automation.CHIPS_PULLING)


def omaha_hilo_built():
    """Limit Omaha Hi/Lo, three players: the button folds, the blinds see a showdown
    that splits high and low; dealt, bet and written by pokerkit."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a random burn card may be one dealt later
        return _omaha_hilo_built()


def _omaha_hilo_built():
    game = pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter(AUTOMATIONS, True, 0, (1, 2), 2, 4)
    state = game((100, 100, 100), 3)
    state.deal_hole("AhAd2c3s")   # p1, small blind
    state.deal_hole("KsKdQhJh")   # p2, big blind
    state.deal_hole("9c9d8c8d")   # p3, the button
    state.fold()                  # p3
    state.complete_bet_or_raise_to(4)  # p1 raises
    state.check_or_call()         # p2
    state.deal_board("7c8h5d")
    state.complete_bet_or_raise_to(2)  # p1 bets
    state.check_or_call()
    state.deal_board("Ts")
    state.check_or_call()
    state.check_or_call()
    state.deal_board("Kc")
    state.complete_bet_or_raise_to(4)  # p1 bets
    state.check_or_call()
    assert not state.status
    return pk.HandHistory.from_game_state(game, state, players=["Ann", "Bob", "Cat"],
                                          seats=[2, 4, 6], hand=41, currency="USD")


STUD_HILO = """\
variant = 'F7S/8'
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 30, 100]
actions = ['d dh p1 ????7h', 'd dh p2 ????2c', 'd dh p3 ????Kd', 'p2 pb', 'p3 cbr 5', 'p1 f', 'p2 cbr 10', 'p3 cc', 'd dh p2 3c', 'd dh p3 Ks', 'p3 cbr 5', 'p2 cbr 10', 'p3 cbr 15', 'p2 cc', 'd dh p2 4c', 'd dh p3 Qs', 'p3 cbr 10', 'p2 cc', 'd dh p2 5d', 'd dh p3 Js', 'd dh p2 ??', 'd dh p3 ??', 'p2 sm AsAd2c3c4c5d6h', 'p3 sm KhQhKdKsQsJs2s']
hand = 42
players = ['Ann', 'Bob', 'Cat']
"""

# tests/hh/histories.py HOLDEM_SIDE_POT as PHH: Ann small blind, Bob big blind, Cat button
HOLDEM_SIDE_POT = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [500, 1500, 3000]
actions = ['d dh p1 AhKh', 'd dh p2 9c9d', 'd dh p3 7c7h', 'p3 cc', 'p1 cc', 'p2 cc', 'd db 2c7d9h', 'p1 cbr 480', 'p2 cbr 1480', 'p3 cc', 'p2 sm 9c9d', 'p3 sm 7c7h', 'p1 sm AhKh', 'd db Ks', 'd db 3d']
hand = 900000002
players = ['Ann', 'Bob', 'Cat']
seats = [1, 2, 3]
"""

# tests/hh/histories.py RAZZ_SIXTH as PHH: Bob's down cards seen only at the showdown
RAZZ_SIXTH = """\
variant = 'FR'
antes = [5, 5]
bring_in = 10
small_bet = 40
big_bet = 80
starting_stacks = [295, 1000]
actions = ['d dh p1 As2s3d', 'd dh p2 ????Kh', 'p2 pb', 'p1 cc', 'd dh p1 4c', 'd dh p2 7c', 'p1 cbr 40', 'p2 cc', 'd dh p1 9s', 'd dh p2 2c', 'p1 cbr 80', 'p2 cc', 'd dh p1 8h', 'd dh p2 3c', 'p1 cbr 80', 'p2 cbr 160', 'p1 cc', 'd dh p1 Td', 'd dh p2 ??', 'p1 sm As2s3d4c9s8hTd', 'p2 sm 5d6dKh7c2c3c4d']
hand = 900000004
players = ['Ann', 'Bob']
"""
