"""Fixed-hand stud Monte Carlo in C (``pe_stud_mc``, :func:`pokereval.equity.backends.c.stud_mc`),
the one sampler of these spots: its counts are those of a plain Python model of its scheme
bit for bit (dealing and evaluation) in every game, street and player count; its answers
are within 4 standard errors of the exact ones; a seed gives the same counts on any
number of threads and another seed other counts; the plan sends every sampled fixed-hand
stud run there; bad arguments are refused."""
import time
from dataclasses import replace

import numpy as np
import pytest
from stud_mc_model import model_counts

import pokereval
from pokereval._native import stud_mc_counts
from pokereval.equity import backends
from pokereval.equity.options import parse_options
from pokereval.equity.plan import plan
from pokereval.equity.run import execute
from pokereval.equity.spot import parse_spot
from pokereval.errors import HandError

RNG = np.random.default_rng(20261205)
FIELDS = ("high_win", "high_tie", "low_win", "low_tie", "scoop")


def _name(cards) -> str:
    return "".join("23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in cards)


def _random_spot(game: str, players: int, street: int, dead: int, pool=range(52)):
    """Random known cards for ``players`` on ``street`` (3..7) and ``dead`` dead cards,
    all from ``pool``."""
    cards = RNG.permutation(np.array(pool))
    hands = [_name(cards[p * street:(p + 1) * street]) for p in range(players)]
    return parse_spot(game, hands, "", _name(cards[players * street:players * street + dead]))


def _c_counts(spot, seed, first, nchunks, chunk, total):
    return stud_mc_counts(np.array(spot.holes, np.uint8), np.array(spot.unseen, np.uint8),
                          spot.mo, spot.shared, spot.game.name, seed, first, nchunks, chunk, total)


# (players, street, dead cards): every number of own cards drawn (4 .. 1, none), the
# shared last card with 3, 2, 1 or no own cards (seven or eight players, or dead cards), two to eight
# players (the histogram of outcomes up to five, per-sample cells beyond)
SHAPES = [(2, 3, 0), (3, 3, 2), (2, 4, 5), (3, 5, 0), (2, 6, 1), (4, 5, 3), (5, 3, 0),
          (7, 3, 0), (7, 3, 4), (8, 4, 0), (8, 5, 0), (8, 6, 2), (6, 6, 0), (2, 7, 0)]
# suit- and low-heavy pools: flushes (and which suit), wheels, lows and ties come often
POOLS = {"deck": range(52),
         "suited": [c for c in range(52) if c & 3 == 0 or c >> 2 in (12, 11, 0)],
         "low": [c for c in range(52) if c >> 2 in (12, 0, 1, 2, 3, 4, 5, 6, 9)]}


@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
@pytest.mark.parametrize("players, street, dead", SHAPES)
def test_the_counts_are_the_models(game, players, street, dead):
    pools = [pool for pool in POOLS.values() if len(pool) >= players * street + dead]
    assert pools
    for pool in pools:
        spot = _random_spot(game, players, street, dead, pool)
        seed = int(RNG.integers(0, 2 ** 63))
        # from a middle chunk, the last one short (total not a multiple of the chunk)
        first, nchunks, chunk, total = 2, 3, 70, 4 * 70 + 33
        want = model_counts(spot, seed, first, nchunks, chunk, total)
        got = _c_counts(spot, seed, first, nchunks, chunk, total)
        np.testing.assert_array_equal(got, want)
        assert got[0].sum() == 2 * 70 + 33  # chunks 2, 3 full, chunk 4 short


def test_a_rejected_group_of_draws_is_drawn_again_as_the_model_says():
    """Seed 128's chunk 0 rejects a group of draws in its 266th sample (about one group in
    50,000 is): the redraw takes the low half of a fresh output, in C as in the model (the
    samples after it tell: the permutation they draw from went another way)."""
    spot = parse_spot("razz", ["As2d4c", "3h5s7d"], "", "")
    stats: dict = {}
    want = model_counts(spot, 128, 0, 1, 2000, 2000, stats)
    assert stats.get("redraws", 0) >= 1
    np.testing.assert_array_equal(_c_counts(spot, 128, 0, 1, 2000, 2000), want)


def _dealt(game, players, street, dead):
    """``players`` hands on ``street`` and ``dead`` dead cards from a deck shuffled by name."""
    deck = np.random.default_rng(sum(map(ord, f"{game}-{players}-{street}"))).permutation(52)
    hands = [_name(deck[p * street:(p + 1) * street]) for p in range(players)]
    return hands, _name(deck[players * street:players * street + dead])


@pytest.mark.parametrize("game, players, street, dead", [
    ("stud-hilo", 2, 3, 30),   # four own cards each (dead cards: a quick exact answer)
    ("razz", 3, 3, 30),
    ("stud", 2, 4, 24),        # three own cards each
    ("stud-hilo", 3, 3, 32),   # the deck cut short: three own cards and a shared one
    ("stud", 4, 4, 26),        # two own cards and a shared one
    ("stud-hilo", 2, 5, 0),    # two own cards
    ("razz", 3, 5, 10),
    ("stud", 3, 6, 0),         # one own card
    ("stud", 5, 5, 20),        # one own card and a shared one
    ("stud-hilo", 8, 5, 3),    # eight players: no histogram of outcomes
    ("razz", 8, 6, 0),         # only a shared card
])
def test_the_samples_agree_with_the_exact_answer(game, players, street, dead):
    hands, dead_cards = _dealt(game, players, street, dead)
    exact = pokereval.equity(game, hands, dead=dead_cards, exact=True)
    sampled = pokereval.equity(game, hands, dead=dead_cards, samples=100_000, seed=11)
    assert exact.exact and not sampled.exact and sampled.samples == 100_000
    for e, s in zip(exact.players, sampled.players):
        assert abs(s.equity - e.equity) <= 4 * s.std_error + 1e-12, (e.equity, s.equity)
        for f in FIELDS:  # each outcome's share, a proportion: its own standard error
            q = getattr(e, f)
            assert abs(getattr(s, f) - q) <= 4 * np.sqrt(q * (1 - q) / 100_000) + 1e-12, f


def test_threads_split_the_chunks_without_changing_the_counts():
    spot = parse_spot("stud-hilo", ["As2s3d", "KhKdQc", "7c8c9c"], "", "")
    one = backends.c.stud_mc(spot, 99, 0, 7, 1000, 6_543, threads=1)
    for threads in (2, 3, 8):
        np.testing.assert_array_equal(backends.c.stud_mc(spot, 99, 0, 7, 1000, 6_543, threads), one)
    np.testing.assert_array_equal(backends.c.stud_mc(spot, 99, 0, 7, 1000, 6_543, 1), one)  # again
    assert not np.array_equal(one, backends.c.stud_mc(spot, 100, 0, 7, 1000, 6_543, 1))  # the seed
    # the chunks split over calls in any way: the same counts
    split = sum(_c_counts(spot, 99, first, count, 1000, 6_543) for first, count in [(0, 2), (2, 4), (6, 1)])
    np.testing.assert_array_equal(split, one)


def test_a_seed_gives_the_same_answer_on_any_thread_count():
    answers = [pokereval.equity("razz", ["Ah2c3d", "4s5s6h", "KcQd8h"], samples=60_000, seed=7,
                                threads=t) for t in (1, 2, 3, 8)]
    for a in answers[1:]:
        assert [p.outcomes.tolist() for p in a.players] == \
            [p.outcomes.tolist() for p in answers[0].players]


def test_the_plan_samples_fixed_hand_stud_in_c():
    spot = parse_spot("razz", ["Ah2c3d", "4s5s6h", "7d8d9d"], "", "")
    opts = parse_options(None, 30_000, None, 5, None, None)
    p = plan(spot, opts)
    assert (p.method, p.backend) == ("sample", "c") and "in C" in p.reason
    board = parse_spot("omaha-hilo", ["AhAd2c3s", "KsKdQhJh"], "", "")
    assert plan(board, opts).backend == "numba"
    result = execute(spot, opts, plan(spot, opts), time.perf_counter())
    assert result.samples == 30_000 and result.seed == 5
    with pytest.raises(ValueError, match="stud games only"):
        execute(board, opts, replace(plan(spot, opts), backend="c"), time.perf_counter())


def test_bad_arguments_are_refused_not_read_past():
    spot = parse_spot("stud", ["As2s3d", "KhKdQc"], "", "")
    holes, unseen = np.array(spot.holes, np.uint8), np.array(spot.unseen, np.uint8)
    with pytest.raises(HandError, match="unsupported spot"):  # 3 + 3 cards are not seven
        stud_mc_counts(holes, unseen, 3, False, "stud", 1, 0, 1, 100, 100)
    with pytest.raises(HandError, match="unsupported spot"):  # more draws than unseen cards
        stud_mc_counts(holes, unseen[:5], 4, False, "stud", 1, 0, 1, 100, 100)
    with pytest.raises(HandError, match="unsupported spot"):  # two known cards: five to draw
        stud_mc_counts(holes[:, :2], unseen, 5, False, "stud", 1, 0, 1, 100, 100)
