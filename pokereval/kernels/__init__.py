"""Numba kernels: exhaustive enumeration and Monte Carlo over run-outs.

Importing this package imports Numba (slow: about half a second); the public
API imports it only when a spot needs it.  Kernels are compiled once and
cached on disk (``cache=True``), and read the C library's tables, passed in as
the tuple built by :func:`kernel_tables`.

* :mod:`.handeval`   hand values from the tables, the showdown tally
* :mod:`.exact`      exhaustive enumeration (board games, stud)
* :mod:`.montecarlo` sampling (board games, stud)
* :mod:`.rng`        per-chunk random streams

The on-disk cache is cleared automatically when any kernel source changes
(see ``_drop_stale_cache``).
"""
import hashlib
import os
from functools import lru_cache
from math import comb
from pathlib import Path

import numpy as np


def _drop_stale_cache() -> None:
    """Delete cached machine code built from other versions of these sources.

    Numba checks a cached kernel against its own source file only, not against
    the helpers it inlines from the other files here; so the cache is tied to a
    hash of every kernel source and cleared when that changes.
    """
    here = Path(__file__).parent
    cache = here / "__pycache__"
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        cache.mkdir(exist_ok=True)
    except OSError:
        return  # a read-only install: Numba caches elsewhere
    if not os.access(cache, os.W_OK):
        return
    digest = hashlib.sha256()
    for name in sorted(p.name for p in here.glob("*.py")):
        digest.update(name.encode() + b"\0" + (here / name).read_bytes())
    stamp = cache / "kernels.sourcehash"
    try:
        if stamp.read_text() == digest.hexdigest():
            return
    except OSError:
        pass
    try:
        for f in cache.iterdir():
            if f.suffix in (".nbi", ".nbc"):
                f.unlink(missing_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        pass


_drop_stale_cache()

from .exact import board_exact, stud_exact, stud_tables  # noqa: E402
from .handeval import RANK_MULTISETS, eval_batch, prep_holdings  # noqa: E402
from .montecarlo import board_mc, stud_mc  # noqa: E402

__all__ = [
    "RANK_MULTISETS", "binomials", "board_exact", "board_mc", "eval_batch", "game_flags",
    "kernel_tables", "prep_holdings", "stud_exact", "stud_mc", "stud_tables",
]


@lru_cache(maxsize=None)
def kernel_tables() -> tuple:
    """The tuple ``KT`` every kernel takes (see :mod:`.handeval`): views of the C
    library's tables plus two per-card arrays derived from them."""
    from .._native import TABLES as T

    card_w = np.ascontiguousarray(T.rank_weight.astype(np.int64)[np.arange(52) >> 2])
    card_low = np.ascontiguousarray(T.card_lowbit.astype(np.int64))
    return (T.ph_offset, T.hi_rank, T.razz_rank, T.hi_flush, T.low8, T.omaha_low8,
            card_w, card_low)


@lru_cache(maxsize=None)
def binomials() -> np.ndarray:
    """``int64[64, 9]``: ``[n, k]`` = C(n, k)."""
    return np.array([[comb(n, k) for k in range(9)] for n in range(64)], dtype=np.int64)


def game_flags(game) -> tuple:
    """The kernels' game flags ``(omaha, npairs, has_high, has_low, razz)`` for a Game."""
    omaha = 1 if game.exactly_two else 0
    npairs = game.hole * (game.hole - 1) // 2 if omaha else 1
    return (omaha, npairs, 1 if game.high else 0, 1 if game.low else 0,
            1 if game.low == "razz" else 0)
