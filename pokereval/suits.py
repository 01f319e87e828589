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


def _keeps(perm: np.ndarray, held: np.ndarray) -> bool:
    """Whether renaming ``perm`` maps the card set ``held`` (sorted int64) onto itself."""
    return np.array_equal(np.sort(_renamed(held, perm)), held)


def _row_keys(rows: np.ndarray) -> np.ndarray:
    """One int64 per holding (its cards sorted, base 52): equal keys, same cards."""
    keys = np.zeros(len(rows), dtype=np.int64)
    for col in np.sort(rows.astype(np.int64), axis=1).T:
        keys = keys * 52 + col
    return keys


def _row_index(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(row keys, their sorting order)`` of a block of holdings, for :func:`_row_map`."""
    keys = _row_keys(rows)
    return keys, np.argsort(keys, kind="stable")


def _row_map(rows: np.ndarray, weights, perm: np.ndarray, index=None):
    """Row index of each holding's renamed image in the same block (same weight), or
    None when some image is not in the block or has another weight (``index``: the
    block's :func:`_row_index`, when known)."""
    keys, order = index if index is not None else _row_index(rows)
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
    index = _row_index(rows)
    return all(_row_map(rows, weights, perm, index) is not None for perm in _RENAMINGS)


def symmetries(blocks: list[np.ndarray], weights: list, fixed: list[int]) -> list[list[np.ndarray]]:
    """The renamings that keep ``fixed`` (board and dead cards) and every player's block
    of holdings (with its weights, None: all equal) in place, each as per-player maps
    from a holding's row to its image's row."""
    fixed_arr = np.array(sorted(fixed), dtype=np.int64)
    indexes = [_row_index(rows) for rows in blocks]
    found = []
    for perm in _RENAMINGS:
        if len(fixed_arr) and not _keeps(perm, fixed_arr):
            continue
        maps = []
        for rows, w, index in zip(blocks, weights, indexes):
            m = _row_map(rows, w, perm, index)
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


def renamings_keeping(hands: list) -> list[np.ndarray]:
    """The renamings (identity excluded) that map every player's hand onto itself:
    ``hands`` as :func:`pokereval.equity.spot.read_hands` reads them, ``(cards, None)``
    (the cards as a set) or ``(None, range)`` (its holdings with their weights)."""
    found = []
    for perm in _RENAMINGS:
        for cards, rng in hands:
            if cards is not None:
                held = np.sort(np.array(cards, dtype=np.int64))
                if not _keeps(perm, held):
                    break
            elif rng.share < 1.0 or len(np.unique(rng.weights)) > 1:  # every holding alike: kept
                if _row_map(rng.holdings, rng.weights, perm) is None:
                    break
        else:
            found.append(perm)
    return found


def _set_masks(rows: np.ndarray) -> np.ndarray:
    """uint64 per row: bit c set when card c is in it."""
    if rows.shape[1] == 0:
        return np.zeros(len(rows), dtype=np.uint64)
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), rows.astype(np.uint64)), axis=1)


def board_classes(listed: list, renamings: list[np.ndarray]) -> list[tuple]:
    """``listed`` (``(board, dead, weight)`` choices, every board of one size, every
    dead set of one size) merged by suit renaming: two choices of the same weight that
    one of ``renamings`` maps onto each other are in one class.
    ``[(board, dead, weight, class size)]``: each class's first member as listed,
    classes in listing order.

    With renamings that keep every hand (:func:`renamings_keeping`), the members of a
    class have the same outcome counts, so walking one and counting it ``class size``
    times gives exactly the counts of walking all of them."""
    boards = np.array([b for b, _, _ in listed], dtype=np.int64).reshape(len(listed), -1)
    deads = np.array([d for _, d, _ in listed], dtype=np.int64).reshape(len(listed), -1)
    least_b, least_d = _set_masks(boards), _set_masks(deads)
    for perm in renamings:  # the least image of each choice names its class
        img_b, img_d = _set_masks(_renamed(boards, perm)), _set_masks(_renamed(deads, perm))
        smaller = (img_b < least_b) | ((img_b == least_b) & (img_d < least_d))
        least_b[smaller], least_d[smaller] = img_b[smaller], img_d[smaller]
    out: dict[tuple, list] = {}
    for b, d, (board, dead, w) in zip(least_b.tolist(), least_d.tolist(), listed):
        if (b, d, w) in out:
            out[b, d, w][3] += 1
        else:
            out[b, d, w] = [board, dead, w, 1]
    return [tuple(v) for v in out.values()]


def renamings_fixing(renamings: list[np.ndarray], cards) -> int:
    """How many of ``renamings`` map the set ``cards`` onto itself."""
    held = np.sort(np.array(list(cards), dtype=np.int64))
    return sum(_keeps(perm, held) for perm in renamings)
