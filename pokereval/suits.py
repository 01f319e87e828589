"""Suit symmetry of an exact range spot.

Renaming the suits (a permutation of clubs, diamonds, hearts, spades) changes no
hand's value.  When a renaming maps the board, the dead cards and every player's
range (holdings and their weights) onto themselves, a combination of holdings and
its renamed image have the same outcome counts over all run-outs.  Exact
enumeration then walks one combination of each class and counts it as many times
as the class has members: ``AKs`` vs ``QQ`` preflop is 2 classes of 12, not 24
combinations.  The counts are exactly those of walking every combination.

The one suit-isomorphism key of holdings lives here too (:func:`class_keys`, and
:func:`is_symmetric` for a whole range): :mod:`pokereval.analysis.range_equities`
merges holdings with it.
"""
from __future__ import annotations

from itertools import permutations

import numpy as np

#: The 23 renamings other than the identity, as suit -> suit maps.
_RENAMINGS = [np.array(p, dtype=np.int64) for p in permutations(range(4))][1:]


def _renamed(cards: np.ndarray, perm: np.ndarray) -> np.ndarray:
    cards = cards.astype(np.int64)
    return (cards & ~3) | perm[cards & 3]


def _row_keys(rows: np.ndarray) -> np.ndarray:
    """One int64 per holding (its cards sorted, base 52): equal keys, same cards."""
    keys = np.zeros(len(rows), dtype=np.int64)
    for col in np.sort(rows.astype(np.int64), axis=1).T:
        keys = keys * 52 + col
    return keys


def _row_map(rows: np.ndarray, weights, perm: np.ndarray):
    """Row index of each holding's renamed image in the same block (same weight), or
    None when some image is not in the block or has another weight."""
    keys = _row_keys(rows)
    order = np.argsort(keys, kind="stable")
    images = _row_keys(_renamed(rows, perm))
    pos = np.searchsorted(keys, images, sorter=order)
    pos = np.minimum(pos, len(keys) - 1)
    idx = order[pos]
    if not np.array_equal(keys[idx], images):
        return None
    if weights is not None and not np.array_equal(weights[idx], weights):
        return None
    return idx


def class_keys(rows: np.ndarray) -> np.ndarray:
    """The suit-isomorphic class key of each holding row: the least row key of its 24
    renamings (identity included), so two holdings share a key exactly when a renaming
    of the suits maps one onto the other."""
    keys = _row_keys(rows)
    for perm in _RENAMINGS:
        keys = np.minimum(keys, _row_keys(_renamed(rows, perm)))
    return keys


def is_symmetric(rows: np.ndarray, weights) -> bool:
    """True when every renaming of the suits maps the holdings ``rows`` (unique rows, as
    a :class:`~pokereval.ranges.Range` holds them) onto themselves, each image with the
    holding's weight; False for no holdings."""
    rows = np.asarray(rows)
    if not len(rows):
        return False
    weights = np.asarray(weights)
    return all(_row_map(rows, weights, perm) is not None for perm in _RENAMINGS)


def symmetries(blocks: list[np.ndarray], weights: list, fixed: list[int]) -> list[list[np.ndarray]]:
    """The renamings that keep ``fixed`` (board and dead cards) and every player's block
    of holdings (with its weights, None: all equal) in place, each as per-player maps
    from a holding's row to its image's row."""
    fixed_arr = np.array(sorted(fixed), dtype=np.int64)
    found = []
    for perm in _RENAMINGS:
        if len(fixed_arr) and not np.array_equal(np.sort(_renamed(fixed_arr, perm)), fixed_arr):
            continue
        maps = []
        for rows, w in zip(blocks, weights):
            m = _row_map(rows, w, perm)
            if m is None:
                break
            maps.append(m)
        else:
            found.append(maps)
    return found


def classes(local: np.ndarray, maps: list[list[np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """``(first member of each class, class sizes)``: the combinations ``local``
    (int64[T, n], each player's row in his block) grouped by their least image under
    the renamings ``maps`` (lexicographic), classes in the order of that image."""
    canon = local.copy()
    rows = np.arange(len(local))
    for per_player in maps:
        image = np.stack([m[local[:, p]] for p, m in enumerate(per_player)], axis=1)
        differ = image != canon
        first = differ.argmax(axis=1)
        smaller = differ.any(axis=1) & (image[rows, first] < canon[rows, first])
        canon[smaller] = image[smaller]
    _, first_member, sizes = np.unique(canon, axis=0, return_index=True, return_counts=True)
    return first_member, sizes
