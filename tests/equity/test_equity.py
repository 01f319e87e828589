"""pokereval.equity (through pokereval.api.equity): exact answers against the reference vectors and the naive
oracle, Monte Carlo against exact, invariants, reproducibility, bad input,
progress and interruption."""
import json
import math
import random
import time
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

import naive
from pokereval.api import equity
from pokereval.cards import cards_str
from pokereval.equity import options as O
from pokereval.equity import plan as P
from pokereval.equity import runner as R
from pokereval.equity.options import parse_options
from pokereval.equity.results import EquityResult, PlayerResult
from pokereval.equity.run import execute
from pokereval.equity.spot import parse_spot
from pokereval.errors import CardError, GameError, HandError, PokerEvalError
from pokereval.games import get_game

SPOTS = naive.load_jsonl("spots.jsonl")
FIELDS = ("equity", "high_win", "high_tie", "low_win", "low_tie", "scoop")
ALL_GAMES = ["holdem", "omaha", "omaha-hilo", "omaha5", "omaha5-hilo", "courchevel",
             "courchevel-hilo", "stud", "stud-hilo", "razz"]


def check_fields(result, expected, tol=1e-9):
    assert len(result.players) == len(expected)
    for player, want in zip(result.players, expected):
        for f in FIELDS:
            assert getattr(player, f) == pytest.approx(want[f], abs=tol), f


def check_consistent(result):
    """Invariants every exact result satisfies."""
    assert sum(p.equity_fraction for p in result.players) == 1
    n = len(result.players)
    for p in result.players:
        assert p.outcomes.shape == (n + 1, n + 2)
        assert p.outcomes.sum() == result.samples
        assert p.equity == float(p.equity_fraction)
        assert p.std_error == 0.0


def equity_in(backend, game, hands, board="", dead="", *, exact=None, samples=None,
              stderr=None, seed=None, threads=None, progress=None, batch_seconds=None):
    """``equity(...)`` with an exact stud walk sent to ``backend`` ("c" or "numba") whatever
    the plan would choose (its method, samples and target kept); an exact board spot is
    walked in C always, and with "numba" (the other path) in three shares on threads."""
    spot = parse_spot(game, hands, board, dead)
    opts = parse_options(exact, samples, stderr, seed, threads, progress)
    p = P.plan(spot, opts)
    if p.method == "exact" and spot.game.stud:
        p = replace(p, backend=backend)
    elif p.method == "exact" and backend == "numba":
        opts = parse_options(exact, samples, stderr, seed, 3, progress)
        p = replace(p, cost_ns=1e15)  # worth three threads, however small
    if batch_seconds is not None:
        p = replace(p, batch_seconds=batch_seconds)
    return execute(spot, opts, p, time.perf_counter())


def in_kernels(*args, **kwargs):
    """Every exact stud spot walked in the Numba kernels (not in C); board spots in C, in
    three shares."""
    return equity_in("numba", *args, **kwargs)


# --------------------------------------------------------------------------
# Reference vectors: all 60 spots, exactly
# --------------------------------------------------------------------------

@pytest.mark.parametrize("spot", SPOTS, ids=[s["id"] for s in SPOTS])
def test_reference_spot(spot):
    r = equity(spot["game"], spot["hands"], spot["board"], spot["dead"], exact=True)
    assert r.exact and not r.partial
    assert r.samples == spot["runouts"]
    check_fields(r, spot["results"])
    check_consistent(r)


SMALL_SPOTS = [s for s in SPOTS if s["runouts"] * len(s["hands"]) <= P.SMALL_EXACT]
BOARD_SPOTS = [s for s in SPOTS if not get_game(s["game"]).stud]


@pytest.mark.parametrize("spot", SMALL_SPOTS, ids=[s["id"] for s in SMALL_SPOTS])
def test_reference_spot_in_kernels(spot):
    r = in_kernels(spot["game"], spot["hands"], spot["board"], spot["dead"], exact=True)
    assert r.samples == spot["runouts"]
    check_fields(r, spot["results"])
    check_consistent(r)


@pytest.mark.parametrize("spot", BOARD_SPOTS, ids=[s["id"] for s in BOARD_SPOTS])
def test_reference_spot_walked_in_c_in_shares(spot):
    r = in_kernels(spot["game"], spot["hands"], spot["board"], spot["dead"], exact=True)
    assert r.samples == spot["runouts"]
    check_fields(r, spot["results"])
    check_consistent(r)


def test_auto_enumerates_the_reference_spots():
    for spot in SPOTS:
        if spot["runouts"] > 200_000:
            continue  # covered by test_reference_spot; keep this one quick
        r = equity(spot["game"], spot["hands"], spot["board"], spot["dead"])
        assert r.exact, spot["id"]
        check_fields(r, spot["results"])


# --------------------------------------------------------------------------
# The naive oracle on random small spots (exact Fractions)
# --------------------------------------------------------------------------

def random_spot(game, rnd, *, players=None, board=None, dead=None, street=None):
    g = get_game(game)
    deck = list(range(52))
    rnd.shuffle(deck)
    n = players or rnd.randint(2, 4)
    if g.stud:
        street = street or rnd.choice([6, 6, 7])
        hands = [deck[i * street:(i + 1) * street] for i in range(n)]
        used = n * street
        board_cards = []
    else:
        hands = [deck[i * g.hole:(i + 1) * g.hole] for i in range(n)]
        used = n * g.hole
        nb = board if board is not None else rnd.choice([3, 4, 4, 5])
        board_cards = deck[used:used + nb]
        used += nb
    nd = dead if dead is not None else rnd.choice([0, 0, 2])
    dead_cards = deck[used:used + nd]
    return [cards_str(h) for h in hands], cards_str(board_cards), cards_str(dead_cards)


def naive_check(game, hands, board, dead, result):
    ref = naive.reference_equity(game, hands, board, dead)
    assert result.samples == ref.runouts
    for player, want in zip(result.players, ref.players):
        assert player.equity_fraction == want["equity"]
        for f in FIELDS[1:]:
            assert getattr(player, f) == pytest.approx(float(want[f]), abs=1e-12), f


@pytest.mark.parametrize("game", ALL_GAMES)
def test_random_spots_against_naive(game):
    rnd = random.Random(f"naive-{game}")
    for _ in range(3):
        hands, board, dead = random_spot(game, rnd)
        if get_game(game).stud and len(hands[0]) == 12 and len(hands) > 2:
            hands = hands[:2]  # keep the oracle quick
        r = equity(game, hands, board, dead, exact=True)
        naive_check(game, hands, board, dead, r)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_random_spots_against_naive_in_kernels(game):
    rnd = random.Random(f"naive-kernel-{game}")
    for _ in range(2):
        hands, board, dead = random_spot(game, rnd, players=rnd.randint(2, 3))
        if get_game(game).stud and len(hands[0]) == 12 and len(hands) > 2:
            hands = hands[:2]
        r = in_kernels(game, hands, board, dead, exact=True)
        naive_check(game, hands, board, dead, r)


def test_multiway_board_spots_against_naive():
    rnd = random.Random(99)
    for game, n in [("holdem", 9), ("omaha-hilo", 7), ("omaha5-hilo", 6), ("courchevel-hilo", 5)]:
        hands, board, dead = random_spot(game, rnd, players=n, board=4, dead=1)
        r = in_kernels(game, hands, board, dead, exact=True)
        naive_check(game, hands, board, dead, r)


# --------------------------------------------------------------------------
# Stud streets and the eight-handed rule
# --------------------------------------------------------------------------

def test_eight_handed_sixth_street_shares_the_river():
    rnd = random.Random(8)
    hands, _, _ = random_spot("stud-hilo", rnd, players=8, street=6, dead=0)
    for game in ("stud", "stud-hilo", "razz"):
        r = equity(game, hands)
        assert r.exact and r.samples == 4  # 4 unseen cards, one shared seventh card
        check_consistent(r)
        naive_check(game, hands, "", "", r)


def test_eight_handed_in_kernels():
    rnd = random.Random(88)
    hands, _, _ = random_spot("stud", rnd, players=8, street=6, dead=0)
    r = in_kernels("stud-hilo", hands, dead="")
    naive_check("stud-hilo", hands, "", "", r)
    # seven players on fifth street, three folded cards dead: 10 unseen for 14 cards
    rnd = random.Random(7)
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = [cards_str(deck[i * 5:(i + 1) * 5]) for i in range(7)]
    dead = cards_str(deck[35:42])
    r = in_kernels("razz", hands, dead=dead, exact=True)
    u = 52 - 35 - 7
    assert r.samples == u * math.perm(u - 1, 7)  # shared card, then one own card each
    check_consistent(r)


def test_eight_handed_monte_carlo_agrees_with_exact():
    rnd = random.Random(5)
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = [cards_str(deck[i * 5:(i + 1) * 5]) for i in range(8)]
    dead = cards_str(deck[40:43])
    exact = equity("stud-hilo", hands, dead=dead, exact=True)
    mc = equity("stud-hilo", hands, dead=dead, samples=100_000, seed=1)
    assert not mc.exact and mc.samples == 100_000
    for a, b in zip(exact.players, mc.players):
        assert abs(a.equity - b.equity) <= 4 * b.std_error + 1e-12


def test_stud_streets():
    r = equity("stud-hilo", ["Ac2c3h5d6s7h", "KdKhQcQh4s4d"])
    assert r.exact and r.samples == 40 * 39
    r = equity("razz", ["Ac2c3h5d6s7h8d", "KdKhQcQh4s4d9c"])
    assert r.exact and r.samples == 1


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------

def test_example_from_the_design():
    r = equity("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], board="7c8d9h", dead="2h")
    assert r.exact and r.samples == 780
    assert r.game == "omaha-hilo"
    assert r.hands == ["AhAd2c3s", "KsKdQhJh"]
    assert r.board == "7c8d9h" and r.dead == "2h"
    check_consistent(r)


def test_quartered_and_three_quarters():
    r = equity("omaha-hilo", ["AhKh2hQh", "Ac2c9d9s"], board="3c4d8hKsKd")
    a, b = r.players
    assert a.equity_fraction == Fraction(3, 4) and b.equity_fraction == Fraction(1, 4)
    assert a.three_quarters == 1.0 and a.quartered == 1.0 and a.scoop == 0.0
    assert b.three_quarters == 0.0 and b.quartered == 1.0
    assert a.no_low == 0.0 and a.high_win == 1.0 and a.low_tie == 1.0


def test_spot_002_is_quartered():
    spot = next(s for s in SPOTS if s["id"] == "spot-002")
    r = equity(spot["game"], spot["hands"], spot["board"])
    assert [p.quartered for p in r.players] == [1.0, 1.0, 0.0]
    assert [p.equity_fraction for p in r.players] == [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]


def test_outcome_matrix_derivations():
    r = equity("omaha-hilo", ["Ac2cJsTs", "4h5h9c9s"], board="Th9dKs")  # no low possible
    for p in r.players:
        assert p.no_low == 1.0 and p.low_win == 0.0 and p.outcomes[:, 1:].sum() == 0
        assert p.scoop == p.high_win
    r = equity("razz", ["Ac2s3h5dKhKd", "2c4d6s7hQsQd"])
    for p in r.players:
        assert p.high_win == 0.0 and p.high_tie == 0.0 and p.scoop == p.low_win
        assert p.outcomes[1:, :].sum() == 0 and p.outcomes[:, 0].sum() == 0
        assert p.no_low == 0.0
    r = equity("holdem", ["AsKs", "QdQc"], board="2s7s9h")
    for p in r.players:
        assert p.low_win == 0.0 and p.low_tie == 0.0 and p.scoop == p.high_win
        assert p.outcomes[:, 1:].sum() == 0


def test_to_dict_is_json_ready_with_stable_fields():
    r = equity("stud-hilo", ["Ad2s4c6h8dQc", "JcJhTsTh9d9c"], dead="3h7s")
    d = json.loads(json.dumps(r.to_dict()))
    assert list(d) == ["game", "hands", "board", "dead", "exact", "samples", "partial",
                       "seed", "elapsed", "players"]
    assert list(d["players"][0]) == ["hand", "equity", "high_win", "high_tie", "low_win",
                                     "low_tie", "scoop", "std_error", "three_quarters",
                                     "quartered", "no_low", "outcomes", "equity_fraction"]
    assert d["exact"] is True and d["samples"] == 1406 and d["dead"] == "3h7s"
    frac = d["players"][0]["equity_fraction"]
    assert Fraction(frac) == r.players[0].equity_fraction
    mc = equity("stud-hilo", ["Ad2s4c6h8dQc", "JcJhTsTh9d9c"], samples=5000, seed=2).to_dict()
    assert mc["players"][0]["equity_fraction"] is None and mc["exact"] is False
    assert mc["seed"] == 2 and d["seed"] is None  # a sampled run can be reproduced
    assert isinstance(r, EquityResult) and isinstance(r.players[0], PlayerResult)


# --------------------------------------------------------------------------
# Invariants
# --------------------------------------------------------------------------

@pytest.mark.parametrize("game", ALL_GAMES)
def test_permuting_seats_permutes_results(game):
    rnd = random.Random(f"perm-{game}")
    hands, board, dead = random_spot(game, rnd, players=3)
    r = equity(game, hands, board, dead)
    order = [2, 0, 1]
    q = equity(game, [hands[i] for i in order], board, dead)
    for j, i in enumerate(order):
        assert q.players[j].equity_fraction == r.players[i].equity_fraction
        np.testing.assert_array_equal(q.players[j].outcomes, r.players[i].outcomes)


@pytest.mark.parametrize("game, hands, board", [
    ("holdem", ["AhKh", "AsKs"], "7c8d9c"),
    ("holdem", ["AhKh", "AsKs"], ""),
    ("omaha-hilo", ["AhKh2c3d", "AsKs2d3c"], "7c7d"),
    ("courchevel-hilo", ["AhKh2c3d4c", "AsKs2d3c4d"], "8c8d"),
    ("stud-hilo", ["Ah2h3h4c", "As2s3s4d"], ""),
    ("razz", ["Ah2h3h4c5d", "As2s3s4d5c"], ""),
])
def test_suit_symmetric_hands_split(game, hands, board):
    r = equity(game, hands, board)
    assert r.players[0].equity_fraction == r.players[1].equity_fraction == Fraction(1, 2)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_finished_board_gives_whole_halves_and_quarters(game):
    rnd = random.Random(f"river-{game}")
    for _ in range(5):
        g = get_game(game)
        hands, board, dead = random_spot(game, rnd, board=5, street=7, players=rnd.randint(2, 5))
        r = equity(game, hands, board, dead)
        assert r.exact and r.samples == 1
        for p in r.players:
            assert (2 * math.lcm(*range(1, len(hands) + 1))) % p.equity_fraction.denominator == 0
            assert p.outcomes.sum() == 1
        assert sum(p.equity_fraction for p in r.players) == 1
        if not g.split:
            winners = [p for p in r.players if p.equity > 0]
            assert all(p.equity_fraction == Fraction(1, len(winners)) for p in winners)


@pytest.mark.parametrize("game, board", [("holdem", 3), ("omaha-hilo", 4), ("omaha5-hilo", 4)])
def test_ten_players(game, board):
    # the largest table: every field against the independent reference, as fractions
    rnd = random.Random(f"ten-{game}")
    players = 9 if game == "omaha5-hilo" else 10  # 10 x 5 hole cards + 4 board > 52
    hands, board_cards, _ = random_spot(game, rnd, players=players, board=board, dead=0)
    r = equity(game, hands, board_cards, exact=True)
    check_consistent(r)
    naive_check(game, hands, board_cards, "", r)


# --------------------------------------------------------------------------
# Monte Carlo
# --------------------------------------------------------------------------

MC_SPOTS = [s for s in SPOTS if s["runouts"] > 5000]
MC_BY_GAME = {}
for _s in MC_SPOTS:
    MC_BY_GAME.setdefault(_s["game"], _s)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_monte_carlo_within_four_standard_errors(game):
    spot = MC_BY_GAME.get(game)
    if spot is None:  # no big reference spot for this game: use a random flop
        hands, board, dead = random_spot(game, random.Random(f"mc-{game}"), players=3, board=3)
        expected = [{f: getattr(p, f) for f in FIELDS}
                    for p in equity(game, hands, board, dead, exact=True).players]
    else:
        hands, board, dead, expected = spot["hands"], spot["board"], spot["dead"], spot["results"]
    r = equity(game, hands, board, dead, samples=60_000, seed=12345)
    assert not r.exact and r.samples == 60_000
    for p, want in zip(r.players, expected):
        assert p.std_error > 0 or want["equity"] in (0.0, 1.0)
        assert abs(p.equity - want["equity"]) <= 4 * p.std_error + 1e-9
        for f in FIELDS[1:]:
            sd = math.sqrt(want[f] * (1 - want[f]) / r.samples)
            assert abs(getattr(p, f) - want[f]) <= 4.5 * sd + 1e-9, f


@pytest.mark.parametrize("game, hands, board", [
    ("omaha-hilo", ["AcAs3d4h", "KhKcJdTd", "9s8s7c6c"], ""),
    ("stud-hilo", ["Ac2c3h", "KdKhQc", "9s8s7c"], ""),
])
def test_same_seed_same_answer_whatever_the_threads(game, hands, board):
    one = equity(game, hands, board, samples=50_000, seed=42, threads=1)
    two = equity(game, hands, board, samples=50_000, seed=42, threads=2)
    again = equity(game, hands, board, samples=50_000, seed=42)
    for a, b, c in zip(one.players, two.players, again.players):
        np.testing.assert_array_equal(a.outcomes, b.outcomes)
        np.testing.assert_array_equal(a.outcomes, c.outcomes)
        assert a.equity == b.equity and a.std_error == b.std_error
    other = equity(game, hands, board, samples=50_000, seed=43)
    assert any(not np.array_equal(a.outcomes, b.outcomes) for a, b in zip(one.players, other.players))
    assert one.seed == 42


def test_stderr_target():
    r = equity("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], stderr=0.003, seed=1)
    assert not r.exact and max(p.std_error for p in r.players) <= 0.003
    assert r.samples < 200_000
    r2 = equity("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], stderr=0.003, seed=1, threads=1)
    assert r2.samples == r.samples and r2.players[0].equity == r.players[0].equity


def test_auto_samples_big_spots():
    r = equity("stud-hilo", ["Ac2c3h", "KdKhQc"], seed=3)  # third street: 1.8e10 run-outs
    assert not r.exact and r.samples >= R.MIN_STDERR_SAMPLES
    assert max(p.std_error for p in r.players) <= O.DEFAULT_STDERR
    assert sum(p.equity for p in r.players) == pytest.approx(1.0)
    r = equity("stud", ["Ac2c3h", "KdKhQc"], exact=False, seed=3)
    assert not r.exact


def test_mc_without_seed_reports_its_seed():
    r = equity("holdem", ["AhKh", "QsQd"], samples=3000)
    again = equity("holdem", ["AhKh", "QsQd"], samples=3000, seed=r.seed)
    assert [p.equity for p in r.players] == [p.equity for p in again.players]


# --------------------------------------------------------------------------
# Progress and interruption
# --------------------------------------------------------------------------

def test_progress_gets_partial_results():
    seen = []
    r = equity("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], samples=400_000, seed=1,
               progress=seen.append)
    assert seen and all(p.partial for p in seen)
    assert [p.samples for p in seen] == sorted(p.samples for p in seen)
    assert all(0 < p.fraction_done < 1 for p in seen)
    assert not r.partial and r.samples == 400_000 and r.fraction_done == 1.0


def test_ctrl_c_returns_the_partial_result():
    calls = []

    def interrupt(partial):
        calls.append(partial.samples)
        if len(calls) == 2:
            raise KeyboardInterrupt

    r = equity("omaha-hilo", ["AcAs3d4h", "KhKcJdTd"], samples=2_000_000, seed=1, progress=interrupt)
    assert r.partial and not r.exact
    assert r.samples == calls[-1] and 0 < r.samples < 2_000_000
    assert sum(p.equity for p in r.players) == pytest.approx(1.0)


def test_ctrl_c_during_exact_enumeration():
    def interrupt(partial):
        raise KeyboardInterrupt

    # a stud spot: the kernels enumerate it in batches (a board spot is one C walk of a
    # few milliseconds at most)
    r = in_kernels("stud-hilo", ["As2s3d4c", "KhKdQcJc"], exact=True, progress=interrupt,
                   batch_seconds=0.01)
    assert r.partial and r.exact and 0 < r.samples < 13_244 * 10_660  # C(44, 3) C(41, 3)
    assert r.players[0].equity_fraction is None


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------

BAD = [
    (dict(game="omaha9", hands=["AhKh", "QsQd"]), GameError, "omaha9"),
    (dict(game="holdem", hands=["AhKx", "QsQd"]), CardError, "Kx"),
    (dict(game="holdem", hands=["AhAh", "QsQd"]), CardError, "Ah"),
    (dict(game="holdem", hands=["AhKh", "AhQd"]), CardError, "player 1 and player 2"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], board="2c3cKh"), CardError, "player 1 and board"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], dead="Qs"), CardError, "player 2 and dead"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], board="2c3c", dead="3c"), CardError, "board and dead"),
    (dict(game="omaha-hilo", hands=["AhKh2c3c", "QsQd2d"]), HandError,
     "omaha-hilo needs 4 hole cards but player 2 has 3"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], board="2c3c4c5c6c7c"), HandError, "at most 5 board"),
    (dict(game="holdem", hands=["AhKh"]), HandError, "at least 2"),
    (dict(game="holdem", hands=[]), HandError, "at least 2"),
    (dict(game="holdem", hands=[cards_str([2 * i, 2 * i + 1]) for i in range(11)]), HandError,
     "at most 10"),
    (dict(game="stud", hands=[cards_str([3 * i, 3 * i + 1, 3 * i + 2]) for i in range(9)]),
     HandError, "at most 8"),
    (dict(game="omaha5", hands=[cards_str(range(5 * i, 5 * i + 5)) for i in range(10)]), HandError,
     "too many players"),
    (dict(game="courchevel-hilo", hands=["AhKh2c3c4c", "QsQd2d3d4d"]), HandError, "omaha5"),
    (dict(game="stud", hands=["AhKh2c", "QsQd"]), HandError, "player 2 has 2"),
    (dict(game="stud", hands=["AhKh2c", "QsQd2d3d"]), HandError, "same street"),
    (dict(game="stud", hands=["AhKh2c", "QsQd2d"], board="5c"), HandError, "no board"),
    (dict(game="razz", hands=["AhKh2c3c4c5c6c7c", "QsQd2d"]), HandError, "player 1 has 8"),
    (dict(game="holdem", hands="AhKhQsQd"), HandError, "list of hands"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], samples=0), HandError, "samples"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], samples=-3), HandError, "samples"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], samples=2.5), HandError, "samples"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], samples="many"), HandError, "samples"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], samples=True), HandError, "samples"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], stderr=0), HandError, "stderr"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], stderr=-0.1), HandError, "stderr"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], stderr=float("nan")), HandError, "stderr"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], stderr="x"), HandError, "stderr"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], threads=0), HandError, "threads"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], threads="two"), HandError, "threads"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], exact=True, samples=1000), HandError, "exact=True"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], exact=True, stderr=0.01), HandError, "exact=True"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], exact="yes"), HandError, "exact"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], seed="abc"), HandError, "seed"),
    (dict(game="holdem", hands=["AhKh", "QsQd"], progress=5), HandError, "progress"),
    (dict(game="holdem", hands=["AhKh", 7]), CardError, "player 2"),
]


@pytest.mark.parametrize("kwargs, error, text", BAD, ids=[b[2] for b in BAD])
def test_bad_input(kwargs, error, text):
    with pytest.raises(error) as info:
        equity(**kwargs)
    assert isinstance(info.value, PokerEvalError) and isinstance(info.value, ValueError)
    message = str(info.value)
    assert text in message and "\n" not in message


def test_stud_deck_too_small():
    # 8 players on third street with 20 dead cards: 4 unseen for 25 cards
    hands = [cards_str([3 * i, 3 * i + 1, 3 * i + 2]) for i in range(8)]
    with pytest.raises(HandError, match="too many players"):
        equity("stud", hands, dead=cards_str(range(24, 44)))
