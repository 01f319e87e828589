"""The kernels' hand-value layer (:mod:`pokereval.kernels.handeval`, through
``eval_batch``: the code the hot loops inline) ranks hands as the naive oracle does,
on every game; the perfect-hash shift is the C library's, named once."""
import re
from pathlib import Path

import numpy as np
import pytest

import naive
from pokereval import _native
from pokereval import kernels as K
from pokereval.games import games, get_game
from pokereval.kernels import handeval

KT = K.kernel_tables()
RNG = np.random.default_rng(20261202)
ROWS = 150


def _dense_ranks(values, better_first):
    """Rank of each value among the distinct values (0 = best)."""
    order = sorted(set(values), reverse=better_first)
    index = {v: i for i, v in enumerate(order)}
    return [index[v] for v in values]


@pytest.mark.parametrize("game", [g.name for g in games()])
def test_kernel_values_rank_hands_as_the_naive_oracle(game):
    g = get_game(game)
    ncards = 7 if g.stud else g.hole + 5
    # half the deals from a low-and-suited pool: wheels, lows, flushes, ties
    pool = np.array([c for c in range(52) if c >> 2 in (12, 0, 1, 2, 3, 4, 5, 8) or c & 3 == 0])
    cards = np.array([RNG.choice(pool if i % 2 else np.arange(52), ncards, replace=False)
                      for i in range(ROWS)], dtype=np.uint8)
    if g.stud:
        holes, boards = cards, np.zeros((ROWS, 0), np.uint8)
    else:
        holes = np.ascontiguousarray(cards[:, :g.hole])
        boards = np.ascontiguousarray(cards[:, g.hole:])
    high, low = K.eval_batch(KT, K.game_flags(g), holes, boards)
    rows = [(h.tolist(), b.tolist()) for h, b in zip(holes, boards)]
    if g.high:
        want = [naive.hand_high(game, h, b)[0] for h, b in rows]
        assert _dense_ranks(high.tolist(), True) == _dense_ranks(want, True)
    else:
        assert not high.any()
    if g.low == "razz":
        want = [naive.hand_razz(h, b)[0] for h, b in rows]
        assert _dense_ranks(low.tolist(), True) == _dense_ranks(want, False)
    elif g.low:
        keys = [naive.hand_low8(game, h, b) for h, b in rows]
        assert [v == 0 for v in low.tolist()] == [k is None for k in keys]
        assert any(k is not None for k in keys) and any(k is None for k in keys)
        qualified = [(v, k[0]) for v, k in zip(low.tolist(), keys) if k is not None]
        assert (_dense_ranks([v for v, _ in qualified], True)
                == _dense_ranks([k for _, k in qualified], False))
    else:
        assert not low.any()


def test_the_perfect_hash_shift_is_the_c_librarys_and_named_once():
    assert handeval.PH_SHIFT is _native.PH_SHIFT == _native.lib.PE_PH_SHIFT
    # index = key + ph_offset[key >> PH_SHIFT] lands inside the value table for real keys
    w = _native.TABLES.rank_weight.astype(np.int64)
    keys = np.array([w[list(r)].sum() for r in RNG.integers(0, 13, (500, 7)) if
                     np.bincount(r, minlength=13).max() <= 4])
    index = keys + _native.TABLES.ph_offset[keys >> _native.PH_SHIFT]
    assert index.min() >= 0 and index.max() < len(_native.TABLES.hi_rank)
    # no kernel spells the shift as a literal
    kernels = Path(K.__file__).parent
    literal = re.compile(r"ph_offset\[[^\]]*>>\s*\d")
    assert not [p.name for p in kernels.glob("*.py") if literal.search(p.read_text())]
