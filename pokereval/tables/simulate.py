"""One chunk of a table's work, run by the per-class Monte Carlo kernel.

The kernel (:func:`pokereval.kernels.hand_tables.class_trials`, where the trial is
described) deals one starting hand of a class against ``players - 1`` random hands
and a board, and sums the hero's share of the pot in integer units of
``1 / UNIT`` of a pot, so chunks add up exactly in any order.  Each class draws
from its own random stream, seeded from ``(seed, stream_base + class)``: a
chunk's result depends only on its classes, round and seed, never on the
process or the order that ran it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..classes import hand_classes
from ..games import get_game

UNIT = 5040  # 2 * lcm(1..10): a pot in integer units (the kernel's hand_tables.UNIT)


@dataclass(frozen=True)
class Chunk:
    """One unit of work: ``trials`` trials for each class in ``[start, stop)``.

    ``kind`` "evolution" (round = pass; ``good`` packs the previous pass's good
    classes as bits, None in pass 0) or "equity" (round = number of opponents).
    """

    game: str
    players: int
    kind: str
    round: int
    start: int
    stop: int
    trials: int
    seed: int
    good: bytes | None = None

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.round}-{self.start}-{self.stop}"


_KIND_CODE = {"evolution": 1, "equity": 2}


@lru_cache(maxsize=4)
def _game_data(hole: int):
    hc = hand_classes(hole)
    return hc.representatives(), hc.keys.astype(np.int64)


def run_chunk(chunk: Chunk) -> np.ndarray:
    """int64 [2, stop - start]: the chunk's winnings and share sums (see
    :func:`pokereval.kernels.hand_tables.class_trials`)."""
    from .. import kernels as K

    game = get_game(chunk.game)
    reps, keys = _game_data(game.hole)
    classes = np.arange(chunk.start, chunk.stop, dtype=np.int64)
    if chunk.good is None:
        good = np.ones(1, np.uint8)
    else:
        good = np.unpackbits(np.frombuffer(chunk.good, np.uint8))[:len(keys)].copy()
    players = chunk.players if chunk.kind == "evolution" else chunk.round + 1
    stream = (_KIND_CODE[chunk.kind] << 40) | (chunk.round << 24)
    G = K.game_flags(game)
    T2, pclass = K.pair_tables(G)
    return K.class_trials(K.kernel_tables(), G, T2, pclass,
                          np.ascontiguousarray(reps[chunk.start:chunk.stop]), classes, keys, good,
                          0 if chunk.good is None else 1, players, chunk.trials, chunk.seed, stream)
