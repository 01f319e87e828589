"""The showdown tallies agree cell for cell on every game: the C backend (board games:
``pe_board_exact``, the walk by board rank multisets with its tally in C, whole and in
shares on threads; stud: C batch values, NumPy tally), the Numba kernels' showdown
(``kernels.handeval``; stud) and the NumPy tally (``equity.tally`` over the breakdown's
run-out rows), and they agree with the independent reference
(``tests/support/naive.py``) on every field."""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest

import naive
import pokereval as pe
from pokereval.equity import plan as P
from pokereval.equity.options import parse_options
from pokereval.equity.run import execute
from pokereval.equity.spot import parse_spot

# one small exact spot per game (a turn or a late stud street: quick for the reference)
SPOTS = [
    ("holdem", ["AhKh", "QsQd", "7c6c"], "2h9hTc5d"),
    ("omaha", ["AhAd2c3s", "KsKdQhJh"], "7c8d9h2d"),
    ("omaha-hilo", ["AhAd2c3s", "KsKdQhJh", "4c5c6d7d"], "7c8d9hTs"),
    ("omaha5", ["AhAd2c3s4s", "KsKdQhJhTd"], "7c8d9h2d"),
    ("omaha5-hilo", ["AhAd2c3s4s", "KsKdQhJhTd"], "7c8d9h5d"),
    ("courchevel", ["AhAd2c3s4s", "KsKdQhJhTd"], "7c8d9h2d"),
    ("courchevel-hilo", ["AhAd2c3s4s", "KsKdQhJhTd"], "7c8d9h5d"),
    ("stud", ["AhKd2c3s4h6d", "3c4d5h6s7s8c"], ""),
    ("stud-hilo", ["Ah2d3c4s9s9h", "KsKdQhJhTh8d"], ""),
    ("razz", ["Ah2d3c4sKsKh", "5s6d7hJhTh8d"], ""),
]


def test_every_game_is_here():
    assert sorted(g for g, *_ in SPOTS) == sorted(g.name for g in pe.games())


def _outcomes(result) -> np.ndarray:
    return np.array([p.outcomes for p in result.players], dtype=np.int64)


def _walked(backend, game, hands, board):
    """Exact outcome counts: stud walked by ``backend``; a board game walked in C, whole
    ("c") or ("numba", the other path) in three shares on threads."""
    spot = parse_spot(game, hands, board, "")
    opts = parse_options(True, None, None, None, 3, None)
    plan = P.plan(spot, opts)
    if spot.game.stud:
        plan = replace(plan, backend=backend)
    elif backend == "numba":
        plan = replace(plan, cost_ns=1e15)  # worth three threads, however small
    return _outcomes(execute(spot, opts, plan, time.perf_counter()))


@pytest.mark.parametrize("game,hands,board", SPOTS, ids=[s[0] for s in SPOTS])
def test_the_tallies_agree_with_each_other_and_the_reference(game, hands, board):
    c_walk = _walked("c", game, hands, board)
    kernels = _walked("numba", game, hands, board)
    numpy_tally = _outcomes(pe.equity(game, hands, board, breakdown=True))
    assert (c_walk == kernels).all() and (kernels == numpy_tally).all()
    # the reference: brute force over every run-out, every field as an exact fraction
    ref = naive.reference_equity(game, hands, board)
    result = pe.equity(game, hands, board, exact=True)
    assert result.samples == ref.runouts
    for mine, want in zip(result.players, ref.players):
        assert mine.equity_fraction == want["equity"]
        for name in naive.FIELDS:
            assert getattr(mine, name) == pytest.approx(float(want[name]), abs=1e-12), name


# Walks of a million run-outs by board rank multisets, with suit-heavy hands (flushes beat
# the rank-only values often, so the flush patterns' corrections matter) and boards of 0
# or 1 card: every cell as the NumPy tally of the run-out rows
FLUSH_HEAVY_WALKS = [
    ("omaha-hilo", ["AcKc3c4d", "QcJcTd9d"], ""),
    ("omaha", ["AhAd2h3d", "KhKdQhJd", "5h6h7d8d"], ""),
    ("omaha5-hilo", ["Ac2c3c4d5d", "KcQcJdTd9h"], ""),
    ("courchevel", ["AcKc3c4d5d", "QcJcTd9d8h"], "2c"),
    ("omaha-hilo", ["As2s3s4h", "KsQsJhTh"], "5s"),
    ("holdem", ["AsKs", "QsJs", "2s3d"], ""),
]


@pytest.mark.parametrize("game,hands,board", FLUSH_HEAVY_WALKS,
                         ids=[s[0] for s in FLUSH_HEAVY_WALKS])
def test_the_rank_walk_keeps_every_cell_of_flush_heavy_spots(game, hands, board):
    walked = _walked("c", game, hands, board)
    np.testing.assert_array_equal(walked, _outcomes(pe.equity(game, hands, board, breakdown=True)))
    np.testing.assert_array_equal(walked, _walked("numba", game, hands, board))
