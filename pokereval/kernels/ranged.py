"""Players given as ranges: the listing of the compatible combinations of holdings (one
holding row per player, no card shared), for the listings too big for Python
(:mod:`pokereval.equity.ranged`).  The combinations are walked exactly in C
(``csrc/board_exact.c``, board games) and sampled in C (``csrc/ranged_mc.c``).
"""
import numpy as np

from ._jit import jit


@jit
def compatible_tuples(pstart, pcount, masks, limit):
    """Every tuple of holding rows (one per player) whose holdings share no card,
    depth-first, as ``int32[T, n]``; stops after ``limit`` + 1 tuples (the
    caller treats more than ``limit`` as too many)."""
    n = pstart.shape[0]
    cap = 1024
    res = np.zeros((cap, n), np.int32)
    count = 0
    idx = np.zeros(n, np.int64)
    used = np.zeros(n + 1, np.uint64)
    p = 0
    idx[0] = -1
    while p >= 0:
        idx[p] += 1
        if idx[p] >= pcount[p]:
            p -= 1
            continue
        h = pstart[p] + idx[p]
        m = masks[h]
        if used[p] & m:
            continue
        if p == n - 1:
            if count == cap:
                cap *= 2
                bigger = np.zeros((cap, n), np.int32)
                bigger[:count] = res[:count]
                res = bigger
            for q in range(n - 1):
                res[count, q] = pstart[q] + idx[q]
            res[count, n - 1] = h
            count += 1
            if count > limit:
                break
            continue
        used[p + 1] = used[p] | m
        p += 1
        idx[p] = -1
    return res[:count].copy()
