"""Random numbers for the Monte Carlo kernels: xoshiro256** streams.

Each chunk of samples owns its stream, seeded from ``(seed, chunk index)``
through SplitMix64, so a result depends only on the seed and the chunk
layout, never on which thread ran which chunk.
"""
import numpy as np

from ._jit import jit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)


@jit(inline=True)
def splitmix64(x):
    """The SplitMix64 output function of the state ``x`` (uint64)."""
    z = x
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@jit
def seed_stream(seed, stream):
    """A fresh xoshiro256** state (uint64[4]) for ``stream`` of ``seed``."""
    state = np.empty(4, np.uint64)
    seed_into(state, seed, stream)
    return state


@jit(inline=True)
def seed_into(state, seed, stream):
    """Set ``state`` (uint64[4]) to the start of ``stream`` of ``seed``."""
    x = splitmix64(np.uint64(seed) ^ splitmix64(np.uint64(stream) * _GOLDEN + _GOLDEN))
    for i in range(4):
        x += _GOLDEN
        state[i] = splitmix64(x)


@jit(inline=True)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@jit(inline=True)
def xo_next(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in locals: ``(output, s0, s1, s2, s3)``.
    Hot loops keep the state in locals so that it stays in registers (an array
    state is stored and reloaded around every store the loop makes)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@jit(inline=True)
def xo_below(n, s0, s1, s2, s3):
    """A uniform integer in [0, n) for 1 <= n < 2**32 (Lemire, unbiased) from a
    state held in locals: ``(value, s0, s1, s2, s3)``."""
    bound = np.uint64(n)
    r, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
    m = (r >> np.uint64(32)) * bound
    low = m & _MASK32
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            r, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
            m = (r >> np.uint64(32)) * bound
            low = m & _MASK32
    return np.int64(m >> np.uint64(32)), s0, s1, s2, s3


@jit(inline=True)
def next_u64(s):
    """The next xoshiro256** output; advances the state array ``s`` in place."""
    result, s[0], s[1], s[2], s[3] = xo_next(s[0], s[1], s[2], s[3])
    return result


@jit(inline=True)
def below(s, n):
    """A uniform integer in [0, n) for 1 <= n < 2**32; advances the state array ``s``."""
    value, s[0], s[1], s[2], s[3] = xo_below(n, s[0], s[1], s[2], s[3])
    return value
