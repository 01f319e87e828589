"""One notation table (cards.rank_index / suit_index), one hole-count validator
(spot.check_hole_counts), and the pot kind carried by the game table (Game.pot)."""
import pytest

import pokereval as pe
from pokereval.cards import rank_index, suit_index
from pokereval.spot import check_hole_counts

SUITS = {"c": 0, "d": 1, "h": 2, "s": 3}


@pytest.mark.parametrize("symbols", ["cdhs", "CDHS", "♣♦♥♠", "♧♢♡♤"])
def test_every_suit_spelling(symbols):
    assert [suit_index(ch) for ch in symbols] == [0, 1, 2, 3]


def test_rank_spellings():
    assert [rank_index(r) for r in "23456789TJQKA"] == list(range(13))
    assert rank_index("t") == rank_index("10") == 8
    assert rank_index("1") is None and rank_index("x") is None


@pytest.mark.parametrize("hand", ["A♧Zz", "A♡K♤Zz"])
def test_outline_suited_typo_is_a_card_error(hand):
    """Written as rank + suit pairs (outline suits too): read as cards, so a typo is an
    unknown card, not a range parse error."""
    with pytest.raises(pe.CardError, match="unknown card 'Zz'"):
        pe.equity("holdem" if len(hand) == 4 else "omaha", [hand, "QsQdJcTc"[:len(hand)]],
                  samples=100, seed=1)


def test_outline_suits_are_the_same_cards():
    assert pe.parse_cards("A♡K♤2♧3♢") == pe.parse_cards("AhKs2c3d")
    a = pe.equity("holdem", ["A♡K♤", "Q♧Q♢"], board="2c7d9h", exact=True)
    b = pe.equity("holdem", ["AhKs", "QcQd"], board="2c7d9h", exact=True)
    assert [p.equity for p in a.players] == [p.equity for p in b.players]


def test_pot_kind_from_the_game_table():
    # independent statement of the rules: hi/lo games split, razz is one low pot
    expected = {"holdem": "high", "omaha": "high", "omaha-hilo": "split", "omaha5": "high",
                "omaha5-hilo": "split", "courchevel": "high", "courchevel-hilo": "split",
                "stud": "high", "stud-hilo": "split", "razz": "razz"}
    assert {g.name: g.pot for g in pe.games()} == expected
    labels = {"high": "high only", "split": "split hi/lo", "razz": "low only"}
    for g in pe.games():
        assert g.pot_label == labels[g.pot]
        assert g.razz == (g.name == "razz")
        assert g.eight == g.name.endswith("-hilo")


def test_results_carry_the_games_pot_kind():
    for game, hands in (("razz", ["Ah2c3d", "4s5s6h"]), ("stud-hilo", ["Ah2c3d", "4s5s6h"]),
                        ("holdem", ["AhKh", "QsQd"])):
        r = pe.equity(game, hands, samples=200, seed=1)
        assert {p.pot for p in r.players} == {pe.get_game(game).pot}


def test_one_hole_count_validator():
    omaha, stud = pe.get_game("omaha"), pe.get_game("stud")
    check_hole_counts(omaha, [4, 4], ["AhKhQhJh", "2c3c4c5c"])
    with pytest.raises(pe.HandError, match="omaha needs 4 hole cards but player 2 has 3"):
        check_hole_counts(omaha, [4, 3], ["AhKhQhJh", "2c3c4c"])
    check_hole_counts(omaha, [4, 2], ["AhKhQhJh", "AA"], fixed=[True, False])  # a range: unchecked
    with pytest.raises(pe.HandError, match="same street"):
        check_hole_counts(stud, [3, 4], ["AhKhQh", "2c3c4c5c"])
    with pytest.raises(pe.HandError, match="stud needs 3 to 7 cards per player but player 1"):
        check_hole_counts(stud, [2, 2], ["AhKh", "2c3c"])
