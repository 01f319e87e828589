"""Card notation: every accepted spelling, every error message, round trips."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokereval.cards import (
    RANKS,
    SUITS,
    card_str,
    cards_str,
    check_disjoint,
    parse_card,
    parse_cards,
)
from pokereval.errors import CardError, GameError, HandError, PokerEvalError

AH, KD, TC, TD, JC, C2, S7, C7 = 50, 45, 32, 33, 36, 0, 23, 20


# --- the index layout -------------------------------------------------------

def test_index_layout():
    assert RANKS == "23456789TJQKA"
    assert SUITS == "cdhs"
    assert [card_str(i) for i in (0, 1, 2, 3, 4, 51)] == ["2c", "2d", "2h", "2s", "3c", "As"]
    for i in range(52):
        assert card_str(i) == RANKS[i // 4] + SUITS[i % 4]


def test_every_card_round_trips():
    names = [card_str(i) for i in range(52)]
    assert len(set(names)) == 52
    assert [parse_card(n) for n in names] == list(range(52))
    assert parse_cards("".join(names)) == list(range(52))


# --- accepted notations -----------------------------------------------------

@pytest.mark.parametrize(
    "text",
    ["AhKd", "Ah Kd", "ah,kd", "AH KD", "aHkD", "Ah, Kd", " Ah  Kd ", "Ah,,Kd,",
     "A♥K♦", "A♥ K♦", "a♡k♢", "Ah\tKd\n", "A♥️K♦️"],
)
def test_parse_cards_spellings(text):
    assert parse_cards(text) == [AH, KD]


@pytest.mark.parametrize(
    "text, expected",
    [("10d Jc", [TD, JC]), ("10dJc", [TD, JC]), ("Td jc", [TD, JC]), ("10c", [TC]),
     ("10C10d", [TC, TD]), ("2♣7♠", [C2, S7]), ("2♧7♤", [C2, S7]), ("7C,2c", [C7, C2])],
)
def test_parse_cards_ten_and_symbols(text, expected):
    assert parse_cards(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [("Ah", AH), ("ah", AH), ("AH", AH), ("A♥", AH), ("a♡", AH), (" Ah ", AH),
     ("10c", TC), ("Tc", TC), ("tc", TC), ("2c", 0), ("As", 51), ("7♠", S7)],
)
def test_parse_card(text, expected):
    assert parse_card(text) == expected


def test_parse_cards_empty():
    assert parse_cards("") == []
    assert parse_cards("  , ") == []
    assert parse_cards([]) == []
    assert parse_cards(()) == []


def test_parse_cards_iterables():
    assert parse_cards([AH, KD]) == [AH, KD]
    assert parse_cards(("Ah", "kd")) == [AH, KD]
    assert parse_cards([AH, "Kd", "10c"]) == [AH, KD, TC]
    assert parse_cards(iter([0, 51])) == [0, 51]
    assert parse_cards(np.array([AH, KD], dtype=np.uint8)) == [AH, KD]
    assert parse_cards(range(3)) == [0, 1, 2]


def test_parse_cards_returns_plain_ints():
    cards = parse_cards(np.array([AH, KD], dtype=np.uint8))
    assert all(type(c) is int for c in cards)


def test_cards_str():
    assert cards_str([AH, KD]) == "AhKd"
    assert cards_str([]) == ""
    assert cards_str([TD, JC]) == "TdJc"
    assert cards_str(np.array([0, 51], dtype=np.uint8)) == "2cAs"


# --- errors -----------------------------------------------------------------

def test_errors_are_value_errors():
    for cls in (CardError, GameError, HandError):
        assert issubclass(cls, PokerEvalError)
        assert issubclass(cls, ValueError)
    assert not issubclass(CardError, GameError)
    assert not issubclass(HandError, CardError)


@pytest.mark.parametrize(
    "text, bad",
    [("AhZz", "Zz"), ("Zz", "Zz"), ("T0", "T0"), ("1d", "1d"), ("1", "1"),
     ("10", "10"), ("100d", "100"), ("01d", "01"), ("AhK", "K"), ("Ah K d", "K"),
     ("Ax", "Ax"), ("Ah-Kd", "-K"), ("11c", "11"), ("Ah1", "1"), ("A", "A")],
)
def test_unknown_card_message(text, bad):
    with pytest.raises(CardError, match=f"^unknown card '{re.escape(bad)}' in player 2's hand$"):
        parse_cards(text, "player 2's hand")


def test_unknown_card_default_what():
    with pytest.raises(CardError, match=r"^unknown card 'Zz' in hand$"):
        parse_cards("AhZz")


@pytest.mark.parametrize("value", ["Zz", "", "AhKd", "10", "T0", "1d", "Ah Kd", "A"])
def test_parse_card_rejects(value):
    with pytest.raises(CardError, match=r"^unknown card "):
        parse_card(value)


def test_parse_card_message_quotes_input():
    with pytest.raises(CardError, match=r"^unknown card 'Zz'$"):
        parse_card("Zz")


@pytest.mark.parametrize("value", [None, 5, 1.5, 50])
def test_parse_card_rejects_non_strings(value):
    with pytest.raises(CardError):
        parse_card(value)


@pytest.mark.parametrize(
    "value, bad",
    [([52], "52"), ([-1], "-1"), ([AH, "Zz"], "'Zz'"), (["AhKd"], "'AhKd'"),
     ([1.5], "1.5"), ([None], "None"), ([True], "True"), ([[1, 2]], r"\[1, 2\]")],
)
def test_parse_cards_bad_items(value, bad):
    with pytest.raises(CardError, match=f"^unknown card {bad} in board$"):
        parse_cards(value, "board")


@pytest.mark.parametrize("value", [None, 5, 1.5, object()])
def test_parse_cards_non_iterable(value):
    with pytest.raises(CardError, match=r"in dead cards"):
        parse_cards(value, "dead cards")


@pytest.mark.parametrize("value", ["Ah 7c ah", "AhAh", "A♥ah", [AH, "Ah"], [AH, AH]])
def test_duplicate_in_one_value(value):
    with pytest.raises(CardError, match=r"^duplicate card Ah in board$"):
        parse_cards(value, "board")


@pytest.mark.parametrize("value", [52, -1, 1.5, "Ah", None, True])
def test_card_str_rejects(value):
    with pytest.raises(CardError, match=r"^unknown card "):
        card_str(value)


# --- check_disjoint ---------------------------------------------------------

def test_check_disjoint_accepts_disjoint_groups():
    assert check_disjoint({"player 1": [AH, KD], "player 2": [0, 1], "board": [], "dead cards": [2]}) is None
    assert check_disjoint({}) is None


def test_check_disjoint_names_both_places():
    with pytest.raises(CardError, match=r"^duplicate card Ah in player 1 and player 2$"):
        check_disjoint({"player 1": [AH, KD], "player 2": [0, AH]})
    with pytest.raises(CardError, match=r"^duplicate card 7c in board and dead cards$"):
        check_disjoint({"player 1": [AH, KD], "board": [C7, 0, 1], "dead cards": [C7]})


def test_check_disjoint_within_one_group():
    with pytest.raises(CardError, match=r"^duplicate card Kd in board$"):
        check_disjoint({"player 1": [AH], "board": [KD, 0, KD]})


def test_check_disjoint_accepts_numpy():
    with pytest.raises(CardError, match=r"^duplicate card As in player 1 and board$"):
        check_disjoint({"player 1": np.array([51, 0], dtype=np.uint8), "board": [51]})


# --- properties -------------------------------------------------------------

distinct_cards = st.lists(st.integers(0, 51), unique=True, max_size=52)


@given(distinct_cards)
def test_round_trip(cards):
    assert parse_cards(cards_str(cards)) == cards


@given(distinct_cards, st.sampled_from([" ", ",", ", ", " ,\t"]), st.booleans())
def test_round_trip_with_separators_and_case(cards, sep, lower):
    text = sep.join(card_str(c) for c in cards)
    text = text.lower() if lower else text.upper()
    assert parse_cards(text) == cards


@given(distinct_cards)
def test_round_trip_with_tens_and_symbols(cards):
    text = "".join(card_str(c).replace("T", "10") for c in cards)
    text = text.translate(str.maketrans("cdhs", "♣♦♥♠"))
    assert parse_cards(text) == cards


@given(st.lists(st.integers(0, 51), min_size=2).filter(lambda xs: len(set(xs)) < len(xs)))
def test_repeats_always_rejected(cards):
    with pytest.raises(CardError, match=r"^duplicate card "):
        parse_cards(cards_str(cards))


@given(st.text(max_size=12))
def test_arbitrary_text_never_crashes(text):
    # Either a list of valid distinct cards or a CardError, never anything else.
    try:
        cards = parse_cards(text)
    except CardError as e:
        assert re.match(r"(unknown|duplicate) card ", str(e))
        assert len(str(e).splitlines()) == 1  # one-line messages, even for odd input
    else:
        assert len(set(cards)) == len(cards)
        assert all(0 <= c < 52 for c in cards)
