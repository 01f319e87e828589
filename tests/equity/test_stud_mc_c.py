"""Fixed-hand stud Monte Carlo in C (``pe_stud_mc``, :func:`pokereval.equity.backends.c.stud_mc`)
draws the Numba kernel's very samples: the same counts for a seed, bit for bit, in every
stud game, street, player count and chunk layout; the plan sends fixed-hand stud there
only while the kernels are not loaded; bad arguments are refused."""
import time
from dataclasses import replace

import numpy as np
import pytest

from pokereval import kernels as K
from pokereval._native import stud_mc_counts
from pokereval.equity import backends
from pokereval.equity.backends.numba import parallel
from pokereval.equity.options import parse_options
from pokereval.equity.plan import plan
from pokereval.equity.run import execute
from pokereval.equity.spot import parse_spot
from pokereval.errors import HandError

KT = K.kernel_tables(boards=False)
RNG = np.random.default_rng(20261204)


def _random_spot(game: str, players: int, street: int):
    """Random known cards for ``players`` on ``street`` (3..6), a few dead cards."""
    cards = RNG.permutation(52)
    hands = [cards[p * street:(p + 1) * street] for p in range(players)]
    dead = cards[players * street:players * street + int(RNG.integers(0, 4))]
    name = lambda cs: "".join("23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in cs)  # noqa: E731
    return parse_spot(game, [name(h) for h in hands], "", name(dead))


def _numba_counts(spot, seed, first, nchunks, chunk, total):
    G = K.game_flags(spot.game)
    holes = np.array(spot.holes, np.uint8)
    unseen = np.array(spot.unseen, np.uint8)
    T = K.stud_mc_tables(KT, G, holes, unseen, spot.mo, spot.shared)
    return parallel(K.stud_mc, KT, G, T, unseen, spot.mo, spot.shared, np.uint64(seed), first,
                    nchunks, chunk, total)


def _c_counts(spot, seed, first, nchunks, chunk, total):
    return stud_mc_counts(np.array(spot.holes, np.uint8), np.array(spot.unseen, np.uint8),
                          spot.mo, spot.shared, spot.game.name, seed, first, nchunks, chunk, total)


# every path of the kernel: own draws of 4 / 3 (incremental) and 2 / 1 (tabled), the
# shared last card (8 players on fourth street on), two to eight players
SHAPES = [(2, 3), (3, 3), (2, 5), (4, 5), (2, 6), (6, 6), (8, 3), (8, 5), (7, 4)]


@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
@pytest.mark.parametrize("players, street", SHAPES)
def test_the_c_samples_are_the_kernels(game, players, street):
    spot = _random_spot(game, players, street)
    seed = int(RNG.integers(0, 2 ** 63))
    # chunks from a middle one, the last one short (total not a multiple of the chunk)
    for first, nchunks, chunk, total in [(0, 6, 500, 6 * 500), (2, 5, 300, 6 * 300 + 77)]:
        want = _numba_counts(spot, seed, first, nchunks, chunk, total)
        got = _c_counts(spot, seed, first, nchunks, chunk, total)
        np.testing.assert_array_equal(got, want)
    assert got[0].sum() == 4 * 300 + 77  # chunks 2..5 full, chunk 6 short


def test_threads_split_the_chunks_without_changing_the_counts():
    spot = parse_spot("stud-hilo", ["As2s3d", "KhKdQc", "7c8c9c"], "", "")
    one = backends.c.stud_mc(spot, 99, 0, 7, 1000, 6_543, threads=1)
    for threads in (2, 3, 8):
        np.testing.assert_array_equal(backends.c.stud_mc(spot, 99, 0, 7, 1000, 6_543, threads), one)
    np.testing.assert_array_equal(one, _numba_counts(spot, 99, 0, 7, 1000, 6_543))
    assert not np.array_equal(one, backends.c.stud_mc(spot, 100, 0, 7, 1000, 6_543, 1))  # the seed


def test_the_plan_samples_stud_in_c_until_the_kernels_are_loaded():
    spot = parse_spot("razz", ["Ah2c3d", "4s5s6h", "7d8d9d"], "", "")
    opts = parse_options(None, 30_000, None, 5, None, None)
    first = plan(spot, opts)
    assert (first.method, first.backend) == ("sample", "c") and "in C" in first.reason
    loaded = plan(spot, opts, kernels_loaded=True)
    assert (loaded.method, loaded.backend) == ("sample", "numba")
    board = parse_spot("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "", "")
    assert plan(board, parse_options(None, 30_000, None, 5, None, None)).backend == "numba"
    in_c = execute(spot, opts, first, time.perf_counter())
    in_kernels = execute(spot, opts, loaded, time.perf_counter())
    assert in_c.samples == in_kernels.samples == 30_000 and in_c.seed == 5
    assert [p.outcomes.tolist() for p in in_c.players] == \
        [p.outcomes.tolist() for p in in_kernels.players]
    with pytest.raises(ValueError, match="stud games only"):
        execute(board, opts, replace(first, backend="c"), time.perf_counter())


def test_bad_arguments_are_refused_not_read_past():
    spot = parse_spot("stud", ["As2s3d", "KhKdQc"], "", "")
    holes, unseen = np.array(spot.holes, np.uint8), np.array(spot.unseen, np.uint8)
    with pytest.raises(HandError, match="unsupported spot"):  # 3 + 3 cards are not seven
        stud_mc_counts(holes, unseen, 3, False, "stud", 1, 0, 1, 100, 100)
    with pytest.raises(HandError, match="unsupported spot"):  # more draws than unseen cards
        stud_mc_counts(holes, unseen[:5], 4, False, "stud", 1, 0, 1, 100, 100)
