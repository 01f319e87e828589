"""The starting-hand tables' kernel (:func:`pokereval.kernels.hand_tables.class_trials`,
through :func:`pokereval.tables.simulate.run_chunk`) against a replay in plain Python:
the same random streams (xoshiro256** seeded through SplitMix64, tests/support/streams.py),
the same deal, and the naive oracle's showdown."""
from math import lcm

import numpy as np
import pytest

import naive
from pokereval.classes import hand_classes
from pokereval.kernels import hand_tables
from pokereval.tables import simulate
from pokereval.tables.simulate import Chunk, run_chunk
from streams import Stream


def replay(chunk: Chunk) -> np.ndarray:
    """:func:`run_chunk` written out: deal, who is in, the naive showdown, the shares."""
    game = naive.GAMES[chunk.game]
    hc = hand_classes(game.hole)
    reps = hc.representatives()
    good = (None if chunk.good is None else
            np.unpackbits(np.frombuffer(chunk.good, np.uint8))[:len(hc)])
    players = chunk.players if chunk.kind == "evolution" else chunk.round + 1
    stream_base = ({"evolution": 1, "equity": 2}[chunk.kind] << 40) | (chunk.round << 24)
    unit = 2 * lcm(*range(1, 11))
    hole = game.hole
    out = np.zeros((2, chunk.stop - chunk.start), np.int64)
    for i, cls in enumerate(range(chunk.start, chunk.stop)):
        hero = reps[cls].tolist()
        d = [c for c in range(52) if c not in hero]
        rng = Stream(chunk.seed, stream_base + cls)
        need = (players - 1) * hole + 5
        for _ in range(chunk.trials):
            for j in range(need):
                r = j + rng.below(len(d) - j)
                d[r], d[j] = d[j], d[r]
            board = d[need - 5:need]
            seats = [hero]
            for s in range(players - 1):
                hand = d[s * hole:(s + 1) * hole]
                if s > 0 and good is not None:
                    if not good[hc.classes_of(np.array([hand], np.uint8))[0]]:
                        continue
                seats.append(hand)
            highs = [naive.hand_high(chunk.game, h, board)[0] for h in seats]
            lows = [naive.hand_low8(chunk.game, h, board) if game.pot == "hilo" else None
                    for h in seats]
            best_high = max(highs)
            share = 0
            qualified = [low[0] for low in lows if low is not None]
            if qualified:
                best_low = min(qualified)
                if highs[0] == best_high:
                    share += unit // 2 // highs.count(best_high)
                if lows[0] is not None and lows[0][0] == best_low:
                    share += unit // 2 // qualified.count(best_low)
            elif highs[0] == best_high:
                share = unit // highs.count(best_high)
            out[0, i] += len(seats) * share
            out[1, i] += share
    return out


def _good(game: str, seed: int) -> bytes:
    m = len(hand_classes(naive.GAMES[game].hole))
    return np.packbits(np.random.default_rng(seed).integers(0, 2, m).astype(np.uint8)).tobytes()


CHUNKS = [
    Chunk("holdem", 6, "equity", 5, 0, 4, 40, 7),
    Chunk("holdem", 9, "evolution", 2, 160, 169, 30, 11, _good("holdem", 1)),
    Chunk("omaha", 6, "evolution", 0, 100, 103, 15, 5),
    Chunk("omaha-hilo", 4, "equity", 3, 0, 3, 25, 2),
    Chunk("omaha-hilo", 5, "evolution", 1, 50, 53, 15, 9, _good("omaha-hilo", 2)),
    Chunk("omaha5-hilo", 3, "equity", 2, 7, 9, 20, 4),
]


@pytest.mark.parametrize("chunk", CHUNKS, ids=[c.name + "-" + c.game for c in CHUNKS])
def test_class_trials_match_the_replay(chunk):
    got = run_chunk(chunk)
    assert got.dtype == np.int64 and got.shape == (2, chunk.stop - chunk.start)
    np.testing.assert_array_equal(got, replay(chunk))
    assert got[1].any()  # some hero won something: the replay is not vacuous


def test_the_pot_unit_is_the_kernels():
    assert simulate.UNIT == hand_tables.UNIT == 2 * lcm(*range(1, 11))
