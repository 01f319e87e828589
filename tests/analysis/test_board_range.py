"""Board and dead cards written as ranges: the listed boards come from the
meaning (enumerated here with itertools), and the averaged equity equals the
explicit union of the exact boards' runs."""
from __future__ import annotations

import itertools
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import pokereval as pe
from pokereval.analysis.board_range import card_range
from pokereval.errors import HandError
from pokereval.ranges import RangeError

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def name(c: int) -> str:
    return RANKS[c // 4] + SUITS[c % 4]


def boards_where(size, meaning):
    return {b for b in itertools.combinations(range(52), size) if meaning(b)}


def rank_of(c):
    return c // 4


def suit_of(c):
    return c % 4


@pytest.mark.parametrize("text,size,meaning", [
    ("K**", 3, lambda b: any(rank_of(c) == 11 for c in b)),                       # flops with a king
    ("Aw9x2y", 3, lambda b: sorted(map(rank_of, b)) == [0, 7, 12]
     and len(set(map(suit_of, b))) == 3),                                          # rainbow A-9-2
    ("*s*s*s", 3, lambda b: all(suit_of(c) == 3 for c in b)),                      # monotone spades
    ("RR*", 3, lambda b: len(set(map(rank_of, b))) < 3),                           # paired flops
    ("xx*", 3, lambda b: len(set(map(suit_of, b))) < 3),                          # two-tone or one suit
    ("[A,K]h*", 2, lambda b: any(c in (50, 46) for c in b)),
])
def test_board_ranges_list_the_boards_they_mean(text, size, meaning):
    rows, weights = card_range("omaha", text, "board")
    assert rows.shape[1] == size
    assert {tuple(map(int, r)) for r in rows} == boards_where(size, meaning)
    assert (weights == 1).all()


def explicit_union(game, hands, boards, dead_sets=((),), weights=None):
    """Outcome counts added over the listed exact boards (weighted), from plain equity runs."""
    total = None
    for i, (b, d) in enumerate(itertools.product(boards, dead_sets)):
        if set(b) & set(d):
            continue
        try:
            r = pe.equity(game, hands, "".join(map(name, b)), "".join(map(name, d)), exact=True)
        except pe.PokerEvalError:  # the board uses a card of a hand
            continue
        w = 1 if weights is None else weights[i]
        counts = np.array([p.outcomes for p in r.players], dtype=object) * w
        total = counts if total is None else total + counts
    return total


def test_rainbow_flop_equals_the_union_of_its_boards():
    hands = ["AhAd", "KsKd"]
    boards = boards_where(3, lambda b: sorted(map(rank_of, b)) == [0, 7, 12]
                          and len(set(map(suit_of, b))) == 3)
    r = pe.equity("holdem", hands, board="Aw9x2y")
    assert r.exact and r.boards == 12  # the aces of hearts and diamonds are held
    expected = explicit_union("holdem", hands, sorted(boards))
    got = np.array([p.outcomes for p in r.players], dtype=object)
    assert (got * 1 == expected).all()
    assert r.players[0].equity_fraction == Fraction(int(expected[0][1].sum()),
                                                    int(expected[0].sum()))


def test_ranged_hand_with_a_board_range_is_the_joint_union():
    hands = ["AA", "KsKd"]
    boards = sorted(boards_where(3, lambda b: all(suit_of(c) == 3 for c in b)
                                 and sorted(map(rank_of, b)) in ([0, 1, 2], [3, 4, 5])))
    r = pe.equity("holdem", hands, board="[2-4]s[2-4]s[2-4]s, [5-7]s[5-7]s[5-7]s", exact=True)
    expected = explicit_union("holdem", hands, boards)
    got = np.array([p.outcomes for p in r.players], dtype=object)
    assert (got * 1 == expected).all()


def test_board_weights_and_dead_ranges():
    hands = ["AhKh", "QsQd"]
    r = pe.equity("holdem", hands, board="2h7c9h@3, 2c7d9s", exact=True)
    expected = explicit_union("holdem", hands, [(2, 21, 30), (0, 21, 31)], weights=[3, 1])
    got = np.array([p.outcomes for p in r.players], dtype=object)
    assert (got * 1 == expected).all()
    r = pe.equity("holdem", hands, board="2h7c9h", dead="[Ac,Ad,Qc]", exact=True)
    expected = explicit_union("holdem", hands, [(2, 21, 30)], dead_sets=[(48,), (49,), (40,)])
    got = np.array([p.outcomes for p in r.players], dtype=object)
    assert (got * 1 == expected).all() and r.boards == 3


def test_monte_carlo_over_boards_is_near_exact_and_seeded():
    hands = ["AhAd", "KcKd"]
    exact = pe.equity("holdem", hands, board="*s*s*s", exact=True)
    mc = pe.equity("holdem", hands, board="*s*s*s", samples=40_000, seed=7)
    again = pe.equity("holdem", hands, board="*s*s*s", samples=40_000, seed=7)
    assert not mc.exact and mc.equities == again.equities
    se = mc.players[0].std_error
    assert 0 < se < 0.05
    assert abs(mc.equities[0] - exact.equities[0]) < 5 * se


def test_board_range_errors():
    with pytest.raises(HandError, match="has no board"):
        pe.equity("stud", ["AhKdQc", "2c3c4c"], board="K**")
    with pytest.raises(RangeError) as info:
        pe.equity("omaha", ["AhAd2c3s", "KsKdQhJh"], board="K*#")
    assert "board" in str(info.value) and info.value.position == 3
    with pytest.raises(HandError, match="no board"):
        pe.equity("holdem", ["AhAd", "AsAc"], board="A**")
    with pytest.raises(HandError, match="limit"):
        pe.equity("omaha", ["AhAd2c3s", "KsKdQhJh"], board="*****")  # 2.6 M boards


@pytest.mark.parametrize("hands, error, message", [
    (["AhKh2c3c", "2d"], HandError, "needs 4 hole cards but player 2 has 1"),
    (["AhKh2c3c", "2c3d4d5d"], pe.CardError, "duplicate card 2c in player 1 and player 2"),
    (["AhKh2c3c", "KK*#"], RangeError, "unknown symbol '#'"),
])
def test_a_hand_wrong_on_every_board_is_named_once(hands, error, message):
    """A fault of the hands alone is reported as such, not as "no board fits" (the
    boards that collide with a hand used to fail another way than the others)."""
    with pytest.raises(error, match=message):
        pe.equity("omaha", hands, board="2h**, Kd**")


def test_cli_equity_with_a_board_range():
    run = [sys.executable, "-m", "pokereval", "equity", "holdem", "AhAd", "KsKd"]
    ok = subprocess.run(run + ["--board", "Aw9x2y", "--json"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert '"board": "Aw9x2y"' in ok.stdout and '"exact": true' in ok.stdout
    bad = subprocess.run(run + ["--board", "Aw9x2#"], capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "position 6" in bad.stderr
