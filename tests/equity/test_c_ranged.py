"""Small range spots without the kernels: the combinations of holdings listed in Python
(the kernel's list, in its order), counted up to suit renaming for the auto choice, and
walked one fixed-hand C walk per class while the kernels are not loaded, cell for cell
the ranged kernels' answer."""
import time

import numpy as np
import pytest

from pokereval import kernels as K
from pokereval.equity import ranged
from pokereval.equity.options import parse_options
from pokereval.equity.plan import combinations_to_list, plan
from pokereval.equity.ranged import RangedRunner
from pokereval.equity.run import execute
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


def _planned(spot, **state):
    runner = RangedRunner(spot, AUTO, 0.0)
    tuples = runner.compatible_tuples(combinations_to_list(spot, AUTO))
    walks = runner.walks(tuples)
    return tuples, walks, plan(spot, AUTO, combinations=len(tuples), walks=walks, **state)


def test_suit_classes_make_a_preflop_range_spot_exact_and_walked_in_c():
    spot = parse_spot("holdem", ["AKs", "QQ"], "", "")
    tuples, walks, first = _planned(spot)
    # 24 combinations: over the auto budget one by one, 2 walks up to suit renaming
    assert (len(tuples), walks) == (24, 2)
    assert (first.method, first.backend) == ("exact", "c") and "2 walks" in first.reason
    *_, loaded = _planned(spot, kernels_loaded=True)
    assert (loaded.method, loaded.backend) == ("exact", "numba")
    in_c = execute(spot, AUTO, first, time.perf_counter())
    in_kernels = execute(spot, AUTO, loaded, time.perf_counter())
    assert in_c.exact and in_c.samples == in_kernels.samples == 24 * spot.runouts
    assert [p.outcomes.tolist() for p in in_c.players] == \
        [p.outcomes.tolist() for p in in_kernels.players]


def test_the_c_walks_keep_weights_and_dead_cards():
    # weighted holdings (no renaming merges unequal weights) and a dead card
    spot = parse_spot("omaha-hilo", ["AA23:$ds@50,AA24", "KKQQ"], "2c3d4h", "5s")
    tuples, walks, first = _planned(spot)
    assert first.backend == "c" and walks <= len(tuples)
    *_, loaded = _planned(spot, kernels_loaded=True)
    a = execute(spot, AUTO, first, time.perf_counter())
    b = execute(spot, AUTO, loaded, time.perf_counter())
    assert [p.outcomes.tolist() for p in a.players] == [p.outcomes.tolist() for p in b.players]
    assert abs(sum(p.equity for p in a.players) - 1) < 1e-12
