"""kernels.stud_walk: the exact stud walk's outcome cells against the naive oracle,
run-out by run-out, on small spots (2 to 8 players, the eight-handed shared card,
one to three own cards each), and its independence from the range split."""
import random

import numpy as np
import pytest

import naive
from pokereval import kernels as K
from pokereval.games import get_game

KT = K.kernel_tables()
BINOM = K.binomials()


def oracle_cells(game, hands, dead):
    """int64[n, n + 1, n + 2]: the outcome cells (see kernels.handeval.tally) counted
    over tests/support/naive.py's run-outs."""
    n = len(hands)
    out = np.zeros((n, n + 1, n + 2), np.int64)
    for deal in naive.runouts(game, hands, (), dead):
        cards = [h for h, _ in deal]
        high, low = [], []
        if game == "razz":
            low = naive._winners([naive.hand_razz(h)[0] for h in cards], min)
        else:
            high = naive._winners([naive.hand_high(game, h)[0] for h in cards], max)
            if game == "stud-hilo":
                lows = [naive.hand_low8(game, h) for h in cards]
                low = naive._winners([x[0] if x else None for x in lows], min)
        for p in range(n):
            row = len(high) if p in high else 0
            col = (1 + len(low) if p in low else 1) if low else 0
            out[p, row, col] += 1
    return out


def walk(game, hands, dead, splits=1):
    """The kernels' counts for the spot, the outer indices cut into ``splits`` calls."""
    used = {c for h in hands for c in h} | set(dead)
    unseen = np.array([c for c in range(52) if c not in used], dtype=np.uint8)
    missing = 7 - len(hands[0])
    shared = len(unseen) < missing * len(hands)
    mo = missing - 1 if shared else missing
    G = K.game_flags(get_game(game))
    masks, hv, lv = K.stud_tables(KT, G, np.array(hands, dtype=np.uint8), unseen, mo, shared,
                                  BINOM)
    outer = hv.shape[1] * hv.shape[2]
    step = -(-outer // splits)
    return sum(K.stud_exact(G, masks, hv, lv, shared, first, min(step, outer - first),
                            max(1, step // 3)) for first in range(0, outer, step))


def deal_spot(seed, players, street, unseen):
    """``players`` hands of ``street`` cards and the dead cards that leave ``unseen``."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hands = [deck[i * street:(i + 1) * street] for i in range(players)]
    dead = deck[players * street:52 - unseen]
    return hands, dead


# (players, street, unseen cards), small enough for the oracle (a few seconds a game)
SPOTS = [(2, 6, 12), (2, 5, 9), (3, 6, 8), (3, 5, 7), (4, 6, 7), (5, 6, 6), (6, 6, 6),
         (2, 4, 8),    # three own cards each
         (8, 6, 4),    # eight-handed sixth street: the river shared, no own card
         (3, 5, 5), (4, 5, 6), (5, 5, 6)]   # one own card each and one shared
# (eight-handed fifth street, one own card and a shared one: 9 x 8! run-outs at least,
# too many for the oracle)


@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
@pytest.mark.parametrize("players, street, unseen", SPOTS)
def test_walk_matches_the_oracle(game, players, street, unseen):
    hands, dead = deal_spot(f"{game}-{players}-{street}-{unseen}", players, street, unseen)
    np.testing.assert_array_equal(walk(game, hands, dead), oracle_cells(game, hands, dead))


def test_any_split_gives_the_same_counts():
    hands, dead = deal_spot("split", 6, 5, 10)
    whole = walk("stud-hilo", hands, dead)
    assert whole[0].sum() == 10 * 9 * 8 * 7 * 6 * 5 * 4
    for splits in (2, 7, 60):
        np.testing.assert_array_equal(walk("stud-hilo", hands, dead, splits), whole)


def test_too_many_players_is_refused():
    G = K.game_flags(get_game("stud"))
    hv = np.zeros((9, 1, 1), np.uint16)
    with pytest.raises(ValueError, match="2 to 8 players"):
        K.stud_exact(G, np.zeros(1, np.uint64), hv, hv, False, 0, 1, 1)


def _cards(text):
    return naive.parse_cards(text)


@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
@pytest.mark.parametrize("hands, unseen", [
    # the same ranks in other suits, the cards left all low: ties in both halves
    (["Ac2c3c4d9s", "Ad2d3d4h9h", "As2h3h4s9d"], "5c5d5h6c6d7c7d8c"),
    # the same, one own card each and a shared one
    (["Ac2c3c4d9s", "Ad2d3d4h9h", "As2h3h4s9d", "Ah2s3s4c9c"], "5c5d5h6c6d7c"),
])
def test_walk_matches_the_oracle_with_ties(game, hands, unseen):
    hands = [_cards(h) for h in hands]
    keep = set(_cards(unseen)) | {c for h in hands for c in h}
    dead = [c for c in range(52) if c not in keep]
    np.testing.assert_array_equal(walk(game, hands, dead), oracle_cells(game, hands, dead))
