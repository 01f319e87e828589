"""Starting-hand classes under suit isomorphism.

Two holdings are in one class when a renaming of the suits turns one into the
other (``AsKs`` and ``AhKh``).  A holding's class is read off its four suit
masks (the 13-bit rank mask of its cards of each suit): renaming suits only
permutes them, so the masks sorted in descending order, packed into one
integer, are the class key.  Classes are numbered in ascending key order.

=============  ==========  ==========
hole cards     classes     combos
=============  ==========  ==========
2 (hold'em)    169         1,326
4 (omaha)      16,432      270,725
5 (5-card)     134,459     2,598,960
=============  ==========  ==========

>>> hc = hand_classes(2)
>>> len(hc), hc.total
(169, 1326)
>>> hc.text(hc.class_of("AsKs")), int(hc.combos[hc.class_of("AsKs")])
('AKs', 4)
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .cards import RANKS, parse_cards
from .errors import CardError, HandError

__all__ = ["HandClasses", "hand_classes", "class_keys", "combinations"]

_SHIFT = np.array([39, 26, 13, 0], dtype=np.uint64)  # descending masks -> key


@lru_cache(maxsize=8)
def combinations(k: int) -> np.ndarray:
    """uint8 [C(52, k), k]: every k-card holding, cards ascending, in lexicographic order."""
    rows = np.arange(52 - k + 1, dtype=np.uint8)[:, None]
    for j in range(1, k):
        last = rows[:, -1].astype(np.int64)
        counts = (52 - k + j) - last  # the next card runs from last + 1 to 52 - k + j
        starts = np.cumsum(counts) - counts
        nxt = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(starts - last - 1, counts)
        rows = np.concatenate([np.repeat(rows, counts, axis=0), nxt.astype(np.uint8)[:, None]],
                              axis=1)
    rows.setflags(write=False)
    return rows


_CARD_SLOT = np.uint64(1) << ((np.arange(52) >> 2) + 16 * (np.arange(52) & 3)).astype(np.uint64)


def class_keys(holdings: np.ndarray) -> np.ndarray:
    """uint64 class key of each row of ``holdings`` (uint8 [n, k] distinct card indices)."""
    holdings = np.asarray(holdings)
    # every card sets its rank bit in its suit's 16-bit field; distinct cards never carry
    packed = _CARD_SLOT[holdings].sum(axis=1, dtype=np.uint64)
    m = [(packed >> np.uint64(16 * s)) & np.uint64(0x1FFF) for s in range(4)]
    # sorting network: m[0] >= m[1] >= m[2] >= m[3]
    for a, b in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):
        m[a], m[b] = np.maximum(m[a], m[b]), np.minimum(m[a], m[b])
    return (m[0] << _SHIFT[0]) | (m[1] << _SHIFT[1]) | (m[2] << _SHIFT[2]) | m[3]


@dataclass(frozen=True, eq=False)
class HandClasses:
    """The classes of ``hole``-card holdings.

    ``keys``: uint64 [m] class keys, ascending (class ``i`` has key ``keys[i]``);
    ``combos``: int64 [m] holdings per class; ``class_of_combo``: the class of each
    row of :func:`combinations` (``hole``); ``total``: C(52, hole).
    """

    hole: int
    keys: np.ndarray
    combos: np.ndarray
    class_of_combo: np.ndarray

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def total(self) -> int:
        return int(self.combos.sum())

    def classes_of(self, holdings: np.ndarray) -> np.ndarray:
        """int64 class index of each row of ``holdings`` (uint8 [n, hole])."""
        return np.searchsorted(self.keys, class_keys(holdings)).astype(np.int64)

    def class_of(self, hand: str) -> int:
        """The class of one hand: exact cards (``"AsKs"``), or one class written in PPT
        notation (``"(AK)"``, ``"(AK)K7"``; hold'em also ``"AKs"``, ``"AKo"``, ``"QQ"``).

        >>> hc = hand_classes(2)
        >>> hc.class_of("AKs") == hc.class_of("AhKh") == hc.class_of("(AK)")
        True
        >>> hand_classes(4).class_of("AA**")
        Traceback (most recent call last):
        ...
        pokereval.errors.HandError: 'AA**' is not one hand: give exact cards (e.g. AhAd2c3s) or one hand class in PPT notation (e.g. (AK)(AK)); a range has no single place in the ordering ('pokereval range' shows what it holds)
        """
        try:
            cards = parse_cards(hand)
        except CardError:
            return self._class_from_text(hand)
        if len(cards) != self.hole or len(set(cards)) != len(cards):
            raise HandError(f"hand {hand!r} must be {self.hole} distinct cards")
        return int(self.classes_of(np.array([cards], dtype=np.uint8))[0])

    def _class_from_text(self, hand: str) -> int:
        text = hand.strip()
        two_ranks = re.fullmatch(r"([2-9TJQKA])([2-9TJQKA])", text, flags=re.I)
        if self.hole == 2 and two_ranks:  # AK: in hold'em players mean both classes
            hi, lo = two_ranks.group(1).upper(), two_ranks.group(2).upper()
            if hi != lo:
                raise HandError(f"{hand!r} is two hold'em classes: {hi}{lo}s (suited) or "
                                f"{hi}{lo}o (offsuit)")
        try:
            return self.parse_text(text)
        except HandError:
            example = {2: ("AhKh", "AKs"), 4: ("AhAd2c3s", "(AK)(AK)")}.get(
                self.hole, ("AhAd2c3s4h", "(AK)(AK)Q"))
            raise HandError(f"{hand!r} is not one hand: give exact cards (e.g. {example[0]}) or "
                            f"one hand class in PPT notation (e.g. {example[1]}); a range has no "
                            "single place in the ordering ('pokereval range' shows what it "
                            "holds)") from None

    def holdings(self, classes: np.ndarray) -> np.ndarray:
        """uint8 [n, hole]: every holding of the given classes, in combination order."""
        want = np.zeros(len(self), dtype=bool)
        want[np.asarray(classes, dtype=np.int64)] = True
        return combinations(self.hole)[want[self.class_of_combo]]

    def representatives(self) -> np.ndarray:
        """uint8 [m, hole]: one holding of each class (its first in combination order)."""
        first = np.full(len(self), -1, dtype=np.int64)
        idx = np.arange(len(self.class_of_combo))[::-1]
        first[self.class_of_combo[::-1]] = idx  # the last write (smallest index) wins
        return np.ascontiguousarray(combinations(self.hole)[first])

    def text(self, index: int) -> str:
        """PPT notation of a class: cards of one suit in parentheses, ranks high first
        (``(AK)K7``: ace and king suited, the other king and the seven of two other suits);
        hold'em classes as players write them: ``AA``, ``AKs``, ``AKo``."""
        key = int(self.keys[index])
        masks = [(key >> int(s)) & 0x1FFF for s in _SHIFT]
        groups = [[r for r in range(12, -1, -1) if m >> r & 1] for m in masks if m]
        suited = sorted((g for g in groups if len(g) > 1), key=lambda g: (-len(g), [-r for r in g]))
        single = sorted((g[0] for g in groups if len(g) == 1), reverse=True)
        if self.hole == 2:
            if suited:
                return "".join(RANKS[r] for r in suited[0]) + "s"
            return "".join(RANKS[r] for r in single) + ("" if single[0] == single[1] else "o")
        out = "".join("(" + "".join(RANKS[r] for r in g) + ")" for g in suited)
        return out + "".join(RANKS[r] for r in single)

    def parse_text(self, text: str) -> int:
        """The class written in PPT notation (each parenthesised group is one suit,
        every other card a suit of its own; hold'em's ``AKs`` / ``AKo`` too)."""
        shorthand = re.fullmatch(r"([2-9TJQKA])([2-9TJQKA])([SO])", text.strip().upper())
        if self.hole == 2 and shorthand and shorthand.group(1) != shorthand.group(2):
            hi, lo, kind = shorthand.groups()
            text = f"({hi}{lo})" if kind == "S" else hi + lo
        groups = re.findall(r"\(([2-9TJQKA]+)\)|([2-9TJQKA])", text.strip().upper())
        if "".join(a or b for a, b in groups) != re.sub(r"[()]", "", text.strip().upper()):
            raise HandError(f"cannot read hand class {text!r}")
        cards = []
        for suit, (group, lone) in enumerate(groups):
            for r in group or lone:
                cards.append(4 * RANKS.index(r) + suit)
        if (len(groups) > 4 or len(cards) != self.hole or len(set(cards)) != len(cards)):
            raise HandError(f"hand class {text!r} is not {self.hole} cards in at most four suits")
        return int(self.classes_of(np.array([cards], dtype=np.uint8))[0])


def _cache_file(hole: int) -> Path:
    root = os.environ.get("POKEREVAL_CACHE_DIR") or Path.home() / ".cache" / "pokereval"
    return Path(root) / f"classes-{hole}-v1.npz"


def _build(hole: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(keys, combos, class_of_combo), from the on-disk cache when it is there (a cold
    omaha build spends ~50 ms sorting 270,725 keys; reading the cache takes ~1 ms)."""
    path = _cache_file(hole)
    try:
        with np.load(path, allow_pickle=False) as z:
            keys, counts, inverse = z["keys"], z["combos"], z["class_of_combo"]
        if len(inverse) == len(combinations(hole)) and counts.sum() == len(inverse):
            return keys, counts, inverse
    except (OSError, ValueError, KeyError):
        pass
    keys, inverse, counts = np.unique(class_keys(combinations(hole)), return_inverse=True,
                                      return_counts=True)
    dtype = np.uint16 if len(keys) < 65536 else np.uint32
    inverse = inverse.astype(dtype).ravel()
    counts = counts.astype(np.int64)
    try:  # best effort: a read-only home just rebuilds next time
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, keys=keys, combos=counts, class_of_combo=inverse)
        os.replace(tmp, path)
    except OSError:
        pass
    return keys, counts, inverse


@lru_cache(maxsize=4)
def hand_classes(hole: int) -> HandClasses:
    """The classes of ``hole``-card holdings (2, 4 or 5), built once per process."""
    if hole not in (2, 3, 4, 5):
        raise HandError(f"no starting-hand classes for {hole} hole cards")
    hc = HandClasses(hole, *_build(hole))
    for a in (hc.keys, hc.combos, hc.class_of_combo):
        a.setflags(write=False)
    return hc
