"""The game table: fields, name and alias resolution, errors."""

import dataclasses

import pytest

from pokereval.errors import GameError, PokerEvalError
from pokereval.games import GAMES, Game, games, get_game

NAMES = ["holdem", "omaha", "omaha-hilo", "omaha5", "omaha5-hilo",
         "courchevel", "courchevel-hilo", "stud", "stud-hilo", "razz"]


def test_games_in_order():
    assert [g.name for g in games()] == NAMES
    assert list(GAMES) == NAMES
    assert all(GAMES[n].name == n for n in NAMES)


def test_games_returns_a_fresh_list():
    games().clear()
    assert len(games()) == 10


# name: (hole, board, exactly_two, high, low, stud, min_board, min_known, split)
FIELDS = {
    "holdem":          (2, 5, False, True, None, False, 0, 2, False),
    "omaha":           (4, 5, True, True, None, False, 0, 4, False),
    "omaha-hilo":      (4, 5, True, True, "eight", False, 0, 4, True),
    "omaha5":          (5, 5, True, True, None, False, 0, 5, False),
    "omaha5-hilo":     (5, 5, True, True, "eight", False, 0, 5, True),
    "courchevel":      (5, 5, True, True, None, False, 1, 5, False),
    "courchevel-hilo": (5, 5, True, True, "eight", False, 1, 5, True),
    "stud":            (7, 0, False, True, None, True, 0, 3, False),
    "stud-hilo":       (7, 0, False, True, "eight", True, 0, 3, True),
    "razz":            (7, 0, False, False, "razz", True, 0, 3, False),
}


@pytest.mark.parametrize("name", NAMES)
def test_fields(name):
    g = get_game(name)
    got = (g.hole, g.board, g.exactly_two, g.high, g.low, g.stud,
           g.min_board, g.min_known, g.split)
    assert got == FIELDS[name]


def test_titles():
    assert get_game("omaha-hilo").title == "Omaha Hi/Lo"
    assert get_game("omaha5-hilo").title == "5-Card Omaha Hi/Lo"
    assert get_game("courchevel").title == "Courchevel"
    assert get_game("stud-hilo").title == "Seven Card Stud Hi/Lo"
    assert get_game("razz").title == "Razz"
    assert len({g.title for g in games()}) == 10


def test_game_is_frozen_and_hashable():
    g = get_game("omaha")
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.hole = 5
    assert {g: 1}[get_game("plo")] == 1


def test_split_property():
    assert [g.name for g in games() if g.split] == [
        "omaha-hilo", "omaha5-hilo", "courchevel-hilo", "stud-hilo"]
    # split needs both a high pot and an eight-or-better low
    g = Game("x", "X", 7, 0, False, False, "eight", True, 0, 3)
    assert not g.split


@pytest.mark.parametrize(
    "alias, name",
    [("hold'em", "holdem"), ("nlhe", "holdem"), ("texas-holdem", "holdem"),
     ("Texas Hold'em", "holdem"),
     ("plo", "omaha"), ("omaha-hi", "omaha"),
     ("omaha8", "omaha-hilo"), ("o8", "omaha-hilo"), ("plo8", "omaha-hilo"),
     ("omaha-8", "omaha-hilo"), ("omaha-hi-lo", "omaha-hilo"), ("omaha-hi/lo", "omaha-hilo"),
     ("Omaha Hi/Lo", "omaha-hilo"), ("OMAHA_HILO", "omaha-hilo"),
     ("plo5", "omaha5"), ("5-card-omaha", "omaha5"), ("5co", "omaha5"),
     ("5 Card Omaha", "omaha5"),
     ("big-o", "omaha5-hilo"), ("bigo", "omaha5-hilo"), ("Big O", "omaha5-hilo"),
     ("plo5-8", "omaha5-hilo"), ("o5-8", "omaha5-hilo"), ("omaha5-8", "omaha5-hilo"),
     ("omaha5_hilo", "omaha5-hilo"),
     ("Courchevel", "courchevel"),
     ("courchevel8", "courchevel-hilo"), ("courchevel-8", "courchevel-hilo"),
     ("courchevel_hilo", "courchevel-hilo"),
     ("7stud", "stud"), ("seven-card-stud", "stud"), ("7-card-stud", "stud"),
     ("Seven Card Stud", "stud"),
     ("stud8", "stud-hilo"), ("stud-8", "stud-hilo"), ("7stud8", "stud-hilo"),
     ("seven-card-stud-hilo", "stud-hilo"), ("stud-hi-lo", "stud-hilo"),
     ("STUD_HILO", "stud-hilo"),
     ("7-card-razz", "razz"), ("RAZZ", "razz"), (" razz ", "razz")],
)
def test_aliases(alias, name):
    assert get_game(alias).name == name


@pytest.mark.parametrize("name", NAMES)
def test_canonical_names_and_own_aliases_resolve(name):
    g = GAMES[name]
    assert get_game(name) is g
    assert get_game(name.upper().replace("-", "_")) is g
    for alias in g.aliases:
        assert get_game(alias) is g


def test_aliases_are_unique():
    every = [n for g in games() for n in (g.name, *g.aliases)]
    assert len(every) == len(set(every))


def test_game_instance_passes_through():
    g = GAMES["razz"]
    assert get_game(g) is g


@pytest.mark.parametrize("bad", ["omaha9", "", "omaha hilo lo", "hilo", "stud-hilo-8"])
def test_unknown_game(bad):
    expected = f"unknown game '{bad}' (known: {', '.join(NAMES)})"
    with pytest.raises(GameError) as info:
        get_game(bad)
    assert str(info.value) == expected
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, PokerEvalError)


@pytest.mark.parametrize("bad", [None, 5, ["omaha"]])
def test_non_string_game(bad):
    with pytest.raises(GameError, match=r"^unknown game .*\(known: holdem, "):
        get_game(bad)
