"""Exact range spots of board games in C: the combinations of holdings listed in Python
(the listing kernel's list, in its order) or by the kernel, counted up to suit renaming
for the auto choice, and walked by ``pe_board_exact_tuples`` (one C call for many
combinations, the Omaha highs from the pair table): cell for cell the sum of one
fixed-hand walk per combination (``pe_board_exact``: its own deck, the highs from the
board's three-card subsets), weights, suit classes and dead cards included."""
import time

import numpy as np
import pytest

from pokereval import kernels as K
from pokereval.equity import ranged
from pokereval.equity.options import parse_options
from pokereval.equity.plan import combinations_to_list, plan
from pokereval.equity.ranged import RangedRunner
from pokereval.equity.run import execute, fixed_exact_counts
from pokereval.equity.spot import parse_spot

AUTO = parse_options(None, None, None, None, None, None)


@pytest.mark.parametrize("game, hands, board", [
    ("holdem", ["AKs", "QQ", "AQ"], ""),  # collisions: AQ shares aces and queens
    ("omaha-hilo", ["AA23", "KK**:$ds"], "2c3d4h"),
    ("holdem", ["22+", "AKo"], "Ac"),
    ("omaha-hilo", ["AA**", "KhKdQcJc"], "7c8d9h2s"),  # thousands of holdings, one hand
])
def test_the_python_listing_is_the_kernel_s(game, hands, board):
    runner = RangedRunner(parse_spot(game, hands, board, ""), AUTO, 0.0)
    counts = np.array([len(b) for b in runner.blocks], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    masks = np.bitwise_or.reduce(np.uint64(1) << np.vstack(runner.blocks).astype(np.uint64),
                                 axis=1).astype(np.uint64)
    for limit in (10**9, 5):
        want = K.compatible_tuples(starts, counts, masks, limit)
        got = ranged._listed(starts.tolist(), counts.tolist(), masks.tolist(), limit)
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype and got.shape[1] == len(hands)
    assert len(want) == 6  # the limit: one more than asked, as the kernel gives


def _planned(spot):
    runner = RangedRunner(spot, AUTO, 0.0)
    tuples = runner.compatible_tuples(combinations_to_list(spot, AUTO))
    walks = runner.walks(tuples)
    return tuples, walks, plan(spot, AUTO, combinations=len(tuples), walks=walks)


def _one_walk_each(spot) -> np.ndarray:
    """Outcome counts: every compatible combination of holdings (weights as whole numbers)
    walked alone, fixed-hand, and added up in Python."""
    runner = RangedRunner(spot, AUTO, 0.0)
    tuples = runner.compatible_tuples(10**7)
    tgroup, gweights = runner.weight_groups(tuples)
    rows = np.vstack(runner.blocks)
    total = 0
    for t, g in zip(tuples.tolist(), tgroup.tolist()):
        holes = [rows[r].tolist() for r in t]
        total = total + gweights[g] * fixed_exact_counts(spot, holes, backend="c").astype(object)
    return total


def _outcomes(result) -> list:
    return [p.outcomes.tolist() for p in result.players]


def test_suit_classes_make_a_preflop_range_spot_exact_and_walked_in_c():
    spot = parse_spot("holdem", ["AKs", "QQ"], "", "")
    tuples, walks, first = _planned(spot)
    # 24 combinations, 2 walks up to suit renaming
    assert (len(tuples), walks) == (24, 2)
    assert (first.method, first.backend) == ("exact", "c") and "2 walks" in first.reason
    r = execute(spot, AUTO, first, time.perf_counter())
    assert r.exact and r.samples == 24 * spot.runouts
    assert _outcomes(r) == _one_walk_each(spot).tolist()  # each class counted 12 times


@pytest.mark.parametrize("game, hands, board, dead", [
    # weighted holdings (no renaming merges unequal weights) and a dead card
    ("omaha-hilo", ["AA23:$ds@50,AA24", "KKQQ"], "2c3d4h", "5s"),
    ("omaha-hilo", ["AA**", "KhKdQcJc"], "2c7d9hTs", ""),
    ("omaha5-hilo", ["AAK**", "KhKdQcJc2c"], "3c7d9h8h", ""),
    ("courchevel", ["As2d3h4c5s", "QQJT*@30,KKJT*"], "3c7d9h", "Ts"),
    ("holdem", ["QQ+,AK", "JJ-99"], "2c7d9h", ""),
    ("holdem", ["AK", "QQ", "T9s"], "2c", "3d"),
    ("omaha", ["AAKQ:$ss", "KK2*", "QhQdJcTc"], "2h7h9hTs", ""),
])
def test_the_c_walks_are_one_fixed_walk_per_combination(game, hands, board, dead):
    spot = parse_spot(game, hands, board, dead)
    tuples, walks, first = _planned(spot)
    assert first.backend == "c" and walks <= len(tuples)
    r = execute(spot, AUTO, first, time.perf_counter())
    assert r.exact and abs(sum(p.equity for p in r.players) - 1) < 1e-12
    assert _outcomes(r) == _one_walk_each(spot).tolist()
