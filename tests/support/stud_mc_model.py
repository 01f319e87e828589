"""A plain Python model of the fixed-hand stud Monte Carlo sampler (``csrc/stud_mc.c``):
the same streams, bounded draws and partial Fisher-Yates steps, the values from the C
batch evaluator and the NumPy tally, so that a test can check the sampler's counts bit
for bit on a few hundred samples (its dealing and its evaluation both)."""
from __future__ import annotations

import numpy as np

from pokereval.equity.spot import Spot
from pokereval.equity.tally import tally_outcomes
from pokereval.evaluate import evaluate_batch
from streams import Stream

M32 = (1 << 32) - 1
#: Bounded draws per 32 random bits.
GROUP = 3


def draws(rng: Stream, u: int, need: int, stats: dict | None = None) -> list[int]:
    """One sample's offsets ``q[i]`` in ``[0, u - i)``: groups of GROUP draws, two groups per
    64-bit output (low half first), each the mixed-radix digits of ``x * P >> 32`` for its
    32 bits ``x`` and product of bounds ``P``, drawn again from the low half of a fresh
    output while ``x * P mod 2**32 < 2**32 mod P`` (counted in ``stats["redraws"]``)."""
    groups = [range(lo, min(lo + GROUP, need)) for lo in range(0, need, GROUP)]
    q = [0] * need
    for k, group in enumerate(groups):
        if k % 2 == 0:
            x = rng.next()
        half = x & M32 if k % 2 == 0 else x >> 32
        product = 1
        for i in group:
            product *= u - i
        while True:
            r = half
            for i in group:
                m = r * (u - i)
                q[i], r = m >> 32, m & M32
            if r >= (1 << 32) % product:
                break
            half = rng.next() & M32
            if stats is not None:
                stats["redraws"] = stats.get("redraws", 0) + 1
    return q


def model_counts(spot: Spot, seed: int, first: int, nchunks: int, chunk: int,
                 total: int, stats: dict | None = None) -> np.ndarray:
    """Outcome counts of the sampler's chunks ``[first, first + nchunks)``."""
    n, mo, shared, u = spot.n, spot.mo, int(spot.shared), len(spot.unseen)
    need = n * mo + shared
    hands: list[list[list[int]]] = [[] for _ in range(n)]
    for g in range(first, first + nchunks):
        rng = Stream(seed, g)
        d = list(spot.unseen)  # the chunk's running permutation
        for _ in range(max(0, min(chunk, total - g * chunk))):
            for i, qi in enumerate(draws(rng, u, need, stats)):
                j = i + qi
                d[i], d[j] = d[j], d[i]
            for p in range(n):
                hands[p].append(list(spot.holes[p]) + d[p * mo:(p + 1) * mo] + d[n * mo:need])
    values = [evaluate_batch(spot.game, np.array(h, np.uint8).reshape(-1, 7)) for h in hands]
    hv = np.stack([v[0] for v in values]).astype(np.int64)
    lv = np.stack([v[1] for v in values]).astype(np.int64)
    return tally_outcomes(spot.game, hv, lv)
