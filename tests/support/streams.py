"""The random streams of the samplers in plain Python (:mod:`pokereval.kernels.rng`,
``csrc/xoshiro.h``): xoshiro256** seeded per stream through SplitMix64, and Lemire's
bounded draw, for the tests that replay a sampler."""
M64 = (1 << 64) - 1
GOLDEN, M1, M2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _splitmix64(z):
    z = ((z ^ (z >> 30)) * M1) & M64
    z = ((z ^ (z >> 27)) * M2) & M64
    return z ^ (z >> 31)


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Stream:
    """Stream ``stream`` of ``seed``: ``next()`` the next 64-bit output."""

    def __init__(self, seed, stream):
        x = _splitmix64(seed ^ _splitmix64((stream * GOLDEN + GOLDEN) & M64))
        self.s = []
        for _ in range(4):
            x = (x + GOLDEN) & M64
            self.s.append(_splitmix64(x))

    def next(self):
        s0, s1, s2, s3 = self.s
        result = (_rotl((s1 * 5) & M64, 7) * 9) & M64
        t = (s1 << 17) & M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self.s = [s0, s1, s2, _rotl(s3, 45)]
        return result

    def below(self, n):
        """A uniform integer in [0, n) from the high half of outputs (Lemire)."""
        m = (self.next() >> 32) * n
        if (m & 0xFFFFFFFF) < n:
            threshold = ((1 << 32) - n) % n
            while (m & 0xFFFFFFFF) < threshold:
                m = (self.next() >> 32) * n
        return m >> 32
