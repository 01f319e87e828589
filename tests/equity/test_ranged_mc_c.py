"""Monte Carlo of ranges in C (``pe_ranged_mc``) draws the ranged kernels' very trials:
the same counts and the same (accepted, attempts) per chunk for a seed, in every game,
kind of player (exact, listed by weight, dealt), way of dealing (around one listed range,
or rejecting collisions) and chunk layout; the alias tables both draw from give each
holding its weight; the plan samples ranges in C until the kernels are loaded."""
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import pokereval
from pokereval._native import PlayerKind, alias_table, range_rows, ranged_mc_counts
from pokereval.equity.options import parse_options
from pokereval.equity.plan import C_SAMPLE_SECONDS, c_sample_ns, combinations_to_list, plan
from pokereval.equity.ranged import RangedRunner
from pokereval.equity.run import execute
from pokereval.equity.spot import parse_spot
from pokereval.errors import HandError

SPOTS = [
    # one listed range and a random hand (dealt around the listed holding)
    ("omaha-hilo", ["AA**", "****"], "", ""),
    # two listed ranges, one of them weighted (alias draws; collisions rejected)
    ("omaha-hilo", ["AA2*:$ds,AA3*@40", "KK**"], "", ""),
    ("omaha-hilo", ["AA2*", "KK**", "QhJh9c8c"], "2c7d", "Ts"),  # an exact hand, a flop given
    ("omaha", ["A***", "****", "****"], "KhQh", ""),  # two dealt hands and a listed one
    ("holdem", ["AKs,QQ+", "**", "**"], "", ""),
    ("holdem", ["22+@50,AK", "JTs", "AcKd"], "2h3d", "4c"),
    ("omaha5-hilo", ["AA2**", "*****"], "", ""),
    ("courchevel-hilo", ["A2***", "KK***"], "Kh", ""),
    ("stud", ["AA2", "KKQ"], "", ""),
    ("stud-hilo", ["A23", "KQJ", "7c8c9c"], "", ""),
    ("razz", ["A23@10,A24", "KQJ", "456"], "", ""),
    ("stud", ["AA2 5 6 7", "KhKdQc8c9s4d"], "", ""),  # sixth street, one card to come
    ("razz", ["A23", "8c9c7d"], "", ""),  # one listed range: dealt around it
    ("stud", ["KK2", "KhQc5d"], "", ""),  # ... and its holdings with the king of hearts rejected
]


def _runner(game, hands, board, dead, threads=1):
    return RangedRunner(parse_spot(game, hands, board, dead),
                        parse_options(None, None, None, None, threads, None), 0.0)


@pytest.mark.parametrize("game, hands, board, dead", SPOTS)
def test_the_c_trials_are_the_kernels(game, hands, board, dead):
    runner = _runner(game, hands, board, dead)
    seed = np.uint64(20261204 + len(hands))
    # chunks from a middle one, the last one short (total not a multiple of the chunk)
    for first, nchunks, total in [(0, 3, 3 * 4096), (2, 3, 4 * 4096 + 777)]:
        got_c, info_c = runner.mc_call("c", seed, total)(first, nchunks)
        got_k, info_k = runner.mc_call("numba", seed, total)(first, nchunks)
        np.testing.assert_array_equal(got_c, got_k)
        np.testing.assert_array_equal(info_c, info_k)
    assert info_c[:, 0].tolist() == [4096, 4096, 777]  # every chunk got its samples
    assert got_c[0].sum() == 2 * 4096 + 777


def test_threads_split_the_chunks_without_changing_the_counts():
    counts = []
    for threads in (1, 2, 3, 8):
        runner = _runner("omaha-hilo", ["AA2*", "KK**", "****"], "", "", threads)
        counts.append(runner.mc_call("c", np.uint64(7), 7 * 4096 - 5)(0, 7))
    for c, info in counts[1:]:
        np.testing.assert_array_equal(c, counts[0][0])
        np.testing.assert_array_equal(info, counts[0][1])


def test_alias_tables_give_each_holding_its_weight():
    rng = np.random.default_rng(5)
    for m in (2, 3, 17, 1000):
        w = rng.uniform(0.01, 5.0, m)
        w[rng.integers(0, m)] = 40.0  # one heavy holding
        prob, alias = np.zeros(m, np.uint64), np.zeros(m, np.int64)
        alias_table(w, prob, alias)
        assert np.all(prob <= 1 << 53) and np.all((alias >= 0) & (alias < m))
        # each slot is picked with chance 1/m: itself with prob / 2**53, else its alias
        keep = prob.astype(np.float64) / 2.0 ** 53
        share = keep.copy()
        np.add.at(share, alias, 1.0 - keep)
        np.testing.assert_allclose(share / m, w / w.sum(), rtol=1e-9, atol=1e-12)


def test_weights_reach_the_c_draws():
    """On this river aces always win and kings always lose against queens: player 1's
    equity is the aces' weight share, 0.9, and the C draws find it within 4 standard
    errors (equal chances would give 0.5)."""
    spot = parse_spot("holdem", ["AsAh@90,KsKh@10", "QdQc"], "QsAdAc5h9d", "")
    runner = RangedRunner(spot, parse_options(None, None, None, None, 1, None), 0.0)
    assert range_rows(runner.blocks, runner.weights).uniform.tolist() == [0, 1]
    total = 40_000
    counts, info = runner.mc_call("c", np.uint64(3), total)(0, -(-total // 4096))
    assert info[:, 0].sum() == info[:, 1].sum() == total  # nothing to reject
    aces = counts[0, 1].sum() / total  # player 1 won the (only) high outright
    assert abs(aces - 0.9) < 4 * (0.9 * 0.1 / total) ** 0.5
    assert counts[0, 1].sum() + counts[0, 0].sum() == total


def test_bad_arguments_are_refused():
    runner = _runner("stud", ["AA2", "KKQ"], "", "")
    rows = range_rows(runner.blocks, runner.weights)
    kind = np.array([PlayerKind.LISTED, PlayerKind.DEALT], dtype=np.int64)  # no dealt stud hand
    deck = np.array(runner.spot.unseen, dtype=np.uint8)
    with pytest.raises(HandError, match="unsupported spot"):
        ranged_mc_counts(rows, kind, "stud", False, False, np.zeros(0, np.uint8), 4, False, deck,
                         False, 1, 0, 1, 4096, 4096, 1000)
    kind = np.array([PlayerKind.LISTED, PlayerKind.LISTED], dtype=np.int64)
    with pytest.raises(HandError, match="unsupported spot"):  # 3 + 3 cards: not seven
        ranged_mc_counts(rows, kind, "stud", False, False, np.zeros(0, np.uint8), 3, False, deck,
                         False, 1, 0, 1, 4096, 4096, 1000)


def _plan(spot, opts, **state):
    runner = RangedRunner(spot, opts, 0.0)
    wanted = combinations_to_list(spot, opts)
    listed = None if wanted is None else len(runner.compatible_tuples(wanted))
    return plan(spot, opts, combinations=listed, **state)


def test_the_plan_samples_ranges_in_c_until_the_kernels_are_loaded():
    opts = parse_options(None, 200_000, None, 5, None, None)
    for game, hands in [("omaha-hilo", ["AA**", "KK**"]), ("razz", ["A23", "KQJ"])]:
        spot = parse_spot(game, hands, "", "")
        first = _plan(spot, opts)
        assert (first.method, first.backend) == ("sample", "c") and "in C" in first.reason
        loaded = _plan(spot, opts, kernels_loaded=True)
        assert (loaded.method, loaded.backend) == ("sample", "numba")
        in_c = execute(spot, opts, first, time.perf_counter())
        in_kernels = execute(spot, opts, loaded, time.perf_counter())
        assert [p.outcomes.tolist() for p in in_c.players] == \
            [p.outcomes.tolist() for p in in_kernels.players]
        assert in_c.acceptance == in_kernels.acceptance and in_c.samples == 200_000
    # a long board-game run goes to the kernels (faster per sample) even before they load
    spot = parse_spot("omaha-hilo", ["AA**", "KK**"], "", "")
    big = parse_options(None, 20_000_000, None, 5, None, None)
    assert c_sample_ns(spot, 20_000_000, None) > C_SAMPLE_SECONDS * 1e9
    assert _plan(spot, big).backend == "numba"
    # stud ranges are as fast in C as in the kernels: any length
    assert _plan(parse_spot("stud-hilo", ["A23", "KQJ"], "", ""), big).backend == "c"
    # the engine's own target (at most 250,000 samples for a standard error of 0.001): in C
    assert _plan(spot, parse_options(False, None, None, None, None, None)).backend == "c"


CHILD = textwrap.dedent("""
    import sys

    import pokereval as pe

    r = pe.equity("omaha-hilo", ["AA**", "KK**"], seed=1)
    s = pe.equity("razz", ["A23", "KQJ"], seed=1)
    print("numba" in sys.modules, r.samples >= 100_000, s.samples >= 100_000)
""")


def test_a_process_s_range_answers_load_no_numba():
    root = Path(pokereval.__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(root)}, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True", "True"]
