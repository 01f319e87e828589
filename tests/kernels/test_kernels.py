"""The Numba kernels: hand values against the C library, enumeration order,
run-out counts, random streams, chunk / batch independence."""
from itertools import combinations
from math import comb

import numpy as np
import pytest

from pokereval import kernels as K
from pokereval.evaluate import evaluate_batch
from pokereval.games import games, get_game
from pokereval.kernels.exact import combinations_of

KT = K.kernel_tables()
BINOM = K.binomials()
RNG = np.random.default_rng(20240601)


def _deals(rows: int, ncards: int, pool: np.ndarray | None = None) -> np.ndarray:
    """``rows`` random sets of ``ncards`` distinct cards (from ``pool``)."""
    pool = np.arange(52) if pool is None else pool
    return np.array([RNG.choice(pool, ncards, replace=False) for _ in range(rows)], dtype=np.uint8)


# Low-heavy and pair-heavy pools stress wheels, lows, ties and counterfeits.
POOLS = {
    "deck": np.arange(52),
    "low": np.array([c for c in range(52) if c >> 2 in (12, 0, 1, 2, 3, 4, 5, 6)]),
    "broadway-wheel": np.array([c for c in range(52) if c >> 2 in (12, 0, 1, 2, 3, 8, 9, 10, 11)]),
    "one-suit-heavy": np.array([c for c in range(52) if c & 3 == 0 or c >> 2 in (12, 11)]),
}


@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize("game", [g.name for g in games()])
def test_kernel_evaluation_matches_c(game, pool):
    """The kernels' evaluator (same inlined code as the hot loops) agrees with C."""
    g = get_game(game)
    rows = 1500
    if g.stud:
        cards = _deals(rows, 7, POOLS[pool])
        holes, boards = cards, np.zeros((rows, 0), np.uint8)
        c_high, c_low = evaluate_batch(g, cards)
    else:
        cards = _deals(rows, g.hole + 5, POOLS[pool])
        holes = np.ascontiguousarray(cards[:, :g.hole])
        boards = np.ascontiguousarray(cards[:, g.hole:])
        c_high, c_low = evaluate_batch(g, holes, boards)
    k_high, k_low = K.eval_batch(KT, K.game_flags(g), holes, boards)
    np.testing.assert_array_equal(k_high, c_high.astype(np.int64))
    np.testing.assert_array_equal(k_low, c_low.astype(np.int64))


def test_tables_are_the_c_librarys():
    from pokereval._native import TABLES

    assert KT[1] is TABLES.hi_rank and KT[0] is TABLES.ph_offset
    assert not KT[1].flags.writeable


@pytest.mark.parametrize("n, k", [(7, 0), (7, 1), (9, 3), (12, 5), (10, 2)])
def test_colex_enumeration_covers_every_subset_once(n, k):
    combos, masks = combinations_of(n, k, BINOM)
    assert combos.shape == (comb(n, k), k)
    assert sorted(map(tuple, combos.tolist())) == list(combinations(range(n), k))
    assert len(set(masks.tolist())) == comb(n, k)
    # colex rank of row j is j
    for j, c in enumerate(combos.tolist()):
        assert sum(comb(x, i + 1) for i, x in enumerate(c)) == j


def _board_setup(game, hands, board=()):
    g = get_game(game)
    G = K.game_flags(g)
    holes = np.array(hands, dtype=np.uint8)
    H = K.prep_holdings(KT, holes, G[0])
    used = set(holes.ravel().tolist()) | set(board)
    deck = np.array([c for c in range(52) if c not in used], dtype=np.uint8)
    known = np.array(board, dtype=np.uint8)
    who = np.arange(len(hands), dtype=np.int64)
    cache = np.zeros((len(hands), K.BOARD_SLOTS), dtype=np.uint16)
    return G, H, who, known, deck, cache


def test_board_mc_chunks_do_not_depend_on_batching():
    hands = [[48, 49, 0, 5], [44, 45, 40, 41]]
    G, H, who, known, deck, cache = _board_setup("omaha-hilo", hands)
    seed = np.uint64(7)
    total = 10 * 1000 + 123
    once = K.board_mc(KT, G, H, who, known, deck, 5, seed, 0, 11, 1000, total, cache)
    split = (K.board_mc(KT, G, H, who, known, deck, 5, seed, 0, 4, 1000, total, cache)
             + K.board_mc(KT, G, H, who, known, deck, 5, seed, 4, 7, 1000, total, cache))
    np.testing.assert_array_equal(once, split)
    assert once[0].sum() == total
    other = K.board_mc(KT, G, H, who, known, deck, 5, np.uint64(8), 0, 11, 1000, total, cache)
    assert not np.array_equal(once, other)


@pytest.mark.parametrize("street, players, dead", [
    (5, 2, 0), (6, 3, 4), (6, 8, 0), (6, 7, 0), (4, 2, 30), (6, 8, 1), (5, 8, 3)])
def test_stud_exact_counts_every_runout(street, players, dead):
    cards = RNG.permutation(52).astype(np.uint8)
    known = cards[:street * players].reshape(players, street)
    unseen = np.sort(cards[street * players + dead:])
    u, missing = len(unseen), 7 - street
    shared = u < missing * players
    mo = missing - 1 if shared else missing
    g = get_game("stud-hilo")
    G = K.game_flags(g)
    masks, hv, lv = K.stud_tables(KT, G, known, unseen, mo, shared, BINOM)
    expected = u if shared else 1
    left = u - shared
    for _ in range(players):
        expected *= comb(left, mo)
        left -= mo
    if expected > 5_000_000:
        pytest.skip("too many run-outs for a unit test")
    outer = hv.shape[1] * hv.shape[2]
    counts = K.stud_exact(G, masks, hv, lv, shared, 0, outer, max(1, outer // 7))
    assert counts.shape == (players, players + 1, players + 2)
    assert all(c.sum() == expected for c in counts)


def test_stud_tables_match_c():
    cards = RNG.permutation(52).astype(np.uint8)
    known = cards[:10].reshape(2, 5)
    unseen = np.sort(cards[10:])
    for game in ("stud", "stud-hilo", "razz"):
        g = get_game(game)
        masks, hv, lv = K.stud_tables(KT, K.game_flags(g), known, unseen, 2, False, BINOM)
        combos, _ = combinations_of(len(unseen), 2, BINOM)
        for p in range(2):
            full = np.hstack([np.tile(known[p], (len(combos), 1)), unseen[combos]]).astype(np.uint8)
            high, low = evaluate_batch(g, full)
            np.testing.assert_array_equal(hv[p, 0], high)
            np.testing.assert_array_equal(lv[p, 0], low)


def test_random_streams_are_uniform_and_independent():
    from pokereval.kernels.rng import seed_stream

    a = seed_stream(np.uint64(1), 0)
    b = seed_stream(np.uint64(1), 1)
    c = seed_stream(np.uint64(2), 0)
    assert len({tuple(a.tolist()), tuple(b.tolist()), tuple(c.tolist())}) == 3
    assert np.array_equal(a, seed_stream(np.uint64(1), 0))


def test_bounded_draws_are_uniform():
    """below(state, m) hits every value equally often (chi-square, generous bound)."""
    from numba import njit

    from pokereval.kernels.rng import below, seed_stream

    @njit
    def histogram(state, draws, m):
        out = np.zeros(m, np.int64)
        for _ in range(draws):
            out[below(state, m)] += 1
        return out

    for m in (52, 45, 7):
        counts = histogram(seed_stream(np.uint64(11), 3), 52_000, m)
        expected = 52_000 / m
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        assert counts.min() > 0 and chi2 < m + 6 * (2 * m) ** 0.5


def test_board_slots_are_a_perfect_hash_of_five_card_rank_multisets():
    """Every five-card board rank multiset gets its own slot, in range, and the
    ranged players' pair table at that slot is the best 2 + 3 no-flush high."""
    offset, board_keys, slots = K.board_hash()
    keys = board_keys.sum(axis=1)
    computed = keys + offset[keys >> K.BOARD_SHIFT].astype(np.int64)
    assert len(keys) == 6175
    assert np.array_equal(computed, slots)
    assert len(np.unique(slots)) == len(slots) and 0 <= slots.min() and slots.max() < K.BOARD_SLOTS
    # a rank pair plus a board: the best no-flush high over its 10 board triples, by the C library
    T2 = K.range_tables().reshape(K.BOARD_SLOTS, 91)
    ranks = [(a, b) for a in range(13) for b in range(a, 13)]
    for _ in range(200):
        b = RNG.integers(len(keys))
        pc = RNG.integers(91)
        board_ranks = [r for r in range(13) for _ in range(int(np.sum(board_keys[b] == KT[6][4 * r])))]
        pair = ranks[pc]
        if max((list(pair) + board_ranks).count(r) for r in range(13)) > 4:
            continue  # five of a rank: never read
        # suits by position in rank order: equal ranks get distinct suits and no suit
        # appears more than twice among the seven cards, so no flush can form
        tagged = sorted([(r, "h") for r in pair] + [(r, "b") for r in board_ranks])
        cards = [(4 * r + i % 4, where) for i, (r, where) in enumerate(tagged)]
        hole = [c for c, where in cards if where == "h"]
        board = [c for c, where in cards if where == "b"]
        best = max(int(evaluate_batch("holdem", np.array([hole], np.uint8),
                                      np.array([list(t)], np.uint8))[0][0])
                   for t in combinations(board, 3))
        assert T2[slots[b], pc] == best
