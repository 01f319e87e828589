"""Equity with ranges: ``pe.equity`` with patterns and ranges for any player.

The meaning (docs/RANGES.md, "Equity with ranges"): the players' holdings are
drawn jointly, with probability proportional to the product of their weights,
over the combinations that share no card with each other, the board or the
dead cards; then the run-out.  Checked against an independent brute force
(``naive.reference_equity`` per combination of holdings, weight-averaged as
Fractions), exact against Monte Carlo, and the edge cases.
"""
import time
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import product

import numpy as np
import pytest

import naive
from pokereval.api import equity
from pokereval.cards import cards_str, parse_cards
from pokereval.equity import plan as P
from pokereval.equity.options import parse_options
from pokereval.equity.run import RangedRunner, execute
from pokereval.equity.spot import parse_spot
from pokereval.errors import CardError, HandError, PokerEvalError
from pokereval.ranges import RangeError, holdings_excluding, parse_range

FIELDS = ("equity", "high_win", "high_tie", "low_win", "low_tie", "scoop")


@lru_cache(maxsize=None)  # two tests check the engine's two stud paths on one spot
def _brute_force(game, hands, board, dead):
    return brute_force(game, list(hands), board, dead)


def brute_force(game, hands, board="", dead=""):
    """Weight-averaged reference equities over every compatible holding combination."""
    known = parse_cards(board) + parse_cards(dead)
    options = []
    for text in hands:
        try:
            cards = parse_cards(text)
            options.append([(cards, Fraction(1))])
        except CardError:
            r = holdings_excluding(parse_range(game, text), known) if known else parse_range(game, text)
            options.append([(list(map(int, h)), Fraction(repr(float(w))))
                            for h, w in zip(r.holdings, r.weights)])
    totals = [{f: Fraction(0) for f in FIELDS} for _ in hands]
    weight_sum = Fraction(0)
    for combo in product(*options):
        cards = [c for h, _ in combo for c in h]
        if len(set(cards)) != len(cards) or set(cards) & set(known):
            continue
        w = Fraction(1)
        for _, wi in combo:
            w *= wi
        ref = naive.reference_equity(game, [cards_str(h) for h, _ in combo], board, dead)
        weight_sum += w
        for p, res in enumerate(ref.players):
            for f in FIELDS:
                totals[p][f] += w * res[f]
    return [{f: v / weight_sum for f, v in t.items()} for t in totals]


def check_against(result, expected, tol=1e-12):
    for p, want in zip(result.players, expected):
        for f in FIELDS:
            assert getattr(p, f) == pytest.approx(float(want[f]), abs=tol), f


# --------------------------------------------------------------------------
# Brute force over holdings (small spots)
# --------------------------------------------------------------------------

#: a stud range spot (sixth street, one card to come each), checked on both engine paths
STUD_SPOT = ("stud-hilo", ["Ah2h3h4d5c*:*****[6-7]", "KdKc4h9s9dQh"], "", "8c8d")

BRUTE = [
    ("holdem", ["AA", "KhKd"], "2c7d9hTs", ""),
    ("holdem", ["AKs", "QQ, JJ"], "2c7dAh5s", "Kd"),
    ("holdem", ["AA@3, KK", "QsQd"], "2c7d9hTs", ""),
    # suit-symmetric spots: exact runs walk one combination per renaming class
    ("holdem", ["AKs", "QhQd"], "2c3c4c", ""),  # d and h swap: a flop of 2-card classes
    ("holdem", ["AKs, KQs@0.5", "QQ, JJ"], "2c3c4c5c", ""),
    ("omaha-hilo", ["AA2*:$ds", "KhKdQcJc"], "7c8d9h2s", ""),
    ("omaha-hilo", ["AhAd2c3s", "KK[Q-J]5h"], "7c8d9h2s", "4c"),
    ("omaha", ["AsAd**:hh**", "KsKdQsJd"], "7c8d9h2s3c", ""),
    STUD_SPOT,
    ("razz", ["Ah2h3h4d5c[K-Q], Ah2h3h4d5c[7-6]@2", "KdKcQhJh9s8s"], "", "7c"),
]


@pytest.mark.parametrize("game, hands, board, dead", BRUTE, ids=[f"{b[0]}-{i}" for i, b in enumerate(BRUTE)])
def test_brute_force_over_holdings(game, hands, board, dead):
    ranges = [h for h in hands]
    sizes = []
    for h in ranges:
        try:
            parse_cards(h)
            sizes.append(1)
        except CardError:
            sizes.append(len(parse_range(game, h)))
    if np.prod(sizes) > 400 or (game in ("stud-hilo", "razz") and np.prod(sizes) > 60):
        pytest.skip("too big for the brute force")
    want = _brute_force(game, tuple(hands), board, dead)
    r = equity(game, hands, board, dead, exact=True)
    assert r.exact and not r.partial
    check_against(r, want)
    assert sum(p.equity_fraction for p in r.players) == 1
    for p, w in zip(r.players, want):
        assert p.equity_fraction == w["equity"]


def test_brute_force_in_kernels():
    """Stud range spots call the fixed-hand engine per combination: kernels path too."""
    game, hands, board, dead = STUD_SPOT
    assert 1 < len(parse_range(game, hands[0])) <= 60
    spot = parse_spot(game, hands, board, dead)
    opts = parse_options(True, None, None, None, None, None)
    listed = RangedRunner(spot, opts, 0.0).compatible_tuples(P.combinations_to_list(spot, opts))
    p = P.plan(spot, opts, combinations=len(listed))
    assert p.method == "exact" and p.backend == "c"  # small: each combination in C
    r = execute(spot, opts, replace(p, backend="numba"), time.perf_counter())
    check_against(r, _brute_force(game, tuple(hands), board, dead))


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------

@pytest.mark.parametrize("game, a, b, board", [
    ("omaha-hilo", "AhAd2c3s", "KsKdQhJh", "7c8d9h"),
    ("holdem", "AhKh", "QsQd", ""),
    ("stud-hilo", "As2s3d4d", "KhKdQcJc", ""),
    ("omaha5-hilo", "AhAd2c3s4s", "KsKdQhJhTh", "7c8d9h2d"),
])
def test_range_of_one_holding_equals_exact_hand(game, a, b, board):
    exact = equity(game, [a, b], board, exact=True)
    pat = {"omaha-hilo": "****", "holdem": "**", "stud-hilo": "****", "omaha5-hilo": "*****"}[game]
    ranged = equity(game, [f"{a}:{pat}", b], board, exact=True)
    assert ranged.hands[0] == f"{a}:{pat}"
    assert ranged.samples == exact.samples
    for p, q in zip(ranged.players, exact.players):
        assert p.equity_fraction == q.equity_fraction
        assert np.array_equal(p.outcomes, q.outcomes)
    mc_exact = equity(game, [a, b], board, samples=40_000, seed=7)
    mc_range = equity(game, [f"{a}:{pat}", b], board, samples=40_000, seed=7)
    for p, q in zip(mc_range.players, mc_exact.players):
        assert abs(p.equity - q.equity) <= 4 * max(p.std_error, 1e-9) + 4 * q.std_error


@pytest.mark.parametrize("game, rng, board", [
    ("holdem", "AKs, QQ", "2c7d9h"),
    ("omaha-hilo", "AA**:$ds", "7c8d9h2s"),
    ("holdem", "22+", "Kc7d9h2s"),
])
def test_identical_ranges_split_evenly(game, rng, board):
    r = equity(game, [rng, rng], board, exact=True)
    assert r.players[0].equity_fraction == r.players[1].equity_fraction == Fraction(1, 2)
    assert r.players[0].high_win == pytest.approx(r.players[1].high_win)


def test_identical_ranges_split_evenly_monte_carlo():
    r = equity("omaha-hilo", ["AA**", "AA**"], samples=200_000, seed=3)
    a, b = r.players
    assert abs(a.equity - 0.5) <= 4 * a.std_error
    assert a.equity + b.equity == pytest.approx(1.0)


@pytest.mark.parametrize("game, hands, board", [
    ("holdem", ["AA, KK", "AKs"], "2c7d9h"),
    ("omaha-hilo", ["AA**:$ds", "KhKdQcJc"], "7c8d9h"),
    ("omaha-hilo", ["AA2*", "KK**:$ds", "QhQdJcTc"], "7c8d9h2s"),
    ("stud-hilo", ["Ah2h3h4d*, As2s3s4c*", "KdKc4h9s9d"], ""),
])
def test_exact_and_monte_carlo_agree(game, hands, board):
    ex = equity(game, hands, board, exact=True)
    mc = equity(game, hands, board, samples=100_000, seed=11)
    assert ex.exact and not mc.exact
    assert mc.samples == 100_000
    assert 0 < mc.acceptance <= 1
    for p, q in zip(mc.players, ex.players):
        assert abs(p.equity - q.equity) <= 4 * p.std_error + 1e-12


@pytest.mark.parametrize("game, hands, board", [
    ("holdem", ["**", "AhKh", "QQ"], "2c7d9h"),
    ("omaha-hilo", ["****", "AhAd2c3s"], "7c8d9h2s"),
    ("holdem", ["AA, KK", "**"], "2c7d9h8s"),
    # one listed range dealt from its precomputed rest of the deck, against a
    # one-holding range it can collide with (AhAx is rejected) and a random hand
    ("holdem", ["AA", "AhKh:**", "**"], "2c7d9h8s"),
    ("omaha-hilo", ["AA2*", "AhKhQc3d:****"], "7c8d9h2s"),
])
def test_random_hand_dealt_from_the_deck(game, hands, board):
    """A range of every holding is dealt from the deck (never rejected); the answer
    still matches exact enumeration over its listed holdings."""
    ex = equity(game, hands, board, exact=True)
    mc = equity(game, hands, board, samples=100_000, seed=13)
    # nothing to reject unless a one-holding range can share a card with the listed one
    assert mc.acceptance == 1.0 or ":" in hands[1]
    assert 0 < mc.acceptance <= 1
    for p, q in zip(mc.players, ex.players):
        assert abs(p.equity - q.equity) <= 4 * p.std_error + 1e-12


def test_random_hands_split_evenly():
    r = equity("omaha-hilo", ["****", "****"], samples=200_000, seed=4)
    assert r.acceptance == 1.0
    for p in r.players:
        assert abs(p.equity - 0.5) <= 4 * p.std_error


def test_monte_carlo_weights_and_rejection_unbiased():
    """Weights and collisions: MC matches the exact weighted answer."""
    hands = ["AhAd, AhAc@3, KK@0.5", "AhKh, AcKc, QQ"]
    ex = equity("holdem", hands, "2c7d9h8s", exact=True)
    mc = equity("holdem", hands, "2c7d9h8s", samples=300_000, seed=5)
    assert mc.acceptance < 1
    assert ex.acceptance == pytest.approx(mc.acceptance, abs=0.01)
    for p, q in zip(mc.players, ex.players):
        assert abs(p.equity - q.equity) <= 4 * p.std_error


def test_seed_reproducible_across_threads():
    a = equity("omaha-hilo", ["AA**", "****"], samples=50_000, seed=9, threads=1)
    b = equity("omaha-hilo", ["AA**", "****"], samples=50_000, seed=9)
    for p, q in zip(a.players, b.players):
        assert np.array_equal(p.outcomes, q.outcomes)
    assert a.acceptance == b.acceptance


def test_card_removal():
    """Holdings that use a board or dead card drop out: AA on an ace board is AA less that ace."""
    r = equity("holdem", ["AA", "KhKd"], "Ah7c2d", exact=True)
    s = equity("holdem", ["AA!Ah*", "KhKd"], "Ah7c2d", exact=True)
    assert r.players[0].equity_fraction == s.players[0].equity_fraction
    assert r.samples == s.samples == 3 * 990  # 3 holdings x C(45, 2)
    d = equity("holdem", ["AA", "KhKd"], "7c2d", dead="Ah", exact=True)
    assert d.samples == 3 * 14190  # 3 holdings x C(45, 3)


def test_range_collides_entirely_with_board():
    with pytest.raises(RangeError, match="player 1.*no holding"):
        equity("holdem", ["AhK", "QsQd"], "Ah2c3d")


def test_range_collides_entirely_with_exact_hand():
    with pytest.raises(RangeError, match="player 2") as info:
        equity("holdem", ["AsKs", "AsK*"], "")
    assert isinstance(info.value, PokerEvalError) and isinstance(info.value, ValueError)


def test_ranges_never_fit_together():
    with pytest.raises(HandError, match="no combination"):
        equity("holdem", ["AhK", "AhQ"], "")


def test_unparsable_range_names_player_and_position():
    with pytest.raises(RangeError) as info:
        equity("omaha-hilo", ["AhAd2c3s", "AA*%"])
    assert "player 2" in str(info.value) and "position 4" in str(info.value)
    assert info.value.position == 4


def test_existing_card_errors_unchanged():
    with pytest.raises(CardError, match="Kx"):
        equity("holdem", ["AhKx", "QsQd"])
    with pytest.raises(CardError, match="Zz"):
        equity("omaha-hilo", ["AcAsZz4h", "KhKcJdTd"])
    with pytest.raises(HandError):
        equity("omaha-hilo", ["AhKh2c3c", "QsQd2d"])


def test_range_hand_count_and_street_checks():
    with pytest.raises(HandError, match="same street"):
        equity("stud", ["**7s", "AhKdQcJc"])
    with pytest.raises(RangeError, match="player 1"):
        equity("omaha", ["AA***", "KhKdQcJc"])


def test_result_fields():
    r = equity("omaha-hilo", ["AA**:$ds", "KhKdQcJc"], board="7c8d9h2s", exact=True)
    assert r.hands == ["AA**:$ds", "KhKdQcJc"]
    d = r.to_dict()
    assert d["acceptance"] == 1.0 and d["hands"][0] == "AA**:$ds"
    assert r.samples == r.players[0].outcomes.sum()  # equal weights: plain counts
    fixed = equity("omaha-hilo", ["AhAd2c3s", "KhKdQcJc"], board="7c8d9h")
    assert fixed.acceptance is None and "acceptance" not in fixed.to_dict()


def test_weighted_exact_is_a_fraction():
    r = equity("holdem", ["AA@2, KK@0.5", "QsQd"], "2c7d9h8s", exact=True)
    assert sum(p.equity_fraction for p in r.players) == 1
    want = brute_force("holdem", ["AA@2, KK@0.5", "QsQd"], "2c7d9h8s")
    assert r.players[0].equity_fraction == want[0]["equity"]


def test_auto_plan_with_ranges():
    small = equity("holdem", ["AA", "KhKd"], "2c7d9hTs")
    assert small.exact
    wide = equity("omaha-hilo", ["AA**", "****"], stderr=0.01, seed=1)
    assert not wide.exact and wide.players[0].std_error <= 0.01


def test_multiway_range_vs_range():
    r = equity("omaha-hilo", ["AA**", "KK**", "QQ**"], samples=50_000, seed=2)
    assert sum(r.equities) == pytest.approx(1.0)
    assert 0 < r.acceptance < 1


def test_cli_accepts_ranges(capsys):
    import json

    from pokereval.cli import main

    rc = main(["equity", "omaha-hilo", "AA**:$ds", "KhKdQcJc", "--board", "7c8d9h2s", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    data = json.loads(out)
    assert data["hands"][0] == "AA**:$ds" and data["exact"]
    rc = main(["equity", "omaha-hilo", "AA**:$ds", "KhKdQcJc", "--board", "7c8d9h"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "AA**:$ds" in out


# --------------------------------------------------------------------------
# Stud card order: a holding weighs its matching deals
# --------------------------------------------------------------------------

def test_stud_order_weights_reach_the_equity():
    """'KK[K,Q]8s9h2c' (kings down, a king or queen on third street) holds each
    kings-and-queen set in one deal and each trip-kings set in three (any two of
    the kings down): its equity is that of the explicit union with those weights."""
    villain = "AhAd7c7d6d5s"
    kings, queens = ["Kc", "Kd", "Kh", "Ks"], ["Qc", "Qd", "Qh", "Qs"]
    tail = "8s9h2c"
    parts = [f"{a}{b}{q}{tail}@1" for i, a in enumerate(kings) for b in kings[i + 1:] for q in queens]
    parts += [f"{a}{b}{c}{tail}@3" for a, b, c in
              [(kings[i], kings[j], kings[k]) for i in range(4) for j in range(i + 1, 4)
               for k in range(j + 1, 4)]]
    explicit = ", ".join(parts)
    ordered = equity("stud", [f"KK[K,Q]{tail}", villain], exact=True)
    weighted = equity("stud", [explicit, villain], exact=True)
    flat = equity("stud", [explicit.replace("@3", "@1"), villain], exact=True)
    assert ordered.exact and weighted.exact
    for p, q in zip(ordered.players, weighted.players):
        assert p.equity_fraction == q.equity_fraction
    assert ordered.players[0].equity_fraction != flat.players[0].equity_fraction  # weights matter
    rng = parse_range("stud", f"KK[K,Q]{tail}")
    trips = (rng.holdings >> 2 == 11).sum(axis=1) == 3
    assert len(rng) == 28 and set(rng.orders[trips]) == {3} and set(rng.orders[~trips]) == {1}
