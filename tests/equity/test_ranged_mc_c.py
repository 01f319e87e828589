"""Monte Carlo of ranges in C (``pe_ranged_mc``): within 4 standard errors of the exact
answer in every game family, kind of player (exact, listed by weight, dealt), way of
drawing the holdings (equal weights from one draw, or alias coins and several draws) and
of dealing (a listed range's precomputed rest of the deck, or the deck less the holdings'
cards); the same counts for a seed however the chunks are split over threads and calls
(with or without the per-call holding records); the alias tables give each holding its
weight; the board hash finds every board's row; the plan samples every range spot there,
and a process's range answers load no Numba."""
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import pokereval
from pokereval._native import PlayerKind, alias_table, lib, range_rows, ranged_mc_counts
from pokereval.equity.options import parse_options
from pokereval.equity.plan import combinations_to_list, plan
from pokereval.equity.ranged import RangedRunner
from pokereval.equity.run import execute
from pokereval.equity.spot import parse_spot
from pokereval.errors import HandError

# every path of the sampler: one listed range (its rest of the deck) or several (collisions
# rejected), random hands dealt (hold'em, Omaha, 5-card Omaha, Courchevel), weights, exact
# hands, heads-up preflop Omaha (its own evaluator), three and five players (several draws
# of holdings to a trial), stud and razz; spots small enough to enumerate, so that the
# samples are checked against the exact answer
SPOTS = [
    ("holdem", ["AKs,QQ+", "**"], "Kd7s2c9h", ""),
    ("holdem", ["AKs,QQ+@50", "KK,AQs", "JhTh"], "Kd7s2c", ""),
    ("holdem", ["QQ+,AK"] * 4 + ["JJ+@3,AQ"], "2c3d8h9sTc", ""),
    ("omaha-hilo", ["AhA3c4c", "****"], "Kh7h2c9h3d", ""),
    ("omaha-hilo", ["AA23", "KK**:$ds"], "Kd7s2c9h", "5c"),
    ("omaha-hilo", ["AhAd2c3s@1,AcAs2d3c@1", "KhKdQcJc"], "", ""),
    ("omaha-hilo", ["AhAd2c3s@1,AcAs2d3c@1", "KhKdQcJc@1,KsKcQdJd@1"], "", ""),
    ("omaha-hilo", ["AhAd2c3s@1,AcAs2d3c@1", "KhKdQcJc@1,KsKcQdJd@1", "****"], "Th7h2c9h", ""),
    ("omaha", ["AhAd2c3s@3,AcAs2d3c,AhKh8c8d@2", "KsKcQdJd@4,KhKdQcJc"], "Td7h2c9s", ""),
    ("omaha5", ["AhAdKsK2c", "*****"], "Qh7h2d9h3s", ""),
    ("courchevel-hilo", ["AhAd2c3s4d@1,AcAs2d3c4h@1", "*****"], "Kh7h2c9h3d", ""),
    ("stud", ["AhAd2c5c67", "KhKdQc8c9s4d"], "", ""),
    ("razz", ["Ah2c3d4sKQ", "8c9c7dTsJs6d"], "", "5h"),
]


def _runner(game, hands, board, dead, threads=1):
    """A ranged runner of the spot (its plan unused: mc_call samples directly)."""
    return RangedRunner(parse_spot(game, hands, board, dead),
                        parse_options(None, None, None, None, threads, None), 0.0)


@pytest.mark.parametrize("game, hands, board, dead", SPOTS)
def test_the_samples_agree_with_the_exact_answer(game, hands, board, dead):
    exact = pokereval.equity(game, hands, board=board, dead=dead, exact=True)
    sampled = pokereval.equity(game, hands, board=board, dead=dead, samples=200_000, seed=17)
    assert exact.exact and not sampled.exact and sampled.samples == 200_000
    for e, s in zip(exact.players, sampled.players):
        assert abs(s.equity - e.equity) < 4 * s.std_error + 1e-12, (e.equity, s.equity)
    # a second seed draws other samples; the same seed the same ones
    again = pokereval.equity(game, hands, board=board, dead=dead, samples=200_000, seed=17)
    other = pokereval.equity(game, hands, board=board, dead=dead, samples=200_000, seed=18)
    assert [p.outcomes.tolist() for p in again.players] == \
        [p.outcomes.tolist() for p in sampled.players]
    assert [p.outcomes.tolist() for p in other.players] != \
        [p.outcomes.tolist() for p in sampled.players]


def test_attempts_lost_to_collisions_are_counted():
    """One listed range (and a random hand: nothing to collide with) loses no attempt;
    two listed ranges lose the attempts whose holdings share a card."""
    around = _runner("omaha-hilo", ["AA**", "****"], "", "")
    _, info = around.mc_call(np.uint64(1), 40_000)(0, 10)
    assert info[:, 0].sum() == info[:, 1].sum() == 40_000
    both = _runner("omaha-hilo", ["AA**", "AK**"], "", "")
    _, info = both.mc_call(np.uint64(1), 40_000)(0, 10)
    assert info[:, 0].sum() == 40_000 and info[:, 1].sum() > 40_000 * 1.2


def test_threads_split_the_chunks_without_changing_the_counts():
    counts = []
    for threads in (1, 2, 3, 8):
        runner = _runner("omaha-hilo", ["AA2*", "KK**", "****"], "", "", threads)
        counts.append(runner.mc_call(np.uint64(7), 7 * 4096 - 5)(0, 7))
    for c, info in counts[1:]:
        np.testing.assert_array_equal(c, counts[0][0])
        np.testing.assert_array_equal(info, counts[0][1])


@pytest.mark.parametrize("game, hands", [
    ("omaha-hilo", ["AA**", "****"]),    # one listed range: its rest of the deck per holding
    ("omaha-hilo", ["AA2*", "KK**"]),    # two: the deck less both holdings
    ("omaha5-hilo", ["AAKK*", "QQJJ*"]),
    ("holdem", ["22+,A2+,K2+,Q2+,J2+,T2+,92+,82+", "**"]),
    ("stud-hilo", ["**7s", "AsKs2d"]),
])
def test_holding_records_do_not_change_the_counts(game, hands):
    """A call works out its holdings' records (and one listed range's rest of the deck)
    only when it has four samples or more per holding row: chunk by chunk here (one chunk
    of 4,096 samples a call: none), all at once there (12 chunks: records), the same
    counts and attempts."""
    total, chunks = 12 * 4096, 12
    runner = _runner(game, hands, "", "")
    kinds = runner._kinds(dealt=not runner.spot.game.stud)
    rows = sum(1 if k == PlayerKind.DEALT else len(b) for b, k in zip(runner.blocks, kinds))
    assert 4096 // 4 < rows <= total // 4
    call = runner.mc_call(np.uint64(11), total)
    whole, info = call(0, chunks)
    parts = [call(c, 1) for c in range(chunks)]
    np.testing.assert_array_equal(sum(c for c, _ in parts), whole)
    np.testing.assert_array_equal(np.concatenate([i for _, i in parts]), info)


def test_a_dealt_hand_and_the_same_hand_listed_agree():
    """The random hand ``****`` dealt from the deck, or drawn from the list of all its
    holdings with equal weights and rejected on a collision: two ways, one answer."""
    runner = _runner("omaha-hilo", ["AA**", "****"], "Kh7h2c", "")
    rows = range_rows(runner.blocks, runner.weights)
    deck = np.array(runner.spot.unseen, dtype=np.uint8)
    known = np.array(runner.spot.board, dtype=np.uint8)
    total = 100 * 4096
    shares = []
    for kind, seed in (([PlayerKind.LISTED, PlayerKind.DEALT], 1), ([PlayerKind.LISTED] * 2, 2)):
        counts, info = ranged_mc_counts(rows, np.array(kind, dtype=np.int64), None, True, True,
                                        known, 0, False, deck, seed, 0, 100, 4096, total, 1000)
        assert info[:, 0].sum() == total
        # player 1's share of the pot: the high half (won or split) and the low half
        high = (counts[0, 1].sum() + counts[0, 2].sum() / 2) / total
        shares.append(high)
    se = (0.25 / total) ** 0.5
    assert abs(shares[0] - shares[1]) < 4 * 2 ** 0.5 * se, shares


def test_the_board_hash_finds_every_board():
    """Each five-card board rank multiset's row through the small board hash is its row
    through the general rank hash."""
    from itertools import combinations_with_replacement

    from pokereval._native import TABLES, board_hash, pair_high_table

    slot_of, _, _ = pair_high_table()
    off, slot = board_hash()
    weight, ph = TABLES.rank_weight.astype(np.int64), TABLES.ph_offset.astype(np.int64)
    boards = [b for b in combinations_with_replacement(range(13), 5) if b[0] != b[4]]
    keys = weight[np.array(boards)].sum(axis=1)
    via_hash = slot[keys + off[keys >> lib.PE_BOARD_HASH_SHIFT]]
    via_ranks = slot_of[keys + ph[keys >> lib.PE_PH_SHIFT]]
    assert len(boards) == lib.PE_BOARD_RANK_SETS
    np.testing.assert_array_equal(via_hash, via_ranks)
    assert sorted(via_hash.tolist()) == list(range(lib.PE_BOARD_RANK_SETS))


FLUSH_CHECK = r"""
#include <stdio.h>
#include "pokereval.h"
#include "board_parts.h"
int main(void) {
    long pairs = 0, differ = 0;
    pe_init();
    for (unsigned hole = 0; hole < 8192; hole++)
        for (unsigned board = 0; board < 8192; board++) {
            int h = __builtin_popcount(hole), b = __builtin_popcount(board);
            if (h < 2 || h > 5 || b < 3 || b > 5 || (hole & board)) continue;
            pairs++;
            differ += omaha_flush_top(hole, board) != omaha_flush_masks(hole, board);
        }
    printf("%ld %ld\n", pairs, differ);
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_the_quick_omaha_flush_is_the_flush_of_every_choice(tmp_path):
    """board_parts.h's omaha_flush_top (the sampler's: top two hole ranks with the top three
    board ranks, or a straight flush) against omaha_flush_masks (every two of the hole's
    ranks with every three of the board's) for every hole suit of 2 to 5 ranks and disjoint
    board suit of 3 to 5: 715,572 pairs, none differ."""
    csrc = Path(pokereval.__file__).resolve().parents[1] / "csrc"
    (tmp_path / "check.c").write_text(FLUSH_CHECK)
    exe = tmp_path / "check"
    subprocess.run(["gcc", "-std=c99", "-O2", "-I", str(csrc), str(tmp_path / "check.c"),
                    str(csrc / "tables.c"), "-o", str(exe)], check=True)
    pairs, differ = map(int, subprocess.run([str(exe)], capture_output=True, text=True,
                                            check=True).stdout.split())
    assert (pairs, differ) == (715_572, 0)


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
    counts, info = runner.mc_call(np.uint64(3), total)(0, -(-total // 4096))
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
                         1, 0, 1, 4096, 4096, 1000)
    kind = np.array([PlayerKind.LISTED, PlayerKind.LISTED], dtype=np.int64)
    with pytest.raises(HandError, match="unsupported spot"):  # 3 + 3 cards: not seven
        ranged_mc_counts(rows, kind, "stud", False, False, np.zeros(0, np.uint8), 3, False, deck,
                         1, 0, 1, 4096, 4096, 1000)


def _plan(spot, opts):
    runner = RangedRunner(spot, opts, 0.0)
    wanted = combinations_to_list(spot, opts)
    listed = None if wanted is None else len(runner.compatible_tuples(wanted))
    return plan(spot, opts, combinations=listed)


def test_the_plan_samples_ranges_in_c():
    opts = parse_options(None, 200_000, None, 5, None, None)
    for game, hands in [("omaha-hilo", ["AA**", "KK**"]), ("razz", ["A23", "KQJ"])]:
        spot = parse_spot(game, hands, "", "")
        p = _plan(spot, opts)
        assert (p.method, p.backend) == ("sample", "c") and "in C" in p.reason
        r = execute(spot, opts, p, time.perf_counter())
        assert r.samples == 200_000 and 0 < r.acceptance <= 1
    # the engine's own target too
    auto = _plan(spot, parse_options(False, None, None, None, None, None))
    assert (auto.method, auto.backend) == ("sample", "c")


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
