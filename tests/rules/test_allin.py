"""allin_ev against the exact enumeration of settle over every run-out (the same
fractions), the Monte Carlo mode, and bad input."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import naive
import pokereval as pe


def enumerate_settle(game, hands, board="", dead="", *, contributions, folded=(), button=None,
                     rake=0):
    """Mean of settle's collected over every run-out (naive.runouts deals them)."""
    seats = sorted(hands)
    known = {s: naive.parse_cards(hands[s]) for s in seats}
    live = [s for s in seats if s not in folded]
    dead_cards = naive.parse_cards(dead) + [c for s in seats if s in folded for c in known[s]]
    totals = {s: 0 for s in contributions}
    count = 0
    for deal in naive.runouts(game, [known[s] for s in live], naive.parse_cards(board), dead_cards):
        full = {s: naive.cards_str(hole) for s, (hole, _) in zip(live, deal)}
        r = pe.settle(game, full, naive.cards_str(deal[0][1]), contributions=contributions,
                      folded=folded, button=button, rake=rake)
        for s, v in r.collected.items():
            totals[s] += v
        count += 1
    return {s: Fraction(v, count) for s, v in totals.items()}, count


SPOTS = [
    # three all-ins of different sizes in omaha hi/lo, odd pots, a folded player's money
    ("omaha-hilo", {1: "Ah2h3c9d", 2: "KsKdQhJh", 3: "As4c5d6h", 4: "7s6c8h8c"}, "7c8d9h",
     dict(contributions={1: 101, 2: 333, 3: 1000, 4: 20}, folded=[4], button=3)),
    ("omaha-hilo", {1: "Ah2h3c9d", 2: "KsKdQhJh", 3: "As4c5d6h"}, "Kc8d5hTs",
     dict(contributions={1: 57, 2: 211, 3: 211}, button=1, rake=7)),
    ("holdem", {1: "AhAd", 2: "KsKd", 3: "7c2d"}, "Kc8d2h",
     dict(contributions={1: 500, 2: 203, 3: 501}, button=2)),
    ("holdem", {2: "5h4h", 5: "5c4c", 7: "5d4d"}, "6s7s8c",   # three-way chops, odd chips
     dict(contributions={2: 100, 5: 100, 7: 101, 9: 2}, folded=[9], button=5)),
    ("courchevel-hilo", {1: "AhKh2c3c4s", 2: "QsQdJhTh9c"}, "5h6d7s8c",
     dict(contributions={1: 99, 2: 100})),
    ("stud-hilo", {1: "As2s3d4h5s9d", 2: "Ah2d3c4s5h9c"}, "",
     dict(contributions={1: 51, 2: 103})),
    pytest.param("stud-hilo", {1: "As2s3d4h5s9d", 2: "Ah2d3c4s5h9c", 3: "KcKdQhJsTd8s"}, "",
                 dict(contributions={1: 51, 2: 101, 3: 103}), marks=pytest.mark.slow,
                 id="stud-hilo-3way"),
    ("razz", {1: "As2s3d4h5s9d", 2: "Ah2d3c4s5h9c"}, "", dict(contributions={1: 51, 2: 50})),
    ("stud", {1: "As2s3d4h5s9d", 2: "Ah2d3c4s5h9c", 3: "KcKdQhJsTd8s"}, "",
     dict(contributions={1: 10, 2: 10, 3: 10}, folded=[3])),
]


@pytest.mark.parametrize("game,hands,board,kw", SPOTS)
def test_allin_ev_is_settle_over_every_runout(game, hands, board, kw):
    r = pe.allin_ev(game, hands, board, **kw)
    want, count = enumerate_settle(game, hands, board, **kw)
    assert r.exact and r.samples == count
    assert r.ev_fraction == want
    assert sum(r.ev_fraction.values()) + kw.get("rake", 0) == sum(kw["contributions"].values())


def test_dead_cards_and_folded_hands_leave_the_deck():
    kw = dict(contributions={1: 100, 2: 100})
    r = pe.allin_ev("holdem", {1: "AhAd", 2: "KsKd"}, "Kc8d2h", "Kh", **kw)
    want, count = enumerate_settle("holdem", {1: "AhAd", 2: "KsKd"}, "Kc8d2h", "Kh", **kw)
    assert r.ev_fraction == want and count == 946 == r.samples  # C(44, 2)
    folded = pe.allin_ev("holdem", {1: "AhAd", 2: "KsKd", 3: "AsAc"}, "Kc8d2h",
                         contributions={1: 100, 2: 100, 3: 5}, folded=[3])
    assert folded.samples == 903  # C(43, 2): the folded aces are dead


def test_nothing_to_deal():
    r = pe.allin_ev("omaha", {}, contributions={1: 10, 2: 30}, folded=[1])
    assert r.ev_fraction == {1: 0, 2: 40} and r.exact


def test_sampled_is_close_and_repeatable():
    hands = {1: "Ah2h3c9d", 2: "KsKdQhJh", 3: "As4c5d6h"}
    kw = dict(contributions={1: 101, 2: 333, 3: 1000}, button=3)
    exact = pe.allin_ev("omaha-hilo", hands, "7c", **kw)
    a = pe.allin_ev("omaha-hilo", hands, "7c", samples=20_000, seed=5, **kw)
    b = pe.allin_ev("omaha-hilo", hands, "7c", samples=20_000, seed=5, **kw)
    assert exact.exact and not a.exact and a.ev == b.ev and a.samples == 20_000
    for s in hands:
        assert abs(a.ev[s] - exact.ev[s]) < 5 * a.std_error[s] + 1e-9
    assert a.ev_fraction is None and all(a.std_error[s] > 0 for s in hands)


def test_sampled_stud():
    r = pe.allin_ev("stud-hilo", {1: "As2s3d", 2: "KcKdQh"}, contributions={1: 50, 2: 50},
                    samples=5000, seed=1)
    assert not r.exact and abs(sum(r.ev.values()) - 100) < 1e-9


def test_too_big_for_exact_stud():
    with pytest.raises(pe.PokerEvalError, match="give samples=N instead"):
        pe.allin_ev("stud-hilo", {1: "As2s3d", 2: "KcKdQh", 3: "7c7d8h"},
                    contributions={1: 5, 2: 5, 3: 5}, exact=True)


@pytest.mark.parametrize("kwargs,words", [
    (dict(hands={1: "AhAd"}, contributions={1: 5, 2: 5}), "seat 2 is still in the hand"),
    (dict(contributions={1: 5, 2: 5.5}), "whole number of chips"),
    (dict(contributions={1: 5, 2: -5}), "must not be negative"),
    (dict(hands={1: "AhAd", 2: "KsAh"}, contributions={1: 5, 2: 5}), "duplicate card Ah"),
    (dict(contributions={1: 5, 2: 5}, dead="Kc"), "duplicate card Kc"),
    (dict(hands={1: "AhAd", 3: "KsKd"}, contributions={1: 5, 2: 5}), "seat 3"),
    (dict(contributions={1: 5, 2: 5}, exact=True, samples=10), "cannot be combined"),
    (dict(hands={1: "AhAdAc", 2: "KsKd"}, contributions={1: 5, 2: 5}), "2 hole cards"),
])
def test_bad_input(kwargs, words):
    args = dict(hands={1: "AhAd", 2: "KsKd"}, board="Kc8d2h")
    args.update(kwargs)
    with pytest.raises(pe.PokerEvalError) as err:
        pe.allin_ev("holdem", args.pop("hands"), args.pop("board"), **args)
    assert words in str(err.value) and "\n" not in str(err.value)


@st.composite
def turn_spots(draw):
    """Random board-game spots on the turn (one card to come): 2-4 players, random
    all-in sizes (small, so that odd chips and equal levels are common), folds."""
    game = draw(st.sampled_from(["holdem", "omaha", "omaha-hilo", "omaha5-hilo",
                                 "courchevel-hilo"]))
    n = draw(st.integers(2, 4))
    seats = sorted(draw(st.lists(st.integers(0, 9), min_size=n, max_size=n, unique=True)))
    deck = draw(st.permutations(range(52)))
    hole = naive.GAMES[game].hole
    hands = {s: naive.cards_str(deck[i * hole:(i + 1) * hole]) for i, s in enumerate(seats)}
    board = naive.cards_str(deck[n * hole:n * hole + 4])
    chips = {s: draw(st.integers(1, 40)) for s in seats}
    folded = [s for s in seats[:-1] if draw(st.integers(0, 3)) == 0]
    button = draw(st.sampled_from(seats + [None]))
    return game, hands, board, dict(contributions=chips, folded=folded, button=button)


@given(turn_spots())
@settings(max_examples=25, deadline=None)
def test_allin_ev_random_turn_spots(spot):
    game, hands, board, kw = spot
    want, count = enumerate_settle(game, hands, board, **kw)
    r = pe.allin_ev(game, hands, board, **kw)
    assert r.ev_fraction == want
    assert r.samples in (count, 1)  # 1: one player left in every pot, nothing to deal
