"""The stud Monte Carlo kernel (:mod:`pokereval.kernels.stud_montecarlo`): its per-sample
values against the C evaluator, its outcome codes against the kernels' tally, its
answers against the exact ones, and the same counts for a seed whatever the threads."""
import math
import random

import numba
import numpy as np
import pytest

from pokereval import kernels as K
from pokereval.cards import cards_str
from pokereval.equity_api import equity
from pokereval.evaluate import evaluate_batch
from pokereval.games import get_game
from pokereval.kernels.handeval import tally
from pokereval.kernels.stud_montecarlo import add_outcome, outcome_code, sample_values
from pokereval.kernels.structs import GameFlags

KT = K.kernel_tables()
RNG = np.random.default_rng(20261201)
FIELDS = ("equity", "high_win", "high_tie", "low_win", "low_tie", "scoop")

# Suit-heavy and low-heavy pools: flushes (and the flush test's suit choice), wheels,
# lows and ties come often.
POOLS = {
    "deck": np.arange(52),
    "one-suit-heavy": np.array([c for c in range(52) if c & 3 == 0 or c >> 2 in (12, 11, 0)]),
    "low": np.array([c for c in range(52) if c >> 2 in (12, 0, 1, 2, 3, 4, 5, 6, 9)]),
}


def _street(players: int, street: int, pool: np.ndarray):
    """Known cards [players, street] and the rest of ``pool`` (the unseen cards), with the
    kernels' (mo, shared) for them."""
    cards = RNG.permutation(pool).astype(np.uint8)
    known = np.ascontiguousarray(cards[:players * street].reshape(players, street))
    unseen = np.sort(cards[players * street:])
    missing = 7 - street
    shared = len(unseen) < missing * players
    mo = missing - 1 if shared else missing
    return known, unseen, mo, shared


# (players, street): own draws of 4 / 3 (incremental), 2 / 1 (tabled), shared card with
# 3, 2 (incremental), 1 (tabled pair) or no own card (tabled single)
SHAPES = [(2, 3), (3, 3), (7, 4), (2, 5), (4, 5), (2, 6), (6, 6), (8, 3), (8, 4), (8, 5), (8, 6)]


def _dealable(players: int, street: int, pool: str) -> bool:
    """Whether ``pool`` holds the street's known cards and one deal of the cards to come
    (each player's own, or all but a last shared card when too few are left)."""
    unseen = len(POOLS[pool]) - players * street
    missing = 7 - street
    shared = unseen < missing * players
    return unseen > 0 and unseen >= players * (missing - shared) + shared


@pytest.mark.parametrize("game, players, street, pool", [
    (game, players, street, pool) for game in ("stud", "stud-hilo", "razz")
    for players, street in SHAPES for pool in POOLS if _dealable(players, street, pool)])
def test_sample_values_match_c(game, players, street, pool):
    """Every player's values of random samples, by the sampling loop's own code, equal
    the C evaluator's on the same seven cards."""
    g = get_game(game)
    G = K.game_flags(g)
    known, unseen, mo, shared = _street(players, street, POOLS[pool])
    u = len(unseen)
    need = players * mo + shared
    rows = 300
    drawn = np.array([RNG.permutation(u)[:need] for _ in range(rows)], dtype=np.int64)
    T = K.stud_mc_tables(KT, G, known, unseen, mo, shared)
    assert T[8].shape[1] == (0 if mo + shared > 2 else u ** (mo + shared))
    high, low = sample_values(KT, G, T, drawn, mo, shared)
    for p in range(players):
        own = unseen[drawn[:, p * mo:(p + 1) * mo]]
        parts = [np.tile(known[p], (rows, 1)), own]
        if shared:
            parts.append(unseen[drawn[:, players * mo]][:, None])
        seven = np.ascontiguousarray(np.hstack(parts).astype(np.uint8))
        c_high, c_low = evaluate_batch(g, seven)
        np.testing.assert_array_equal(high[:, p], c_high.astype(np.int64))
        np.testing.assert_array_equal(low[:, p], c_low.astype(np.int64))


@pytest.mark.parametrize("flags", [GameFlags(0, 1, 1, 0, 0), GameFlags(0, 1, 1, 1, 0),
                                   GameFlags(0, 1, 0, 1, 1)])
@pytest.mark.parametrize("n", range(2, 9))
def test_outcome_codes_count_like_the_tally(flags, n):
    """A sample's outcome code, added with any weight, fills the tally's cells (ties,
    no qualifying low, everybody tied included)."""
    for trial in range(400):
        hv = RNG.integers(0, 4, n).astype(np.int64)  # few values: many ties, some zeros
        lv = RNG.integers(0, 3, n).astype(np.int64)
        if trial % 7 == 0:
            hv[:] = hv[0]
        weight = int(RNG.integers(1, 5))
        want = np.zeros((n, n + 1, n + 2), np.int64)
        tally(flags, n, hv, lv, want, weight)
        got = np.zeros((n, n + 1, n + 2), np.int64)
        code = outcome_code(flags, n, hv, lv)
        assert 0 <= code < 1 << (2 * n + 1)
        add_outcome(n, code, weight, got)
        np.testing.assert_array_equal(got, want)


def _spot(game, players, street, dead, seed):
    rnd = random.Random(seed)
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = [cards_str(deck[i * street:(i + 1) * street]) for i in range(players)]
    return hands, cards_str(deck[players * street:players * street + dead])


@pytest.mark.parametrize("game, players, street, dead", [
    ("stud-hilo", 2, 3, 30),   # four own cards each (incremental)
    ("razz", 3, 3, 30),
    ("stud-hilo", 3, 3, 32),   # eight-handed rule: three own cards and a shared one
    ("stud", 4, 4, 26),        # two own cards and a shared one
    ("stud-hilo", 2, 5, 0),    # two own cards (tabled)
    ("razz", 5, 6, 0),         # one own card (tabled)
    ("stud", 5, 5, 20),        # one own card and a shared one (tabled pair)
    ("stud-hilo", 8, 5, 3),    # eight players: no outcome histogram
    ("razz", 8, 6, 0),         # only a shared card
])
def test_monte_carlo_agrees_with_exact(game, players, street, dead):
    hands, dead_cards = _spot(game, players, street, dead, f"{game}-{players}-{street}")
    exact = equity(game, hands, dead=dead_cards, exact=True)
    assert exact.exact
    mc = equity(game, hands, dead=dead_cards, samples=60_000, seed=11)
    assert not mc.exact and mc.samples == 60_000
    for want, p in zip(exact.players, mc.players):
        assert abs(p.equity - want.equity) <= 4 * p.std_error + 1e-9
        for f in FIELDS[1:]:
            q = getattr(want, f)
            assert abs(getattr(p, f) - q) <= 4.5 * math.sqrt(q * (1 - q) / mc.samples) + 1e-9, f


def _kernel_counts(game, hands, seed, first, nchunks, chunk, total):
    from pokereval.spot import parse_spot

    spot = parse_spot(game, hands, "", "")
    G = K.game_flags(spot.game)
    known = np.array(spot.holes, dtype=np.uint8)
    unseen = np.array(spot.unseen, dtype=np.uint8)
    T = K.stud_mc_tables(KT, G, known, unseen, spot.mo, spot.shared)
    return K.stud_mc(KT, G, T, unseen, spot.mo, spot.shared, np.uint64(seed), first, nchunks,
                     chunk, total)


@pytest.mark.parametrize("game, hands", [
    ("stud-hilo", ["Ac2d5h", "KsKdQc", "7s8s9s"]),
    ("razz", ["As2d4c7h", "3h5s7d8c"]),
    ("stud-hilo", ["Ac2c3h5d6s", "KdKhQcQh4s", "9s9d8h8c2h"]),
])
def test_same_seed_same_counts_whatever_the_threads_and_batches(game, hands):
    total = 9 * 1000 + 321
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _kernel_counts(game, hands, 5, 0, 10, 1000, total)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = _kernel_counts(game, hands, 5, 0, 10, 1000, total)
    finally:
        numba.set_num_threads(previous)
    split = (_kernel_counts(game, hands, 5, 0, 3, 1000, total)
             + _kernel_counts(game, hands, 5, 3, 7, 1000, total))
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one, split)
    assert all(c.sum() == total for c in one)
    other = _kernel_counts(game, hands, 6, 0, 10, 1000, total)
    assert not np.array_equal(one, other)
