"""Monte Carlo sampling of board run-outs (stud: in C, csrc/stud_mc.c).

Samples are grouped in chunks of ``chunk`` samples; chunk ``g`` (global index)
draws from its own xoshiro256** stream seeded from ``(seed, g)`` and holds
samples ``[g * chunk, min((g + 1) * chunk, total))``.  A call runs chunks
``[first_chunk, first_chunk + nchunks)`` in ``prange`` and returns the summed
integer outcome counts, so the answer for a seed does not depend on the
thread count nor on how Python batches the chunks.

Each sample is a partial Fisher-Yates draw from the chunk's own copy of the
cards that can still come.
"""
import numpy as np
from numba import prange

from ._jit import jit
from .exact import sum_chunks
from .handeval import U, board_summary, board_values, tally
from .rng import seed_stream, xo_below


@jit(hot=True)
def _board_chunk(KT, G, H, who, known, d, k, state, nsamples, cache, out, board, hv, lv):
    """``nsamples`` samples into ``out``; ``d``: the chunk's own copy of the deck."""
    n = who.shape[0]
    b0 = known.shape[0]
    for i in range(b0):
        board[i] = known[i]
    nd = d.shape[0]
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]  # in registers (see rng.xo_next)
    for _ in range(nsamples):
        # the shuffle writes the board as it goes (a shared shuffle helper plus a
        # copy loop measured 15% slower)
        for i in range(k):
            r, s0, s1, s2, s3 = xo_below(nd - i, s0, s1, s2, s3)
            j = U(i + r)
            t = d[j]
            d[j] = d[U(i)]
            d[U(i)] = t
            board[U(b0 + i)] = t
        key, low, packed = board_summary(KT, board)
        board_values(KT, G, H, who, n, board, key, low, packed, cache, hv, lv)
        tally(G, n, hv, lv, out, 1)


@jit(parallel=True)
def board_mc(KT, G, H, who, known, deck, k, seed, first_chunk, nchunks, chunk, total, cache):
    """Outcome counts of the board-game samples in chunks ``[first_chunk, first_chunk + nchunks)``."""
    n = who.shape[0]
    out = np.zeros((nchunks, n, n + 1, n + 2), np.int64)
    for ci in prange(nchunks):
        g = first_chunk + ci
        ns = min(chunk, total - g * chunk)
        if ns > 0:
            _board_chunk(KT, G, H, who, known, deck.copy(), k, seed_stream(seed, g), ns, cache,
                         out[ci], np.zeros(5, np.int64), np.zeros(n, np.int64),
                         np.zeros(n, np.int64))
    return sum_chunks(out)
